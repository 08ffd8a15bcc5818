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
  // A state the page already shows (the stream's first event after the page loaded, or after a
  // reconnect with nothing new) is not swapped in again: that blanked what the person had typed
  // and a refused form's message (a set's name on the ended projector, a number half typed).
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    var message = event.detail;
    if (message && message.type === "state" && message.lastEventId &&
        message.lastEventId === version()) {
      event.preventDefault();
    }
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

  // --- the projector fits its screen ----------------------------------------------------------
  // clinics.css makes the page a grid the size of the window, with type that follows it; a
  // long situation may still not fit its part of the stage ([data-fit-box]). Then the type is
  // lowered (--fit, down to FIT_MIN) until it does: the room reads the round without anyone
  // scrolling. `data-fitted` says for which window and version it was done (the tests wait on it).
  var FIT_MIN = 0.55;
  var FIT_STEPS = 7;
  var fitQueued = false;

  function projectorLayout() {
    return window.matchMedia("(min-width: 720px) and (min-height: 480px)").matches;
  }

  function overflowing() {
    var doc = document.documentElement;
    if (doc.scrollHeight > window.innerHeight + 1) return true;
    if (doc.scrollWidth > window.innerWidth + 1) return true;
    var boxes = live.querySelectorAll("[data-fit-box]");
    for (var i = 0; i < boxes.length; i++) {
      if (boxes[i].scrollHeight > boxes[i].clientHeight + 1) return true;
      if (boxes[i].scrollWidth > boxes[i].clientWidth + 1) return true;
    }
    return false;
  }

  // The largest --fit at which the stage fits (FIT_MIN if none does).
  function largestFit() {
    live.style.setProperty("--fit", "1");
    if (!overflowing()) return 1;
    var low = FIT_MIN;
    var high = 1;
    for (var i = 0; i < FIT_STEPS; i++) {
      var mid = (low + high) / 2;
      live.style.setProperty("--fit", mid.toFixed(3));
      if (overflowing()) high = mid;
      else low = mid;
    }
    return low;
  }

  function fit() {
    fitQueued = false;
    if (!live || !live.classList.contains("projector")) return;
    live.style.setProperty("--fit", "1");
    if (projectorLayout()) {
      // A part with several arrangements (the reveal): the one with the largest type wins.
      var arranged = live.querySelector("[data-layouts]");
      var named = arranged ? arranged.getAttribute("data-layouts") : "";
      var layouts = named.split(" ").filter(Boolean);
      var best = { layout: null, scale: -1 };
      (layouts.length ? layouts : [null]).forEach(function (layout) {
        layouts.forEach(function (other) {
          arranged.classList.toggle(other, other === layout);
        });
        var scale = largestFit();
        if (scale > best.scale + 0.01) best = { layout: layout, scale: scale };
      });
      layouts.forEach(function (other) {
        arranged.classList.toggle(other, other === best.layout);
      });
      live.style.setProperty("--fit", best.scale.toFixed(3));
    }
    var stage = live.querySelector("#stage [data-version]");
    var version = stage ? stage.getAttribute("data-version") : "";
    live.setAttribute("data-fitted", window.innerWidth + "x" + window.innerHeight + ":" + version);
  }

  function queueFit() {
    if (fitQueued) return;
    fitQueued = true;
    window.requestAnimationFrame(fit);
  }

  window.addEventListener("resize", queueFit);
  // A rule's text unfolded on the reveal: fit again (toggle does not bubble).
  document.addEventListener("toggle", queueFit, true);

  // Leaving the lobby, the Wi-Fi code folds away: the rounds need the room.
  function foldWifi() {
    var stage = live && live.querySelector("#stage [data-phase]");
    var box = document.querySelector(".wifi-box");
    if (box && stage && stage.getAttribute("data-phase") !== "lobby") box.open = false;
  }

  // --- a drill round (clinics.drill) ----------------------------------------------------------
  // The projector plays the scene from the round's opening, at match speed (a projector that
  // opens late joins the play where it is); the reveal shows the replay with the ruled spot.
  // The phones count down to the stop, then open the questions for the countdown: the server
  // keeps the time, these only show it.
  var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function playScene() {
    // Every scene not yet drawn: after a swap the stage may hold the new one beside the old.
    if (!live || !window.PoloScene) return;
    live.querySelectorAll("[data-drill-scene]:not([data-drawn])").forEach(drawScene);
  }

  function drawScene(fig) {
    fig.dataset.drawn = "1";
    var svg = fig.querySelector("svg");
    var P = window.PoloScene.player(svg, { actors: svg.querySelector(".actors"), spots: svg.querySelector(".reveal-layer") });
    var scene = JSON.parse(fig.getAttribute("data-drill-scene"));
    var actors = P.draw(scene);
    var replay = fig.hasAttribute("data-replay");
    function run(from) {
      P.showSpots([]);
      var done = reduced
        ? P.steps(actors, scene, Math.max(300, scene.stop * 1000 / Math.max(1, P.times(scene).length)))
        : P.animate(actors, scene, 1, from);
      return done.then(function () {
        if (replay) P.showSpots(scene.reveal);
        fig.dataset.played = "1";
      });
    }
    if (replay) {
      P.pose(actors, 1e9);
      P.showSpots(scene.reveal);
      var button = live.querySelector("[data-scene-replay]");
      if (button) button.addEventListener("click", function () { run(0); });
      return;
    }
    var from = (Date.now() - parseFloat(fig.getAttribute("data-opened-at"))) / 1000;
    if (from >= scene.stop) {
      P.pose(actors, 1e9);
      fig.dataset.played = "1";
    } else {
      run(reduced ? 0 : Math.max(0, from));
    }
  }

  function drillTick() {
    var box = live && live.querySelector(".drill-phone");
    if (!box) return;
    var stopAt = parseFloat(box.getAttribute("data-stop-at"));
    var whole = parseFloat(box.getAttribute("data-countdown"));
    var now = Date.now();
    var status = box.querySelector(".drill-phone-status");
    var text;
    if (now < stopAt) {
      text = box.getAttribute("data-label-watch").replace("{s}", Math.ceil((stopAt - now) / 1000));
    } else {
      var opened = false;
      live.querySelectorAll("[data-drill-questions]").forEach(function (el) {
        if (el.disabled) { el.disabled = false; opened = true; }
      });
      if (opened) {
        var first = live.querySelector("fieldset[data-drill-questions] input, fieldset[data-drill-questions] select");
        if (first) first.focus({ preventScroll: false });
      }
      var left = Math.max(0, stopAt + whole - now);
      var bar = box.querySelector(".countdown");
      bar.hidden = false;
      bar.firstElementChild.style.width = (100 * left / whole) + "%";
      text = box.getAttribute("data-label-call").replace("{s}", Math.ceil(left / 1000));
    }
    if (status.textContent !== text) status.textContent = text;
  }

  // --- the phone tells what arrived ------------------------------------------------------------
  // A round, its reveal, the leaderboard arrive by the stream, not by a click: a screen reader
  // hears them (the live region #announce) and the focus moves to the new heading (the phone's
  // own verdict on a reveal). After "Send my answer" the focus lands on the confirmation.
  var told = null;
  var tellTimer = null;

  function phoneKey() {
    var stage = live.querySelector("#stage [data-phase]");
    if (!stage) return "";
    var verdict = live.querySelector("#my-result-heading");
    var round = stage.getAttribute("data-round") || "";
    return [stage.getAttribute("data-phase"), round, verdict ? "1" : ""].join(":");
  }

  function words(el) {
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function focusOn(el) {
    if (!el) return;
    if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
    el.focus({ preventScroll: false });
  }

  function tell() {
    tellTimer = null;
    var key = phoneKey();
    if (key === told) return;
    told = key;
    var stage = live.querySelector("#stage [data-phase]");
    // On a reveal the phone's own verdict comes first; later it is only a reminder.
    var revealed = stage && stage.getAttribute("data-phase") === "revealed";
    var verdict = revealed ? live.querySelector("#my-result-heading") : null;
    var heading = live.querySelector("#stage h1");
    var parts = [
      words(live.querySelector("#stage .stage-round")),
      words(heading),
      words(verdict),
      words(live.querySelector("#stage .waiting, #stage .received")),
    ].filter(Boolean);
    var region = document.getElementById("announce");
    if (region) region.textContent = parts.join(". ");
    focusOn(verdict || heading);
  }

  function queueTell() {
    // The stream sends the stage and the phone's own part one after the other: tell once both
    // are in.
    if (tellTimer) window.clearTimeout(tellTimer);
    tellTimer = window.setTimeout(tell, 60);
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    if (!live) {
      // The join form brings the phone's page in (no page load): start on it now, and say
      // where the phone is.
      if (start()) {
        told = null;
        queueTell();
      }
      return;
    }
    if (live.classList.contains("projector")) {
      foldWifi();
      queueFit();
      window.requestAnimationFrame(playScene);
      return;
    }
    if (!live.classList.contains("phone")) return;
    var received = live.querySelector("#stage .received");
    var config = event.detail.requestConfig;
    if (config && config.verb === "post" && received) {
      told = phoneKey();
      focusOn(received);
      return;
    }
    queueTell();
  });

  // The live page: loaded, or swapped in by the join form. Whether there is one.
  function start() {
    live = document.getElementById("live");
    if (!live) return false;
    told = phoneKey();
    fit();
    window.requestAnimationFrame(playScene);
    window.setInterval(drillTick, 100);
    // No stream asked for (?poll=1) or none possible: poll from the start.
    if (!live.hasAttribute("sse-connect") || !window.EventSource) startPolling();
    else window.setTimeout(function () { if (!open) startPolling(); }, 5000);
    window.setInterval(tick, 500);
    return true;
  }

  document.addEventListener("DOMContentLoaded", start);
})();
