// Archive import: a suggestion button puts its card name in place of the unknown one, on the line it was read from.
document.addEventListener("click", function (event) {
  "use strict";
  var button = event.target.closest(".phm-use-suggestion");
  if (!button) return;
  var area = document.querySelector("#id_hands_text");
  var lines = area.value.split("\n");
  var index = parseInt(button.dataset.line, 10) - 1;
  if (index < 0 || index >= lines.length || lines[index].indexOf(button.dataset.typed) < 0) return;
  lines[index] = lines[index].replace(button.dataset.typed, button.dataset.name);
  area.value = lines.join("\n");
  button.closest("li").classList.add("text-decoration-line-through", "opacity-50");
  area.focus();
});
