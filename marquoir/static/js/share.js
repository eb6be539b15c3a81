// A finished match's result, shared: with the phone's own share sheet (Web Share) where
// the browser has one, as a PNG drawn from the result card when it can share files, else
// as the link and a sentence. Without Web Share the button stays hidden: the "Result card
// (image)" link beside it downloads the image instead, as a PNG too (galleries and chat
// apps take no SVG); without JavaScript, as the SVG it links to.
(function () {
  "use strict";

  function reveal() {
    if (!navigator.share) {
      return;
    }
    document.querySelectorAll("[data-share-card]").forEach(function (button) {
      button.hidden = false;
    });
  }

  // The card as a PNG file (chat apps take PNG, not SVG); null if the browser cannot draw it.
  // The image comes from the card's own address: the site's policy allows images from the
  // site itself (not blob: URLs), and a same-origin image leaves the canvas readable.
  function cardFile(address, name) {
    return new Promise(function (resolve) {
      var image = new Image();
      image.onload = function () {
        var canvas = document.createElement("canvas");
        canvas.width = image.naturalWidth * 2;
        canvas.height = image.naturalHeight * 2;
        var context = canvas.getContext("2d");
        context.scale(2, 2);
        context.drawImage(image, 0, 0);
        try {
          canvas.toBlob(function (png) {
            resolve(png ? new File([png], name + ".png", { type: "image/png" }) : null);
          }, "image/png");
        } catch (refused) {
          resolve(null);
        }
      };
      image.onerror = function () {
        resolve(null);
      };
      image.src = address;
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-share-card]");
    if (!button || !navigator.share) {
      return;
    }
    event.preventDefault();
    var data = {
      title: button.dataset.shareTitle,
      text: button.dataset.shareText,
      url: button.dataset.shareUrl,
    };
    cardFile(button.dataset.shareCard, button.dataset.shareFile).then(function (file) {
      if (file && navigator.canShare && navigator.canShare({ files: [file] })) {
        data.files = [file];
      }
      return navigator.share(data);
    }).catch(function () {
      // Dismissed, or refused by the browser: nothing to do, the image link is still there.
    });
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest("[data-card-link]");
    if (!link) {
      return;
    }
    event.preventDefault();
    var name = (link.getAttribute("download") || "marquoir.svg").replace(/\.svg$/, "");
    cardFile(link.href, name).then(function (file) {
      if (!file) {
        window.location.assign(link.href);  // the SVG, as without JavaScript
        return;
      }
      var address = URL.createObjectURL(file);
      var save = document.createElement("a");
      save.href = address;
      save.download = file.name;
      document.body.appendChild(save);
      save.click();
      save.remove();
      window.setTimeout(function () { URL.revokeObjectURL(address); }, 10000);
    });
  });

  document.addEventListener("DOMContentLoaded", reveal);
  document.addEventListener("htmx:afterSettle", reveal);
  // The outbox redraws the table itself when it sends a tap (outbox.js), and says so.
  document.addEventListener("marquoir:redrawn", reveal);
})();
