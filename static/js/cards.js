// The hand form on a phone (templates/scoring/_hand_form.html):
// - deadwood steppers (±1, ±10; typing works too: a tap selects the number);
// - card by card: one grid on screen at a time, a knocker/defender switch with running
//   counts ("7/10"), a card held by the other hand greyed out, a clear button, moving on
//   to the defender once the knocker's hand is full, optional four-colour suits;
// - under the grid, each hand's best melds and deadwood so far, found on this phone by
//   melds.js (no network needed); the server still checks and scores the hand;
// - a half-entered hand is kept in this browser (sessionStorage, per match, game and
//   hand) until it is saved, so a reload or a locked screen loses nothing; the mode is in
//   the address (?mode=cards);
// - Save is disabled while it is sent and for a moment after the next hand's form
//   arrives, so a double tap cannot land on the fresh form;
// - a hand the opponent saved first with other figures is shown beside this entry.
(function () {
  // A boosted navigation (the seat form) runs this file again: set up the new page only,
  // never a second set of listeners (which would, say, step a deadwood twice per tap).
  if (window.ginclubHandForm) { window.ginclubHandForm(); return; }
  var root = document.documentElement;
  // the page's language: static/js/words.js, loaded before this file
  var words = window.ginclubWords;
  root.classList.add("js");
  try { if (localStorage.getItem("ginclub:four-colour") === "1") root.classList.add("four-colour"); } catch (err) { /* private mode */ }

  function form() { return document.getElementById("hand-entry"); }
  function clamp(v) { return Math.max(0, Math.min(98, v)); }

  // ---------------------------------------------------------------- steppers
  document.addEventListener("click", function (e) {
    var btn = e.target.closest("[data-step]");
    if (!btn) return;
    var input = document.getElementById(btn.dataset.for);
    input.value = clamp((parseInt(input.value, 10) || 0) + parseInt(btn.dataset.step, 10));
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  document.addEventListener("focusin", function (e) {
    if (e.target.matches && e.target.matches('.stepper input')) e.target.select();
  });

  // ------------------------------------------------------------ the outcome
  // A gin or big gin has no knocker's deadwood to give (it is 0) and no lay-offs; a dead
  // hand has no knocker and no deadwood. What does not apply is hidden and disabled, so
  // it is neither asked nor sent.
  function shapeByOutcome() {
    var f = form();
    if (!f) return;
    var checked = f.querySelector('[name="outcome"]:checked');
    var outcome = checked ? checked.value : "knock";
    function apply(selector, off) {
      f.querySelectorAll(selector).forEach(function (box) {
        box.hidden = off;
        box.querySelectorAll("input, button").forEach(function (el) { el.disabled = off; });
      });
    }
    apply("[data-knock-only]", outcome !== "knock");
    apply("[data-not-dead]", outcome === "dead");
    var gin = outcome === "gin" || outcome === "big_gin";
    var reworded = [];
    f.querySelectorAll("[data-gin-words]").forEach(function (el) {
      if (!el.dataset.knockWords) el.dataset.knockWords = el.textContent;
      var words = gin ? el.dataset.ginWords : el.dataset.knockWords;
      if (el.textContent !== words) reworded = reworded.concat(namesAsked(el));
      el.textContent = words;
    });
    return reworded;
  }
  // The names of the fields a legend or label asks for.
  function namesAsked(el) {
    var box = el.tagName === "LEGEND" ? el.parentElement : document.getElementById(el.htmlFor);
    if (!box) return [];
    var fields = box.name ? [box] : Array.prototype.slice.call(box.querySelectorAll("[name]"));
    return fields.map(function (field) { return field.name; });
  }
  // A refusal names the fields it is about (data-fields). Once the outcome changes so that
  // one of them no longer applies (hidden and disabled) or asks another question ("Who
  // went gin?" for "Who knocked?"), the refusal is stale: it goes, with its marks.
  function clearStaleRefusal(f, reworded) {
    var slot = f.querySelector(":scope > .refusal-slot");
    var refusal = slot && slot.querySelector(".refusal[data-fields]");
    if (!refusal) return;
    var stale = refusal.dataset.fields.split(" ").some(function (name) {
      if (!name) return false;
      if (reworded.indexOf(name) >= 0) return true;
      var fields = f.querySelectorAll('[name="' + name + '"]');
      return fields.length > 0 && Array.prototype.every.call(fields, function (el) { return el.disabled; });
    });
    if (!stale) return;
    slot.replaceChildren();
    f.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
  }
  document.addEventListener("change", function (e) {
    if (e.target.matches && e.target.matches('#hand-entry [name="outcome"]')) {
      clearStaleRefusal(form(), shapeByOutcome() || []);
    }
  });

  // ------------------------------------------------------------- card grid
  function grids() {
    return {
      knocker: document.querySelector('[data-grid="knocker"]'),
      defender: document.querySelector('[data-grid="defender"]')
    };
  }
  function target(side) {
    if (side === "defender") return 10;
    var outcome = form() && form().querySelector('[name="outcome"]:checked');
    return outcome && outcome.value === "big_gin" ? 11 : 10;
  }
  function sync() {
    var g = grids();
    if (!g.knocker || !g.defender) return;
    [["knocker", "defender"], ["defender", "knocker"]].forEach(function (pair) {
      g[pair[0]].querySelectorAll("input").forEach(function (box) {
        var twin = g[pair[1]].querySelector('input[value="' + box.value + '"]');
        box.disabled = !!(twin && twin.checked);
        box.closest("label").classList.toggle("taken", box.disabled);
      });
    });
    ["knocker", "defender"].forEach(function (side) {
      var count = document.querySelector('[data-count="' + side + '"]');
      if (count) count.textContent = g[side].querySelectorAll("input:checked").length + "/" + target(side);
      showMelds(side, g[side]);
    });
  }

  // ------------------------------------------------------------ melds line
  // "Knocker: 7♥ 8♥ 9♥ · Q♣ Q♦ Q♠ / deadwood 12: 3♦ 9♣", redrawn on every tap. The
  // defender's deadwood is before lay-offs: those depend on the knocker's spread and are
  // left to the server's preview.
  function cardSpans(el, codes) {
    codes.forEach(function (code, i) {
      if (i) el.append(" ");
      var span = document.createElement("span");
      span.className = "s-" + code[1];
      span.textContent = window.ginclubMelds.label(code);
      el.appendChild(span);
    });
  }
  function showMelds(side, grid) {
    var line = document.querySelector('[data-melds="' + side + '"]');
    if (!line || !window.ginclubMelds) return;
    var cards = Array.prototype.map.call(grid.querySelectorAll("input:checked"), function (box) { return box.value; });
    var found = window.ginclubMelds.arrange(cards);
    var melds = line.querySelector("[data-meld-text]"), dead = line.querySelector("[data-dead-text]");
    melds.textContent = dead.textContent = "";
    if (!cards.length) { melds.textContent = words.t("no cards yet"); return; }
    if (!found) {
      melds.textContent = words.t("{count} cards: a hand has {target}, untap the extra", { count: cards.length, target: target(side) });
      return;
    }
    found.melds.forEach(function (meld, i) {
      if (i) melds.append(" · ");
      var group = document.createElement("span");
      group.className = "meld";  // a meld is never broken across two lines
      cardSpans(group, meld);
      melds.appendChild(group);
    });
    if (!found.melds.length) melds.textContent = words.t("no melds yet");
    dead.append(words.t(side === "defender" ? "deadwood {n} before lay-offs" : "deadwood {n}", { n: found.deadwood }) +
      (found.dead.length ? ": " : ""));
    cardSpans(dead, found.dead);
  }
  // Screen readers hear the tapped hand's count and line once the tapping pauses, not
  // after every card (the checkbox itself already says "7♥, checked"), and never twice.
  var newsTimer = null, lastNews = "";
  function announce(who) {
    clearTimeout(newsTimer);
    newsTimer = setTimeout(function () {
      var news = document.querySelector("[data-meld-news]");
      var line = document.querySelector('[data-melds="' + who + '"]');
      var count = document.querySelector('[data-count="' + who + '"]');
      if (!news || !line || !count) return;
      var dead = line.querySelector("[data-dead-text]").textContent;
      var counted = count.textContent.split("/");
      var values = { count: counted[0], target: counted[1], melds: line.querySelector("[data-meld-text]").textContent, dead: dead };
      var text = who === "knocker"
        ? words.t(dead ? "Knocker, {count} of {target} cards: {melds}; {dead}." : "Knocker, {count} of {target} cards: {melds}.", values)
        : words.t(dead ? "Defender, {count} of {target} cards: {melds}; {dead}." : "Defender, {count} of {target} cards: {melds}.", values);
      if (who !== side()) text += " " + words.t(side() === "knocker" ? "Now the knocker's cards." : "Now the defender's cards.");
      if (text !== lastNews) news.textContent = lastNews = text;
    }, 900);
  }
  function side() {
    var on = document.querySelector('[data-side][aria-pressed="true"]');
    return on ? on.dataset.side : "knocker";
  }
  function show(which) {
    document.querySelectorAll("[data-side]").forEach(function (b) {
      b.setAttribute("aria-pressed", b.dataset.side === which ? "true" : "false");
      b.classList.toggle("primary", b.dataset.side === which);
    });
    document.querySelectorAll("[data-grid-box]").forEach(function (box) {
      box.classList.toggle("shown", box.dataset.gridBox === which);
    });
    var clear = document.querySelector("[data-clear-side]");
    if (clear) clear.textContent = words.t(which === "knocker" ? "Clear knocker's cards" : "Clear defender's cards");
    var entry = document.querySelector("[data-card-entry]");
    if (entry) entry.dataset.showing = which;
  }
  document.addEventListener("click", function (e) {
    var sideButton = e.target.closest("[data-side]");
    if (sideButton) { show(sideButton.dataset.side); save(); return; }
    if (e.target.closest("[data-clear-side]")) {
      grids()[side()].querySelectorAll("input:checked").forEach(function (box) { box.checked = false; });
      sync();
      announce(side());
      save();
    }
  });
  document.addEventListener("change", function (e) {
    if (e.target.matches("[data-four-colour]")) {
      root.classList.toggle("four-colour", e.target.checked);
      try { localStorage.setItem("ginclub:four-colour", e.target.checked ? "1" : "0"); } catch (err) { /* ignore */ }
      return;
    }
    if (!e.target.closest(".cardgrid")) { sync(); return; }
    sync();
    // the knocker's hand is complete: go on to the defender's
    var g = grids();
    var tapped = side();
    if (e.target.checked && tapped === "knocker" &&
        g.knocker.querySelectorAll("input:checked").length === target("knocker") &&
        g.defender.querySelectorAll("input:checked").length === 0) {
      show("defender");
    }
    announce(tapped);
  });

  // ---------------------------------------------------------------- drafts
  function draftKey(f) {
    var section = document.getElementById("hand-form");
    return "ginclub:draft:" + section.dataset.match + ":" + f.querySelector('[name="game"]').value +
      ":" + f.querySelector('[name="number"]').value;
  }
  var KEPT = ["outcome", "knocker", "knocker_deadwood", "defender_deadwood", "knocker_cards", "defender_cards", "upcard"];
  function save() {
    var f = form();
    if (!f) return;
    var data = { mode: f.dataset.mode, side: side(), fields: {} };
    KEPT.forEach(function (name) {
      var els = f.querySelectorAll('[name="' + name + '"]');
      if (!els.length) return;
      var values = [];
      els.forEach(function (el) {
        if (el.type === "radio" || el.type === "checkbox") { if (el.checked) values.push(el.value); }
        else values.push(el.value);
      });
      data.fields[name] = values;
    });
    try { sessionStorage.setItem(draftKey(f), JSON.stringify(data)); } catch (err) { /* full or private */ }
  }
  function restore() {
    var f = form();
    if (!f) return;
    var raw = null;
    try { raw = sessionStorage.getItem(draftKey(f)); } catch (err) { return; }
    if (!raw) return;
    var data;
    try { data = JSON.parse(raw); } catch (err) { return; }
    if (data.mode && data.mode !== f.dataset.mode && !new URLSearchParams(location.search).get("mode")) {
      // the table link reopened without a mode: back to the mode the hand was begun in
      var url = document.getElementById("hand-form").getAttribute("hx-get").split("?")[0];
      htmx.ajax("GET", url + "?mode=" + encodeURIComponent(data.mode), { target: "#hand-form", swap: "outerHTML" });
      return;
    }
    Object.keys(data.fields || {}).forEach(function (name) {
      var values = data.fields[name];
      f.querySelectorAll('[name="' + name + '"]').forEach(function (el) {
        if (el.type === "radio" || el.type === "checkbox") el.checked = values.indexOf(el.value) !== -1;
        else if (values.length) el.value = values[0];
      });
    });
    f.dataset.dirty = "1";
    if (data.side) show(data.side);
  }
  function forget(f) {
    try { sessionStorage.removeItem(draftKey(f)); } catch (err) { /* ignore */ }
  }

  // A pristine hand form follows the table: when the scoreboard shows that the next hand
  // (or game) has moved on, say because the opponent entered one, fetch a fresh form. A
  // form the player has started filling in is never replaced.
  function touched(e) {
    var f = e.target.closest && e.target.closest("#hand-entry");
    if (!f || e.target.matches("[data-four-colour]")) return;
    f.dataset.dirty = "1";
    save();
  }
  document.addEventListener("input", touched);
  document.addEventListener("change", touched);

  // A new preview or save makes what the last one showed stale: its score, its refusal,
  // the other phone's entry beside it. They go before the answer comes (issue 23, trap 2).
  function clearShown(f) {
    var preview = f.querySelector("#preview");
    if (preview) {
      preview.replaceChildren();
      preview.className = "";
      preview.removeAttribute("role");
    }
    var clash = f.querySelector("#hand-clash");
    if (clash) clash.replaceChildren();
    var slot = f.querySelector(":scope > .refusal-slot");
    if (slot) slot.replaceChildren();
    f.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
  }
  document.addEventListener("htmx:beforeRequest", function (e) {
    var f = form();
    var elt = e.detail.elt;
    var saves = elt === f && e.detail.requestConfig.path === f.getAttribute("hx-post");
    if (f && (saves || (elt.classList && elt.classList.contains("preview-button") && f.contains(elt)))) {
      clearShown(f);
    }
  });

  // The request that saved the hand: forget its draft, and guard the fresh form's Save.
  var saving = null;
  document.addEventListener("htmx:beforeRequest", function (e) {
    var f = form();
    if (f && e.detail.elt === f && e.detail.requestConfig.path === f.getAttribute("hx-post")) {
      saving = draftKey(f);
    }
  });
  document.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target && e.detail.target.id === "hand-form" && !e.detail.xhr.getResponseHeader("X-Refusal")) {
      if (saving) {
        try { sessionStorage.removeItem(saving); } catch (err) { /* ignore */ }
        saving = null;
        var button = document.querySelector('#hand-entry [data-testid="submit-hand"]');
        if (button) {
          button.disabled = true;
          setTimeout(function () { button.disabled = false; }, 1200);
        }
      }
      setUp();
    }
  });

  document.addEventListener("htmx:afterSwap", function () {
    var board = document.getElementById("scoreboard");
    var section = document.getElementById("hand-form");
    var f = form();
    if (!board || !section || !f || f.dataset.dirty || !board.dataset.nextHand) return;
    var number = f.querySelector('[name="number"]');
    var game = f.querySelector('[name="game"]');
    if (number.value !== board.dataset.nextHand || game.value !== board.dataset.game) {
      htmx.trigger(section, "stale");
    }
  });

  // ------------------------------------------------- two phones, one hand
  // The opponent saved this hand first, with other figures (a `hand_exists` refusal):
  // fetch both entries side by side, with the ways to settle it. This entry stays.
  document.addEventListener("htmx:afterSwap", function (e) {
    var f = form();
    var refusal = e.detail.target && e.detail.target.querySelector('.refusal[data-code="hand_exists"]');
    if (!f || !refusal || !f.contains(refusal)) return;
    f.dataset.dirty = "1";
    htmx.ajax("POST", document.getElementById("hand-form").dataset.compare,
      { source: f, target: "#hand-clash", swap: "innerHTML" });
  });
  document.addEventListener("htmx:afterSwap", function (e) {
    // the clash says it all, once: who saved what, beside this entry, and what to do
    var f = form();
    if (!f || !e.detail.target || e.detail.target.id !== "hand-clash") return;
    var slot = f.querySelector(":scope > .refusal-slot");
    if (slot) slot.replaceChildren();
  });

  // While the clash shows its Confirm and Dispute beside the form, the hand list does not
  // show a second pair for the same hand (issue 23, trap 3).
  function oneSetOfButtons() {
    var clash = document.querySelector("#hand-clash [data-hand-id][data-settles]");
    document.querySelectorAll("li.hand .hand-steps").forEach(function (steps) {
      steps.hidden = !!clash && steps.closest("li.hand").id === "hand-" + clash.dataset.handId;
    });
  }
  document.addEventListener("htmx:afterSwap", oneSetOfButtons);

  function setUp() {
    var f = form();
    if (!f) return;
    var four = document.querySelector("[data-four-colour]");
    if (four) four.checked = root.classList.contains("four-colour");
    show("knocker");
    restore();
    shapeByOutcome();
    sync();
    if (f.querySelector("[data-card-entry]") && !document.querySelector('[data-side][aria-pressed="true"]')) show("knocker");
  }
  window.ginclubHandForm = setUp;
  document.addEventListener("DOMContentLoaded", setUp);
  window.addEventListener("pageshow", function (e) { if (e.persisted) setUp(); });
})();
