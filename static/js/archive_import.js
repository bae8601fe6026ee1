// Archive import: a suggestion button puts its card name in place of the unknown one in the post, on the line it
// was read from (anywhere in the post when the line is not known), then reads the post again.
document.addEventListener("click", function (event) {
  "use strict";
  var button = event.target.closest(".phm-use-suggestion");
  if (!button) return;
  var area = document.querySelector("#id_post");
  if (!area) return;
  var typed = button.dataset.typed;
  var lines = area.value.split("\n");
  var index = parseInt(button.dataset.line, 10) - 1;
  if (!(index >= 0 && index < lines.length && lines[index].indexOf(typed) >= 0)) {
    index = lines.findIndex(function (line) { return line.indexOf(typed) >= 0; });
  }
  if (index < 0) return;
  lines[index] = lines[index].replace(typed, button.dataset.name);
  area.value = lines.join("\n");
  button.closest("li").classList.add("text-decoration-line-through", "opacity-50");
  var again = document.querySelector('#archive-import button[name="action"][value="preview"]');
  if (again) again.click();
});
