// The words the scripts show, in the page's language. The scripts hold their English
// text; the page carries its translation in non-executed JSON blocks
// (<script type="application/json" data-words>, rendered with {% translate %} by
// templates/core/_js_words.html and templates/scoring/_js_words.html), so the words come
// with the page: a copy kept by the service worker speaks the same language offline.
//   ginclubWords.t("Hand {number}: dead hand, no points.", { number: 3 })
//   ginclubWords.n("{n} hand", "{n} hands", count)   (values.n defaults to the count)
// A block maps each English text to its translation, or, for a plural, the singular to
// [singular, plural] (English and Italian: the singular for 1, the plural otherwise).
// A text no block carries stays English.
(function () {
  "use strict";
  if (window.ginclubWords) return;

  // every block on the page, parsed once (a boosted navigation brings new ones)
  function lookup(text) {
    var blocks = document.querySelectorAll('script[type="application/json"][data-words]');
    for (var i = blocks.length - 1; i >= 0; i--) {
      var block = blocks[i];
      if (!block.ginclubWords) {
        try { block.ginclubWords = JSON.parse(block.textContent); } catch (err) { block.ginclubWords = {}; }
      }
      if (Object.prototype.hasOwnProperty.call(block.ginclubWords, text)) return block.ginclubWords[text];
    }
    return null;
  }
  function fill(text, values) {
    if (!values) return text;
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }
  function t(text, values) {
    var found = lookup(text);
    return fill(typeof found === "string" ? found : text, values);
  }
  function n(singular, plural, count, values) {
    var found = lookup(singular);
    var forms = Array.isArray(found) && found.length === 2 ? found : [singular, plural];
    var all = { n: count };
    Object.keys(values || {}).forEach(function (name) { all[name] = values[name]; });
    return fill(forms[count === 1 ? 0 : 1], all);
  }
  window.ginclubWords = { t: t, n: n };
})();
