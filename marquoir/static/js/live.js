// Live table: follow the match's server-sent events and redraw the table when another
// device records a turn. If the stream is refused or dropped for good, poll instead.
(function () {
  "use strict";
  var POLL_MS = 3000;
  var SETTLE_MS = 700;
  var first = document.getElementById("table");
  if (!first || !first.dataset.events || !window.htmx) {
    return;
  }
  var eventsUrl = first.dataset.events;
  var stateUrl = first.dataset.state;
  var busy = false;
  var again = false;
  var pollTimer = null;

  function shownSeq() {
    var table = document.getElementById("table");
    return table ? parseInt(table.dataset.seq, 10) : -1;
  }

  function redraw() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    // The address may carry a turn being entered: the server keeps it if the table is still
    // the one it was entered on, and otherwise drops it and says why (never shown to the
    // next player). The address then goes back to the bare table.
    var y = window.scrollY;
    var before = document.getElementById("table");
    var focused = before && before.contains(document.activeElement) ? document.activeElement : null;
    var outbox = window.MarquoirOutbox;
    var place = focused && outbox ? outbox.place(focused) : null;
    window.htmx
      .ajax("GET", window.location.pathname + window.location.search, { target: "#table", swap: "outerHTML" })
      .finally(function () {
        var table = document.getElementById("table");
        // A keyboard or screen-reader user keeps their place, as after their own tap
        // (outbox.js): the same control if it is still there, else the pad's first one; what
        // changed is said once by the bar, a live region.
        if (place && table && !table.contains(document.activeElement)) {
          outbox.refocus(table, place);
        }
        if (table && table.dataset.dropped && table.dataset.home) {
          window.history.replaceState(null, "", table.dataset.home);
        }
        // Another phone changed the table under this one: a finger already on its way must
        // not land on the new turn's buttons. Hold the pad for a moment, visibly.
        var held = table ? table.querySelectorAll(".pad, .bar__undo, form[data-outbox]") : [];
        Array.prototype.forEach.call(held, function (element) {
          element.classList.add("pad--settling");
          window.setTimeout(function () { element.classList.remove("pad--settling"); }, SETTLE_MS);
        });
        if (window.scrollY !== y) {
          window.scrollTo({ top: y, behavior: "instant" });
        }
        busy = false;
        if (again) {
          again = false;
          redraw();
        }
      });
  }

  function requestInFlight() {
    var outbox = window.MarquoirOutbox;
    return (outbox && outbox.busy()) || document.querySelector("#table.htmx-request, #table .htmx-request") !== null;
  }

  function seen(seq) {
    if (typeof seq !== "number" || seq <= shownSeq()) {
      return;
    }
    if (requestInFlight()) {
      // This phone's own tap is on its way: its answer brings the new table (or says why
      // not), and redrawing now could wipe that message. Look again once it has settled.
      document.body.addEventListener("htmx:afterSettle", function () { seen(seq); }, { once: true });
      document.addEventListener("marquoir:redrawn", function () { seen(seq); }, { once: true });
      return;
    }
    redraw();
  }

  function poll() {
    fetch(stateUrl, { headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (state) { if (state) { seen(state.seq); } })
      .catch(function () { /* offline for a moment: the next tick tries again */ });
  }

  function startPolling() {
    if (pollTimer === null) {
      pollTimer = window.setInterval(poll, POLL_MS);
    }
  }

  function stopPolling() {
    if (pollTimer !== null) {
      window.clearInterval(pollTimer);
      pollTimer = null;
    }
  }

  // A phone waking up checks at once rather than waiting for the stream to reconnect.
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      poll();
    }
  });

  if (!("EventSource" in window)) {
    startPolling();
    return;
  }
  // The browser reconnects a dropped stream by itself; while it fails (a proxy that
  // buffers or cuts streams, a flaky network), poll as well, and stop once it is back.
  // A stream the server refuses (too many open from here or on the server: 429 or 503, or
  // any answer that is not a stream) is closed for good by the browser: poll, and try a
  // stream again only after a wait that doubles each time (from the server's one-minute
  // Retry-After, which EventSource cannot read, to ten minutes), so that a refused page
  // never knocks at the server again and again.
  var RETRY_FIRST_MS = 60000;
  var RETRY_MOST_MS = 600000;
  var retryMs = RETRY_FIRST_MS;
  var failures = 0;

  function connect() {
    var source = new EventSource(eventsUrl);
    source.addEventListener("open", function () {
      failures = 0;
      retryMs = RETRY_FIRST_MS;
      stopPolling();
    });
    source.addEventListener("state", function (event) {
      seen(JSON.parse(event.data).seq);
    });
    source.addEventListener("error", function () {
      failures += 1;
      if (failures >= 2 || source.readyState === EventSource.CLOSED) {
        startPolling();
      }
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        // Spread the retries of many refused pages over time rather than all at once.
        window.setTimeout(connect, retryMs * (0.75 + Math.random() / 2));
        retryMs = Math.min(retryMs * 2, RETRY_MOST_MS);
      }
    });
  }

  connect();
})();
