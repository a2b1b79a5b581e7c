// The pages update themselves from the live stream (/api/live): on a stored event that concerns
// the page (its match, its round, the standings: each message says what it changes) the page
// fetches itself again and swaps its <main>, unless someone is typing into a field there. The
// fetch is conditional: the server answers 304 from the store's position when nothing the page
// shows has moved, and the phones of a hall spread their fetches over half a second. A page
// fetched never replaces one drawn in place after it was asked for (window.drawnInPlace).
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
    var drawn = window.drawnInPlace || 0;
    fetch(location.href, { credentials: "same-origin", cache: "no-cache" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        // The page was drawn in place meanwhile (offline.js: a move's answer, #27): this one,
        // asked before, may show the match a move behind. Dropped, and asked again.
        if ((window.drawnInPlace || 0) !== drawn) {
          if (!timer) timer = setTimeout(refresh, 100);
          return;
        }
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main[data-live]");
        // Unchanged markup is left alone, so that nobody's fingers lose the button they aim at.
        if (fresh && fresh.innerHTML !== main.innerHTML) { main.replaceWith(fresh); main = fresh; }
      });
  }

  // Whether a stored event can change what this page shows.
  function concerns(m) {
    var only = main.dataset.live;  // a match's page may listen to its match alone
    // (a move the page shows already, drawn with its answer: offline.js, #27, is no news)
    if (only && m.match === only && main.dataset.at) return m.position > Number(main.dataset.at);
    if (only) return !m.match || m.match === only;
    var path = location.pathname;
    var round = /^\/rounds\/(\d+)$/.exec(path);
    if (round) return !m.match || m.round == null || m.round === Number(round[1]);
    if (path === "/standings" || path === "/bracket") return m.standings !== false;
    return true;  // the round in play, a player's page, the organizer's: anything may
  }

  var source = null;  // the stream listened to
  // No network (the phone says so): the page is not live, whatever the stream has yet noticed.
  window.addEventListener("offline", function () { if (badge) badge.hidden = true; });
  // The network back after a drop the stream survived (it never opens again): live again.
  window.addEventListener("online", function () {
    if (badge && source && source.readyState === EventSource.OPEN) badge.hidden = false;
  });

  function listen(again) {
    var stream = new EventSource("/api/live");
    source = stream;
    stream.onopen = function () {
      if (badge) badge.hidden = false;
      if (again && !timer) timer = setTimeout(refresh, 100);  // what was stored meanwhile
    };
    stream.onerror = function () {
      if (badge) badge.hidden = true;
      // A refusal (a full server answers 503) closes the stream for good: try again later,
      // each page at its own moment.
      if (stream.readyState === EventSource.CLOSED) {
        setTimeout(function () { listen(true); }, 10000 + Math.random() * 20000);
      }
    };
    stream.addEventListener("stored", function (e) {
      var m = JSON.parse(e.data);
      if (!concerns(m)) return;
      if (!timer) timer = setTimeout(refresh, 100 + Math.random() * 400);
    });
  }
  listen(false);
})();
