// The "change it too" link carries the game's key after "#key=": keep it in the form's
// hidden field (posted with a save, never in an address), and out of the address bar.
(function () {
  "use strict";
  var match = /(?:^#|&)key=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  if (!match) {
    return;
  }
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  document.querySelectorAll("[data-key-field]").forEach(function (field) {
    field.value = match[1];
  });
  document.querySelectorAll("[data-needs-key]").forEach(function (note) {
    note.hidden = true;
  });
})();
