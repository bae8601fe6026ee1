// The round form (moderators).
(function () {
  "use strict";
  // The specified hands only matter with backbuild on.
  var toggle = document.querySelector("#id_backbuild");
  var hands = document.querySelector("#div_id_backbuild_hands");
  if (toggle && hands) {
    var sync = function () { hands.hidden = !toggle.checked && !document.querySelector("#id_backbuild_hands").value; };
    toggle.addEventListener("change", sync);
    sync();
  }

  // Picking a suggestion (combobox.js: a click, or the arrows and Enter) adds the card to the extra bans, one
  // per line, and empties the box for the next one.
  var search = document.querySelector("#ban-search");
  if (search) {
    search.addEventListener("phm:pick", function (event) {
      var box = document.querySelector("#id_extra_banned");
      var names = box.value.split("\n").map(function (s) { return s.trim(); }).filter(Boolean);
      if (names.indexOf(event.detail.name) === -1) names.push(event.detail.name);
      box.value = names.join("\n");
      search.value = "";
      search.focus();
    });
  }
})();
