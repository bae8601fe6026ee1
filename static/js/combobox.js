// Card boxes with live suggestions (htmx fills the list under the box): picked with the mouse or the keyboard,
// and Enter in such a box never submits the form around it (a round form's first button opens the round).
//
// <input data-combobox="#list" [data-combobox-enter="first|submit"]>
//   ArrowDown / ArrowUp move the highlight (aria-activedescendant; the focus stays in the box), Escape closes.
//   Enter picks the highlighted option, else the one named exactly as typed; with "first", else the first card
//   whose name contains the text (never a "did you mean" guess); with "submit" (a search box), Enter with
//   nothing highlighted submits the search as usual. Otherwise Enter without a pick does nothing.
//   A pick empties the list and dispatches "phm:pick" on the box, detail {name, url}: the page decides the rest.
(function () {
  "use strict";
  var serial = 0;

  function boxes() { return Array.prototype.slice.call(document.querySelectorAll("input[data-combobox]")); }
  function listOf(box) { return document.querySelector(box.dataset.combobox); }
  function options(box) {
    var list = listOf(box);
    return list ? Array.prototype.slice.call(list.querySelectorAll("[data-card-name]")) : [];
  }
  function boxOfList(element) {
    return boxes().filter(function (box) { var list = listOf(box); return list && list.contains(element); })[0];
  }
  function highlighted(box) {
    return options(box).filter(function (option) { return option.classList.contains("active"); })[0];
  }

  function highlight(box, option) {
    options(box).forEach(function (other) {
      other.classList.remove("active");
      other.setAttribute("aria-selected", "false");
    });
    if (!option) { box.removeAttribute("aria-activedescendant"); return; }
    if (!option.id) option.id = "phm-option-" + (++serial);
    option.classList.add("active");
    option.setAttribute("aria-selected", "true");
    box.setAttribute("aria-activedescendant", option.id);
    option.scrollIntoView({ block: "nearest" });
  }

  function close(box) {
    var list = listOf(box);
    if (list) list.innerHTML = "";
    box.setAttribute("aria-expanded", "false");
    box.removeAttribute("aria-activedescendant");
  }

  function pick(box, option) {
    var detail = { name: option.getAttribute("data-card-name"), url: option.getAttribute("data-card-url") };
    close(box);
    box.dispatchEvent(new CustomEvent("phm:pick", { bubbles: true, detail: detail }));
  }

  function choiceOnEnter(box) {
    var choices = options(box);
    var typed = box.value.trim().toLowerCase();
    var chosen = highlighted(box) || choices.filter(function (option) {
      return option.getAttribute("data-card-name").toLowerCase() === typed;
    })[0];
    if (!chosen && box.dataset.comboboxEnter === "first") {
      chosen = choices.filter(function (option) { return !option.hasAttribute("data-suggestion"); })[0];
    }
    return chosen;
  }

  document.addEventListener("keydown", function (event) {
    var box = event.target.closest && event.target.closest("input[data-combobox]");
    if (!box || event.isComposing) return;
    var choices = options(box);
    var at = choices.indexOf(highlighted(box));
    if (event.key === "ArrowDown" && choices.length) {
      event.preventDefault();
      highlight(box, choices[Math.min(at + 1, choices.length - 1)]);
    } else if (event.key === "ArrowUp" && at >= 0) {
      event.preventDefault();
      highlight(box, at > 0 ? choices[at - 1] : null);
    } else if (event.key === "Escape" && choices.length) {
      event.preventDefault();
      close(box);
    } else if (event.key === "Enter") {
      var chosen = choiceOnEnter(box);
      if (chosen) {
        event.preventDefault();
        pick(box, chosen);
      } else if (box.dataset.comboboxEnter !== "submit") {
        event.preventDefault(); // a half-typed card name is never a reason to submit the form
      }
    }
  });

  document.addEventListener("click", function (event) {
    var option = event.target.closest("[data-card-name]");
    var box = option && boxOfList(option);
    if (box) {
      event.preventDefault();
      pick(box, option);
      return;
    }
    boxes().forEach(function (other) {
      var list = listOf(other);
      if (other !== event.target && list && !list.contains(event.target)) close(other);
    });
  });

  document.addEventListener("focusout", function (event) {
    var box = event.target.closest && event.target.closest("input[data-combobox]");
    if (!box) return;
    setTimeout(function () {
      var active = document.activeElement, list = listOf(box);
      if (active !== box && !(list && list.contains(active))) close(box);
    }, 150);
  });

  document.body.addEventListener("htmx:afterSwap", function (event) {
    var box = boxes().filter(function (candidate) { return listOf(candidate) === event.target; })[0];
    if (!box) return;
    // A list that arrives after the person moved on would cover the next field: drop it.
    if (document.activeElement !== box) { close(box); return; }
    box.removeAttribute("aria-activedescendant");
    box.setAttribute("aria-expanded", options(box).length ? "true" : "false");
  });
})();
