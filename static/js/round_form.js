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

  // A click on a suggestion adds the card to the extra bans, one per line.
  document.addEventListener("click", function (event) {
    var item = event.target.closest("#ban-suggestions [data-card-name]");
    if (!item) return;
    event.preventDefault();
    var box = document.querySelector("#id_extra_banned");
    var names = box.value.split("\n").map(function (s) { return s.trim(); }).filter(Boolean);
    if (names.indexOf(item.dataset.cardName) === -1) names.push(item.dataset.cardName);
    box.value = names.join("\n");
    document.querySelector("#ban-suggestions").innerHTML = "";
    var search = document.querySelector("#ban-search");
    search.value = "";
    search.focus();
  });
})();
