// The referee's page after a move (a message at the top): the focus lands on the next field
// to fill, the one kept from a refused move first, so that no one tabs down from the top. The
// same again when offline.js draws the page in place after a move (window.tableFocus).
(function () {
  "use strict";
  function focus() {
    if (!document.querySelector(".notes .flash")) return;
    var next = document.querySelector("section.acts input[value]:not([type=hidden]):not([value=''])") ||
      document.querySelector("section.acts input:not([type=hidden]), section.acts select, section.acts button") ||
      document.getElementById("move");
    if (next) next.focus({ preventScroll: false });
  }
  window.tableFocus = focus;
  focus();
})();
