// Installable and readable offline: register the service worker named on this script's tag
// (data-worker). Without service workers, or if registering fails, the site works as before.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script || !script.dataset.worker) {
    return;
  }
  navigator.serviceWorker.register(script.dataset.worker, { scope: "/" }).catch(function () {
    /* no offline copy this time; the next visit tries again */
  });
})();
