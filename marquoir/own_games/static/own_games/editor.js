// The editor of your own game: the formulas checked as they are typed (the server compiles
// the form and says each field's fault, in the page's language), and under each formula the
// names it may use, narrowed to the word being typed; a tap writes the name in.
(function () {
  "use strict";
  var form = document.getElementById("editor");
  if (!form || !window.fetch) {
    return;
  }
  var timer = null;
  var asked = 0;

  function show(field, message) {
    var holder = document.getElementById("err-" + field);
    var input = document.getElementById(field);
    if (holder) {
      holder.textContent = message || "";
      holder.hidden = !message;
    }
    if (input) {
      if (message) {
        input.setAttribute("aria-invalid", "true");
      } else {
        input.removeAttribute("aria-invalid");
      }
    }
  }

  function check() {
    var data = new FormData(form);
    data.set("do", "check");
    var mine = ++asked;
    window
      .fetch(form.dataset.checkUrl, {
        method: "POST",
        body: data,
        headers: { "X-CSRFToken": data.get("csrfmiddlewaretoken") || "" },
        credentials: "same-origin",
      })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (answer) {
        if (!answer || mine !== asked) {
          return; // an older answer, or none: the next keystroke asks again
        }
        form.querySelectorAll("[data-error-for]").forEach(function (holder) {
          show(holder.dataset.errorFor, answer.errors[holder.dataset.errorFor]);
        });
        Object.keys(answer.keys || {}).forEach(function (field) {
          var input = document.getElementById(field);
          if (input && !input.value && document.activeElement !== input) {
            input.value = answer.keys[field];
          }
        });
        form.querySelectorAll("[data-names-kind]").forEach(function (names) {
          var known = (answer.names || {})[names.dataset.namesKind];
          if (known) {
            fill(names, known);
          }
        });
        var summary = document.getElementById("editor-summary");
        if (summary && !summary.hidden && Object.keys(answer.errors).length === 0) {
          summary.hidden = true;
        }
      })
      .catch(function () {
        /* offline: the form says what is wrong when it is saved */
      });
  }

  form.addEventListener("input", function (event) {
    if (!event.target.name || event.target.name.indexOf("try") === 0) {
      return;
    }
    window.clearTimeout(timer);
    timer = window.setTimeout(check, 450);
  });

  function fill(names, known) {
    var present = Array.prototype.map.call(names.querySelectorAll("[data-name]"), function (button) {
      return button.dataset.name;
    });
    if (present.join(" ") === known.join(" ")) {
      return;
    }
    names.textContent = "";
    known.forEach(function (name) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "names__name";
      button.dataset.name = name;
      button.textContent = name;
      names.appendChild(button);
    });
    var area = document.getElementById(names.dataset.namesFor);
    if (area) {
      narrow(area, names);
    }
  }

  // The names a formula may use: shown once scripts run (without them they would do nothing).
  function word(area) {
    var before = area.value.slice(0, area.selectionStart);
    var found = /[A-Za-z_][A-Za-z0-9_]*$/.exec(before);
    return found ? found[0] : "";
  }

  function narrow(area, names) {
    var typed = word(area);
    var shown = 0;
    names.querySelectorAll("[data-name]").forEach(function (button) {
      var fits = !typed || (button.dataset.name.indexOf(typed) === 0 && button.dataset.name !== typed);
      button.hidden = !fits;
      shown += fits ? 1 : 0;
    });
    names.hidden = shown === 0;
  }

  form.querySelectorAll("[data-names-for]").forEach(function (names) {
    var area = document.getElementById(names.dataset.namesFor);
    if (!area) {
      return;
    }
    names.hidden = false;
    ["input", "click", "keyup"].forEach(function (type) {
      area.addEventListener(type, function () {
        narrow(area, names);
      });
    });
    names.addEventListener("click", function (event) {
      var button = event.target.closest("[data-name]");
      if (!button) {
        return;
      }
      var typed = word(area);
      var start = area.selectionStart - typed.length;
      var end = area.selectionEnd;
      var name = button.dataset.name;
      area.value = area.value.slice(0, start) + name + area.value.slice(end);
      area.focus();
      area.setSelectionRange(start + name.length, start + name.length);
      narrow(area, names);
      area.dispatchEvent(new Event("input", { bubbles: true }));
    });
  });
})();
