// A referee's page that outlives the network (docs/offline.md). Every move a table's form
// records is first kept on the phone (localStorage: it survives a reload, a closed tab and a
// restart), with the position the match was at when it was made, then sent as JSON to
// /table/TOKEN/move. A move the server did not answer for stays, shown as waiting (not judged),
// and the moves are sent again in order, each at its position, when the server answers again.
// The first one refused stops the queue: it and the later ones stay until the referee sends
// each again or discards it. Nothing typed leaves the phone's queue but by the server storing
// it or the referee discarding it.
(function () {
  "use strict";
  var panel = document.getElementById("queue");
  if (!panel || !window.localStorage || !window.fetch || !window.FormData) return;
  var KEY = "tournament.queue";
  var RETRY = 5000; // ms between two tries while the server does not answer
  var words = panel.dataset;
  var here = location.pathname.replace(/\/+$/, ""); // /table/TOKEN
  var busy = false;
  var timer = null;
  var unreachable = false;

  function all() {
    var raw = localStorage.getItem(KEY);
    try {
      var list = JSON.parse(raw || "[]");
      if (Array.isArray(list)) return list;
    } catch (e) { /* kept aside below, never overwritten */ }
    localStorage.setItem(KEY + ".unread." + Date.now(), raw);
    localStorage.removeItem(KEY);
    return [];
  }

  function save(list) {
    try { localStorage.setItem(KEY, JSON.stringify(list)); return true; } catch (e) { return false; }
  }

  function current() {
    var field = document.querySelector('main input[name="match"]');
    return field ? field.value : null;
  }

  // This table's moves: those made on this link, and those of its match made on an older link
  // of the same table (cards printed again): they are sent through this one.
  function mine(list) {
    var match = current();
    return list.filter(function (e) { return e.table === here || (match && e.match === match); });
  }

  function change(fn) {
    var list = all();
    var own = mine(list);
    fn(own, list);
    own.forEach(function (e) { e.table = here; });
    save(list.filter(function (e) { return !e.gone; }));
    render();
  }

  // The latest position known of a match (positions only grow): drawn, or said by the server.
  function newest(drawn, seen, made) {
    var known = [drawn, seen].filter(function (p) { return typeof p === "number"; });
    return known.length ? Math.max.apply(null, known) : made;
  }

  function drawnAt(match) {
    var field = document.querySelector('main form input[name="match"][value="' + match + '"]');
    var at = field && field.form.querySelector('input[name="position"]');
    return at ? parseInt(at.value, 10) : null;
  }

  // A kept move as the referee made it: typed, or the fields filled and the button pressed
  // (in the page's words: "blu: dado vocale ×2 O A · tira").
  function label(form, data, submitter) {
    if (data.get("kind") === "text") return String(data.get("text"));
    var said = [];
    form.querySelectorAll("input:not([type=hidden]), select").forEach(function (f) {
      if (!f.value || f.type === "password" || f.type === "checkbox") return;
      var named = f.labels && f.labels.length ? f.labels[0] : f.previousElementSibling;
      var name = named && named.tagName === "LABEL" ? named.textContent.trim() + " " : "";
      said.push(name + f.value);
    });
    if (submitter) said.push(submitter.textContent.trim());
    return (data.get("by") ? data.get("by") + ": " : "") + said.join(" · ");
  }

  function post(e, again, page) {
    var body = JSON.stringify({ csrf: words.csrf, match: e.match, at: e.at, fields: e.fields,
      page: !!page });
    return fetch(here + "/move", {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json" }, body: body
    }).then(function (r) {
      return r.json().catch(function () { return { reason: r.statusText }; }).then(function (j) {
        j.code = r.status;
        j.later = r.status === 429 || r.status >= 500 || !j.status; // try again later
        // The session is gone (the server was started again): a new one, and the move again.
        // A stale token says nothing of the move: it is never a reason to stop the queue (the
        // live stream's own fetch of the page may have made the session anew meanwhile).
        if (j.stale && !again) return fresh().then(function () { return post(e, true, page); });
        if (j.stale) j.later = true;
        return j;
      });
    }, function () { return { later: true, network: true }; });
  }

  // The session's token, from the page drawn again (it says nothing about the moves).
  function fresh() {
    return fetch(here, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      return r.ok ? r.text() : "";
    }).then(function (html) {
      var drawn = new DOMParser().parseFromString(html, "text/html").getElementById("queue");
      if (!drawn || !drawn.dataset.csrf) return false;
      words.csrf = drawn.dataset.csrf;
      return true;
    }, function () { return false; });
  }

  function later() {
    if (!timer) timer = setTimeout(function () { timer = null; flush(false); }, RETRY);
  }

  function stored(id, position) {
    change(function (own) {
      var i = own.findIndex(function (e) { return e.id === id; });
      if (i < 0) return;
      var gone = own[i];
      gone.gone = true;
      var next = own.slice(i + 1).find(function (e) { return e.match === gone.match; });
      if (next && next.at === null) next.at = position;
    });
  }

  // Send the waiting moves in order; reload the page once the server has answered for them.
  function flush(sentSome) {
    if (busy) return;
    var head = mine(all())[0];
    if (!head || head.state !== "waiting") {
      if (sentSome) location.reload();
      return;
    }
    if (head.at === null) head.at = drawnAt(head.match);
    busy = true;
    post(head).then(function (r) {
      busy = false;
      unreachable = !!r.later;
      // No answer: no reload either (with no network and no service worker, a reload would
      // show the browser's own error page instead of the moves kept).
      if (r.later) { render(); later(); return; }
      if (r.status === "stored") { stored(head.id, r.position); flush(true); return; }
      change(function (own) {
        own.forEach(function (e, i) {
          if (i === 0) { e.state = "refused"; e.reason = r.reason; } else e.state = "held";
          // Where the server says the match is: a move sent again goes there, even when the
          // page still shows an older position (its reload not yet done, or the copy kept).
          if (e.match === head.match && typeof r.position === "number") e.seen = r.position;
        });
      });
      // The match as it is now, beside the moves kept (unless the link itself was refused:
      // expired, or replaced by new cards; the page stays, showing them).
      if (sentSome || r.code === 409 || r.code === 422) location.reload();
    });
  }

  // A move made while nothing waits is sent at once: the referee waits for its answer, and a
  // refusal leaves the form as it was typed, with the reason.
  function sendNow(e, form) {
    busy = true;
    post(e, false, true).then(function (r) {
      busy = false;
      unreachable = !!r.later;
      if (r.later) { clear(form); render(); later(); return; }
      change(function (own) {
        own.forEach(function (x) {
          if (x.id === e.id) x.gone = true;
          // Made after a move now refused: the referee decides what becomes of it.
          else if (r.status !== "stored" && x.state === "waiting") x.state = "held";
        });
      });
      if (r.status === "stored") { if (!swap(r.page)) location.reload(); return; }
      say(r.reason);
      // The focus back where the referee typed, the form as it was (nothing was stored).
      var typedIn = form.querySelector("input:not([type=hidden]), select");
      if (typedIn) typedIn.focus();
    });
  }

  // The page as the move left it, sent with the server's answer (#27): its <main> and its
  // notes swapped in place (the same elements: the live stream's script keeps its own), the
  // focus on the next field, and the service worker's copy of the page kept up to date.
  function swap(html) {
    if (typeof html !== "string") return false;
    var drawn = new DOMParser().parseFromString(html, "text/html");
    var fresh = drawn.querySelector("main"), main = document.querySelector("main");
    var notes = drawn.querySelector(".notes"), shown = document.querySelector(".notes");
    if (!fresh || !main || !notes || !shown) return false;
    // Newer than any page the live stream's script fetched before now (live.js drops those).
    window.drawnInPlace = (window.drawnInPlace || 0) + 1;
    main.innerHTML = fresh.innerHTML;
    Array.prototype.slice.call(main.attributes).forEach(function (a) {
      if (!fresh.hasAttribute(a.name)) main.removeAttribute(a.name);
    });
    Array.prototype.forEach.call(fresh.attributes, function (a) { main.setAttribute(a.name, a.value); });
    main.classList.remove("stale");
    shown.innerHTML = notes.innerHTML;
    document.title = drawn.title;
    var queued = drawn.getElementById("queue");
    if (queued && queued.dataset.csrf) words.csrf = queued.dataset.csrf;
    if (window.caches && navigator.serviceWorker && navigator.serviceWorker.controller) {
      caches.open("tournament-tables-1").then(function (c) {
        return c.put(here, new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }));
      }).catch(function () { /* the copy kept stays the one before */ });
    }
    render();
    if (window.tableFocus) window.tableFocus();
    return true;
  }

  function say(text) {
    var notes = document.querySelector(".notes");
    if (!notes) return;
    var p = document.createElement("p");
    p.className = "flash bad";
    p.setAttribute("role", "status");
    p.textContent = text;
    notes.querySelectorAll(".flash").forEach(function (old) { old.remove(); });
    notes.appendChild(p);
  }

  function clear(form) {
    form.querySelectorAll("input:not([type=hidden]), select").forEach(function (f) {
      if (f.type === "checkbox") f.checked = false; else f.value = "";
    });
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!(form instanceof HTMLFormElement) || !/\/record$/.test(form.getAttribute("action") || "")) return;
    var data = new FormData(form, ev.submitter || undefined);
    if (data.get("kind") === "seal") return; // a word to seal is never kept on the phone
    ev.preventDefault();
    var fields = {};
    data.forEach(function (v, k) {
      if (typeof v === "string" && ["csrf", "match", "position"].indexOf(k) < 0) fields[k] = v;
    });
    var match = String(data.get("match"));
    var list = all();
    var own = mine(list);
    // Nothing waits (the queue is empty, or stopped for the referee): the move is sent at once,
    // at the position the page was drawn at, before the moves kept.
    var now = !own.some(function (e) { return e.state === "waiting"; });
    var entry = {
      id: Date.now() + "-" + Math.random().toString(36).slice(2), table: here, match: match,
      // A move made while others wait is made right after them: it is sent at the position
      // the server gives after the one before it.
      at: !now && own.some(function (e) { return e.match === match; }) ? null
        : parseInt(String(data.get("position")), 10),
      fields: fields, label: label(form, data, ev.submitter), state: "waiting"
    };
    if (now && own.length) list.splice(list.indexOf(own[0]), 0, entry); else list.push(entry);
    if (!save(list)) { plainly(form, ev.submitter); return; }
    if (now) { sendNow(entry, form); return; }
    clear(form);
    render();
    flush(false);
  }, true);

  // The phone keeps nothing more: the form is sent the old way (its pressed button included).
  function plainly(form, submitter) {
    if (submitter && submitter.name) {
      var pressed = document.createElement("input");
      pressed.type = "hidden";
      pressed.name = submitter.name;
      pressed.value = submitter.value;
      form.appendChild(pressed);
    }
    form.submit();
  }

  function button(text, fn) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "secondary";
    b.textContent = text;
    b.addEventListener("click", fn);
    return b;
  }

  function render() {
    var own = mine(all());
    panel.hidden = own.length === 0;
    panel.replaceChildren();
    if (!own.length) return;
    var h = document.createElement("h2");
    h.className = "count";
    h.textContent = (own.length === 1 ? words.one : words.many).replace("{n}", own.length);
    panel.appendChild(h);
    var stopped = own[0].state !== "waiting";
    if (stopped || unreachable) {
      var p = document.createElement("p");
      p.textContent = stopped ? words.stopped : words.offline;
      panel.appendChild(p);
    }
    var ol = document.createElement("ol");
    own.forEach(function (e, i) {
      var li = document.createElement("li");
      li.className = e.state;
      li.dataset.id = e.id;
      var code = document.createElement("code");
      code.textContent = e.label;
      li.appendChild(code);
      var state = document.createElement("span");
      state.className = "state";
      state.textContent = " " + words[e.state] + (e.reason ? ": " + e.reason : "");
      li.appendChild(state);
      if (i === 0 && stopped) {
        li.appendChild(button(words.send, function () {
          change(function (mineNow) {
            mineNow.forEach(function (x, j) {
              x.state = "waiting"; x.reason = null;
              if (j === 0) x.at = newest(drawnAt(x.match), x.seen, x.at);
            });
          });
          flush(false);
        }));
      }
      li.appendChild(button(words.discard, function () {
        change(function (mineNow) {
          var k = mineNow.findIndex(function (x) { return x.id === e.id; });
          if (k < 0) return;
          var next = mineNow.slice(k + 1).find(function (x) { return x.match === e.match; });
          if (next && next.at === null) next.at = mineNow[k].at; // it takes the place left
          mineNow[k].gone = true;
        });
      }));
      ol.appendChild(li);
    });
    panel.appendChild(ol);
  }

  window.addEventListener("online", function () { flush(false); });
  window.addEventListener("storage", function (e) { if (e.key === KEY) render(); });
  render();
  flush(false);

  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/table/sw.js", { scope: "/table/" }).then(function () {
      // The first visit was not fetched through the worker: keep a copy of it now.
      if (!navigator.serviceWorker.controller && window.caches) {
        return navigator.serviceWorker.ready.then(function () {
          return caches.open("tournament-tables-1").then(function (c) { return c.add(here); });
        });
      }
    }).catch(function () { /* the page works without it */ });
  }
})();
