// The room's screen scrolls by itself: down the tables, then the standings, a pause at the
// bottom and back to the top. The live script swaps <main> as moves arrive; the scroll goes on.
(function () {
  "use strict";
  var step = 1, pause = 0;
  function tick() {
    var bottom = document.documentElement.scrollHeight - window.innerHeight;
    if (pause > 0) { pause -= 1; }
    else if (window.scrollY >= bottom - 1) {
      pause = 120;  // ~6 s at the bottom (or on a page that fits), then the top again
      if (bottom > 0) setTimeout(function () { window.scrollTo(0, 0); }, 5000);
    } else { window.scrollBy(0, step); }
  }
  setInterval(tick, 50);
})();
