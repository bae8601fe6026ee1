// Card previews: a card link (<a class="phm-card" href="/cards/<slug>/">, rounds/templatetags/card_links.py)
// shows the card's text on hover and on keyboard focus, fetched once per card from /cards/<slug>/preview/.
// WCAG 1.4.13: the preview can be hovered itself, stays while the link is hovered or focused, and Escape
// dismisses it. It is one role="tooltip" element, which the shown link points at with aria-describedby.
// Card images (CARD_IMAGES on) that fail to load are removed: the card's text stays in their place.
(function () {
  "use strict";
  var SELECTOR = "a.phm-card";
  var TIP_ID = "phm-card-preview";
  var SHOW_DELAY = 120; // ms of hover before showing: a pointer crossing a list shows nothing
  var HIDE_DELAY = 300; // ms to reach the preview from the link before it goes
  var GAP = 6;
  var loaded = new Map();
  var tip = null;
  var current = null; // the link whose preview is shown
  var dismissed = null; // the link whose preview Escape dismissed, until the pointer or focus leaves it
  var showTimer = 0;
  var hideTimer = 0;

  function tooltip() {
    if (tip) return tip;
    tip = document.createElement("div");
    tip.id = TIP_ID;
    tip.className = "phm-card-preview";
    tip.setAttribute("role", "tooltip");
    tip.hidden = true;
    tip.addEventListener("mouseenter", function () { clearTimeout(hideTimer); });
    tip.addEventListener("mouseleave", scheduleHide);
    document.body.appendChild(tip);
    return tip;
  }

  function previewUrl(link) {
    return link.pathname.replace(/\/?$/, "/") + "preview/";
  }

  function fetchPreview(url) {
    if (!loaded.has(url)) {
      var request = fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) throw new Error("HTTP " + response.status);
          return response.text();
        })
        .catch(function () {
          loaded.delete(url); // try again next time
          return null;
        });
      loaded.set(url, request);
    }
    return loaded.get(url);
  }

  function message(text) {
    var paragraph = document.createElement("p");
    paragraph.className = "mb-0 small";
    paragraph.textContent = text;
    return paragraph;
  }

  function show(link) {
    clearTimeout(showTimer);
    clearTimeout(hideTimer);
    if (current === link && !tooltip().hidden) return;
    if (current && current !== link) hide();
    current = link;
    var element = tooltip();
    element.replaceChildren(message("Loading the card's text…"));
    element.hidden = false;
    link.setAttribute("aria-describedby", TIP_ID);
    place(link);
    fetchPreview(previewUrl(link)).then(function (html) {
      if (current !== link || element.hidden) return;
      if (html === null) {
        element.replaceChildren(message("The card's text could not be loaded: follow the link to its page."));
      } else {
        element.innerHTML = html; // the app's own fragment, escaped by its template
        watchImages(element);
      }
      place(link);
    });
  }

  function hide() {
    clearTimeout(showTimer);
    clearTimeout(hideTimer);
    if (current) current.removeAttribute("aria-describedby");
    current = null;
    if (tip) tip.hidden = true;
  }

  function kept() {
    return current && (document.activeElement === current || current.matches(":hover") || tip.matches(":hover"));
  }

  function scheduleHide() {
    clearTimeout(hideTimer);
    hideTimer = setTimeout(function () { if (!kept()) hide(); }, HIDE_DELAY);
  }

  function place(link) {
    var element = tooltip();
    var box = link.getBoundingClientRect();
    var width = element.offsetWidth;
    var height = element.offsetHeight;
    var viewportWidth = document.documentElement.clientWidth;
    var left = Math.min(Math.max(GAP, box.left), Math.max(GAP, viewportWidth - width - GAP));
    var below = box.bottom + GAP;
    var top = below + height > window.innerHeight && box.top - GAP - height > 0 ? box.top - GAP - height : below;
    element.style.left = window.scrollX + left + "px"; // CSSOM, which the Content-Security-Policy allows
    element.style.top = window.scrollY + top + "px";
  }

  function watchImages(root) {
    root.querySelectorAll("img[data-card-image]").forEach(function (image) {
      var holder = image.closest(".phm-card-preview-body");
      function failed() {
        image.remove();
        if (holder) holder.classList.remove("phm-has-image");
        if (current) place(current);
      }
      function shown() {
        if (holder) holder.classList.add("phm-has-image");
        if (current) place(current);
      }
      if (image.complete) {
        if (image.naturalWidth === 0) failed(); else shown();
      } else {
        image.addEventListener("error", failed, { once: true });
        image.addEventListener("load", shown, { once: true });
      }
    });
  }

  function cardLink(node) {
    return node && node.closest ? node.closest(SELECTOR) : null;
  }

  document.addEventListener("mouseover", function (event) {
    var link = cardLink(event.target);
    if (!link || link === dismissed) return;
    if (link === current) { clearTimeout(hideTimer); return; }
    clearTimeout(showTimer);
    showTimer = setTimeout(function () { show(link); }, SHOW_DELAY);
  });
  document.addEventListener("mouseout", function (event) {
    var link = cardLink(event.target);
    if (!link || link.contains(event.relatedTarget)) return;
    clearTimeout(showTimer);
    if (link === dismissed && document.activeElement !== link) dismissed = null;
    if (link === current) scheduleHide();
  });
  document.addEventListener("focusin", function (event) {
    var link = cardLink(event.target);
    if (link && link !== dismissed) show(link);
  });
  document.addEventListener("focusout", function (event) {
    var link = cardLink(event.target);
    if (!link) return;
    if (link === dismissed) dismissed = null;
    if (link === current) scheduleHide();
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !current || tooltip().hidden) return;
    dismissed = current;
    hide();
  });
  window.addEventListener("resize", function () { if (current) place(current); });

  function start() { watchImages(document); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
