// The "keep score too" link carries the edit token after "#key=": move it into the form's
// POST at once, and out of the address bar and history.
(function () {
  "use strict";
  var match = /(?:^#|&)key=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  var form = document.getElementById("join-form");
  if (!match || !form) {
    return;
  }
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  form.elements.namedItem("key").value = match[1];
  form.submit();
})();
