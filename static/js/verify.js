// Verify buttons on revealed hands: recompute the SHA-256 of the shown canonical text in the browser and compare
// it with the commitment. Where crypto.subtle is unavailable (plain-http hosts), the server checks it instead.
(function () {
  "use strict";
  function hex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-verify-hand]");
    if (!button) return;
    var card = button.closest("[data-commitment]");
    var text = card.querySelector(".phm-committed-text").textContent;
    var expected = card.getAttribute("data-commitment");
    var result = card.querySelector("[data-verify-result]");
    if (!(window.crypto && window.crypto.subtle && window.TextEncoder)) {
      var form = document.getElementById("verify-fallback");
      form.elements.text.value = text;
      form.elements.commitment.value = expected;
      form.submit();
      return;
    }
    window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)).then(function (digest) {
      var ok = hex(digest) === expected;
      result.className = "ms-2 fw-semibold " + (ok ? "text-success" : "text-danger");
      result.textContent = ok ? "✓ Matches: this hand is the one committed to." : "✗ Does not match the commitment.";
    });
  });
})();
