// The field diagram. Every field: text and marks keep their size on screen whatever the zoom
// (--k, see field.css), and a "Whole field" / "Close-up" control where the page offers one.
// A place question's field is also an input: tap or click puts the ball there, dragging moves
// it (the ball follows the finger), arrow keys and the nudge buttons move it a yard (Shift: 10).
// The typed yards stay the source of truth, so the form works the same without this script.
// The ball lives in the field's [data-measured] group, whose coordinates are those yards (from
// the fouling team's goal line, across from the centre, + to the left): the server draws that
// frame, so nothing here converts between it and the field's own.
(function () {
  "use strict";

  var DESIGN = 2.1; // pixels per yard the marks are drawn for (the whole field on a laptop)

  function width(svg) {
    return svg.getBoundingClientRect().width;
  }

  function scale(svg) {
    // With preserveAspectRatio "meet" the view fits the narrower of the two ratios.
    var rect = svg.getBoundingClientRect();
    var box = svg.getAttribute("viewBox").split(/\s+/).map(parseFloat);
    var perYard = Math.min(rect.width / box[2], rect.height / box[3]);
    if (perYard > 0) svg.style.setProperty("--k", (DESIGN / perYard).toFixed(3));
    spaceLabels(svg);
  }

  // The lines' numbers of the view on screen, kept apart at the width drawn: a number that
  // would touch one already written goes to a second row (above the first; just inside the
  // field when there is no room above it, clear of the "left" label there), or is left out when
  // those are taken too or it would stick out of the view. They are written by rank
  // (diagram.py: the 30s, the 60s, the centre, then the 40s between them): the 40s give way first.
  function spaceLabels(svg) {
    var group = svg.querySelector(
      svg.classList.contains("zoomed") ? ".line-labels.for-zoom" : ".line-labels.for-whole"
    );
    if (!group) return;
    svg.setAttribute("data-labels-spaced", "");
    var labels = Array.prototype.slice.call(group.querySelectorAll(".line-label"));
    labels.forEach(function (label) {
      label.classList.remove("row2", "row-in", "crowded");
    });
    var view = svg.viewBox.baseVal;
    var above = group.classList.contains("above");
    var rows = { first: [], second: [], inside: [] };
    // Just inside the field, the "left" label is in the way.
    svg.querySelectorAll(".side-label").forEach(function (side) {
      var b = side.getBBox();
      if (b.width) rows.inside.push([b.x, b.x + b.width, b.y, b.y + b.height]);
    });
    labels.sort(function (a, b) {
      var rank = a.getAttribute("data-rank") - b.getAttribute("data-rank");
      return rank || a.x.baseVal[0].value - b.x.baseVal[0].value;
    });
    labels.forEach(function (label) {
      var box = label.getBBox();
      var size = parseFloat(window.getComputedStyle(label).fontSize) || box.height;
      var pad = size * 0.12;
      var y = label.y.baseVal[0].value;
      if (box.x < view.x || box.x + box.width > view.x + view.width) {
        label.classList.add("crowded");
        return;
      }
      function free(row, top, bottom) {
        return rows[row].every(function (s) {
          var apart = box.x + box.width + pad <= s[0] || box.x - pad >= s[1];
          return apart || (s.length > 2 && (bottom <= s[2] || top >= s[3]));
        });
      }
      function take(row, name) {
        rows[row].push([box.x - pad, box.x + box.width + pad, y, y + 1.2 * size]);
        if (name) label.classList.add(name);
      }
      if (free("first")) take("first");
      else if (above && y - 2.45 * size >= view.y && free("second")) take("second", "row2");
      else if (!above && free("second")) take("second", "row2");
      else if (above && free("inside", y, y + 1.2 * size)) take("inside", "row-in");
      else label.classList.add("crowded");
    });
  }

  function tools(svg) {
    return document.querySelector("[data-field-tools='" + svg.id + "']");
  }

  function setView(svg, zoomed) {
    var box = zoomed ? svg.dataset.zoom : svg.dataset.whole;
    if (!box) return;
    svg.setAttribute("viewBox", box);
    svg.classList.toggle("zoomed", zoomed);
    var t = tools(svg);
    var button = t && t.querySelector("[data-field-zoom]");
    if (button) button.textContent = zoomed ? button.dataset.labelWhole : button.dataset.labelZoom;
    scale(svg);
  }

  function setup() {
    document.querySelectorAll("svg.field").forEach(function (svg) {
      if (svg.dataset.ready) return;
      svg.dataset.ready = "1";
      var t = tools(svg);
      if (t) t.hidden = false;
      // On a phone a place question starts on the fouling team's half (about twice the
      // pixels per yard); the feedback is drawn close up on every screen.
      var input = svg.hasAttribute("data-field");
      if (svg.dataset.zoom && (!input || width(svg) < 600)) setView(svg, true);
      else if (svg.dataset.zoom) setView(svg, false);
      scale(svg);
      if (resized) resized.observe(svg);
      if (input) readout(svg);
    });
    // Once answered, the form is disabled: the ball no longer moves.
    var io = inputs();
    if (io && io.along.disabled) {
      document.querySelectorAll(".field-tools .nudge").forEach(function (n) {
        n.hidden = true;
      });
    }
  }

  window.addEventListener("resize", function () {
    document.querySelectorAll("svg.field").forEach(scale);
  });
  // A field whose box changes without the window (a projector fitting its round) scales too.
  var resized = window.ResizeObserver
    ? new ResizeObserver(function (entries) {
        entries.forEach(function (entry) {
          scale(entry.target);
        });
      })
    : null;

  // --- the place question ------------------------------------------------------------------

  // The place inputs of a field: inside its [data-field-scope] (an exam shows one field per
  // question), else the page's one quiz form.
  function inputs(svg) {
    var form = (svg && svg.closest("[data-field-scope]")) || document.getElementById("quiz");
    if (!form) return null;
    var along = form.querySelector("[data-place='along']");
    var across = form.querySelector("[data-place='across']");
    return along && across ? { along: along, across: across } : null;
  }

  function read(field) {
    var v = parseFloat(field.value.replace(",", "."));
    return isFinite(v) ? v : null;
  }

  function round(v) {
    return Math.round(v * 2) / 2;
  }

  function place(svg, along, across, announce) {
    var io = inputs(svg);
    if (!io || io.along.disabled) return;
    var length = parseFloat(svg.dataset.length);
    var hw = parseFloat(svg.dataset.halfWidth);
    along = Math.min(Math.max(round(along), 0), length);
    across = Math.min(Math.max(round(across), -hw), hw);
    io.along.value = String(along);
    io.across.value = String(across);
    draw(svg, along, across);
    var text = readout(svg);
    if (announce && text) {
      var status = document.getElementById(svg.id + "-status");
      if (status) status.textContent = text;
    }
    // A spot set on the field is an answer given: forms that save on change (an exam) hear it.
    if (announce) io.across.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function draw(svg, along, across) {
    var marker = svg.querySelector("[data-marker]");
    if (!marker) return;
    marker.setAttribute("transform", "translate(" + along + " " + across + ")");
    marker.removeAttribute("display");
  }

  function readout(svg) {
    var t = tools(svg);
    var out = t && t.querySelector("[data-readout]");
    var io = inputs(svg);
    if (!out || !io) return "";
    var along = read(io.along);
    var across = read(io.across);
    if (along === null || across === null) {
      out.textContent = "";
      return "";
    }
    var template = across > 0 ? out.dataset.left : across < 0 ? out.dataset.right : out.dataset.level;
    out.textContent = template.replace("{along}", along).replace("{across}", Math.abs(across));
    return out.textContent;
  }

  function pointAt(svg, event) {
    var frame = svg.querySelector("[data-measured]");
    var p = new DOMPoint(event.clientX, event.clientY).matrixTransform(frame.getScreenCTM().inverse());
    return { along: p.x, across: p.y };
  }

  var dragging = null;

  document.addEventListener("pointerdown", function (event) {
    var svg = event.target.closest && event.target.closest("svg[data-field]");
    if (!svg || event.button > 0) return;
    dragging = svg;
    svg.setPointerCapture(event.pointerId);
    var at = pointAt(svg, event);
    place(svg, at.along, at.across, false);
    event.preventDefault();
  });

  document.addEventListener("pointermove", function (event) {
    if (!dragging) return;
    var at = pointAt(dragging, event);
    place(dragging, at.along, at.across, false);
  });

  function release(event) {
    if (!dragging) return;
    var svg = dragging;
    dragging = null;
    var io = inputs(svg);
    if (io) place(svg, read(io.along), read(io.across), true);
    if (event.pointerType !== "touch") svg.focus({ preventScroll: true });
  }
  document.addEventListener("pointerup", release);
  document.addEventListener("pointercancel", release);

  function nudge(svg, dx, dy) {
    var io = inputs(svg);
    if (!io) return;
    var along = read(io.along);
    var across = read(io.across);
    if (along === null) along = parseFloat(svg.dataset.length) / 2; // the centre of the field
    if (across === null) across = 0;
    place(svg, along + dx, across + dy, true);
  }

  var STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

  document.addEventListener("keydown", function (event) {
    var svg = event.target.closest && event.target.closest("svg[data-field]");
    if (!svg || !STEPS[event.key]) return;
    event.preventDefault();
    var step = event.shiftKey ? 10 : 1;
    nudge(svg, STEPS[event.key][0] * step, STEPS[event.key][1] * step);
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-field-zoom], [data-nudge]");
    if (!button) return;
    var box = button.closest("[data-field-tools]");
    var svg = box && document.getElementById(box.dataset.fieldTools);
    if (!svg) return;
    if (button.dataset.nudge) {
      var d = button.dataset.nudge.split(",");
      nudge(svg, parseFloat(d[0]), parseFloat(d[1]));
    } else {
      setView(svg, !svg.classList.contains("zoomed"));
    }
  });

  document.addEventListener("input", function (event) {
    if (!event.target.dataset || !event.target.dataset.place) return;
    var scope = event.target.closest("[data-field-scope]");
    var svg = (scope || document).querySelector("svg[data-field]");
    if (!svg) return;
    var io = inputs(svg);
    var along = read(io.along);
    var across = read(io.across);
    if (along !== null && across !== null) draw(svg, along, across);
    readout(svg);
  });

  document.addEventListener("DOMContentLoaded", function () {
    setup();
    var error = document.getElementById("quiz-error");
    if (error) error.focus();
  });

  // After htmx swaps in the feedback (or the form with its messages), take the reader there.
  // The message of a refused answer takes the focus once htmx has settled (after its own
  // autofocus, which serves pages without JavaScript).
  document.addEventListener("htmx:afterSettle", function () {
    var error = document.getElementById("quiz-error");
    if (error) error.focus();
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    setup();
    if (document.getElementById("quiz-error")) return;
    var heading = document.getElementById("feedback-heading");
    var target = event.detail.target;
    if (heading && target && (target.id === "feedback" || (event.detail.elt && event.detail.elt.id === "feedback"))) {
      heading.focus();
    }
  });
})();
