// On every page: the service worker, the outbox of answers given offline, and its badge.
// Answers wait in IndexedDB ("outbox") until the connection is back; they are sent when a page
// opens, when the browser says it is online again and when the page becomes visible (no
// Background Sync: Safari has none). The server grades each one again and records it once, so
// sending twice (two tabs, a retry) does no harm. The plural forms of the badge come from the
// catalog, rendered by the server for one and for many (999999 stands for the number); Italian
// and English both say "one" for 1 only.
(function () {
  "use strict";

  var NAME = "polotrainer-offline";
  var STORES = [["packs", "id"], ["outbox", "id"], ["answered", "token"], ["settings", "key"]];
  var BATCH = 500;
  var REFUSED_KEPT = 50; // the refused answers the offline page lists, newest last
  var syncing = null;

  function open() {
    return new Promise(function (resolve, reject) {
      if (!window.indexedDB) return reject(new Error("no IndexedDB"));
      var request = indexedDB.open(NAME, 1);
      request.onupgradeneeded = function () {
        STORES.forEach(function (s) {
          if (!request.result.objectStoreNames.contains(s[0])) {
            request.result.createObjectStore(s[0], { keyPath: s[1] });
          }
        });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function run(store, mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(store, mode);
        var result;
        var request = work(tx.objectStore(store));
        if (request) request.onsuccess = function () { result = request.result; };
        tx.oncomplete = function () { db.close(); resolve(result); };
        tx.onerror = function () { db.close(); reject(tx.error); };
        tx.onabort = function () { db.close(); reject(tx.error); };
      });
    });
  }

  var store = {
    all: function (name) { return run(name, "readonly", function (s) { return s.getAll(); }); },
    get: function (name, key) { return run(name, "readonly", function (s) { return s.get(key); }); },
    put: function (name, value) { return run(name, "readwrite", function (s) { return s.put(value); }); },
    del: function (name, key) { return run(name, "readwrite", function (s) { return s.delete(key); }); },
    count: function (name) { return run(name, "readonly", function (s) { return s.count(); }); },
  };

  function badge() {
    return document.querySelector("[data-outbox-badge]");
  }

  function plural(kind, n) {
    var el = badge();
    if (!el) return String(n);
    if (n === 1) return el.getAttribute("data-" + kind + "-one");
    return el.getAttribute("data-" + kind + "-other").replace("999999", String(n));
  }

  function show(text) {
    var el = badge();
    if (!el) return;
    el.querySelector("[data-outbox-text]").textContent = text;
    el.hidden = !text;
  }

  function refresh() {
    return store.count("outbox").then(function (n) {
      if (n) show(plural("waiting", n));
      else if (!lastRecorded) show("");
      document.dispatchEvent(new CustomEvent("offline:outbox", { detail: { waiting: n } }));
      return n;
    }, function () { return 0; });
  }

  var lastRecorded = 0;

  function hold(until) {
    store.put("settings", { key: "hold", until: until }).catch(function () {});
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ type: "hold", until: until });
    }
  }

  function post(url, csrf, entries) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify({ entries: entries }),
    }).then(function (response) {
      return response.json().then(function (body) { return { status: response.status, body: body }; });
    });
  }

  // Send the outbox; resolves with {recorded, refused} (refused: [{id, message}]).
  function sync() {
    if (syncing) return syncing;
    var el = badge();
    if (!el || navigator.onLine === false) return Promise.resolve(null);
    var url = el.getAttribute("data-sync-url");
    syncing = store.all("outbox").then(function (entries) {
      if (!entries.length) return null;
      return fetch(url, { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.json(); })
        .then(function (state) {
          store.put("settings", { key: "account", signedIn: state.signed_in }).catch(function () {});
          if (state.held_until) { hold(state.held_until); return null; }
          var recorded = 0;
          var refused = [];
          var chain = Promise.resolve();
          for (var i = 0; i < entries.length; i += BATCH) {
            (function (batch) {
              chain = chain.then(function () {
                return post(url, state.csrf, batch).then(function (answer) {
                  if (answer.status !== 200) return; // kept: sent again next time
                  var byId = {};
                  batch.forEach(function (entry) { byId[entry.id] = entry; });
                  return Promise.all(answer.body.results.map(function (result) {
                    var sent = byId[result.id] || {};
                    if (result.recorded) recorded += 1;
                    else if (result.reason !== "already_recorded") {
                      refused.push({ id: result.id, reason: result.reason, message: result.message, at: sent.at || 0, title: sent.title || "" });
                    }
                    return store.del("outbox", result.id);
                  }));
                });
              });
            })(entries.slice(i, i + BATCH));
          }
          return chain.then(function () {
            lastRecorded = recorded;
            var outcome = { recorded: recorded, refused: refused };
            if (!refused.length) return outcome;
            // The page lists what was refused, with the reason, until the user clears it.
            return store.get("settings", "refused").then(function (kept) {
              var all = ((kept && kept.results) || []).concat(refused).slice(-REFUSED_KEPT);
              return store.put("settings", { key: "refused", results: all });
            }).catch(function () {}).then(function () { return outcome; });
          });
        });
    }).then(function (outcome) {
      return refresh().then(function (waiting) {
        if (outcome && !waiting) {
          var words = [];
          if (outcome.recorded) words.push(plural("recorded", outcome.recorded));
          if (outcome.refused.length) words.push(plural("refused", outcome.refused.length));
          show(words.join(" · "));
        }
        document.dispatchEvent(new CustomEvent("offline:synced", { detail: outcome }));
        return outcome;
      });
    }, function () { return refresh().then(function () { return null; }); })
      .then(function (outcome) { syncing = null; return outcome; });
    return syncing;
  }

  window.PolotrainerOffline = { store: store, sync: sync, refresh: refresh, plural: plural, hold: hold };

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  }

  document.addEventListener("DOMContentLoaded", function () {
    // The exam page says until when a closed-book attempt runs.
    var meta = document.querySelector('meta[name="offline-hold"]');
    if (meta) hold(parseInt(meta.getAttribute("content"), 10) || 0);
    refresh().then(sync);
  });
  window.addEventListener("online", function () { sync(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") sync();
  });
})();
