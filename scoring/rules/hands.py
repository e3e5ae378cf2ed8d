"""Scoring one hand.

Terms (K and D as in docs/rules.md §6):
    K          the knocker's deadwood.
    D          the defender's deadwood after lay-offs (before them, for gin and big gin).
    knock      D > K: the knocker scores D − K.
    undercut   D ≤ K (D < K when `undercut_on_tie` is off): the defender scores the
               undercut bonus + (K − D).
    gin        K = 0 on 10 cards (a knock with 0 deadwood is gin): gin bonus + D.
    big gin    all 11 cards melded, no discard: big gin bonus + D.
    dead hand  nobody ended the hand: nothing scores.
Two entry forms: quick (outcome and both deadwoods) and card by card (both hands; the
engine finds the melds, the knocker's best spread and the defender's best reply).

A result's `explanation` is English ("Knock: 30 − 5 = 25"); its `parts` are the same text
as (template, values) pairs that a display layer translates and fills. `explanation_parts`
reads a stored explanation back into its parts (None for text the engine did not write).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from scoring.rules.cards import Card, check_unique, format_cards, total_value
from scoring.rules.errors import RulesError, gettext_noop
from scoring.rules.melds import (
    VALUE_SUM,
    Meld,
    arrangement_within,
    best_arrangement,
    best_deadwood,
    by_suit,
    check_meld,
    deadwood_of_masks,
    hand_mask,
)
from scoring.rules.profiles import RuleProfile
from scoring.rules.spread import (
    MeldTable,
    Reply,
    could_lay_off,
    defender_reply,
    reply_masks,
    reply_of_masks,
)

MINUS = "−"

# How each outcome's points are worked out, and the Oklahoma multiplier after it.
HAND_TEXTS = {
    "dead": gettext_noop("Dead hand: nobody scores"),
    "big_gin": gettext_noop("Big gin: %(bonus)s bonus + %(deadwood)s = %(points)s"),
    "gin": gettext_noop("Gin: %(bonus)s bonus + %(deadwood)s = %(points)s"),
    "undercut": gettext_noop(
        "Undercut: %(bonus)s bonus + (%(knocker)s − %(defender)s) = %(points)s"
    ),
    "knock": gettext_noop("Knock: %(defender)s − %(knocker)s = %(points)s"),
}
MULTIPLIED_TEXTS = {
    "": gettext_noop(", × %(multiplier)s = %(points)s"),
    # Translators: Oklahoma rules, the first upcard was a spade, so the hand counts double.
    "spade": gettext_noop(", × %(multiplier)s (spade upcard) = %(points)s"),
}

Parts = tuple[tuple[str, Mapping[str, Any]], ...]


def fill(parts: Parts, translate=None) -> str:
    """The text of `parts`, each template passed through `translate` first if given."""
    if translate is None:
        return "".join([t % (v if type(v) is dict else dict(v)) for t, v in parts])
    return "".join(translate(t) % dict(v) for t, v in parts)


class Outcome(StrEnum):
    KNOCK = "knock"
    UNDERCUT = "undercut"
    GIN = "gin"
    BIG_GIN = "big_gin"
    DEAD = "dead"


@dataclass(frozen=True)
class HandResult:
    outcome: Outcome
    winner: str | None  # "knocker", "defender" or None
    points: int
    knocker_deadwood: int | None
    defender_deadwood: int | None
    explanation: str
    knocker_melds: tuple[Meld, ...] = ()
    defender_melds: tuple[Meld, ...] = ()
    laid_off: tuple[Card, ...] = ()
    by_cards: bool = False
    parts: Parts = ()

    # Written out rather than generated: a frozen dataclass's own __init__ sets each of
    # these eleven fields through object.__setattr__, several per cent of a hand score.
    def __init__(
        self,
        outcome: Outcome,
        winner: str | None,
        points: int,
        knocker_deadwood: int | None,
        defender_deadwood: int | None,
        explanation: str,
        knocker_melds: tuple[Meld, ...] = (),
        defender_melds: tuple[Meld, ...] = (),
        laid_off: tuple[Card, ...] = (),
        by_cards: bool = False,
        parts: Parts = (),
    ) -> None:
        fields = self.__dict__  # stored one by one: cheaper than update(**eleven)
        fields["outcome"] = outcome
        fields["winner"] = winner
        fields["points"] = points
        fields["knocker_deadwood"] = knocker_deadwood
        fields["defender_deadwood"] = defender_deadwood
        fields["explanation"] = explanation
        fields["knocker_melds"] = knocker_melds
        fields["defender_melds"] = defender_melds
        fields["laid_off"] = laid_off
        fields["by_cards"] = by_cards
        fields["parts"] = parts

    def as_dict(self) -> dict:
        data = {
            "outcome": self.outcome.value,
            "winner": self.winner,
            "points": self.points,
            "knocker_deadwood": self.knocker_deadwood,
            "defender_deadwood": self.defender_deadwood,
        }
        if self.by_cards:
            data.update(
                knocker_melds=[format_cards(m) for m in self.knocker_melds],
                defender_melds=[format_cards(m) for m in self.defender_melds],
                laid_off=format_cards(self.laid_off),
            )
        data["explanation"] = self.explanation
        return data


# ------------------------------------------------------------------- knock limit


@dataclass(frozen=True)
class Limit:
    knock_limit: int
    multiplier: int
    note: str  # a key of MULTIPLIED_TEXTS


def hand_limit(profile: RuleProfile, upcard: Card | None) -> Limit:
    """The knock limit for this deal, and the Oklahoma spade double."""
    if not profile.oklahoma:
        return _plain_limit(profile.knock_limit)
    if upcard is None:
        raise RulesError(
            "missing_upcard", gettext_noop("Oklahoma rules need the first upcard of the deal")
        )
    limit = 0 if upcard.rank == 1 else upcard.value
    spade = profile.oklahoma_spade_double and upcard.suit == "S"
    return Limit(limit, 2 if spade else 1, "spade" if spade else "")


@lru_cache(maxsize=128)
def _plain_limit(knock_limit: int) -> Limit:
    return Limit(knock_limit, 1, "")


# -------------------------------------------------------------------- quick entry


DEADWOOD_TEXTS = {
    "knocker": (
        gettext_noop("knocker's deadwood must be a whole number, not %(value)s"),
        gettext_noop("knocker's deadwood %(value)s is outside 0..98"),
    ),
    "defender": (
        gettext_noop("defender's deadwood must be a whole number, not %(value)s"),
        gettext_noop("defender's deadwood %(value)s is outside 0..98"),
    ),
}


def _deadwood(value, who: str) -> int:
    not_whole, outside = DEADWOOD_TEXTS[who]
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError("bad_deadwood", not_whole, {"value": repr(value)}, side=who)
    if not 0 <= value <= 98:
        raise RulesError("bad_deadwood", outside, {"value": value}, side=who)
    return value


def score_quick(
    *,
    outcome: str,
    knocker_deadwood: int | None,
    defender_deadwood: int | None,
    profile: RuleProfile,
    upcard: Card | None = None,
) -> HandResult:
    """Score a hand entered as numbers: "knock" (may come out as an undercut or, at 0
    deadwood, gin), "gin", "big_gin" or "dead"."""
    if outcome == "dead":
        return dead_hand()
    if outcome not in ("knock", "gin", "big_gin"):
        raise RulesError(
            "bad_outcome",
            gettext_noop("outcome must be knock, gin, big_gin or dead, not %(outcome)s"),
            {"outcome": repr(outcome)},
        )
    limit = hand_limit(profile, upcard)
    if outcome in ("gin", "big_gin") and knocker_deadwood is None:
        knocker_deadwood = 0
    k = _deadwood(knocker_deadwood, "knocker")
    d = _deadwood(defender_deadwood, "defender")
    if outcome == "big_gin":
        return _big_gin(k, d, profile, limit)
    if outcome == "gin" and k != 0:
        raise RulesError(
            "illegal_knock",
            gettext_noop("gin means 0 deadwood, not %(deadwood)s"),
            {"deadwood": k},
            side="knocker",
        )
    return _knock(k, d, d, profile, limit)


def dead_hand() -> HandResult:
    parts: Parts = ((HAND_TEXTS["dead"], {}),)
    return HandResult(Outcome.DEAD, None, 0, None, None, fill(parts), parts=parts)


def _big_gin(k: int, d: int, profile: RuleProfile, limit: Limit) -> HandResult:
    if profile.big_gin_bonus is None:
        raise RulesError(
            "illegal_knock",
            gettext_noop(
                "big gin is not played under these rules: discard and go gin with 10 cards"
            ),
        )
    if k != 0:
        raise RulesError(
            "illegal_knock",
            gettext_noop("big gin means all 11 cards melded, not %(deadwood)s deadwood"),
            {"deadwood": k},
            side="knocker",
        )
    points = profile.big_gin_bonus + d
    values = {"bonus": profile.big_gin_bonus, "deadwood": d, "points": points}
    return _multiplied(Outcome.BIG_GIN, "knocker", points, k, d, "big_gin", values, limit)


def _knock(
    k: int,
    d_before: int,
    d: int,
    profile: RuleProfile,
    limit: Limit,
    knocker_melds: tuple[Meld, ...] = (),
    defender_melds: tuple[Meld, ...] = (),
    laid_off: tuple[Card, ...] = (),
    by_cards: bool = False,
) -> HandResult:
    """K and D known: gin when K is 0, else knock or undercut (with the cards shown, when
    scored from cards)."""
    if k == 0:
        points = profile.gin_bonus + d_before
        values = {"bonus": profile.gin_bonus, "deadwood": d_before, "points": points}
        outcome, winner, d, key = Outcome.GIN, "knocker", d_before, "gin"
    elif k > limit.knock_limit:
        raise _over_the_limit(k, limit)
    elif d < k or (d == k and profile.undercut_on_tie):
        points = profile.undercut_bonus + (k - d)
        values = {"bonus": profile.undercut_bonus, "knocker": k, "defender": d, "points": points}
        outcome, winner, key = Outcome.UNDERCUT, "defender", "undercut"
    else:
        points = d - k
        values = {"defender": d, "knocker": k, "points": points}
        outcome, winner, key = Outcome.KNOCK, "knocker", "knock"
    return _multiplied(
        outcome, winner, points, k, d, key, values, limit,
        knocker_melds, defender_melds, laid_off, by_cards,
    )  # fmt: skip


def _over_the_limit(k: int, limit: Limit) -> RulesError:
    values = {"deadwood": k, "limit": limit.knock_limit}
    if limit.knock_limit == 0:
        template = gettext_noop(
            "deadwood %(deadwood)s is over the knock limit %(limit)s (only gin ends this hand)"
        )
    else:
        template = gettext_noop("deadwood %(deadwood)s is over the knock limit %(limit)s")
    return RulesError("illegal_knock", template, values, side="knocker")


def _multiplied(outcome, winner, points, k, d, key, values, limit: Limit, *cards) -> HandResult:
    """The result, its points multiplied for an Oklahoma spade; `key` names the outcome's
    text in HAND_TEXTS, `values` fill it, `cards` are the shown melds and lay-offs."""
    template = HAND_TEXTS[key]
    if limit.multiplier == 1:
        parts: Parts = ((template, values),)
        explanation = _filled(key, template, values)
    else:
        points *= limit.multiplier
        more = {"multiplier": limit.multiplier, "points": points}
        parts = ((template, values), (MULTIPLIED_TEXTS[limit.note], more))
        explanation = fill(parts)
    return HandResult(outcome, winner, points, k, d, explanation, *cards, parts=parts)


# One outcome's text per outcome and values (the values of a hand are small whole numbers,
# so there are a few thousand at most): filling a template costs more than finding it.
_FILLED: dict[tuple, str] = {}


def _filled(key: str, template: str, values: dict) -> str:
    """`template % values`, remembered."""
    memo = (key, *values.values())
    text = _FILLED.get(memo)
    if text is None:
        if len(_FILLED) >= 8192:
            _FILLED.clear()
        text = _FILLED[memo] = template % values
    return text


# ------------------------------------------------------- reading an explanation back

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _pattern(template: str) -> re.Pattern[str]:
    pieces = _PLACEHOLDER.split(template)  # text, name, text, name, ..., text
    return re.compile(
        "".join(
            re.escape(piece) if i % 2 == 0 else f"(?P<{piece}>\\d+)"
            for i, piece in enumerate(pieces)
        )
    )


_HEADS = [(t, _pattern(t)) for t in HAND_TEXTS.values()]
_TAILS = [(t, _pattern(t)) for t in MULTIPLIED_TEXTS.values()]
_TAIL_START = ", × "


def explanation_parts(text: str) -> Parts | None:
    """A hand's stored English explanation as its parts (template and values), or None
    when the text is not one the engine writes (then show it as it is)."""
    head, mark, tail = (text or "").partition(_TAIL_START)
    parts = _read(head, _HEADS)
    if parts is None:
        return None
    if mark:
        more = _read(mark + tail, _TAILS)
        if more is None:
            return None
        parts += more
    return parts if fill(parts) == text else None


def _read(text: str, patterns) -> Parts | None:
    for template, pattern in patterns:
        found = pattern.fullmatch(text)
        if found:
            return ((template, {k: int(v) for k, v in found.groupdict().items()}),)
    return None


# --------------------------------------------------------------------- card entry


def score_cards(
    *,
    knocker: Sequence[Card],
    defender: Sequence[Card],
    profile: RuleProfile,
    knocker_melds: Sequence[Sequence[Card]] | None = None,
    layoffs: Sequence[Card] | None = None,
    upcard: Card | None = None,
) -> HandResult:
    """Score a hand from both players' cards: 10 (or 11 for big gin) for the knocker,
    10 for the defender. Declared melds and lay-offs are validated and used as declared."""
    knocker, defender = tuple(knocker), tuple(defender)
    _check_counts(knocker, defender)
    own, held = hand_mask(knocker), hand_mask(defender)
    if (own | held).bit_count() != len(knocker) + len(defender):
        check_unique(knocker + defender)  # says which card is given twice
    limit = hand_limit(profile, upcard)
    declared = _declared_melds(knocker, knocker_melds)
    if len(knocker) == 11:
        return _score_big_gin_cards(knocker, defender, declared, layoffs, profile, limit)
    if declared is not None:
        return _score_spread(knocker, declared, defender, layoffs, profile, limit)
    return _best_for_knocker(knocker, defender, layoffs, profile, limit, own, held)


def _check_counts(knocker: Sequence[Card], defender: Sequence[Card]) -> None:
    if len(knocker) not in (10, 11):
        raise RulesError(
            "wrong_card_count",
            gettext_noop("the knocker's hand has %(count)s cards: it needs 10 (11 for big gin)"),
            {"count": len(knocker)},
            side="knocker",
        )
    if len(defender) != 10:
        raise RulesError(
            "wrong_card_count",
            gettext_noop("the defender's hand has %(count)s cards: it needs 10"),
            {"count": len(defender)},
            side="defender",
        )


def _declared_melds(knocker, melds) -> tuple[Meld, ...] | None:
    if melds is None:
        return None
    declared = tuple(tuple(meld) for meld in melds)
    for meld in declared:
        check_meld(meld)
        for card in meld:
            if card not in knocker:
                raise RulesError(
                    "invalid_meld",
                    gettext_noop("%(card)s is in a declared meld but not in the knocker's hand"),
                    {"card": str(card)},
                    side="knocker",
                )
    check_unique([c for meld in declared for c in meld], "the knocker's melds")
    return declared


def _unmelded(cards: Sequence[Card], melds: Sequence[Meld]) -> list[Card]:
    melded = {c for meld in melds for c in meld}
    return [c for c in cards if c not in melded]


def _score_big_gin_cards(knocker, defender, declared, layoffs, profile, limit) -> HandResult:
    k = (
        total_value(_unmelded(knocker, declared))
        if declared is not None
        else best_deadwood(knocker)
    )
    if layoffs:
        raise RulesError("illegal_layoff", gettext_noop("nothing is laid off on big gin"))
    result = _big_gin(k, best_deadwood(defender), profile, limit)
    return _with_cards(result, knocker, declared, defender, ())


def _score_spread(knocker, melds, defender, layoffs, profile, limit) -> HandResult:
    k = total_value(_unmelded(knocker, melds))
    if k == 0 and layoffs:
        raise RulesError("illegal_layoff", gettext_noop("nothing is laid off on gin"))
    allowed = profile.layoffs and k > 0
    reply = defender_reply(
        melds,
        defender,
        layoffs_allowed=allowed,
        declared=tuple(layoffs) if layoffs is not None else None,
    )
    before = best_deadwood(defender)
    result = _knock(k, before, reply.deadwood, profile, limit)
    return _with_reply(result, melds, reply)


def _best_for_knocker(knocker, defender, layoffs, profile, limit, mask, held_mask) -> HandResult:
    """Without declared melds, the knocker's spread is the one with the best net result
    for the knocker against the defender's best reply (`mask` and `held_mask`: the two
    hands' 52-bit card masks)."""
    own = by_suit(mask)
    if deadwood_of_masks(*own) == 0:
        return _score_spread(
            knocker, arrangement_within(knocker, *own).melds, defender, layoffs, profile, limit
        )
    held = by_suit(held_mask)
    before = deadwood_of_masks(*held)
    if layoffs is None and not (profile.layoffs and could_lay_off(own, held)):
        # D is the same for every spread, and the knocker's net only falls as K rises:
        # the least-deadwood arrangement is the best spread.
        arrangement = arrangement_within(knocker, *own)
        if arrangement.deadwood > limit.knock_limit:
            raise _explain_illegal(knocker, limit, None)
        return _knock(
            arrangement.deadwood,
            before,
            before,
            profile,
            limit,
            knocker_melds=arrangement.melds,
            defender_melds=arrangement_within(defender, *held).melds,
            laid_off=(),
            by_cards=True,
        )
    table = MeldTable.of(own)
    replies: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
    best = None
    first_error = None
    multiplier = limit.multiplier
    # Lay-offs only lower D, so no spread can net more than (D before lay-offs − K):
    # trying spreads from the lowest K up, stop once that bound cannot beat the best.
    total = VALUE_SUM[own[0]] + VALUE_SUM[own[1]] + VALUE_SUM[own[2]] + VALUE_SUM[own[3]]
    for k, chosen in table.legal_spreads(total, limit.knock_limit):
        if best is not None and (before - k) * multiplier <= best[0]:
            break
        if layoffs is not None:
            melds = tuple(table.melds[i] for i in chosen)
            try:
                reply = defender_reply(
                    melds, defender, layoffs_allowed=profile.layoffs, declared=tuple(layoffs)
                )
            except RulesError as error:
                first_error = first_error or error
                continue
            d, off = reply.deadwood, reply
        elif profile.layoffs:
            key = table.signature(chosen)
            if key not in replies:
                replies[key] = reply_masks(by_suit(key[0]), by_suit(key[1]), held, before)
            d, off = replies[key]
        else:
            d, off = before, (0, 0, 0, 0)
        # The knocker's net result (k > 0 here: a spread of no deadwood is gin, above).
        if d < k or (d == k and profile.undercut_on_tie):
            net = -(profile.undercut_bonus + k - d) * multiplier
        else:
            net = (d - k) * multiplier
        if best is None or net > best[0]:
            best = (net, k, d, chosen, off)
    if best is None:
        raise _explain_illegal(knocker, limit, first_error)
    _, k, d, chosen, off = best
    melds = tuple([table.melds[i] for i in chosen])
    if not isinstance(off, Reply):
        off = reply_of_masks(defender, held, off)
    return _knock(
        k,
        before,
        d,
        profile,
        limit,
        knocker_melds=melds,
        defender_melds=off.melds,
        laid_off=off.laid_off,
        by_cards=True,
    )


