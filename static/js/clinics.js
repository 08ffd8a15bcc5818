// Clinics: keep the projector and the phones in step with the session.
// The server pushes with Server-Sent Events (the htmx SSE extension swaps each event). This
// script adds what the extension does not: polling while the stream is not open (a network that
// blocks it, a browser without EventSource), a resync as soon as a phone comes back from the
// background or the back/forward cache (iOS Safari freezes streams there without telling), and
// the countdown of a timed round. Loaded before the extension, so that its EventSource is ours.
(function () {
  "use strict";

  var POLL_MS = 2000;
  var live = null;
  var source = null;
  var open = false;
  var polling = null;

  if (window.htmx) {
    htmx.createEventSource = function (url) {
      source = new EventSource(url, { withCredentials: true });
      return source;
    };
  }

  function version() {
    var el = live && live.querySelector("[data-version]");
    return el ? el.getAttribute("data-version") : "";
  }

  function fetchState(always) {
    if (!live || !window.htmx) return;
    var url = live.getAttribute("data-state-url");
    if (!url) return;
    var v = always ? "" : version();
    htmx.ajax("GET", url + (v ? "?v=" + encodeURIComponent(v) : ""), {
      target: live.getAttribute("data-state-target") || "#live",
      swap: "innerHTML",
    });
  }

  function poll() {
    if (open && source && source.readyState === 1) return;
    fetchState(false);
  }

  function startPolling() {
    if (!polling) polling = window.setInterval(poll, POLL_MS);
  }

  document.addEventListener("htmx:sseOpen", function () {
    open = true;
  });
  document.addEventListener("htmx:sseError", function () {
    open = false;
    startPolling();
  });
  document.addEventListener("htmx:sseClose", function () {
    open = false;
  });

  // Back from the background or from the back/forward cache: show the state now.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible") return;
    fetchState(true);
    if (source && source.readyState === 2 && live && live.hasAttribute("sse-connect")) {
      // The stream was closed while asleep: start it again from the whole state.
      window.location.reload();
    }
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) fetchState(true);
  });

  // A timed round: count down from the server's deadline (the server decides, this only shows).
  function tick() {
    document.querySelectorAll("[data-closes-at]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.getAttribute("data-closes-at")) - Date.now()) / 1000));
      el.textContent = String(left);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    live = document.getElementById("live");
    if (!live) return;
    // No stream asked for (?poll=1) or none possible: poll from the start.
    if (!live.hasAttribute("sse-connect") || !window.EventSource) startPolling();
    else window.setTimeout(function () { if (!open) startPolling(); }, 5000);
    window.setInterval(tick, 500);
  });
})();
