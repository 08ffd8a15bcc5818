// Decision drills: play the scene once at match speed (Web Animations API), stop, count down,
// send the call; then the reveal, with replays (counted) that draw the ruled spot.
// The scene comes with the start; from then until the answer the page needs no network.
(function () {
  "use strict";
  var root = document.getElementById("drill");
  if (!root) return;
  var svg = document.getElementById("scene");
  var layer = document.getElementById("actors");
  var spots = document.getElementById("reveal-layer");
  var marks = document.getElementById("event-marks");
  var status = document.getElementById("drill-status");
  var form = document.getElementById("drill-form");
  var goalLine = parseFloat(root.dataset.goalLine);
  var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  var STEP_MS = 1200;
  var state = { stoppedAt: null, end: 0, timer: null, sent: false, scene: null };

  var P = window.PoloScene.player(svg, { actors: layer, spots: spots });
  var el = P.el;
  function csrf() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }
  function post(url, body, extra) {
    var headers = { "X-CSRFToken": csrf(), "X-Drill": "1" };
    return fetch(url, { method: "POST", body: body, headers: headers, credentials: "same-origin" }).then(function (r) {
      return (extra === "json" ? r.json() : r.text()).then(function (data) { return { ok: r.ok, status: r.status, data: data }; });
    });
  }
  function say(text) { if (status) status.textContent = text; }

  // --- drawing (static/js/scene.js) ------------------------------------------------------------
  function draw(scene) { return P.draw(scene); }
  function place(actors) { P.pose(actors, 1e9); }
  function animate(actors, scene, rate) { return P.animate(actors, scene, rate, 0); }
  function caption(scene, sentences, rate) {
    // What happens, as it happens: the event's sentence under the field and a brief ring
    // where it happens (a helmet falls, the horn, a whistle). The sentences are the list's,
    // one per event; the screen reader reads the list, not this line.
    var line = document.getElementById("scene-caption");
    if (!line) return;
    line.textContent = "";
    (scene.events || []).forEach(function (e, i) {
      if (e[1] === "whistle_due" || !sentences || !sentences[i]) return;
      setTimeout(function () {
        line.textContent = sentences[i];
        if (reduced || !marks) return;
        var mark = el("circle", { cx: e[2], cy: -e[3], r: "4", "class": "event-mark" }, marks);
        if (mark.animate) mark.animate([{ opacity: 1 }, { opacity: 0 }], { duration: 900, fill: "forwards" });
        setTimeout(function () { mark.remove(); }, 950);
      }, e[0] * 1000 / rate);
    });
  }
  function steps(actors, scene, sentences) {
    // Reduced motion: the key frames one by one, no movement in between.
    return P.steps(actors, scene, STEP_MS, function (i, total, now) {
      say(root.dataset.labelStep.replace("{n}", i + 1).replace("{total}", total));
      var line = document.getElementById("scene-caption");
      if (line && sentences) {
        (scene.events || []).forEach(function (e, j) {
          if (e[1] !== "whistle_due" && e[0] <= now && sentences[j]) line.textContent = sentences[j];
        });
      }
    });
  }
  function showSpots(points) { P.showSpots(points); }

  // --- the call --------------------------------------------------------------------------------
  function describe(sentences) {
    var list = document.getElementById("scene-text");
    list.textContent = "";
    sentences.forEach(function (s) { var li = document.createElement("li"); li.textContent = s; list.appendChild(li); });
  }
  function decide(left) {
    var fields = document.getElementById("drill-questions");
    fields.disabled = false;
    document.getElementById("drill-submit").disabled = false;
    if (state.stoppedAt === null) state.stoppedAt = performance.now();
    var first = fields.querySelector("input, select");
    if (first) first.focus({ preventScroll: true });
    var box = document.getElementById("countdown");
    box.hidden = false;
    // On a phone the questions are below the field: bring them into view with the countdown.
    var scroller = document.getElementById("scene");
    scroller.scrollIntoView({ block: "start", behavior: reduced ? "auto" : "smooth" });
    var end = state.end = performance.now() + left;
    var whole = parseFloat(box.dataset.left || left);
    function tick() {
      var ms = Math.max(0, end - performance.now());
      box.firstElementChild.style.width = (100 * ms / whole) + "%";
      say(root.dataset.labelCountdown.replace("{s}", Math.ceil(ms / 1000)));
      if (ms <= 0) { send(true); return; }
      state.timer = setTimeout(tick, 100);
    }
    tick();
  }
  function send(timeout) {
    if (state.sent) return;
    state.sent = true;
    clearTimeout(state.timer);
    form.elements.reported_ms.value = Math.max(0, Math.round(performance.now() - state.stoppedAt));
    form.elements.timeout.value = timeout ? "1" : "";
    var body = new FormData(form);
    document.getElementById("drill-submit").disabled = true;
    post(form.action, body).then(function (r) {
      if (r.ok) { reveal(r.data); return; }
      var old = document.getElementById("refused");
      if (old) old.remove();
      form.insertAdjacentHTML("beforebegin", r.data);
      state.sent = false;
      document.getElementById("drill-submit").disabled = false;
      if (form.elements.timeout.value !== "1") decideAgain();
    });
  }
  function decideAgain() {
    // A refused answer (a value no question offers): the countdown goes on where it was.
    var left = state.end - performance.now();
    if (left > 0) decide(left); else send(true);
  }
  function reveal(html) {
    clearTimeout(state.timer);
    var old = document.getElementById("refused");
    if (old) old.remove();
    var holder = document.getElementById("reveal");
    holder.outerHTML = html;
    if (form) form.remove();
    say("");
    setupReveal();
    var heading = document.getElementById("reveal-heading");
    if (heading) heading.focus();
  }
  function setupReveal() {
    var box = document.getElementById("reveal");
    if (!box || !box.dataset.scene) return;
    var scene = JSON.parse(box.dataset.scene);
    var actors = draw(scene);
    place(actors);
    showSpots(scene.reveal);
    box.querySelectorAll("[data-replay]").forEach(function (button) {
      button.addEventListener("click", function () {
        var rate = parseFloat(button.dataset.replay);
        spots.textContent = "";
        var line = document.getElementById("scene-caption");
        if (line) line.textContent = "";
        var body = new FormData();
        if (rate < 1) body.append("slow", "1");
        post(root.dataset.replayUrl, body, "json").then(function (r) {
          var count = box.querySelector("[data-replay-count]");
          if (r.ok && count) count.textContent = count.textContent.replace(/\d+/, r.data.replays + r.data.slow_replays);
        });
        var run = reduced ? steps(actors, scene) : animate(actors, scene, rate);
        run.then(function () { showSpots(scene.reveal); });
      });
    });
  }

  function start() {
    var button = document.getElementById("play-button");
    button.disabled = true;
    var body = new FormData();
    if (reduced) body.append("steps", "1");
    post(root.dataset.startUrl, body, "json").then(function (r) {
      if (!r.ok) { if (r.data && r.data.reload) location.reload(); else say(r.data.error || ""); return; }
      if (r.data.reveal) { reveal(r.data.reveal); return; }
      var data = r.data;
      form.elements.token.value = data.token;
      state.scene = data.scene;
      var actors = draw(data.scene);
      describe(data.description);
      button.hidden = true;
      var box = document.getElementById("countdown");
      if (data.again) {
        // A reload: nothing plays again; the window runs from the first start.
        place(actors);
        var left = data.window_ms - Math.max(0, data.elapsed_ms - data.stop_ms);
        box.dataset.left = left;
        decide(Math.max(0, left));
        return;
      }
      say(root.dataset.labelPlaying);
      box.dataset.left = data.window_ms;
      if (!data.steps) caption(data.scene, data.description, 1);
      var run = data.steps ? steps(actors, data.scene, data.description) : animate(actors, data.scene, 1);
      run.then(function () { say(root.dataset.labelDecide); decide(data.window_ms); });
    });
  }

  if (form) {
    // The button comes disabled: a tap before this script runs would do nothing.
    var play = document.getElementById("play-button");
    play.addEventListener("click", start);
    if (!play.hidden) play.disabled = false;
    form.addEventListener("submit", function (event) { event.preventDefault(); send(false); });
    document.addEventListener("keydown", function (event) {
      var fields = document.getElementById("drill-questions");
      if (!fields || fields.disabled || event.altKey || event.ctrlKey || event.metaKey) return;
      var target = event.target;
      if (target && target.matches && target.matches("input[type=text], select")) return;
      if (/^[1-9]$/.test(event.key)) {
        var first = fields.querySelector("fieldset.question");
        var options = first ? first.querySelectorAll("input[type=radio], input[type=checkbox]") : [];
        var option = options[parseInt(event.key, 10) - 1];
        if (option) { option.click(); option.focus(); event.preventDefault(); }
      } else if (event.key === "Enter" && !(target && target.tagName === "BUTTON")) {
        event.preventDefault();
        send(false);
      }
    });
    svg.addEventListener("click", function (event) {
      // Tap where the ball goes: the place question's inputs, in the umpire's measures.
      var fields = document.getElementById("drill-questions");
      var along = form.querySelector("[data-place=along]");
      var across = form.querySelector("[data-place=across]");
      if (!along || !across || fields.disabled) return;
      var pt = svg.createSVGPoint();
      pt.x = event.clientX; pt.y = event.clientY;
      var p = pt.matrixTransform(svg.getScreenCTM().inverse());
      along.value = Math.round((p.x - goalLine) * 10) / 10;
      across.value = Math.round(-p.y * 10) / 10;
      spots.textContent = "";
      el("circle", { cx: p.x, cy: p.y, r: "2", "class": "mine-dot" }, spots);
    });
  }
  setupReveal();
})();