def _explain_illegal(knocker, limit: Limit, error: RulesError | None) -> RulesError:
    k = best_deadwood(knocker)
    if k > limit.knock_limit:
        return RulesError(
            "illegal_knock",
            gettext_noop("deadwood %(deadwood)s is over the knock limit %(limit)s"),
            {"deadwood": k, "limit": limit.knock_limit},
            side="knocker",
        )
    assert error is not None
    return error


def _with_reply(result: HandResult, melds, reply: Reply) -> HandResult:
    laid_off = reply.laid_off if result.outcome not in (Outcome.GIN, Outcome.BIG_GIN) else ()
    return HandResult(
        result.outcome,
        result.winner,
        result.points,
        result.knocker_deadwood,
        result.defender_deadwood,
        result.explanation,
        tuple(melds),
        reply.melds,
        laid_off,
        by_cards=True,
        parts=result.parts,
    )


def _with_cards(result: HandResult, knocker, declared, defender, laid_off) -> HandResult:
    melds = declared if declared is not None else best_arrangement(knocker).melds
    return HandResult(
        result.outcome,
        result.winner,
        result.points,
        result.knocker_deadwood,
        result.defender_deadwood,
        result.explanation,
        tuple(melds),
        best_arrangement(defender).melds,
        laid_off,
        by_cards=True,
        parts=result.parts,
    )
