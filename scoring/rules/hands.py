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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from scoring.rules.cards import Card, check_unique, format_cards, total_value
from scoring.rules.errors import RulesError
from scoring.rules.melds import (
    Meld,
    best_arrangement,
    best_deadwood,
    check_meld,
    deadwood_of_masks,
    suit_masks,
)
from scoring.rules.profiles import RuleProfile
from scoring.rules.spread import (
    MeldTable,
    Reply,
    by_suit,
    could_lay_off,
    defender_reply,
    reply_for,
    reply_masks,
)

MINUS = "−"


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
    note: str


def hand_limit(profile: RuleProfile, upcard: Card | None) -> Limit:
    """The knock limit for this deal, and the Oklahoma spade double."""
    if not profile.oklahoma:
        return Limit(profile.knock_limit, 1, "")
    if upcard is None:
        raise RulesError("missing_upcard", "Oklahoma rules need the first upcard of the deal")
    limit = 0 if upcard.rank == 1 else upcard.value
    spade = profile.oklahoma_spade_double and upcard.suit == "S"
    return Limit(limit, 2 if spade else 1, " (spade upcard)" if spade else "")


# -------------------------------------------------------------------- quick entry


def _deadwood(value, who: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError("bad_deadwood", f"{who} deadwood must be a whole number, not {value!r}")
    if not 0 <= value <= 98:
        raise RulesError("bad_deadwood", f"{who} deadwood {value} is outside 0..98")
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
            "bad_outcome", f"outcome must be knock, gin, big_gin or dead, not {outcome!r}"
        )
    limit = hand_limit(profile, upcard)
    if outcome in ("gin", "big_gin") and knocker_deadwood is None:
        knocker_deadwood = 0
    k = _deadwood(knocker_deadwood, "knocker's")
    d = _deadwood(defender_deadwood, "defender's")
    if outcome == "big_gin":
        return _big_gin(k, d, profile, limit)
    if outcome == "gin" and k != 0:
        raise RulesError("illegal_knock", f"gin means 0 deadwood, not {k}")
    return _knock(k, d, d, profile, limit)


def dead_hand() -> HandResult:
    return HandResult(Outcome.DEAD, None, 0, None, None, "Dead hand: nobody scores")


def _big_gin(k: int, d: int, profile: RuleProfile, limit: Limit) -> HandResult:
    if profile.big_gin_bonus is None:
        raise RulesError(
            "illegal_knock",
            "big gin is not played under these rules: discard and go gin with 10 cards",
        )
    if k != 0:
        raise RulesError("illegal_knock", f"big gin means all 11 cards melded, not {k} deadwood")
    points = profile.big_gin_bonus + d
    text = f"Big gin: {profile.big_gin_bonus} bonus + {d} = {points}"
    return _multiplied(Outcome.BIG_GIN, "knocker", points, k, d, text, limit)


def _knock(
    k: int, d_before: int, d: int, profile: RuleProfile, limit: Limit, **cards
) -> HandResult:
    """K and D known: gin when K is 0, else knock or undercut."""
    if k == 0:
        points = profile.gin_bonus + d_before
        text = f"Gin: {profile.gin_bonus} bonus + {d_before} = {points}"
        return _multiplied(Outcome.GIN, "knocker", points, 0, d_before, text, limit, **cards)
    if k > limit.knock_limit:
        raise RulesError(
            "illegal_knock",
            f"deadwood {k} is over the knock limit "
            f"{limit.knock_limit}"
            + (" (only gin ends this hand)" if limit.knock_limit == 0 else ""),
        )
    if d < k or (d == k and profile.undercut_on_tie):
        points = profile.undercut_bonus + (k - d)
        text = f"Undercut: {profile.undercut_bonus} bonus + ({k} {MINUS} {d}) = {points}"
        return _multiplied(Outcome.UNDERCUT, "defender", points, k, d, text, limit, **cards)
    text = f"Knock: {d} {MINUS} {k} = {d - k}"
    return _multiplied(Outcome.KNOCK, "knocker", d - k, k, d, text, limit, **cards)


