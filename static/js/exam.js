/* The exam page: the countdown from the server's deadline, times in the reader's own zone, and
   answers that survive a lost connection.

   Each question has its own form, saved by htmx on every change (so two tabs answering two
   questions of one situation never overwrite each other). Before a save is sent, the form's
   values are kept in localStorage; they are dropped once the server has answered that very
   save. A save that could not be sent (offline) stays there: the page says so, and sends it
   when the browser is back online or the page is opened again. Nothing here knows an answer's
   rightness: the page holds none. No inline script: the Content-Security-Policy allows none. */
(function () {
  "use strict";

  // --- times in the reader's zone --------------------------------------------------------------
  function localTimes() {
    document.querySelectorAll("time[data-local]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (isNaN(when.getTime())) return;
      el.title = el.textContent;
      el.textContent = when.toLocaleString(document.documentElement.lang || undefined, {
        day: "numeric",
        month: "short",
        year: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        timeZoneName: "short",
      });
    });
    // The times now name the reader's own zone: the course's zone note no longer applies.
    document.querySelectorAll("[data-zone-note]").forEach(function (el) {
      el.hidden = true;
    });
  }

  // --- the countdown -----------------------------------------------------------------------------
  function countdown() {
    var timer = document.querySelector("[data-seconds-left]");
    if (!timer) return;
    var out = timer.querySelector("[data-timer]");
    var end = Date.now() + parseInt(timer.getAttribute("data-seconds-left"), 10) * 1000;
    function tick() {
      var left = Math.max(0, Math.round((end - Date.now()) / 1000));
      var h = Math.floor(left / 3600);
      var m = Math.floor((left % 3600) / 60);
      var s = left % 60;
      out.textContent =
        (h ? h + ":" + (m < 10 ? "0" : "") : "") + m + ":" + (s < 10 ? "0" : "") + s;
      timer.classList.toggle("ending", left < 60);
      if (left === 0) {
        // The server submits the attempt at its deadline; opening the page again shows it.
        if (navigator.onLine) window.setTimeout(function () { window.location.reload(); }, 1500);
        return;
      }
      window.setTimeout(tick, 1000);
    }
    tick();
  }

  // --- answers kept on the device ----------------------------------------------------------------
  var page = document.querySelector("[data-exam]");
  if (!page) {
    localTimes();
    countdown();
    return;
  }
  var attempt = page.getAttribute("data-exam");

  function key(slot) {
    return "polotrainer-exam-" + attempt + "-" + slot;
  }

  function snapshot(form) {
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      if (name.indexOf("q-") === 0) pairs.push([name, String(value)]);
    });
    return JSON.stringify(pairs);
  }

  function store(slot, value) {
    try {
      if (value === null) window.localStorage.removeItem(key(slot));
      else window.localStorage.setItem(key(slot), value);
    } catch (e) {
      /* storage full or refused: the page still holds the answer */
    }
  }

  function stored(slot) {
    try {
      return window.localStorage.getItem(key(slot));
    } catch (e) {
      return null;
    }
  }

  function pendingSlots() {
    var out = [];
    try {
      var prefix = "polotrainer-exam-" + attempt + "-";
      for (var i = 0; i < window.localStorage.length; i++) {
        var k = window.localStorage.key(i);
        if (k && k.indexOf(prefix) === 0) out.push(k.slice(prefix.length));
      }
    } catch (e) {
      /* no storage: nothing pending */
    }
    return out;
  }

  function mark(form, text, state) {
    var el = form.querySelector("[data-saved-mark]");
    if (!el) return;
    el.textContent = text;
    el.className = "saved-mark " + state;
  }

  function fill(form, pairs) {
    var values = {};
    pairs.forEach(function (p) {
      (values[p[0]] = values[p[0]] || []).push(p[1]);
    });
    form.querySelectorAll("input, select").forEach(function (input) {
      if (input.name.indexOf("q-") !== 0) return;
      var given = values[input.name] || [];
      if (input.type === "radio" || input.type === "checkbox") {
        input.checked = given.indexOf(input.value) !== -1;
      } else {
        input.value = given.length ? given[0] : "";
      }
    });
  }

  function formOf(key) {
    return document.querySelector("form.exam-form[data-key='" + key + "']");
  }

  function resend() {
    if (!navigator.onLine) return;
    pendingSlots().forEach(function (slot) {
      var form = formOf(slot);
      if (form && window.htmx) window.htmx.trigger(form, "change");
    });
  }

  document.body.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt;
    if (!form.matches || !form.matches("form.exam-form")) return;
    var slot = form.getAttribute("data-key");
    var sent = snapshot(form);
    form.setAttribute("data-sent", sent);
    store(slot, sent);
    mark(form, page.getAttribute("data-sending"), "sending");
  });

  document.body.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (!form.matches || !form.matches("form.exam-form")) return;
    var xhr = event.detail.xhr;
    if (!xhr || !xhr.status) return; // not sent: htmx:sendError says so
    var slot = form.getAttribute("data-key");
    // The server has answered this save (saved, refused or closed): the device need not keep
    // it, unless the trainee changed the answer again meanwhile.
    if (stored(slot) === form.getAttribute("data-sent")) store(slot, null);
    var link = document.querySelector("[data-nav='" + form.getAttribute("data-slot") + "']");
    if (link && xhr.status === 200) link.classList.add("answered");
  });

  document.body.addEventListener("htmx:sendError", function (event) {
    var form = event.detail.elt;
    if (!form.matches || !form.matches("form.exam-form")) return;
    mark(form, page.getAttribute("data-pending"), "pending");
  });

  // Opened again (after a reload, or offline and back): put back what was not sent, and send it.
  pendingSlots().forEach(function (slot) {
    var form = formOf(slot);
    var value = stored(slot);
    if (!form || !value) return;
    try {
      fill(form, JSON.parse(value));
    } catch (e) {
      store(slot, null);
      return;
    }
    mark(form, page.getAttribute("data-pending"), "pending");
  });
  window.addEventListener("online", resend);
  document.addEventListener("htmx:load", function once() {
    document.removeEventListener("htmx:load", once);
    resend();
  });
  window.addEventListener("load", resend);

  // Submitting with answers still on the device would lose them: say so instead.
  document.querySelectorAll("[data-exam-submit], [data-exam-submit-form]").forEach(function (el) {
    el.addEventListener(el.tagName === "FORM" ? "submit" : "click", function (event) {
      if (pendingSlots().length) {
        event.preventDefault();
        window.alert(page.getAttribute("data-unsent"));
        resend();
      }
    });
  });

  // Resume on the question left (unless the address names one).
  if (!window.location.hash) {
    var current = document.getElementById("q" + page.getAttribute("data-current"));
    if (current && page.getAttribute("data-current") !== "1") current.scrollIntoView();
  }

  localTimes();
  countdown();
})();
