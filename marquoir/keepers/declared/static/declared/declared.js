// A declared game's round form: steppers (− and +) beside small counts, and each player's
// points for the round shown while it is typed (GET …/points, which records nothing). The
// form works without this script: the counts are typed, the points shown once recorded.
(function () {
  "use strict";
  var timer = null;
  var asked = 0;

  function form() {
    return document.querySelector(".declared-form");
  }

  function clamp(input, value) {
    var least = input.dataset.min === undefined ? -Infinity : Number(input.dataset.min);
    var most = input.dataset.max === undefined ? Infinity : Number(input.dataset.max);
    return Math.min(most, Math.max(least, value));
  }

  function showSteppers(root) {
    Array.prototype.forEach.call(root.querySelectorAll(".stepper[hidden]"), function (button) {
      button.hidden = false;
    });
  }

  function preview() {
    var entry = form();
    if (!entry || !entry.dataset.points) { return; }
    var params = new URLSearchParams(new FormData(entry));
    ["csrfmiddlewaretoken", "type", "expected_seq", "action_id"].forEach(function (name) { params.delete(name); });
    var mine = ++asked;
    fetch(entry.dataset.points + "?" + params.toString(), { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (answer) {
        if (!answer || mine !== asked || form() !== entry) { return; }
        var note = entry.querySelector(".declared-preview");
        Array.prototype.forEach.call(entry.querySelectorAll("output.points"), function (output) {
          var points = answer.points ? answer.points[Number(output.dataset.seat)] : null;
          output.textContent = points === null || points === undefined ? "" : (points < 0 ? "\u2212" + (-points) : String(points)) + " " + (entry.dataset.pointsWord || "");
        });
        if (note) {
          // A round not all filled in yet is no refusal to show: only what would be refused.
          var unfinished = answer.reason === "missing_input" || answer.reason === "missing_part";
          note.textContent = unfinished ? "" : (answer.message || "");
          note.hidden = unfinished || !answer.message;
        }
      })
      .catch(function () { /* offline: the points show once the round is recorded */ });
  }

  function later() {
    window.clearTimeout(timer);
    timer = window.setTimeout(preview, 250);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest(".stepper") : null;
    if (!button) { return; }
    var input = document.getElementById(button.dataset.for);
    if (!input) { return; }
    var now = parseInt(input.value, 10);
    input.value = String(clamp(input, (isNaN(now) ? 0 : now) + Number(button.dataset.step)));
    later();
  });

  document.addEventListener("input", function (event) {
    if (event.target.form && event.target.form === form()) {
      if (event.target.closest(".records")) { revealRecords(event.target.form); }
      later();
    }
  });
  document.addEventListener("change", function (event) {
    if (event.target.form && event.target.form === form()) { later(); }
  });

  // A list of records (Kingdomino's properties): the rows filled in and one empty row show;
  // typing in the last one shows the next. Without this script every row shows.
  function revealRecords(root) {
    Array.prototype.forEach.call(root.querySelectorAll(".records__rows"), function (list) {
      var rows = list.querySelectorAll(".records__row");
      var shownEmpty = false;
      Array.prototype.forEach.call(rows, function (row) {
        var filled = Array.prototype.some.call(row.querySelectorAll("input, select"), function (field) { return field.value !== ""; });
        row.hidden = !filled && shownEmpty;
        if (!filled) { shownEmpty = true; }
      });
    });
  }

  function ready() {
    var entry = form();
    if (!entry) { return; }
    showSteppers(entry);
    revealRecords(entry);
    preview();
  }

  // The table is drawn again after a round (outbox.js) or news from another phone (live.js).
  document.addEventListener("htmx:afterSwap", ready);
  document.addEventListener("marquoir:redrawn", ready);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
