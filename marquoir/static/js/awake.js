// Keep the screen awake while a table is open (Screen Wake Lock), behind a switch whose
// position this device remembers (on unless switched off). The browser lets the lock go when
// the page is hidden, so it is taken again when the page shows. Where the browser cannot,
// the switch is disabled and the status says why, in the sentences the page carries
// (tables/_awake.html, which stays hidden without this script). A switch that htmx swaps
// in later is picked up too, and every copy shows the same state.
(function () {
  "use strict";
  var KEY = "marquoir.awake";
  var secure = window.isSecureContext === true;
  var able = secure && "wakeLock" in navigator;
  var wanted = able && remembered();
  var lock = null;
  var asking = false;
  var state = !secure ? "insecure" : !able ? "unsupported" : wanted ? "" : "off";

  function remembered() {
    try {
      return window.localStorage.getItem(KEY) !== "off";
    } catch (error) {
      return true;
    }
  }

  function remember(on) {
    try {
      window.localStorage.setItem(KEY, on ? "on" : "off");
    } catch (error) {
      /* storage refused (private browsing): the switch still works for this page */
    }
  }

  function boxes() {
    return document.querySelectorAll(".awake[data-awake-bound]");
  }

  function show(box) {
    var input = box.querySelector("input[type=checkbox]");
    var status = box.querySelector("[role=status]");
    input.checked = wanted;
    input.disabled = !able;
    if (state) {
      box.dataset.state = state;
    } else {
      delete box.dataset.state;
    }
    var sentence = state ? box.getAttribute("data-say-" + state) || "" : "";
    if (status.textContent !== sentence) {
      status.textContent = sentence;
    }
  }

  function say(next) {
    state = next;
    boxes().forEach(show);
  }

  function take() {
    if (!wanted || lock || asking || document.visibilityState !== "visible") {
      return;
    }
    asking = true;
    navigator.wakeLock.request("screen").then(
      function (sentinel) {
        asking = false;
        if (!wanted) {
          sentinel.release();
          return;
        }
        lock = sentinel;
        say("on");
        sentinel.addEventListener("release", function () {
          if (lock === sentinel) {
            lock = null;
          }
          // Let go by the device while the page is still shown and the switch on.
          if (wanted && document.visibilityState === "visible") {
            say("refused");
          }
        });
      },
      function () {
        asking = false;
        if (wanted) {
          say("refused");
        }
      }
    );
  }

  function drop() {
    var held = lock;
    lock = null;
    if (held) {
      held.release();
    }
    say("off");
  }

  function switched(event) {
    wanted = event.target.checked;
    remember(wanted);
    if (wanted) {
      say("");
      take();
    } else {
      drop();
    }
  }

  function bind() {
    document.querySelectorAll(".awake:not([data-awake-bound])").forEach(function (box) {
      box.setAttribute("data-awake-bound", "");
      box.querySelector("input[type=checkbox]").addEventListener("change", switched);
      show(box);
      box.hidden = false;
    });
  }

  bind();
  document.addEventListener("htmx:afterSettle", bind);
  if (able) {
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") {
        take();
      }
    });
    take();
  }
})();
