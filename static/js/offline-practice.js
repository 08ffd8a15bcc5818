// The offline practice page: download packs, list and remove them, answer their questions.
// Grading here only compares the form's values with the right answer the pack holds (a spot
// within the pack's tolerance); every sentence shown comes from the pack, rendered by the
// server's quiz core and templates. Each answer goes to the outbox with its time (offline.js
// sends it); the server grades it again and keeps its own verdict.
(function () {
  "use strict";

  var root, lang, shownAt = 0, current = null;
  var api = function () { return window.PolotrainerOffline; };

  function msg(name) { return root.getAttribute("data-msg-" + name) || ""; }

  function status(text) {
    var el = root.querySelector("[data-offline-status]");
    el.textContent = text;
    el.hidden = !text;
  }

  function kb(bytes) {
    return (bytes / 1024).toLocaleString(lang, { maximumFractionDigits: 0 }) + " KB";
  }

  function held() {
    return api().store.get("settings", "hold").then(function (h) {
      return !!(h && h.until > Date.now());
    }, function () { return false; });
  }

  // --- the packs -------------------------------------------------------------------------------

  function answeredTokens() {
    return api().store.all("answered").then(function (rows) {
      var set = {};
      rows.forEach(function (r) { set[r.token] = true; });
      return set;
    });
  }

  function listPacks() {
    return Promise.all([api().store.all("packs"), answeredTokens()]).then(function (got) {
      var packs = got[0], done = got[1];
      var list = root.querySelector("[data-pack-list]");
      var template = root.querySelector("template[data-pack-row]");
      list.textContent = "";
      packs.sort(function (a, b) { return b.made_at - a.made_at; });
      packs.forEach(function (pack) {
        var row = template.content.firstElementChild.cloneNode(true);
        var left = pack.variants.filter(function (v) { return !done[v.token]; }).length;
        row.querySelector("[data-pack-title]").textContent = pack.title[lang] || pack.scope;
        row.querySelector("[data-pack-count]").textContent = api().plural("questions", pack.count);
        row.querySelector("[data-pack-size]").textContent = kb(pack.size);
        row.querySelector("[data-pack-left]").textContent = api().plural("left", left);
        row.querySelector("[data-pack-remove]").addEventListener("click", function () {
          api().store.del("packs", pack.id).then(function () {
            return Promise.all(pack.variants.map(function (v) { return api().store.del("answered", v.token); }));
          }).then(function () {
            status(msg("removed"));
            listPacks();
          });
        });
        list.appendChild(row);
      });
      root.querySelector("[data-practice-note]").textContent = packs.length ? "" : msg("nopack");
      return packs;
    });
  }

  function download(form) {
    var result = root.querySelector("[data-download-result]");
    var url = form.getAttribute("action") + "?" + new URLSearchParams(new FormData(form)).toString();
    result.textContent = msg("downloading");
    fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      return response.json().then(function (body) { return { ok: response.ok, body: body }; });
    }).then(function (answer) {
      if (!answer.ok) {
        if (answer.body.until) api().hold(answer.body.until);
        result.textContent = answer.body.message || msg("failed");
        return;
      }
      var pack = answer.body;
      return api().store.put("packs", pack).then(function () {
        result.textContent = msg("downloaded")
          .replace("{questions}", api().plural("questions", pack.count)).replace("{size}", kb(pack.size));
        keepRulebook();
        if (navigator.storage && navigator.storage.persist) navigator.storage.persist().then(storageNote);
        return listPacks();
      });
    }).catch(function () { result.textContent = msg("failed"); });
  }

  // The rulebook reader in both languages, kept by the worker for reading with no signal
  // (templates/offline/sw.js keepRulebook): asked for here, by someone preparing for it, and
  // never at install, which every page of the site triggers.
  function keepRulebook() {
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ type: "keep-rulebook" });
    });
  }

  function storageNote() {
    var note = root.querySelector("[data-storage-note]");
    if (!navigator.storage || !navigator.storage.persisted) return;
    navigator.storage.persisted().then(function (persistent) {
      note.textContent = persistent ? root.getAttribute("data-msg-persistent") || "" : "";
    });
  }

  // --- answering -------------------------------------------------------------------------------

  function nextVariant() {
    return Promise.all([api().store.all("packs"), answeredTokens()]).then(function (got) {
      var packs = got[0].sort(function (a, b) { return a.made_at - b.made_at; });
      for (var i = 0; i < packs.length; i++) {
        for (var j = 0; j < packs[i].variants.length; j++) {
          var v = packs[i].variants[j];
          if (!got[1][v.token]) return { pack: packs[i], variant: v };
        }
      }
      return null;
    });
  }

  function ask() {
    var article = root.querySelector("[data-offline-question]");
    var feedback = root.querySelector("[data-feedback]");
    held().then(function (isHeld) {
      if (isHeld) { status(msg("held")); article.hidden = true; feedback.hidden = true; return null; }
      return nextVariant();
    }).then(function (next) {
      if (next === undefined) return;
      feedback.hidden = true;
      if (!next) {
        article.hidden = true;
        root.querySelector("[data-practice-note]").textContent = msg("done");
        return;
      }
      current = next;
      article.innerHTML = next.variant.lang[lang].question;
      article.setAttribute("data-token", next.variant.token);
      article.hidden = false;
      shownAt = Date.now();
      document.dispatchEvent(new CustomEvent("htmx:afterSwap", { detail: { target: article } }));
      article.querySelector("form[data-offline-quiz]").addEventListener("submit", answer);
      var heading = article.querySelector("h1");
      if (heading) { heading.tabIndex = -1; heading.focus(); }
    });
  }

  function formValues(form) {
    var out = {};
    new FormData(form).forEach(function (value, name) {
      (out[name] = out[name] || []).push(String(value));
    });
    return out;
  }

  function first(values, name) { return ((values[name] || [])[0] || "").trim(); }

  function number(text) {
    var t = text.replace(",", ".").replace("−", "-");
    if (!/^[-+]?\d+(\.\d+)?$/.test(t)) return null;
    return parseFloat(t);
  }

  // The error code of a question's values (as the server would refuse them), or "".
  function problem(key, values) {
    if (key.type === "choice" || key.type === "bool") return first(values, key.name) ? "" : "missing";
    if (key.type === "number") {
      var raw = first(values, key.name);
      if (!raw) return "missing";
      return number(raw) === null ? "not_a_number" : "";
    }
    if (key.type === "place") {
      var a = first(values, key.fields[0]), c = first(values, key.fields[1]);
      if (!a || !c) return "missing";
      var along = number(a), across = number(c);
      if (along === null || across === null) return "not_a_number";
      if (along < 0 || along > key.bounds[0] || Math.abs(across) > key.bounds[1]) return "off_field";
      return "";
    }
    if (key.type === "order") {
      var places = key.options.map(function (o) { return first(values, key.name + "-" + o); });
      if (places.some(function (p) { return !p; })) return "missing";
      var sorted = places.map(Number).sort(function (x, y) { return x - y; });
      for (var i = 0; i < sorted.length; i++) if (sorted[i] !== i + 1) return "not_an_order";
      return "";
    }
    return "";
  }

  function isRight(key, values) {
    if (key.type === "choice" || key.type === "bool") return first(values, key.name) === key.right[0];
    if (key.type === "multi" || key.type === "players") {
      var given = (values[key.name] || []).slice().sort();
      var right = key.right.slice().sort();
      return given.length === right.length && given.every(function (g, i) { return g === right[i]; });
    }
    if (key.type === "order") {
      return key.options.every(function (o, i) { return first(values, key.name + "-" + o) === key.right[i]; });
    }
    if (key.type === "number") {
      return Math.abs(number(first(values, key.name)) - parseFloat(key.right[0])) <= key.tolerance;
    }
    if (key.type === "place") {
      var dx = number(first(values, key.fields[0])) - parseFloat(key.right[0]);
      var dy = number(first(values, key.fields[1])) - parseFloat(key.right[1]);
      return Math.sqrt(dx * dx + dy * dy) <= key.tolerance;
    }
    return false;
  }

  // The answer given, in the pack's words (labels of the options; the field's own readout).
  function givenText(key, values, shown, article) {
    var labels = shown.given.labels[key.id] || {};
    if (key.type === "multi" || key.type === "players") {
      var picked = key.options.filter(function (o) { return (values[key.name] || []).indexOf(o) >= 0; });
      return picked.map(function (o) { return labels[o]; }).join(", ") || shown.given.none;
    }
    if (key.type === "order") {
      var steps = key.options.map(function (o) { return [Number(first(values, key.name + "-" + o)), o]; });
      steps.sort(function (x, y) { return x[0] - y[0]; });
      return steps.map(function (s) { return s[0] + ". " + labels[s[1]]; }).join(" → ");
    }
    if (key.type === "place") {
      var along = number(first(values, key.fields[0])), across = number(first(values, key.fields[1]));
      var readout = article.querySelector("[data-readout]");
      if (!readout) return along + ", " + across;
      var which = Math.abs(across) < 0.05 ? "data-level" : across > 0 ? "data-left" : "data-right";
      return readout.getAttribute(which).replace("{along}", String(along)).replace("{across}", String(Math.abs(across)));
    }
    return first(values, key.name);
  }

  function clearErrors(form) {
    form.querySelectorAll(".field-error[data-offline]").forEach(function (e) { e.remove(); });
    form.querySelectorAll("fieldset.question[aria-invalid]").forEach(function (f) { f.removeAttribute("aria-invalid"); });
    form.querySelector("[data-offline-error]").hidden = true;
  }

  function answer(event) {
    event.preventDefault();
    var form = event.target;
    var pack = current.pack, variant = current.variant, shown = variant.lang[lang];
    var values = formValues(form);
    clearErrors(form);
    var errors = 0;
    variant.key.forEach(function (key) {
      var code = problem(key, values);
      if (!code) return;
      errors += 1;
      var fieldset = form.querySelector("#" + CSS.escape(key.name));
      var p = document.createElement("p");
      p.className = "field-error";
      p.setAttribute("data-offline", "");
      p.textContent = pack.messages[lang][code];
      fieldset.setAttribute("aria-invalid", "true");
      fieldset.querySelector("legend").after(p);
    });
    if (errors) {
      var error = form.querySelector("[data-offline-error]");
      error.hidden = false;
      error.focus();
      return;
    }
    var results = root.querySelector("[data-results]");
    results.textContent = "";
    var right = 0;
    variant.key.forEach(function (key) {
      var ok = isRight(key, values);
      if (ok) right += 1;
      var fragments = shown.items[key.id];
      var html = fragments.options ? fragments.options[first(values, key.name)] : fragments[ok ? "right" : "wrong"];
      var holder = document.createElement("ul");
      holder.innerHTML = html;
      var item = holder.firstElementChild;
      var slot = item.querySelector("[data-given]");
      if (slot) slot.textContent = givenText(key, values, shown, root.querySelector("[data-offline-question]"));
      results.appendChild(item);
    });
    var feedback = root.querySelector("[data-feedback]");
    feedback.querySelector("[data-verdict]").innerHTML = shown.verdict[String(right)];
    feedback.querySelector("[data-field]").innerHTML = shown.field;
    feedback.querySelector("[data-why]").innerHTML = shown.why;
    whatIf(feedback.querySelector("[data-whatif]"), shown.whatif || {});
    var cited = feedback.querySelector("[data-cited]");
    cited.innerHTML = shown.cites.map(function (ref) { return pack.sections[lang][ref] || ""; }).join("");
    feedback.querySelector("[data-rule-heading]").hidden = !shown.cites.length;
    form.querySelector("fieldset.questions").disabled = true;
    form.querySelector("button[type=submit]").hidden = true;
    feedback.hidden = false;
    var now = Date.now();
    var entry = {
      id: crypto.randomUUID(),
      token: variant.token,
      answers: values,
      right: variant.key.reduce(function (acc, k) { acc[k.id] = k.right; return acc; }, {}),
      at: now,
      ms: now - shownAt,
      lang: lang,
      pack: pack.id,
      title: questionTitle(),
    };
    api().store.put("outbox", entry).then(function () {
      return api().store.put("answered", { token: variant.token, pack: pack.id });
    }).then(function () {
      api().refresh();
      listPacks();
      api().sync();
    });
    document.dispatchEvent(new CustomEvent("htmx:afterSwap", { detail: { target: feedback } }));
    var heading = feedback.querySelector("#feedback-heading");
    if (heading) heading.focus();
  }

  // The what-if the pack holds: the server ruled each value it offers; picking one shows that
  // result fragment (the practice page's own), nothing is worked out here.
  function whatIf(holder, held) {
    holder.innerHTML = held.box || "";
    holder.querySelectorAll("form[data-whatif-form]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var results = (held.results || {})[form.getAttribute("data-param")] || {};
        var out = holder.querySelector("[data-whatif-result]");
        var fragment = results[form.elements.value.value];
        if (fragment) out.innerHTML = fragment;
        else {
          out.textContent = "";
          var p = document.createElement("p");
          p.textContent = msg("asked");
          out.appendChild(p);
        }
      });
    });
  }

  // The question's title as the page shows it, kept with the answer for the refused list.
  function questionTitle() {
    var heading = root.querySelector("[data-offline-question] h1");
    return heading ? heading.textContent.trim() : "";
  }

  // --- answers the server refused ----------------------------------------------------------------

  function listRefused() {
    var section = root.querySelector("[data-refused]");
    api().store.get("settings", "refused").then(function (kept) {
      var results = (kept && kept.results) || [];
      var list = section.querySelector("[data-refused-list]");
      list.textContent = "";
      results.slice().reverse().forEach(function (r) {
        var li = document.createElement("li");
        var when = r.at ? new Date(r.at).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" }) : "";
        var head = document.createElement("strong");
        head.textContent = [r.title, when].filter(Boolean).join(" · ");
        li.appendChild(head);
        li.appendChild(document.createTextNode(" " + (r.message || "")));
        list.appendChild(li);
      });
      section.hidden = !results.length;
    }).catch(function () {});
  }

  function clearRefused() {
    api().store.put("settings", { key: "refused", results: [] }).then(listRefused);
  }

  // --- start -----------------------------------------------------------------------------------

  function ios() {
    var touchMac = navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1;
    var installed = window.navigator.standalone || window.matchMedia("(display-mode: standalone)").matches;
    return (/iPad|iPhone|iPod/.test(navigator.userAgent) || touchMac) && !installed;
  }

  document.addEventListener("DOMContentLoaded", function () {
    root = document.getElementById("offline");
    if (!root) return;
    lang = root.getAttribute("data-lang");
    if (!window.indexedDB || !("serviceWorker" in navigator)) { status(msg("unsupported")); return; }
    root.querySelector("[data-ios-hint]").hidden = !ios();
    root.querySelectorAll("form[data-download]").forEach(function (form) {
      form.addEventListener("submit", function (event) { event.preventDefault(); download(form); });
    });
    root.querySelector("[data-start]").addEventListener("click", ask);
    root.querySelector("[data-next]").addEventListener("click", ask);
    fetch(root.getAttribute("data-sync-url"), { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (state) {
        root.querySelector("[data-needs-account]").hidden = !state.signed_in;
        if (state.held_until) api().hold(state.held_until);
        else api().store.put("settings", { key: "hold", until: 0 });
      }).catch(function () {});
    storageNote();
    listPacks();
    listRefused();
    root.querySelector("[data-refused-clear]").addEventListener("click", clearRefused);
    document.addEventListener("offline:synced", listRefused);
  });
})();
