// A declared game's round form: steppers (− and +) beside small counts, and each player's
// points for the round shown while it is typed (GET …/points, which records nothing), the
// numbers not typed yet as 0 (partial): in the pad, and in the band each side's total as it
// would be, always in view while a score booklet is filled in category by category. The
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
    params.set("partial", "1");
    var mine = ++asked;
    fetch(entry.dataset.points + "?" + params.toString(), { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (answer) {
        if (!answer || mine !== asked || form() !== entry) { return; }
        var note = entry.querySelector(".declared-preview");
        Array.prototype.forEach.call(entry.querySelectorAll("output.points"), function (output) {
          var points = answer.points ? answer.points[Number(output.dataset.seat)] : null;
          output.textContent = points === null || points === undefined ? "" : signed(points) + " " + (entry.dataset.pointsWord || "");
        });
        pending(entry, answer.points);
        if (note) {
          // A round not all filled in yet is no refusal to show: only what would be refused.
          var unfinished = answer.reason === "missing_input" || answer.reason === "missing_part";
          note.textContent = unfinished ? "" : (answer.message || "");
          note.hidden = unfinished || !answer.message;
        }
      })
      .catch(function () { /* offline: the points show once the round is recorded */ });
  }

  function signed(points) {
    return points < 0 ? "\u2212" + (-points) : String(points);
  }

  // Each side's total in the band as it would be with the points so far, marked as not yet
  // recorded; back to the recorded total when the round is refused, and drawn again once it is
  // recorded. Not while a past round is corrected (the band holds its old points), nor where the
  // form says the round's points do not simply add up (data-band-pending absent). The pad's
  // own outputs say the points to a screen reader: this is for the eyes, across the table.
  function figure(tile) {
    var score = tile.querySelector(".band__score");
    var node = score ? (score.querySelector(".band__figure") || score).firstChild : null;
    return node && node.nodeType === 3 ? node : null;
  }

  function pending(entry, points) {
    var tiles = document.querySelectorAll(".band__player");
    var correcting = entry.querySelector("input[name=correct]") !== null;
    var shownHere = entry.dataset.bandPending !== undefined && !correcting;
    Array.prototype.forEach.call(tiles, function (tile, side) {
      var node = figure(tile);
      if (!node) { return; }
      if (tile.dataset.recorded === undefined) { tile.dataset.recorded = node.nodeValue; }
      var recorded = tile.dataset.recorded;
      var before = Number(recorded.replace("\u2212", "-"));
      var value = shownHere && points && points.length === tiles.length ? points[side] : null;
      var shown = value === null || value === undefined || !Number.isInteger(before) || /\s/.test(recorded) ? recorded : signed(before + value);
      if (node.nodeValue !== shown) { node.nodeValue = shown; }
      tile.classList.toggle("band__player--pending", shown !== recorded);
      // The unit said after the number ("points") is the recorded total's plural.
      var unit = tile.querySelector(".band__score .visually-hidden");
      if (unit) { unit.hidden = shown !== recorded; }
    });
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
