// Decision drills: play the scene once at match speed (Web Animations API), stop, count down,
// send the call; then the reveal, with replays (counted) that draw the ruled spot.
// The scene comes with the start; from then until the answer the page needs no network.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
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

  function el(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }
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
  function transform(k) { return "translate(" + k[1] + "px," + (-k[2]) + "px)"; }

  // --- drawing ---------------------------------------------------------------------------------
  function draw(scene) {
    layer.textContent = "";
    // The ball on top of the riders: it is what the call is about.
    var order = scene.tracks.filter(function (t) { return t.id !== "ball"; })
      .concat(scene.tracks.filter(function (t) { return t.id === "ball"; }));
    // Discs keep a readable size on screen whatever the view's scale (about 11 px across a
    // rider's radius): their positions stay to scale, their size is a glyph's.
    var perYard = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width || 3;
    var size = Math.max(0.4, Math.min(1.6, 11 / (3.4 * perYard)));
    return order.map(function (tr) {
      var outer = el("g", { "class": tr.id === "ball" ? "actor ball-actor" : "actor player " + tr.team }, layer);
      var g = el("g", { transform: "scale(" + size.toFixed(3) + ")" }, outer);
      var head = null;
      if (tr.id === "ball") {
        el("circle", { r: "1.8", "class": "ball" }, g);
      } else {
        head = el("g", { "class": "heading" }, g);
        el("path", { d: "M3.2,-1.8L6.6,0L3.2,1.8z", "class": "nose" }, head);
        el("circle", { r: "3.4" }, g);
        var t = el("text", { y: "1.9" }, g);
        t.textContent = tr.n;
      }
      return { track: tr, g: outer, head: head };
    });
  }
  function place(actors, index) {
    actors.forEach(function (a) {
      var k = a.track.k[Math.min(index, a.track.k.length - 1)];
      a.g.style.transform = transform(k);
      if (a.head) a.head.style.transform = "rotate(" + (-k[3]) + "deg)";
    });
  }
  function at(track, t) {
    var k = track.k;
    if (t <= k[0][0]) return k[0];
    for (var i = 1; i < k.length; i++) {
      if (t <= k[i][0]) {
        var a = k[i - 1], b = k[i], s = b[0] === a[0] ? 0 : (t - a[0]) / (b[0] - a[0]);
        return [t, a[1] + (b[1] - a[1]) * s, a[2] + (b[2] - a[2]) * s, a[3]];
      }
    }
    return k[k.length - 1];
  }
  function animate(actors, scene, rate) {
    var duration = scene.stop * 1000 / rate;
    var runs = [];
    actors.forEach(function (a) {
      var frames = a.track.k.map(function (k) {
        return { offset: scene.stop ? Math.min(1, k[0] / scene.stop) : 1, transform: transform(k) };
      });
      if (frames[0].offset > 0) frames.unshift({ offset: 0, transform: frames[0].transform });
      if (frames[frames.length - 1].offset < 1) frames.push({ offset: 1, transform: frames[frames.length - 1].transform });
      runs.push(a.g.animate(frames, { duration: duration, fill: "forwards", easing: "linear" }));
      if (a.head) {
        var turns = a.track.k.map(function (k) { return { offset: scene.stop ? Math.min(1, k[0] / scene.stop) : 1, transform: "rotate(" + (-k[3]) + "deg)" }; });
        if (turns[0].offset > 0) turns.unshift({ offset: 0, transform: turns[0].transform });
        if (turns[turns.length - 1].offset < 1) turns.push({ offset: 1, transform: turns[turns.length - 1].transform });
        runs.push(a.head.animate(turns, { duration: duration, fill: "forwards", easing: "steps(1, end)" }));
      }
    });
    return Promise.all(runs.map(function (r) { return r.finished; }));
  }
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
    var times = [];
    scene.tracks.forEach(function (tr) { tr.k.forEach(function (k) { if (times.indexOf(k[0]) < 0) times.push(k[0]); }); });
    if (times.indexOf(scene.stop) < 0) times.push(scene.stop);
    times.sort(function (a, b) { return a - b; });
    return new Promise(function (done) {
      var i = 0;
      (function next() {
        if (i >= times.length) { done(); return; }
        actors.forEach(function (a) {
          var k = at(a.track, times[i]);
          a.g.style.transform = transform(k);
          if (a.head) a.head.style.transform = "rotate(" + (-k[3]) + "deg)";
        });
        say(root.dataset.labelStep.replace("{n}", i + 1).replace("{total}", times.length));
        var line = document.getElementById("scene-caption");
        if (line && sentences) {
          var now = times[i];
          (scene.events || []).forEach(function (e, j) {
            if (e[1] !== "whistle_due" && e[0] <= now && sentences[j]) line.textContent = sentences[j];
          });
        }
        i += 1;
        setTimeout(next, STEP_MS);
      })();
    });
  }
  function showSpots(points) {
    spots.textContent = "";
    (points || []).forEach(function (p) {
      el("circle", { cx: p[0], cy: -p[1], r: "5", "class": "right-ring" }, spots);
      el("circle", { cx: p[0], cy: -p[1], r: "1.6", "class": "right-dot" }, spots);
    });
    if (points && points.length) fitView(points);
  }
  function fitView(points) {
    // The ruled spot may lie outside the play's view (the centre, for a Penalty 1): widen it.
    var vb = svg.viewBox.baseVal;
    var minX = vb.x, maxX = vb.x + vb.width, minY = vb.y, maxY = vb.y + vb.height;
    points.forEach(function (p) {
      minX = Math.min(minX, p[0] - 12); maxX = Math.max(maxX, p[0] + 12);
      minY = Math.min(minY, -p[1] - 12); maxY = Math.max(maxY, -p[1] + 12);
    });
    svg.setAttribute("viewBox", [minX, minY, maxX - minX, maxY - minY].join(" "));
  }

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
    place(actors, 1e9);
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
        place(actors, 1e9);
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
    document.getElementById("play-button").addEventListener("click", start);
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
