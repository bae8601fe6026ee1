// Card search: picking a suggestion opens that card's page.
(function () {
  "use strict";
  var suggestions = document.getElementById("card-suggestions");
  if (!suggestions) return;
  suggestions.addEventListener("click", function (event) {
    var option = event.target.closest("[data-card-url]");
    if (option) window.location.href = option.dataset.cardUrl;
  });
})();
