// The pages update themselves from the live stream (/api/live): on a stored event the page
// fetches itself again and swaps its <main>, unless someone is typing into a field there.
(function () {
  "use strict";
  var main = document.querySelector("main[data-live]");
  var badge = document.getElementById("live");
  if (!main || !window.EventSource) return;
  var timer = null;

  function typing() {
    var a = document.activeElement;
    return a && main.contains(a) && /^(INPUT|TEXTAREA|SELECT)$/.test(a.tagName) && a.value;
  }

  function refresh() {
    timer = null;
    if (typing()) { main.classList.add("stale"); return; }
    fetch(location.href, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main[data-live]");
        // Unchanged markup is left alone, so that nobody's fingers lose the button they aim at.
        if (fresh && fresh.innerHTML !== main.innerHTML) { main.replaceWith(fresh); main = fresh; }
      });
  }

  function listen(again) {
    var source = new EventSource("/api/live");
    source.onopen = function () {
      if (badge) badge.hidden = false;
      if (again && !timer) timer = setTimeout(refresh, 100);  // what was stored meanwhile
    };
    source.onerror = function () {
      if (badge) badge.hidden = true;
      // A refusal (a full server answers 503) closes the stream for good: try again later,
      // each page at its own moment.
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(function () { listen(true); }, 10000 + Math.random() * 20000);
      }
    };
    source.addEventListener("stored", function (e) {
      var only = main.dataset.live;  // a match's page may listen to its match alone
      var m = JSON.parse(e.data);
      if (only && m.match && m.match !== only) return;
      if (!timer) timer = setTimeout(refresh, 100);
    });
  }
  listen(false);
})();
