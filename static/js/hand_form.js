// The hand form: pick a suggestion (autocomplete or "did you mean") with one click or the keyboard. Picking fills
// the card field and fires `change`, which makes htmx re-check that card under the round's rules.
(function () {
  "use strict";
  var form = document.getElementById("hand-form");
  if (!form) return;

  function fieldOf(el) { return el.closest(".phm-card-field"); }
  function inputOf(field) { return field.querySelector("input[name^='card_']"); }
  function listOf(field) { return field.querySelector(".phm-suggestions"); }
  function options(field) { return Array.prototype.slice.call(listOf(field).querySelectorAll("[data-card-name]")); }

  function close(field) {
    var list = listOf(field);
    list.innerHTML = "";
    inputOf(field).setAttribute("aria-expanded", "false");
  }

  function pick(field, name) {
    var input = inputOf(field);
    input.value = name;
    close(field);
    input.dispatchEvent(new Event("change", { bubbles: true }));
    var fields = Array.prototype.slice.call(form.querySelectorAll(".phm-card-field"));
    var next = fields[fields.indexOf(field) + 1];
    (next ? inputOf(next) : form.querySelector("input[name='name']")).focus();
  }

  form.addEventListener("click", function (event) {
    var option = event.target.closest("[data-card-name]");
    if (!option || !fieldOf(option)) return;
    event.preventDefault();
    pick(fieldOf(option), option.getAttribute("data-card-name"));
  });

  form.addEventListener("keydown", function (event) {
    var field = fieldOf(event.target);
    if (!field) return;
    var choices = options(field);
    var at = choices.indexOf(document.activeElement);
    if (event.key === "ArrowDown" && choices.length) {
      event.preventDefault();
      choices[Math.min(at + 1, choices.length - 1)].focus();
    } else if (event.key === "ArrowUp" && at >= 0) {
      event.preventDefault();
      if (at === 0) inputOf(field).focus(); else choices[at - 1].focus();
    } else if (event.key === "Escape") {
      close(field);
      inputOf(field).focus();
    } else if (event.key === "Enter" && event.target === inputOf(field) && choices.length) {
      // Enter in a card field takes the first suggestion instead of submitting a half-typed hand.
      event.preventDefault();
      pick(field, choices[0].getAttribute("data-card-name"));
    }
  });

  document.body.addEventListener("htmx:afterSwap", function (event) {
    var field = fieldOf(event.target);
    if (field && event.target === listOf(field)) {
      // A list that arrives after the player moved on would cover the next field: drop it.
      if (!field.contains(document.activeElement)) { close(field); return; }
      inputOf(field).setAttribute("aria-expanded", options(field).length ? "true" : "false");
    }
  });

  form.addEventListener("focusout", function (event) {
    var field = fieldOf(event.target);
    if (!field) return;
    setTimeout(function () { if (!field.contains(document.activeElement)) close(field); }, 150);
  });

  document.addEventListener("click", function (event) {
    if (event.target.closest(".phm-suggestions")) return;
    form.querySelectorAll(".phm-card-field").forEach(function (field) {
      if (!field.contains(event.target)) close(field);
    });
  });
})();
