// Live countdowns: <span data-countdown="2026-12-01T18:00:00+00:00">…</span>. The server is the judge of the
// deadline; this only shows how long is left.
(function () {
  "use strict";

  function describe(ms) {
    var total = Math.floor(ms / 1000);
    var days = Math.floor(total / 86400);
    var hours = Math.floor((total % 86400) / 3600);
    var minutes = Math.floor((total % 3600) / 60);
    var seconds = total % 60;
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    if (days > 0) return days + "d " + hours + "h " + pad(minutes) + "m left";
    if (hours > 0) return hours + "h " + pad(minutes) + "m " + pad(seconds) + "s left";
    return minutes + "m " + pad(seconds) + "s left";
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var left = Date.parse(el.getAttribute("data-countdown")) - now;
      if (isNaN(left)) return;
      if (left <= 0) {
        el.textContent = el.getAttribute("data-countdown-ended") || "Deadline passed";
        el.classList.remove("text-bg-success", "text-bg-warning");
        el.classList.add("text-bg-secondary");
        return;
      }
      el.textContent = describe(left);
      if (left < 3600 * 1000) el.classList.add("text-bg-warning");
    });
  }

  tick();
  setInterval(tick, 1000);
})();
