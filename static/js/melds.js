// The melds found so far, shown under the card grid while cards are tapped (cards.js).
// A small copy of the rules engine's best arrangement (scoring/rules/melds.py,
// docs/rules.md §2), here so that the line works with no network. It only informs: the
// server checks and scores every hand, and tests/static/test_melds_js.py holds this file
// to the engine's deadwood on hundreds of hands.
//
// Terms (as in the engine):
//   set        3 or 4 cards of one rank;
//   run        3 or more consecutive cards of one suit, the ace low only (A-2-3, not Q-K-A);
//   deadwood   the total value of the cards in no meld: ace 1, two to nine their pips,
//              ten, jack, queen, king 10;
//   best arrangement  disjoint melds that leave the least deadwood.
// Cards are the form's values: rank then suit, "7H", "TD" (T is the ten), "AS".
(function (out) {
  "use strict";
  var RANKS = "A23456789TJQK";
  var SUITS = "CDHS";
  var SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
  var MOST = 11; // a big gin; more than that is a slip of the thumb, not a hand

  function rank(code) { return RANKS.indexOf(code[0]) + 1; }
  function value(code) { return Math.min(rank(code), 10); }
  function bySuit(a, b) { return SUITS.indexOf(a[1]) - SUITS.indexOf(b[1]) || rank(a) - rank(b); }
  function byRank(a, b) { return rank(a) - rank(b) || SUITS.indexOf(a[1]) - SUITS.indexOf(b[1]); }

  // Every meld inside the hand, each as a bit mask over the hand's positions (the hand is
  // sorted by suit, then rank, so a run's cards sit side by side).
  function meldsIn(cards) {
    var found = [], byRankBits = {};
    cards.forEach(function (code, i) {
      byRankBits[code[0]] = (byRankBits[code[0]] || []).concat([1 << i]);
      // runs starting here: extend while the next card is the next rank of this suit
      var mask = 1 << i;
      for (var j = i + 1; j < cards.length && cards[j][1] === code[1] && rank(cards[j]) === rank(cards[j - 1]) + 1; j++) {
        mask |= 1 << j;
        if (j - i >= 2) found.push(mask);
      }
    });
    Object.keys(byRankBits).forEach(function (r) {
      var bits = byRankBits[r];
      var all = bits.reduce(function (a, b) { return a | b; }, 0);
      if (bits.length === 3) found.push(all);
      // four of a rank: the whole set, or any three of it (the fourth may go to a run)
      if (bits.length === 4) bits.forEach(function (b) { found.push(all); found.push(all ^ b); });
    });
    return found.filter(function (m, i) { return found.indexOf(m) === i; });
  }

  // The best arrangement of up to 11 cards, or null for more:
  //   { melds: [["7H", "8H", "9H"], ...], dead: ["3D", "9C"], deadwood: 13 }
  // The search takes the lowest card not yet placed: it is either deadwood or in one of
  // the melds that hold it and use no card already placed. Trying each choice is
  // exhaustive; remembering the answer for each set of cards left (at most 2^11) keeps it
  // to a few thousand steps.
  function arrange(codes) {
    var cards = codes.slice().sort(bySuit);
    if (cards.length > MOST) return null;
    var melds = meldsIn(cards), memo = {};
    function best(left) {
      if (!left) return { deadwood: 0, melds: [] };
      if (memo[left]) return memo[left];
      var low = left & -left, i = 31 - Math.clz32(low);
      var rest = best(left ^ low);
      var answer = { deadwood: rest.deadwood + value(cards[i]), melds: rest.melds };
      melds.forEach(function (m) {
        if (!(m & low) || (m & left) !== m) return;
        var after = best(left ^ m);
        if (after.deadwood < answer.deadwood) answer = { deadwood: after.deadwood, melds: [m].concat(after.melds) };
      });
      return (memo[left] = answer);
    }
    var found = best((1 << cards.length) - 1);
    var used = found.melds.reduce(function (a, b) { return a | b; }, 0);
    function pick(mask) { return cards.filter(function (c, i) { return mask & (1 << i); }); }
    return {
      melds: found.melds.map(pick),
      dead: cards.filter(function (c, i) { return !(used & (1 << i)); }).sort(byRank),
      deadwood: found.deadwood
    };
  }

  // "10♦" for "TD", as the grid and the server's preview write it.
  function label(code) { return (code[0] === "T" ? "10" : code[0]) + SYMBOLS[code[1]]; }

  out.arrange = arrange;
  out.label = label;
  out.MOST = MOST;
})(typeof module === "object" && module.exports ? module.exports : (window.ginclubMelds = {}));
