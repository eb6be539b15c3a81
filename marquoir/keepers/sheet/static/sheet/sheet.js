// The sheet's round is typed into its form, not kept in the address. When another device
// changes the sheet while scores are being typed here, the live redraw (live.js) brings the
// new sheet and the typed scores go with the old one: say so in the bar, where a refusal
// shows. A redraw of the same sheet keeps what was typed.
(function () {
  "use strict";
  var typed = null;

  function entry(table) {
    var form = table && table.querySelector(".round-form");
    if (!form) { return null; }
    var values = {};
    var any = false;
    Array.prototype.forEach.call(form.querySelectorAll(".round-field__input, .sign__box"), function (input) {
      var value = input.type === "checkbox" ? input.checked : input.value;
      values[input.name] = value;
      any = any || (input.type === "checkbox" ? value : value.trim() !== "");
    });
    return any ? { seq: table.dataset.seq, values: values, notice: form.dataset.droppedNotice } : null;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var table = document.getElementById("table");
    typed = table && event.detail.target === table ? entry(table) : null;
  });

  document.addEventListener("htmx:afterSwap", function () {
    var held = typed;
    typed = null;
    var table = document.getElementById("table");
    if (!held || !table) { return; }
    var form = table.querySelector(".round-form");
    if (table.dataset.seq === held.seq && form) {
      Object.keys(held.values).forEach(function (name) {
        var input = form.querySelector('[name="' + name + '"]');
        if (!input) { return; }
        if (input.type === "checkbox") { input.checked = held.values[name]; } else { input.value = held.values[name]; }
      });
      return;
    }
    var bar = document.getElementById("bar");
    var text = bar && bar.querySelector(".bar__text");
    if (text && held.notice) {
      text.textContent = held.notice;
      text.setAttribute("role", "alert");
      bar.classList.add("bar--error");
    }
  });
})();
