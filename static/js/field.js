// The field diagram as an input: a click or tap puts the ball there; arrow keys move it (Shift:
// 10 yards). The x/y inputs stay the source of truth, so the form works the same without this.
(function () {
  "use strict";

  function inputs(svg) {
    var form = svg.closest("article").querySelector("#quiz");
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
    if (!io) return;
    var hl = parseFloat(svg.dataset.halfLength);
    var hw = parseFloat(svg.dataset.halfWidth);
    along = Math.min(Math.max(round(along), 0), 2 * hl);
    across = Math.min(Math.max(round(across), -hw), hw);
    io.along.value = String(along);
    io.across.value = String(across);
    draw(svg, along, across);
    if (announce) {
      var status = document.getElementById("field-status");
      if (status) status.textContent = io.along.labels[0].firstChild.textContent.trim() + ": " + along + "; " + io.across.labels[0].firstChild.textContent.trim() + ": " + across;
    }
  }

  function draw(svg, along, across) {
    var marker = svg.querySelector("[data-marker]");
    if (!marker) return;
    var hl = parseFloat(svg.dataset.halfLength);
    marker.setAttribute("transform", "translate(" + (along - hl) + " " + -across + ")");
    marker.removeAttribute("display");
  }

  document.addEventListener("click", function (event) {
    var svg = event.target.closest && event.target.closest("svg[data-field]");
    if (!svg) return;
    var point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
    place(svg, point.x + parseFloat(svg.dataset.halfLength), -point.y, true);
  });

  var STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

  document.addEventListener("keydown", function (event) {
    var svg = event.target.closest && event.target.closest("svg[data-field]");
    if (!svg || !STEPS[event.key]) return;
    event.preventDefault();
    var io = inputs(svg);
    if (!io) return;
    var step = event.shiftKey ? 10 : 1;
    var along = read(io.along);
    var across = read(io.across);
    if (along === null) along = parseFloat(svg.dataset.halfLength);
    if (across === null) across = 0;
    place(svg, along + STEPS[event.key][0] * step, across + STEPS[event.key][1] * step, true);
  });

  document.addEventListener("input", function (event) {
    if (!event.target.dataset || !event.target.dataset.place) return;
    var svg = event.target.closest("article").querySelector("svg[data-field]");
    if (!svg) return;
    var io = inputs(svg);
    var along = read(io.along);
    var across = read(io.across);
    if (along !== null && across !== null) draw(svg, along, across);
  });

  // After htmx swaps in the feedback, take the reader there.
  document.addEventListener("htmx:afterSwap", function (event) {
    var heading = document.getElementById("feedback-heading");
    if (heading && event.detail.target && event.detail.target.id === "feedback") heading.focus();
    if (heading && event.detail.elt && event.detail.elt.id === "feedback") heading.focus();
  });
})();
