// The outbox of a table screen (any game): every tap that records something goes through it.
//
// A form marked data-outbox is not posted by the browser: its fields (with the action_id the
// server put in the page, so a tap is never applied twice) are kept in localStorage first,
// then sent. The answer redraws the table where the player is looking, and the address goes
// back to the bare table (no entry left in it). Without a network the tap stays kept, the
// bar says so, and it is sent as soon as the network is back, even after a reload; the bar
// then says whether it went through or why not. One tap at a time: while one is kept, the
// others are refused in place, and Undo cancels the kept one instead.
// Without JavaScript the same forms post and redirect as usual.
(function () {
  "use strict";
  var STORE = "marquoir-outbox";
  var RETRY_MS = 4000;
  var SLOW_MS = 400;
  // Answers that are not the app's verdict on a tap: it is kept and sent again.
  var RETRY_STATUSES = [0, 408, 429, 502, 503, 504];
  var sending = false;
  var retryTimer = null;

  function table() { return document.getElementById("table"); }
  function bar() { return document.getElementById("bar"); }
  function words(name) { var b = bar(); return (b && b.dataset[name]) || ""; }

  function load() {
    try { return JSON.parse(window.localStorage.getItem(STORE) || "[]"); } catch (e) { return []; }
  }
  function save(items) {
    try { window.localStorage.setItem(STORE, JSON.stringify(items)); } catch (e) { /* private mode: kept in memory only */ }
  }
  function ours(items) {
    var t = table();
    return items.filter(function (item) { return t && item.match === t.dataset.match; });
  }
  function busy() { return sending || ours(load()).length > 0; }
  // live.js keeps the focus as a tap does when another phone's turn redraws the table.
  window.MarquoirOutbox = {
    busy: busy,
    place: function (element) { return describe(element); },
    refocus: function (fresh, place) { refocus(fresh, place); },
  };

  function say(text, state) {
    var b = bar();
    if (!b) { return; }
    var line = b.querySelector(".bar__outbox");
    b.classList.toggle("bar--waiting", Boolean(text));
    b.classList.toggle("bar--offline", state === "offline" || state === "sent");
    line.hidden = !text;
    line.textContent = text || "";
    var undo = b.querySelector(".bar__undo button");
    if (undo) {
      var verb = undo.querySelector(".bar__verb") || undo;
      var what = undo.querySelector(".bar__what");
      if (!undo.dataset.label) { undo.dataset.label = verb.textContent; }
      // Kept but never sent: Undo cancels it (not the entry it names). Perhaps sent already:
      // nothing to cancel.
      verb.textContent = state === "offline" ? words("cancel") : undo.dataset.label;
      if (what) { what.hidden = state === "offline"; }
      undo.hidden = state === "offline" ? false : state === "sent" || undo.hasAttribute("data-hidden");
    }
    var redo = b.querySelector(".bar__redo");
    if (redo) { redo.hidden = Boolean(text); }
  }

  function swap(html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector("#table");
    var current = table();
    if (!fresh || !current) { return false; }
    var y = window.scrollY;
    var focused = current.contains(document.activeElement) ? describe(document.activeElement) : null;
    var ended = !current.querySelector(".results") && fresh.querySelector(".results");
    current.replaceWith(fresh);
    if (window.htmx) { window.htmx.process(fresh); }
    if (focused) { refocus(fresh, focused); }
    if (ended) {
      // The last turn recorded: the end opens on who won, not mid-standings.
      fresh.querySelector(".results").scrollIntoView({ block: "start", behavior: "instant" });
    } else if (window.scrollY !== y) {
      window.scrollTo({ top: y, behavior: "instant" });
    }
    keepFieldInView();
    watchBar();
    if (fresh.dataset.home && window.location.pathname + window.location.search !== fresh.dataset.home) {
      window.history.replaceState(null, "", fresh.dataset.home);
    }
    document.dispatchEvent(new CustomEvent("marquoir:redrawn"));
    return true;
  }

  // A keyboard or screen-reader user keeps their place: the same control in the new table if
  // it is still there (by its id, its name and value, or its label), else the first control of
  // the pad (the next step of the turn), else the bar, which says what the tap did.
  function describe(element) {
    return {
      tag: element.tagName,
      id: element.id,
      name: element.getAttribute("name"),
      value: element.getAttribute("value"),
      label: element.getAttribute("aria-label") || (element.textContent || "").trim(),
    };
  }

  function sameControl(fresh, old) {
    if (old.id) { return fresh.querySelector("#" + CSS.escape(old.id)); }
    if (old.name && old.value) {
      var named = fresh.querySelector(old.tag + '[name="' + CSS.escape(old.name) + '"][value="' + CSS.escape(old.value) + '"]');
      if (named) { return named; }
    }
    var alike = fresh.querySelectorAll(old.tag);
    for (var i = 0; i < alike.length; i += 1) {
      var label = alike[i].getAttribute("aria-label") || (alike[i].textContent || "").trim();
      if (old.label && label === old.label && !alike[i].closest("[hidden]")) { return alike[i]; }
    }
    return null;
  }

  var CONTROLS = "a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]), select, textarea";

  function refocus(fresh, old) {
    var same = sameControl(fresh, old);
    var pad = fresh.querySelector("#pad");
    // The field the step asks for first (Tarot's card points), or the first of the choices
    // the step offers (data-first: Tarot's contracts, not the chips of the choices made),
    // else the pad's first control.
    var first = pad ? pad.querySelector("[autofocus], [data-first] a[href], [data-first] button") : null;
    if (pad && !first) {
      var controls = pad.querySelectorAll(CONTROLS);
      for (var i = 0; i < controls.length && !first; i += 1) {
        if (!controls[i].closest("[hidden], details:not([open]) > :not(summary)") && controls[i].getClientRects().length) {
          first = controls[i];
        }
      }
    }
    var target = same || first || fresh.querySelector(".bar__text");
    if (target) {
      if (target.classList.contains("bar__text")) { target.setAttribute("tabindex", "-1"); }
      target.focus({ preventScroll: true });
    }
  }

  // A field the focus went to (the next round's first score, a deal's points), or the first
  // control of a new round's form, is where the next keys go: it is brought into view, clear
  // of the band stuck above it and of the bar under it, or the phone's keyboard would type
  // into a field no one sees. A die, a tile or a choice is left where it is: the page never
  // moves under a thumb. Only what is covered moves the page.
  var FIELDS = "input:not([type=hidden]):not([type=radio]):not([type=checkbox]), select, textarea, .round-form *";
  var CLEARANCE = 8;
  function keepFieldInView() {
    var t = table();
    var field = document.activeElement;
    if (!t || !field || !t.contains(field) || !field.matches(FIELDS)) { return; }
    var rect = field.getBoundingClientRect();
    var band = t.querySelector(".band");
    var top = 0;
    if (band) {
      var covered = band.getBoundingClientRect();
      if (covered.right > rect.left && covered.left < rect.right) { top = Math.max(0, covered.bottom); }
    }
    var b = bar();
    var bottom = b ? b.getBoundingClientRect().top : window.innerHeight;
    if (rect.top < top) {
      window.scrollBy({ top: rect.top - top - CLEARANCE, behavior: "instant" });
    } else if (rect.bottom > bottom) {
      window.scrollBy({ top: rect.bottom - bottom + CLEARANCE, behavior: "instant" });
    }
  }

  // The bar's height, for what stays in view above it (Tarot's score and Record button):
  // --bar-height, followed as the bar grows with a longer message.
  var barWatch = window.ResizeObserver ? new window.ResizeObserver(measureBar) : null;
  function measureBar() {
    var b = bar();
    if (b) { document.documentElement.style.setProperty("--bar-height", b.offsetHeight + "px"); }
  }
  function watchBar() {
    if (barWatch) {
      barWatch.disconnect();
      if (bar()) { barWatch.observe(bar()); }
    }
    measureBar();
  }
  watchBar();

  // The same for htmx's own swaps (a die, a choice of the pad: each a link that redraws the
  // table), which would otherwise leave the focus on the page's body.
  var beforeHtmxSwap = null;
  var scrolledTo = null;
  var wasCorrecting = false;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var t = table();
    var active = document.activeElement;
    beforeHtmxSwap = t && active && t.contains(active) ? { element: active, old: describe(active) } : null;
    scrolledTo = event.detail && event.detail.target === t ? window.scrollY : null;
    wasCorrecting = Boolean(t && t.querySelector("#correcting"));
  });
  // The page stays where it was across htmx's redraw of the table: the browser may move it
  // while the old table is gone and the new one not yet laid out (Chrome did, by 1,800 px,
  // with the clock's switches under the table), and the pad must never move under a thumb.
  // But a past entry just opened to correct it (from the grid or the log, further down)
  // brings the pad into view: that is where the next tap goes.
  document.addEventListener("htmx:afterSwap", function () {
    var t = table();
    var opened = t && !wasCorrecting && t.querySelector("#correcting");
    if (opened) {
      t.querySelector("#pad").scrollIntoView({ block: "start", behavior: "instant" });
    } else if (scrolledTo !== null && window.scrollY !== scrolledTo) {
      window.scrollTo({ top: scrolledTo, behavior: "instant" });
    }
    scrolledTo = null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    var held = beforeHtmxSwap;
    beforeHtmxSwap = null;
    watchBar();
    var t = table();
    if (!held || !t || (document.contains(held.element) && document.activeElement === held.element)) { return; }
    refocus(t, held.old);
    keepFieldInView();
  });

  function drop(item) {
    save(load().filter(function (other) { return other.id !== item.id; }));
  }

  function send(item) {
    sending = true;
    var slow = window.setTimeout(function () { say(words("sending").replace("{tap}", item.label)); }, SLOW_MS);
    return window.fetch(item.url, {
      method: "POST",
      body: item.body,
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "HX-Request": "true",
        "HX-Target": "table",
        "HX-Current-URL": window.location.href,
      },
    }).then(function (response) {
      return response.text().then(function (html) {
        window.clearTimeout(slow);
        sending = false;
        var fromMarquoir = html.indexOf('id="table"') !== -1;
        if (!fromMarquoir && RETRY_STATUSES.indexOf(response.status) !== -1) {
          // A proxy answering while the server restarts, or a server too busy: not the
          // app's word on this tap. Keep it and try again (its action_id makes it once).
          waiting(item, true);
          return;
        }
        drop(item);  // answered: applied, or refused with the reason; never sent again
        if (swap(html)) {
          say("");
        } else {
          say(words("failed").replace("{tap}", item.label).replace("{status}", String(response.status)));
        }
        flush();
      });
    }, function () {
      // No answer: the network is down (or the server is). Keep it, say so, try again.
      window.clearTimeout(slow);
      sending = false;
      // A browser that knows it is offline sent nothing; otherwise the request may have
      // reached the server and only its answer got lost.
      waiting(item, navigator.onLine !== false);
    });
  }

  function waiting(item, maybeSent) {
    // Once it may have reached the server, a tap can no longer be cancelled, only sent
    // again (the server answers a repeat of its action_id with the first answer).
    item.attempted = item.attempted || maybeSent;
    save(load().map(function (other) { return other.id === item.id ? item : other; }));
    say(words("waiting").replace("{tap}", item.label), item.attempted ? "sent" : "offline");
    retryLater();
  }

  function retryLater() {
    if (retryTimer === null) {
      retryTimer = window.setTimeout(function () { retryTimer = null; flush(); }, RETRY_MS);
    }
  }

  function flush() {
    if (sending) { return; }
    var waiting = ours(load());
    if (waiting.length) { send(waiting[0]); }
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var t = table();
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-outbox") || !t || !t.contains(form)) {
      return;
    }
    event.preventDefault();
    var submitter = event.submitter || null;
    var kept = ours(load());
    if (kept.length || sending) {
      if (form.classList.contains("bar__undo") && kept.length && !sending && !kept[0].attempted) {
        drop(kept[0]);  // Undo before the tap ever left the phone: it is never sent
        say(words("cancelled").replace("{tap}", kept[0].label));
        window.setTimeout(function () { if (!busy()) { say(""); } }, 4000);
      } else if (form.classList.contains("bar__undo") && kept.length && kept[0].attempted) {
        say(words("uncancellable").replace("{tap}", kept[0].label), "sent");
      } else if (kept.length) {
        say(words("busy").replace("{tap}", kept[0].label), sending ? "" : "offline");
      }
      return;
    }
    if (submitter) { submitter.classList.add("is-pressed"); }
    var data = new FormData(form, submitter);
    var item = {
      match: t.dataset.match,
      url: form.action,
      body: new URLSearchParams(data).toString(),
      id: String(data.get("action_id") || Date.now()),
      label: (submitter && submitter.dataset.pending) || form.dataset.pending || "",
    };
    save(load().concat([item]));
    send(item);
  });

  // A redraw from the stream or a step of the entry (htmx) while offline: say so in place.
  document.addEventListener("htmx:sendError", function () {
    if (!busy()) { say(words("offline")); window.setTimeout(function () { if (!busy()) { say(""); } }, 5000); }
  });
  window.addEventListener("online", flush);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { flush(); } });
  // An address that carried an entry made on an older table: it was dropped, so drop it here too.
  var shown = table();
  if (shown && shown.dataset.dropped && shown.dataset.home) {
    window.history.replaceState(null, "", shown.dataset.home);
  }
  // Taps kept before a reload (or a crash, or the phone going to sleep) go out now.
  flush();
})();
