// Card search: picking a suggestion (combobox.js: click, arrows and Enter) opens that card's page; Enter with
// nothing highlighted searches.
(function () {
  "use strict";
  var box = document.getElementById("card-query");
  if (!box) return;
  box.addEventListener("phm:pick", function (event) {
    if (event.detail.url) window.location.href = event.detail.url;
  });
})();
