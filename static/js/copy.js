// Copy buttons: <button data-copy-target="#id">. Falls back to selecting the text where the clipboard is refused.
document.addEventListener("click", function (event) {
  "use strict";
  var button = event.target.closest("[data-copy-target]");
  if (!button) return;
  var source = document.querySelector(button.getAttribute("data-copy-target"));
  if (!source) return;
  var text = source.value !== undefined ? source.value : source.textContent;
  var original = button.innerHTML;
  function done(label) {
    button.textContent = label;
    setTimeout(function () { button.innerHTML = original; }, 1800);
  }
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(function () { done("Copied"); }, function () { source.select(); done("Press Ctrl+C"); });
  } else {
    source.select();
    done(document.execCommand && document.execCommand("copy") ? "Copied" : "Press Ctrl+C");
  }
});
