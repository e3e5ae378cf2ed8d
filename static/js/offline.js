// The table keeps working when the Wi-Fi drops (issue 11).
// - Registers the service worker (/sw.js), which keeps this match page and its files so
//   that a reload without a connection still opens it; asks it to keep the page again
//   whenever the table changed (the scoreboard's ETag moved).
// - Hands, confirmations, disputes and withdrawals saved without a connection are kept in
//   this browser (IndexedDB) with the idempotency key their form carries, listed as
//   "2 hands waiting to send", and sent by themselves, oldest first, when the connection
//   returns (the online event, a timer, a page load, a poll that gets through). The
//   server's idempotency makes a resend after a lost answer safe: each lands once.
// - A 5xx or a network error leaves the entry queued; a refusal (4xx) is shown with its
//   message and leaves the queue only when the player says they have read it. A hand the
//   opponent entered first with other figures is shown beside this phone's (the clash
//   partial), with the ways to settle it.
// - Offline, the preview says the score comes when the hand is sent (quick entry) or that
//   the cards are checked then (card entry): the rules engine runs on the server only.
(function () {
  "use strict";
  // A boosted navigation (the seat form) runs this file again: the new page only.
  if (window.ginclubOffline) { window.ginclubOffline.setUp(true); return; }

  var STORE = "queue";
  var SUBMIT = /^\/matches\/\d+\/hands\/$/;
  var ACTION = /^\/hands\/\d+\/(confirm|dispute|withdraw)\/$/;
  var RETRY_MS = 10000;
  var COUNTED = { hand: ["{n} hand", "{n} hands"], confirm: ["{n} confirmation", "{n} confirmations"],
    dispute: ["{n} dispute", "{n} disputes"], withdraw: ["{n} withdrawal", "{n} withdrawals"] };
  var items = [];      // this phone's entries for this match, oldest first
  var clashes = {};    // queue id -> the clash partial's HTML, fetched once
  var sending = null;
  var lastTag = null;
  // the page's language: static/js/words.js, loaded before this file
  var words = window.ginclubWords;
  // "a, b and c" ("{list} and {last}", or the language's own)
  function joined(parts, pattern) {
    if (parts.length < 2) return parts[0] || "";
    return words.t(pattern, { list: parts.slice(0, -1).join(", "), last: parts[parts.length - 1] });
  }

  function panel() { return document.getElementById("offline-queue"); }
  function here() {
    var el = panel();
    // only a phone that may enter hands here (a seated player, an organiser) queues them
    return el && el.dataset.who ? { match: el.dataset.match, who: el.dataset.who, name: el.dataset.whoName } : null;
  }
  function kindOf(address) {
    var path = new URL(address, location.href).pathname;
    if (SUBMIT.test(path)) return "hand";
    var action = ACTION.exec(path);
    return action ? action[1] : null;
  }
  function freshKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  // ------------------------------------------------------------------- IndexedDB
  var opened = null;
  function db() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        var request = indexedDB.open("ginclub-offline", 1);
        request.onupgradeneeded = function () {
          request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
      });
    }
    return opened;
  }
  function store(mode, work) {
    return db().then(function (database) {
      return new Promise(function (resolve, reject) {
        var tx = database.transaction(STORE, mode);
        var request = work(tx.objectStore(STORE));
        tx.oncomplete = function () { resolve(request.result); };
        tx.onerror = function () { reject(tx.error); };
      });
    });
  }
  function load() {
    var me = here();
    if (!me || !window.indexedDB) { items = []; return Promise.resolve(items); }
    return store("readonly", function (s) { return s.getAll(); }).then(function (all) {
      items = all.filter(function (item) { return item.match === me.match; });
      return items;
    });
  }
  function mine() {
    var me = here();
    return items.filter(function (item) { return me && item.who === me.who; });
  }
  function waiting() { return mine().filter(function (item) { return !item.refusal; }); }

  // ---------------------------------------------------------------- queueing
  function handNumberOf(form) {
    var hand = form.closest("li.hand, .clash");
    return hand && hand.dataset.handNumber ? hand.dataset.handNumber : "";
  }
  // the words of a choice's label (a player's name on the knocker's buttons)
  function labelOf(input) {
    var label = input && input.closest("label");
    return label ? label.textContent.trim() : "";
  }
  function checkedLabel(form, name) {
    return labelOf(form.querySelector('[name="' + name + '"]:checked'));
  }
  // An entry in words: `what` names it ("Hand 3: gin by Ada, Ben's deadwood 35"), and
  // `label`, shown while it waits, adds when it is scored; a refusal says "Not saved:"
  // of `what` alone.
  function describe(kind, form, data) {
    if (kind !== "hand") {
      var number = { number: handNumberOf(form), reason: data.get("reason") };
      var said;
      if (kind === "confirm") {
        said = words.t(data.get("pin") ? "Confirm hand {number} (with the opponent's PIN)" : "Confirm hand {number}", number);
      } else if (kind === "dispute") {
        said = words.t(data.get("reason") ? "Dispute hand {number}: {reason}" : "Dispute hand {number}", number);
      } else {
        said = words.t("Withdraw my entry of hand {number}", number);
      }
      return { what: said, label: said };
    }
    var other = form.querySelector('[name="knocker"]:not(:checked)');  // the defender
    var values = {
      number: data.get("number"),
      outcome: checkedLabel(form, "outcome").toLowerCase(),
      knocker: checkedLabel(form, "knocker") || words.t("nobody"),
      defender: labelOf(other),
      knocker_cards: data.getAll("knocker_cards").length,
      defender_cards: data.getAll("defender_cards").length,
      knocker_deadwood: data.get("knocker_deadwood"),
      defender_deadwood: data.get("defender_deadwood")
    };
    if (data.get("outcome") === "dead") {
      var dead = words.t("Hand {number}: dead hand, no points.", values);
      return { what: dead, label: dead };
    }
    if (data.get("mode") === "cards") {
      var cards = words.t("Hand {number}: {outcome}, {knocker} knocked, {knocker_cards} and {defender_cards} cards", values);
      return { what: cards, label: words.t("{entry}: they are checked and scored when sent.", { entry: cards }) };
    }
    // a gin has no knocker's deadwood to give (the form leaves it out)
    var what = values.knocker_deadwood === null && values.defender
      ? words.t("Hand {number}: {outcome} by {knocker}, {defender}'s deadwood {defender_deadwood}", values)
      : words.t("Hand {number}: {outcome}, {knocker} knocked, deadwood {knocker_deadwood} v {defender_deadwood}", values);
    return { what: what, label: words.t("{entry}: the score will be shown when sent.", { entry: what }) };
  }
  // What the server would refuse at once, said before anything is kept: a knock or a gin
  // needs its knocker (the rest waits for the engine when the hand is sent).
  function problemOf(form, data) {
    if (data.get("outcome") === "dead" || data.get("knocker")) return "";
    var names = Array.prototype.map.call(
      form.querySelectorAll('[name="knocker"]'), labelOf
    ).filter(Boolean);
    if (!names.length) return words.t("Choose who knocked before saving: nothing was kept.");
    return words.t("Choose who knocked ({names}) before saving: nothing was kept.", { names: joined(names, "{list} or {last}") });
  }
  function refuseHere(form, message) {
    var slot = form.querySelector(".refusal-slot");
    if (!slot) return;
    var box = el("div", "refusal");
    var text = el("p", "error", message);
    text.setAttribute("role", "alert");
    box.appendChild(text);
    slot.replaceChildren(box);
    form.querySelectorAll('[name="knocker"]').forEach(function (input) { input.setAttribute("aria-invalid", "true"); });
  }
  function enqueue(form, submitter, kind) {
    var me = here();
    var data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    var problem = kind === "hand" ? problemOf(form, data) : "";
    if (problem) {
      refuseHere(form, problem);
      return Promise.resolve();
    }
    data.delete("csrfmiddlewaretoken");  // the token of the moment is sent as a header
    var item = {
      match: me.match, who: me.who, whoName: me.name, kind: kind,
      url: new URL(form.getAttribute("action"), location.href).pathname,
      body: new URLSearchParams(data).toString(),
      key: data.get("idempotency_key"),
      game: data.get("game"), number: data.get("number"),
      at: Date.now(), refusal: null
    };
    var said = describe(kind, form, data);
    item.what = said.what;
    item.label = said.label;
    var settled = form.closest("[data-queue-id]");
    return store("readwrite", function (s) { return s.add(item); }).then(function () {
      if (kind === "hand") nextHand(form, parseInt(item.number, 10) + 1);
      return settled ? drop(parseInt(settled.dataset.queueId, 10)) : refresh();
    }).then(function () { send(); });
  }

  // The form moves on to the next hand by itself, as the server's fresh form would.
  function nextHand(form, number) {
    var section = document.getElementById("hand-form");
    try {
      sessionStorage.removeItem("ginclub:draft:" + section.dataset.match + ":" +
        form.querySelector('[name="game"]').value + ":" + form.querySelector('[name="number"]').value);
    } catch (err) { /* private mode */ }
    form.reset();
    setNumber(form, number);
    delete form.dataset.dirty;
    ["#preview", "#hand-clash", ".refusal-slot"].forEach(function (selector) {
      var el = form.querySelector(selector);
      if (el) el.textContent = "";
    });
    if (window.ginclubHandForm) window.ginclubHandForm();
  }
  function setNumber(form, number) {
    var input = form.querySelector('[name="number"]');
    input.value = number;
    input.defaultValue = String(number);
    var key = form.querySelector('[name="idempotency_key"]');
    key.value = key.defaultValue = freshKey();
    var title = document.querySelector("#hand-form h2");
    if (title && title.firstChild) title.firstChild.nodeValue = words.t("Enter hand {number}", { number: number }) + " ";
    var save = form.querySelector('[data-testid="submit-hand"]');
    if (save) save.textContent = words.t("Save hand {number}", { number: number });
  }
  // The hand form is numbered after the hands waiting here (the page may be an old copy).
  function adjustForm() {
    var form = document.getElementById("hand-entry");
    if (!form) return;
    var game = form.querySelector('[name="game"]').value;
    var number = parseInt(form.querySelector('[name="number"]').value, 10);
    var next = number;
    waiting().forEach(function (item) {
      if (item.kind === "hand" && item.game === game) next = Math.max(next, parseInt(item.number, 10) + 1);
    });
    if (next !== number) setNumber(form, next);
  }

  // ----------------------------------------------------------------- sending
  function csrf() {
    var cookie = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie);
    if (cookie) return decodeURIComponent(cookie[1]);
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (err) { return ""; }
  }
  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", body: body,
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": csrf(), "HX-Request": "true" }
    });
  }
  function refusalOf(response) {
    return response.text().then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var refusal = doc.querySelector(".refusal");
      var text = refusal && refusal.querySelector(".error");
      return {
        status: response.status,
        code: refusal ? refusal.dataset.code : "",
        message: text ? text.textContent.trim() : words.t("The server refused it ({status}).", { status: response.status })
      };
    });
  }
  function sendAll() {
    var sent = 0;
    return load().then(function () {
      var queue = waiting();
      function next(i) {
        if (i >= queue.length) return null;
        var item = queue[i];
        return post(item.url, item.body).then(function (response) {
          // a busy or unreachable server is no answer: keep it and everything after it
          if (response.status >= 500 || response.status === 408 || response.status === 429) return null;
          if (response.ok) {
            sent += 1;
            return store("readwrite", function (s) { return s.delete(item.id); }).then(function () { return next(i + 1); });
          }
          return refusalOf(response).then(function (refusal) {
            item.refusal = refusal;
            return store("readwrite", function (s) { return s.put(item); });
          }).then(function () { return next(i + 1); });
        }, function () { return null; });  // no connection: try again later
      }
      return next(0);
    }).then(function () {
      if (sent && window.htmx) htmx.trigger(document.body, "hand-recorded");
      if (sent) { keep(); announceSent(sent); }
      return refresh();
    });
  }
  // Said once what was kept has gone (the queue's box just vanished before): in the
  // page's message region, until the player next taps or types.
  function announceSent(count) {
    var flash = document.getElementById("flash");
    if (!flash) return;
    var list = el("ul", "messages");
    var note = el("li", "success", words.n(
      "{n} entry kept on this phone was sent.", "{n} entries kept on this phone were sent.", count));
    note.setAttribute("role", "status");
    note.setAttribute("data-testid", "queue-sent");
    list.appendChild(note);
    flash.replaceChildren(list);
    var dismiss = function () {
      if (list.parentNode) list.remove();
      document.removeEventListener("pointerdown", dismiss, true);
      document.removeEventListener("keydown", dismiss, true);
    };
    document.addEventListener("pointerdown", dismiss, true);
    document.addEventListener("keydown", dismiss, true);
  }
  function send() {
    if (sending || !here() || !navigator.onLine || !window.indexedDB) return sending;
    var run = function () { return sendAll(); };
    sending = (navigator.locks ? navigator.locks.request("ginclub-offline-queue", run) : run())
      .catch(function () { /* kept for the next try */ })
      .then(function () { sending = null; });
    return sending;
  }
  function drop(id) {
    delete clashes[id];
    return store("readwrite", function (s) { return s.delete(id); }).then(refresh);
  }

  // ----------------------------------------------------------------- showing
  function summary(list) {
    var counts = {};
    var order = [];
    list.forEach(function (item) {
      if (!counts[item.kind]) { counts[item.kind] = 0; order.push(item.kind); }
      counts[item.kind] += 1;
    });
    var parts = order.map(function (kind) { return words.n(COUNTED[kind][0], COUNTED[kind][1], counts[kind]); });
    return words.t("{list} waiting to send", { list: joined(parts, "{list} and {last}") });
  }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }
  function render() {
    var box = panel();
    var me = here();
    if (!box) return;
    var list = mine();
    var others = items.filter(function (item) { return me && item.who !== me.who; });
    box.hidden = !list.length && !others.length;
    box.textContent = "";
    if (box.hidden) return;
    var pending = waiting();
    box.appendChild(el("h2", "", pending.length ? summary(pending) : words.t("Not saved: read this")));
    box.lastChild.setAttribute("data-testid", "queue-summary");
    if (pending.length) {
      box.appendChild(el("p", "small muted", navigator.onLine
        ? words.t("Kept on this phone. They are sent by themselves, in order, when the connection returns: sending now.")
        : words.t("Kept on this phone. They are sent by themselves, in order, when the connection returns.")));
    }
    var ol = el("ol", "queue");
    list.forEach(function (item) {
      var li = el("li", item.refusal ? "refused" : "");
      li.dataset.queueId = item.id;
      if (!item.refusal) {
        li.appendChild(el("span", "", item.label));
      } else {
        li.appendChild(el("p", "error", words.t("Not saved: {entry}", { entry: item.what || item.label })));
        li.appendChild(el("p", "", item.refusal.message));
        var clash = el("div", "queue-clash");
        li.appendChild(clash);
        if (item.refusal.code === "hand_exists") showClash(item, clash);
        var read = el("button", "", words.t("I have read this: remove it"));
        read.type = "button";
        read.dataset.queueDrop = item.id;
        li.appendChild(read);
      }
      ol.appendChild(li);
    });
    box.appendChild(ol);
    if (others.length) {
      box.appendChild(el("p", "small muted", words.n(
        "{n} entry made on this phone by {name} wait until {name} sits at this phone again: they are never sent as anyone else.",
        "{n} entries made on this phone by {name} wait until {name} sits at this phone again: they are never sent as anyone else.",
        others.length, { name: others[0].whoName })));
    }
  }
  // In the queue there are no figures "above" to change (the form has moved on): the
  // clash's advice about them is the form's alone.
  function hideFormAdvice(node) {
    node.querySelectorAll("[data-form-only]").forEach(function (el) { el.hidden = true; });
  }
  // Both entries of the hand side by side (the same partial as when both phones save
  // at once), with the ways to settle it; fetched once a refusal says so.
  function showClash(item, target) {
    var put = function (html) {
      target.innerHTML = html;
      hideFormAdvice(target);
      if (window.htmx) htmx.process(target);
    };
    if (clashes[item.id]) { put(clashes[item.id]); return; }
    var compare = panel().dataset.compare;
    if (!compare || !navigator.onLine) return;
    post(compare, item.body).then(function (response) {
      return response.ok ? response.text() : "";
    }).then(function (html) {
      if (!html) return;
      clashes[item.id] = html;
      var li = document.querySelector('[data-queue-id="' + item.id + '"] .queue-clash');
      if (li) { li.innerHTML = html; hideFormAdvice(li); if (window.htmx) htmx.process(li); }
    }).catch(function () { /* shown on the next try */ });
  }
  // Buttons of entries waiting here say so, so nobody taps them twice.
  function markQueued() {
    var urls = {};
    waiting().forEach(function (item) { if (item.kind !== "hand") urls[item.url] = item; });
    document.querySelectorAll("#scoreboard form[action]").forEach(function (form) {
      var queued = urls[new URL(form.getAttribute("action"), location.href).pathname];
      form.querySelectorAll("button").forEach(function (b) { b.disabled = !!queued; });
      var note = form.querySelector(".queued-note");
      if (queued && !note) form.appendChild(el("p", "small queued-note", words.t("Waiting to send: {entry}.", { entry: queued.label })));
      if (!queued && note) note.remove();
    });
  }
  function refresh() {
    return load().then(function () { render(); adjustForm(); markQueued(); }, function () { /* no IndexedDB */ });
  }

  // ------------------------------------------------------------------ events
  // A form that writes, sent while offline or behind entries still waiting: queued.
  document.addEventListener("submit", function (e) {
    var form = e.target;
    var kind = form.getAttribute("action") && kindOf(form.getAttribute("action"));
    if (!kind || !here() || !window.indexedDB) return;
    if (navigator.onLine && !waiting().length) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    enqueue(form, e.submitter, kind);
  }, true);

  // Sent but no answer (the Wi-Fi dropped on the way, or a 502/503/504): queued, and
  // connection.js says it is kept rather than lost.
  function queueFailed(e) {
    var config = e.detail.requestConfig;
    var form = e.detail.elt && e.detail.elt.closest && e.detail.elt.closest("form");
    var kind = config && config.verb === "post" && kindOf(config.path);
    if (!kind || !form || !here() || !window.indexedDB) return;
    if (e.type === "htmx:responseError" && [502, 503, 504].indexOf(e.detail.xhr.status) === -1) return;
    e.detail.queued = true;
    enqueue(form, null, kind);
  }
  document.addEventListener("htmx:sendError", queueFailed, true);
  document.addEventListener("htmx:responseError", queueFailed, true);

  // Offline there is no engine to ask: say when the score will come.
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest(".preview-button");
    if (button && !navigator.onLine) {
      e.preventDefault();
      e.stopImmediatePropagation();
      var form = button.closest("form");
      var preview = form && form.querySelector("#preview");
      if (!preview) return;
      preview.textContent = "";
      preview.appendChild(el("p", "muted", form.dataset.mode === "cards"
        ? words.t("No connection: the cards are checked and the hand scored when it is sent.")
        : words.t("No connection: the score will be shown when the hand is sent.")));
      return;
    }
    var dropButton = e.target.closest && e.target.closest("[data-queue-drop]");
    if (dropButton) drop(parseInt(dropButton.dataset.queueDrop, 10));
  }, true);

  document.addEventListener("htmx:afterRequest", function (e) {
    var elt = e.detail.elt;
    var settled = elt && elt.closest && elt.closest("[data-queue-id]");
    if (settled && e.detail.successful) drop(parseInt(settled.dataset.queueId, 10));
    var path = e.detail.requestConfig && e.detail.requestConfig.path;
    if (!e.detail.successful || !path || !/\/scoreboard\/$/.test(path)) return;
    if (waiting().length) send();  // the server answers again
    // the table changed since the page was kept (or since it loaded: once per page)
    var tag = e.detail.xhr.getResponseHeader("ETag");
    if (tag && tag !== lastTag) keep();
    lastTag = tag || lastTag;
  });
  document.addEventListener("htmx:afterSwap", function (e) {
    var id = e.detail.target && e.detail.target.id;
    if (id === "hand-form") adjustForm();
    if (id === "scoreboard") markQueued();
  });
  window.addEventListener("online", function () { render(); send(); });
  window.addEventListener("offline", render);
  setInterval(function () { if (waiting().length) send(); }, RETRY_MS);

  // ---------------------------------------------------------- service worker
  function keep() {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker && here()) worker.postMessage({ keep: location.pathname + location.search });
  }
  // The page a navigation brought was kept by the worker on its way; a page that came
  // before the worker took over, or by a boosted form (the PIN), is asked for again.
  var registered = false;
  function register() {
    var box = panel();
    if (registered || !box || !box.dataset.worker || !("serviceWorker" in navigator)) return;
    registered = true;
    navigator.serviceWorker.register(box.dataset.worker, { scope: "/" }).catch(function () {});
    navigator.serviceWorker.addEventListener("controllerchange", keep);
  }

  function setUp(again) {
    register();
    refresh().then(send);
    if (again && navigator.onLine) keep();
  }
  window.ginclubOffline = { setUp: setUp, send: send };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { setUp(false); });
  else setUp(false);
})();
