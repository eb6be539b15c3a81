// The game clock and the turn timer of a table screen (tables/_clock.html): off until a phone
// switches them on, each phone's choice kept for the match (localStorage). The figures go in
// the band's #clock line, which the shell draws with the match's start and its last recorded
// action (the server's times: every phone counts alike); redrawn tables are picked up.
(function () {
  "use strict";
  var options = document.querySelector(".clock-options");
  if (!options) { return; }
  var key = "marquoir-clock-" + options.dataset.match;
  var clockBox = options.querySelector(".clock-options__clock");
  var seconds = options.querySelector(".clock-options__seconds");
  var rang = null;  // the last action's time the timer already rang for
  var audio = null;

  function load() {
    try { return JSON.parse(window.localStorage.getItem(key) || "{}"); } catch (e) { return {}; }
  }
  function save(settings) {
    try { window.localStorage.setItem(key, JSON.stringify(settings)); } catch (e) { /* private mode */ }
  }

  function duration(ms) {
    var total = Math.max(0, Math.floor(ms / 1000));
    var hours = Math.floor(total / 3600);
    var minutes = Math.floor((total % 3600) / 60);
    var secs = total % 60;
    var mm = (hours ? String(minutes).padStart(2, "0") : String(minutes));
    return (hours ? hours + ":" : "") + mm + ":" + String(secs).padStart(2, "0");
  }

  function ring() {
    if (navigator.vibrate) { navigator.vibrate([200, 100, 200]); }
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") { audio.resume(); }
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.2, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.6);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.6);
    } catch (e) { /* no sound here: the vibration and the figure say it */ }
  }

  function tick() {
    var line = document.getElementById("clock");
    if (!line) { return; }
    var settings = load();
    // The server's times, read on this phone's clock: the gap between the two is measured
    // when the table is drawn (data-now), so a phone set a minute off counts alike.
    if (line.offset === undefined) {
      var served = Date.parse(line.dataset.now);
      line.offset = isNaN(served) ? 0 : Date.now() - served;
    }
    var now = Date.now() - line.offset;
    var parts = [];
    var started = Date.parse(line.dataset.started);
    var last = Date.parse(line.dataset.last);
    if (settings.clock && !isNaN(started)) {
      var end = line.dataset.over ? last : now;
      parts.push(line.dataset.played.replace("{time}", duration(end - started)));
    }
    var limit = (settings.seconds || 0) * 1000;
    var over = Boolean(line.dataset.over);
    line.classList.remove("clock--late");
    if (limit && !over && !isNaN(last)) {
      var left = limit - (now - last);
      parts.push(line.dataset.turn.replace("{time}", duration(left)));
      if (left <= 0) {
        line.classList.add("clock--late");
        if (rang !== line.dataset.last) {
          rang = line.dataset.last;
          ring();
        }
      }
    }
    line.textContent = parts.join(" · ");
  }

  // Whether the line is shown is the page's, not the redrawn table's: a redraw never makes
  // the pad under it move.
  function shown() {
    var now = load();
    document.documentElement.toggleAttribute("data-clock", Boolean(now.clock || now.seconds));
  }

  var settings = load();
  clockBox.checked = Boolean(settings.clock);
  seconds.value = String(settings.seconds || 0);
  clockBox.addEventListener("change", function () {
    var now = load();
    now.clock = clockBox.checked;
    save(now);
    shown();
    tick();
  });
  seconds.addEventListener("change", function () {
    var now = load();
    now.seconds = parseInt(seconds.value, 10) || 0;
    save(now);
    // A gesture: the sound may be readied now, for the browser lets a page play one later.
    try { audio = audio || new (window.AudioContext || window.webkitAudioContext)(); } catch (e) { audio = null; }
    rang = null;
    shown();
    tick();
  });
  options.hidden = false;
  shown();
  tick();
  window.setInterval(tick, 1000);
  document.addEventListener("htmx:afterSettle", tick);
  document.addEventListener("marquoir:redrawn", tick);
})();