def _multiplied(outcome, winner, points, k, d, text, limit: Limit, **cards) -> HandResult:
    if limit.multiplier != 1:
        text += f", × {limit.multiplier}{limit.note} = {points * limit.multiplier}"
        points *= limit.multiplier
    return HandResult(outcome, winner, points, k, d, text, **cards)


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
    limit = hand_limit(profile, upcard)
    declared = _declared_melds(knocker, knocker_melds)
    if len(knocker) == 11:
        return _score_big_gin_cards(knocker, defender, declared, layoffs, profile, limit)
    if declared is not None:
        return _score_spread(knocker, declared, defender, layoffs, profile, limit)
    return _best_for_knocker(knocker, defender, layoffs, profile, limit)


def _check_counts(knocker: Sequence[Card], defender: Sequence[Card]) -> None:
    if len(knocker) not in (10, 11):
        raise RulesError(
            "wrong_card_count",
            f"the knocker's hand has {len(knocker)} cards: it needs 10 (11 for big gin)",
        )
    if len(defender) != 10:
        raise RulesError(
            "wrong_card_count", f"the defender's hand has {len(defender)} cards: it needs 10"
        )
    check_unique(knocker + defender)


def _declared_melds(knocker, melds) -> tuple[Meld, ...] | None:
    if melds is None:
        return None
    declared = tuple(tuple(meld) for meld in melds)
    for meld in declared:
        check_meld(meld)
        for card in meld:
            if card not in knocker:
                raise RulesError(
                    "invalid_meld", f"{card} is in a declared meld but not in the knocker's hand"
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
        raise RulesError("illegal_layoff", "nothing is laid off on big gin")
    result = _big_gin(k, best_deadwood(defender), profile, limit)
    return _with_cards(result, knocker, declared, defender, ())


def _score_spread(knocker, melds, defender, layoffs, profile, limit) -> HandResult:
    k = total_value(_unmelded(knocker, melds))
    if k == 0 and layoffs:
        raise RulesError("illegal_layoff", "nothing is laid off on gin")
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


def _best_for_knocker(knocker, defender, layoffs, profile, limit) -> HandResult:
    """Without declared melds, the knocker's spread is the one with the best net result
    for the knocker against the defender's best reply."""
    own = suit_masks(knocker)
    if deadwood_of_masks(*own) == 0:
        return _score_spread(
            knocker, best_arrangement(knocker).melds, defender, layoffs, profile, limit
        )
    held = suit_masks(defender)
    before = deadwood_of_masks(*held)
    if layoffs is None and not (profile.layoffs and could_lay_off(own, held)):
        # D is the same for every spread, and the knocker's net only falls as K rises:
        # the least-deadwood arrangement is the best spread.
        arrangement = best_arrangement(knocker)
        if arrangement.deadwood > limit.knock_limit:
            raise _explain_illegal(knocker, limit, None)
        result = _knock(arrangement.deadwood, before, before, profile, limit)
        return _with_reply(result, arrangement.melds, reply_for(defender, ()))
    table = MeldTable.of(own)
    replies: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
    best = None
    first_error = None
    # Lay-offs only lower D, so no spread can net more than (D before lay-offs − K):
    # trying spreads from the lowest K up, stop once that bound cannot beat the best.
    for k, chosen in table.legal_spreads(total_value(knocker), limit.knock_limit):
        if best is not None and (before - k) * limit.multiplier <= best[0]:
            break
        melds = tuple(table.melds[i] for i in chosen)
        if layoffs is not None:
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
        result = _knock(k, before, d, profile, limit)
        net = result.points if result.winner == "knocker" else -result.points
        if best is None or net > best[0]:
            best = (net, melds, result, off)
    if best is None:
        raise _explain_illegal(knocker, limit, first_error)
    _, melds, result, off = best
    if isinstance(off, Reply):
        return _with_reply(result, melds, off)
    laid_off = tuple(c for c in defender if off[c.suit_index] & c.bit)
    return _with_reply(result, melds, reply_for(defender, laid_off))


def _explain_illegal(knocker, limit: Limit, error: RulesError | None) -> RulesError:
    k = best_deadwood(knocker)
    if k > limit.knock_limit:
        return RulesError(
            "illegal_knock", f"deadwood {k} is over the knock limit {limit.knock_limit}"
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
    )
