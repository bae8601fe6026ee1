// The hand form: picking a suggestion under a card box (combobox.js: click, arrows and Enter) or a "did you
// mean" under its verdict fills that card field and fires `change`, which makes htmx re-check that card under
// the round's rules; the focus moves on to the next field.
(function () {
  "use strict";
  var form = document.getElementById("hand-form");
  if (!form) return;

  function fieldOf(el) { return el.closest(".phm-card-field"); }
  function inputOf(field) { return field.querySelector("input[name^='card_']"); }

  function fill(field, name) {
    var input = inputOf(field);
    input.value = name;
    input.dispatchEvent(new Event("change", { bubbles: true }));
    var fields = Array.prototype.slice.call(form.querySelectorAll(".phm-card-field"));
    var next = fields[fields.indexOf(field) + 1];
    (next ? inputOf(next) : form.querySelector("input[name='name']")).focus();
  }

  form.addEventListener("phm:pick", function (event) {
    var field = fieldOf(event.target);
    if (field) fill(field, event.detail.name);
  });

  // The verdict's "did you mean" buttons (the suggestion list is combobox.js's).
  form.addEventListener("click", function (event) {
    var option = event.target.closest("[data-card-name]");
    if (!option || option.closest(".phm-suggestions") || !fieldOf(option)) return;
    event.preventDefault();
    fill(fieldOf(option), option.getAttribute("data-card-name"));
  });
})();
