// The field pages install the field app's service worker (fogkeeper/web/field/app.py), named
// by the data-worker attribute of this script's tag; its scope is the field pages' folder.
"use strict";
(() => {
  const worker = document.currentScript && document.currentScript.dataset.worker;
  if (worker && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(worker).catch((error) => {
      console.warn("fogkeeper: the field app cannot work offline here:", error);
    });
  }
})();
