// A round typed into a table screen's form (the sheet's, a declared game's: a
// ".round-form[data-dropped-notice]"), not kept in the address. When another device changes
// the match while it is being typed here, the live redraw (live.js) brings the new table and
// what was typed goes with the old one: say so in the bar, where a refusal shows. A redraw of
// the same table keeps what was typed.
(function () {
  "use strict";
  var typed = null;

  function entry(table) {
    var form = table && table.querySelector(".round-form[data-dropped-notice]");
    if (!form) { return null; }
    var values = {};
    var any = false;
    Array.prototype.forEach.call(form.querySelectorAll("input:not([type=hidden])"), function (input) {
      var ticked = input.type === "checkbox" || input.type === "radio";
      var key = input.type === "radio" ? input.name + "=" + input.value : input.name;
      var value = ticked ? input.checked : input.value;
      values[key] = value;
      // A value the page drew as the input's start (a stepper's 0, data-start; a choice or a
      // box as drawn) is not typed.
      var typedHere = ticked ? value !== input.defaultChecked : value.trim() !== "" && value !== input.dataset.start;
      any = any || typedHere;
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
    var form = table.querySelector(".round-form[data-dropped-notice]");
    if (table.dataset.seq === held.seq && form) {
      Array.prototype.forEach.call(form.querySelectorAll("input:not([type=hidden])"), function (input) {
        var key = input.type === "radio" ? input.name + "=" + input.value : input.name;
        if (!(key in held.values)) { return; }
        if (input.type === "checkbox" || input.type === "radio") { input.checked = held.values[key]; } else { input.value = held.values[key]; }
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
