// The scene player: draws a play's riders and ball on a to-scale field (SVG) and moves them with
// the Web Animations API. One home for the self-study drill (drills.js) and a clinic's drill
// round on the projector (clinics.js). window.PoloScene.player(svg, layers) gives the drawing
// functions for one field; `layers`: the groups to draw the riders in, and the ruled spots in.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";

  function el(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }
  function transform(k) { return "translate(" + k[1] + "px," + (-k[2]) + "px)"; }
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
  // The times of the key frames, up to the stop (reduced motion shows these one by one).
  function times(scene) {
    var out = [];
    scene.tracks.forEach(function (tr) { tr.k.forEach(function (k) { if (out.indexOf(k[0]) < 0) out.push(k[0]); }); });
    if (out.indexOf(scene.stop) < 0) out.push(scene.stop);
    return out.sort(function (a, b) { return a - b; });
  }

  function player(svg, layers) {
    var layer = layers.actors, spots = layers.spots;

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
    // Every actor where it is at time t (seconds; a large t: at the stop).
    function pose(actors, t) {
      actors.forEach(function (a) {
        var k = at(a.track, t);
        a.g.style.transform = transform(k);
        if (a.head) a.head.style.transform = "rotate(" + (-k[3]) + "deg)";
      });
    }
    // Play from `from` seconds (0: the start) to the stop at `rate`; resolves at the stop.
    function animate(actors, scene, rate, from) {
      var duration = scene.stop * 1000 / rate;
      var runs = [];
      function frames(track, fn) {
        var list = track.k.map(function (k) { return { offset: scene.stop ? Math.min(1, k[0] / scene.stop) : 1, transform: fn(k) }; });
        if (list[0].offset > 0) list.unshift({ offset: 0, transform: list[0].transform });
        if (list[list.length - 1].offset < 1) list.push({ offset: 1, transform: list[list.length - 1].transform });
        return list;
      }
      actors.forEach(function (a) {
        runs.push(a.g.animate(frames(a.track, transform), { duration: duration, fill: "forwards", easing: "linear" }));
        if (a.head) {
          runs.push(a.head.animate(frames(a.track, function (k) { return "rotate(" + (-k[3]) + "deg)"; }),
            { duration: duration, fill: "forwards", easing: "steps(1, end)" }));
        }
      });
      if (from) runs.forEach(function (r) { r.currentTime = Math.min(duration, from * 1000 / rate); });
      return Promise.all(runs.map(function (r) { return r.finished; }));
    }
    // Reduced motion: the key frames one by one, `stepMs` each, no movement in between;
    // onStep(i, total, t) after each.
    function steps(actors, scene, stepMs, onStep) {
      var list = times(scene);
      return new Promise(function (done) {
        var i = 0;
        (function next() {
          if (i >= list.length) { done(); return; }
          pose(actors, list[i]);
          if (onStep) onStep(i, list.length, list[i]);
          i += 1;
          setTimeout(next, stepMs);
        })();
      });
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
    function showSpots(points) {
      spots.textContent = "";
      (points || []).forEach(function (p) {
        el("circle", { cx: p[0], cy: -p[1], r: "5", "class": "right-ring" }, spots);
        el("circle", { cx: p[0], cy: -p[1], r: "1.6", "class": "right-dot" }, spots);
      });
      if (points && points.length) fitView(points);
    }
    return { el: el, draw: draw, pose: pose, animate: animate, steps: steps, showSpots: showSpots, times: times };
  }

  window.PoloScene = { player: player, at: at };
})();
