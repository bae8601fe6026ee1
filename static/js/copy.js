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

// <button data-copy-url="/…/export.bbcode">: the text is fetched when pressed (the page does not carry it).
// Where the clipboard is refused, the text is opened as a download instead.
document.addEventListener("click", function (event) {
  "use strict";
  var button = event.target.closest("[data-copy-url]");
  if (!button) return;
  var url = button.getAttribute("data-copy-url");
  var original = button.innerHTML;
  function done(label) {
    button.textContent = label;
    setTimeout(function () { button.innerHTML = original; }, 1800);
  }
  function fetchText() {
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error(response.status);
      return response.text();
    });
  }
  if (!(navigator.clipboard && window.isSecureContext)) {
    window.location.href = url;
    return;
  }
  var copied;
  if (window.ClipboardItem && navigator.clipboard.write) {
    // Safari wants the clipboard written inside the click: the item takes the pending fetch.
    var blob = fetchText().then(function (text) { return new Blob([text], { type: "text/plain" }); });
    copied = navigator.clipboard.write([new ClipboardItem({ "text/plain": blob })]);
  } else {
    copied = fetchText().then(function (text) { return navigator.clipboard.writeText(text); });
  }
  copied.then(function () { done("Copied"); }, function () { window.location.href = url; });
});
