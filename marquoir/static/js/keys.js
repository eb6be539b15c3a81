// Keyboard play on every table screen: the turn pad answers to the keys a player would type.
//
// - Type-ahead: a letter or a digit typed while the focus is in the pad (not in a text field)
//   moves it to the next control of the pad whose words start with what was typed in the
//   last second: "b" for Ben, "g" then "g" for Garde then Garde sans, "27" for Pickomino's 27.
//   A control may give its own words (data-key: a tile's number, a die's face); one marked
//   data-key-press is pressed at once (a die's face adds a die: one key, one die).
// - Enter in a text field of a round goes to the next field, as the phone's "Next" key says,
//   and records the round from the last one only: a half-typed round is never sent. A field
//   naming its next button (data-enter-to: Tarot's points, then Record) goes to that button.
// Without JavaScript none of this is needed: every control is a link or a button.
(function () {
  "use strict";
  var CONTROLS = "a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]), select";
  var typed = "";
  var typedAt = 0;
  // Keys that press a control (a die's face), typed faster than the table redraws: each is
  // pressed in turn on the table drawn after the one before, none lost.
  var queued = [];

  function busy() { return document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling") !== null; }

  function pressQueued() {
    var pad = document.getElementById("pad");
    while (queued.length && pad && !busy()) {
      var key = queued.shift();
      var control = pad.querySelector('[data-key-press][data-key="' + CSS.escape(key) + '"]');
      if (control) { control.click(); }
    }
  }
  // A new step of the pad, or another key than a letter or digit, starts the words afresh.
  document.addEventListener("htmx:afterSettle", function () { typed = ""; window.setTimeout(pressQueued, 0); });

  // Once the table being drawn has settled, and after the focus outbox.js puts back then.
  function onceDrawn(then) {
    document.addEventListener("htmx:afterSettle", function once() {
      document.removeEventListener("htmx:afterSettle", once);
      window.setTimeout(then, 0);
    });
  }

  function words(control) {
    var label = control.labels && control.labels.length ? control.labels[0].textContent : "";
    var text = control.dataset.key || control.getAttribute("aria-label") || label || control.textContent || "";
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").trim().toLowerCase();
  }

  function shown(control) {
    return control.getClientRects().length > 0 && !control.closest("[hidden]");
  }

  function textField(element) {
    return element.tagName === "TEXTAREA" || element.tagName === "SELECT" ||
      (element.tagName === "INPUT" && !/^(checkbox|radio|button|submit)$/.test(element.type));
  }

  document.addEventListener("keydown", function (event) {
    var pad = document.getElementById("pad");
    var active = document.activeElement;
    // On the page's body only between a redraw and the focus coming back to the pad: a key
    // typed then is the pad's still.
    var between = active === document.body && (busy() || queued.length > 0);
    if (!pad || !active || !(pad.contains(active) || between) || event.ctrlKey || event.metaKey || event.altKey) {
      return;
    }
    if (event.key === "Enter" && active.dataset.enterTo) {
      // A field whose next step is a button further down (Tarot's points, then Record past
      // the extras): Enter goes to it once the answer to what was typed is in.
      event.preventDefault();
      var goTo = function () {
        var target = document.getElementById(active.dataset.enterTo);
        if (target && !target.disabled && !target.closest("fieldset:disabled")) { target.focus(); }
      };
      if (busy()) { onceDrawn(goTo); } else { goTo(); }
      return;
    }
    if (event.key === "Enter" && active.tagName === "INPUT" && textField(active)) {
      var form = active.form;
      if (!form || !form.classList.contains("round-form")) { return; }
      var fields = Array.prototype.filter.call(form.querySelectorAll("input"), function (input) {
        return textField(input) && shown(input);
      });
      var next = fields[fields.indexOf(active) + 1];
      if (next) {
        event.preventDefault();
        next.focus();
        if (next.select) { next.select(); }
      }
      return;  // the last field: the browser sends the form, as the Record button would
    }
    if (event.key.length !== 1 || !/[\p{L}\p{N}]/u.test(event.key) || textField(active)) {
      typed = "";
      return;
    }
    var now = Date.now();
    typed = (now - typedAt < 1000 ? typed : "") + event.key.toLowerCase();
    typedAt = now;
    var controls = Array.prototype.filter.call(pad.querySelectorAll(CONTROLS), shown);
    var from = controls.indexOf(active);
    var ordered = controls.slice(from + 1).concat(controls.slice(0, from + 1));
    // The same letter again moves on to the next control that starts with it.
    var prefix = typed.split("").every(function (c) { return c === typed[0]; }) && typed.length > 1 && !/\d/.test(typed)
      ? typed[0] : typed;
    var found = null;
    for (var i = 0; i < ordered.length && !found; i += 1) {
      if (words(ordered[i]).indexOf(prefix) === 0) { found = ordered[i]; }
    }
    if (!found) { return; }
    event.preventDefault();
    if (found.hasAttribute("data-key-press")) {
      typed = "";
      if (busy() || queued.length || between) {
        queued.push(found.dataset.key);
      } else {
        found.click();
      }
    } else if (busy()) {
      // The table is being drawn again, and the focus it puts back would take this one's
      // place: go to the control of the same words once it is drawn.
      var wanted = words(found);
      onceDrawn(function () {
        var fresh = document.getElementById("pad");
        var same = fresh ? Array.prototype.filter.call(fresh.querySelectorAll(CONTROLS), function (control) {
          return shown(control) && words(control) === wanted;
        }) : [];
        if (same.length) { same[0].focus(); }
      });
    } else {
      found.focus();
    }
  });
})();
