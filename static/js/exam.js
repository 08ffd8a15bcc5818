/* The exam page: the countdown from the server's deadline, times in the reader's own zone, and
   answers that survive a lost connection.

   Each question has its own form, saved by htmx on every change, and sends only its own
   question: the server merges it into what the situation holds under a lock, so saves of a
   situation's questions arriving together (two tabs, or every pending answer sent at once
   when the phone is back online) all stand, in whatever order they arrive. The device keeps
   each question's answer in localStorage, keyed by the question, from the moment it changes
   until the server has answered that very save: saved, refused (the server kept what was
   typed) or closed. A save that got no such answer (offline, a server error, a log-in page
   after a redirect) stays there: the page says so, and sends it again when the browser is
   back online, 5 seconds later after a server error, or when the page is opened again.
   Nothing here knows an answer's rightness: the page holds none. No inline script: the
   Content-Security-Policy allows none. */
(function () {
  "use strict";

  // --- times in the reader's zone --------------------------------------------------------------
  // Day first and 24-hour in both languages, as the server writes them ("22 nov 2026, 08:00");
  // data-local="time" is a time of day alone ("Ends at 14:30 CET").
  var lang = document.documentElement.lang;
  var locale = lang === "en" ? "en-GB" : lang || undefined;
  function localTimes() {
    document.querySelectorAll("time[data-local]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (isNaN(when.getTime())) return;
      var shape = { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" };
      if (el.getAttribute("data-local") !== "time") {
        shape.day = "numeric";
        shape.month = "short";
        shape.year = "numeric";
      }
      el.title = el.textContent;
      el.textContent = when.toLocaleString(locale, shape);
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

  // One entry per question: "<position>-<question id>", the form's data-key.
  function key(question) {
    return "polotrainer-exam-" + attempt + "-" + question;
  }

  function snapshot(form) {
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      if (name.indexOf("q-") === 0) pairs.push([name, String(value)]);
    });
    return JSON.stringify(pairs);
  }

  function store(question, value) {
    try {
      if (value === null) window.localStorage.removeItem(key(question));
      else window.localStorage.setItem(key(question), value);
    } catch (e) {
      /* storage full or refused: the page still holds the answer */
    }
  }

  function stored(question) {
    try {
      return window.localStorage.getItem(key(question));
    } catch (e) {
      return null;
    }
  }

  function pendingQuestions() {
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

  function formOf(question) {
    return document.querySelector("form.exam-form[data-key='" + question + "']");
  }

  // The question's form an event is about: htmx names its form (or, before a swap, the mark
  // inside it), a change its input.
  function examForm(event) {
    var elt = event.detail && event.detail.elt ? event.detail.elt : event.target;
    return elt && elt.closest ? elt.closest("form.exam-form") : null;
  }

  // Every pending question's own form, all at once: each carries only its question, so the
  // order they reach the server in changes nothing. A form whose save is on its way already
  // is left to it (any change after that save was sent is queued behind it by htmx).
  function resend() {
    if (!navigator.onLine || !window.htmx) return;
    pendingQuestions().forEach(function (question) {
      var form = formOf(question);
      if (form && !form.classList.contains("htmx-request")) window.htmx.trigger(form, "change");
    });
  }

  var retry = null;
  function resendLater() {
    if (retry === null) {
      retry = window.setTimeout(function () {
        retry = null;
        resend();
      }, 5000);
    }
  }

  // Whether this response is the server's answer to the save (not a page it was redirected
  // to, such as the log-in page, and not an error that stored nothing).
  function answered(form, xhr) {
    if ([200, 400, 404, 409].indexOf(xhr.status) === -1) return false;
    if (!xhr.responseURL) return true;
    var sent = new URL(form.getAttribute("hx-post"), window.location.href);
    return new URL(xhr.responseURL).pathname === sent.pathname;
  }

  // On the device from the moment the answer changes, even while an earlier save of the same
  // question is still on its way (htmx sends the next one after it).
  document.body.addEventListener("change", function (event) {
    var form = examForm(event);
    if (form && window.htmx) store(form.getAttribute("data-key"), snapshot(form));
  });

  document.body.addEventListener("htmx:configRequest", function (event) {
    var form = examForm(event);
    if (!form) return;
    var sent = snapshot(form);
    form.setAttribute("data-sent", sent);
    store(form.getAttribute("data-key"), sent);
    mark(form, page.getAttribute("data-sending"), "sending");
  });

  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var form = examForm(event);
    if (form && !answered(form, event.detail.xhr)) event.detail.shouldSwap = false;
  });

  document.body.addEventListener("htmx:afterRequest", function (event) {
    var form = examForm(event);
    if (!form) return;
    var xhr = event.detail.xhr;
    if (!xhr || !xhr.status) return; // not sent: htmx:sendError says so
    var question = form.getAttribute("data-key");
    if (!answered(form, xhr)) {
      mark(form, page.getAttribute("data-pending"), "pending");
      if (xhr.status >= 500) resendLater();
      return;
    }
    // The server has answered this save (saved, refused or closed): the device need not keep
    // it, unless the trainee changed the answer again meanwhile.
    if (stored(question) === form.getAttribute("data-sent")) store(question, null);
    var link = document.querySelector("[data-nav='" + form.getAttribute("data-slot") + "']");
    if (link && xhr.status === 200) link.classList.add("answered");
  });

  document.body.addEventListener("htmx:sendError", function (event) {
    var form = examForm(event);
    if (form) mark(form, page.getAttribute("data-pending"), "pending");
  });

  // Opened again (after a reload, or offline and back): put back what was not sent, and send it.
  pendingQuestions().forEach(function (question) {
    var form = formOf(question);
    var value = stored(question);
    if (!form || !value) return;
    try {
      fill(form, JSON.parse(value));
    } catch (e) {
      store(question, null);
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
      if (pendingQuestions().length) {
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
