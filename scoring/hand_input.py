"""What a hand submission says, and how the rules engine scores it.

A `HandInput` is the plain value that pages and the API both build: quick entry
(outcome, knocker, both deadwoods) or card entry (both hands, optional declared melds
and lay-offs). `evaluate` turns it into the engine's `HandResult` under a match's frozen
rule profile; `score_entered` does so for a hand as someone enters it, holding the cards
to what was said of them and naming the players in the engine's refusals. Nothing here
touches the database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from ginclub.errors import ServiceError, message_of
from scoring.rules import (
    HandResult,
    RuleProfile,
    RulesError,
    best_deadwood,
    parse_card,
    parse_cards,
    score_cards,
    score_quick,
)

OUTCOMES = ("knock", "gin", "big_gin", "dead")
SEATS = ("A", "B")


def other(seat: str) -> str:
    return "B" if seat == "A" else "A"


@dataclass(frozen=True)
class HandInput:
    game: int
    number: int
    outcome: str
    knocker: str = ""
    knocker_deadwood: int | None = None
    defender_deadwood: int | None = None
    knocker_cards: tuple[str, ...] = ()
    defender_cards: tuple[str, ...] = ()
    knocker_melds: tuple[tuple[str, ...], ...] | None = None
    layoffs: tuple[str, ...] | None = None
    upcard: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    # seat -> player's name, for the refusals (not part of what was entered)
    names: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def by_cards(self) -> bool:
        return bool(self.knocker_cards or self.defender_cards)

    def as_payload(self) -> dict[str, Any]:
        payload = asdict(self)
        payload.pop("extra")
        payload.pop("names")
        return payload

    def _no_knocker(self, names: Mapping[str, str] | None) -> tuple[str, dict[str, str]]:
        """The refusal of a hand that says nobody knocked, in the words of its outcome (a
        gin has a player who went gin, as the form asks)."""
        gin = self.outcome in ("gin", "big_gin")
        if names:
            both = {"a": names["A"], "b": names["B"]}
            if gin:
                message = _("Say who went gin: %(a)s or %(b)s.") % both
                note = _("choose who went gin: %(a)s or %(b)s") % both
            else:
                message = _("Say who knocked: %(a)s or %(b)s.") % both
                note = _("choose who knocked: %(a)s or %(b)s") % both
        elif gin:
            message, note = _("Say who went gin."), _("choose who went gin")
        else:
            message, note = _("Say who knocked."), _("choose who knocked")
        return message, {"knocker": note}

    def check_shape(self, names: Mapping[str, str] | None = None) -> None:
        """Refuse what no rule could score, before the engine sees it. `names` (seat ->
        player's name) lets the messages name the players instead of seats."""
        if self.outcome not in OUTCOMES:
            raise ServiceError(
                "invalid",
                _("Say how the hand ended: knock, gin, big gin or dead hand."),
                fields={"outcome": _("unknown outcome")},
            )
        if self.outcome != "dead" and self.knocker not in SEATS:
            message, fields = self._no_knocker(names)
            raise ServiceError("invalid", message, fields=fields)
        if self.outcome == "dead":
            return
        if not self.by_cards:
            for name in ("knocker_deadwood", "defender_deadwood"):
                if getattr(self, name) is None and not (
                    name == "knocker_deadwood" and self.outcome in ("gin", "big_gin")
                ):
                    whose = (
                        names[self.knocker if name == "knocker_deadwood" else other(self.knocker)]
                        if names
                        else ""
                    )
                    raise ServiceError(
                        "invalid",
                        _("Give %(name)s's deadwood.") % {"name": whose}
                        if whose
                        else GIVE_DEADWOOD[name],
                        fields={name: _("required")},
                    )


def hand_input_from(data: Mapping[str, Any], names: Mapping[str, str] | None = None) -> HandInput:
    """Build a HandInput from already shape-checked JSON or form values; `names` (seat ->
    player's name) makes the refusals name the players."""

    def cards(key: str) -> tuple[str, ...]:
        value = data.get(key) or ()
        if isinstance(value, str):
            value = value.replace(",", " ").split()
        return tuple(str(v) for v in value)

    melds = data.get("knocker_melds")
    layoffs = data.get("layoffs")
    hand = HandInput(
        game=int(data["game"]),
        number=int(data["number"]),
        outcome=str(data.get("outcome") or ""),
        knocker=str(data.get("knocker") or ""),
        knocker_deadwood=_optional_int(data.get("knocker_deadwood")),
        defender_deadwood=_optional_int(data.get("defender_deadwood")),
        knocker_cards=cards("knocker_cards"),
        defender_cards=cards("defender_cards"),
        knocker_melds=tuple(tuple(m) for m in melds) if melds else None,
        layoffs=tuple(layoffs) if layoffs is not None else None,
        upcard=str(data.get("upcard") or ""),
        names=dict(names or {}),
    )
    hand.check_shape(names)
    return hand


def claim_input(figures: Mapping[str, Any], hand: Any, names: Mapping[str, str]) -> HandInput:
    """A dispute's claim (the figures a disputer says are right, without a game or a
    number: the page's ClaimForm, the API's `claim`) as an input of `hand` itself."""
    return hand_input_from({**figures, "game": hand.game.number, "number": hand.number}, names)


def _optional_int(value: Any) -> int | None:
    if value is None or value == "":
        return None
    return int(value)


def evaluate(hand: HandInput, profile: RuleProfile) -> HandResult:
    """Score the hand under `profile`; raises the engine's RulesError for a user to fix."""
    upcard = parse_card(hand.upcard) if hand.upcard else None
    if hand.outcome == "dead" or not hand.by_cards:
        knocker_deadwood = hand.knocker_deadwood
        if hand.outcome in ("gin", "big_gin") and knocker_deadwood is None:
            knocker_deadwood = 0
        return score_quick(
            outcome=hand.outcome,
            knocker_deadwood=knocker_deadwood,
            defender_deadwood=hand.defender_deadwood,
            profile=profile,
            upcard=upcard,
        )
    return score_cards(
        knocker=parse_cards(hand.knocker_cards),
        defender=parse_cards(hand.defender_cards),
        knocker_melds=_melds(hand.knocker_melds),
        layoffs=parse_cards(hand.layoffs) if hand.layoffs is not None else None,
        upcard=upcard,
        profile=profile,
    )


GINS = ("gin", "big_gin")


def score_entered(hand: HandInput, profile: RuleProfile) -> HandResult:
    """`evaluate` for a hand as a player or an organiser enters it (its preview, submit or
    correction). By cards, the cards decide the score; a gin or big gin said of cards
    that do not make one is refused, not scored as the knock they make. With the
    players' names (`hand.names`), a refusal about one player's hand names them.
    Stored hands scored again (a rules change, an archive) go through `evaluate`: their
    outcome is what the cards made."""
    try:
        result = evaluate(hand, profile)
    except RulesError as error:
        if hand.by_cards and hand.outcome in GINS and "deadwood" in error.params:
            # the knock limit, or a big gin's deadwood: the cards leave deadwood
            raise _not_what_was_said(hand) from None
        if error.side and hand.names and hand.knocker in SEATS:
            seat = hand.knocker if error.side == "knocker" else other(hand.knocker)
            message = _("%(name)s: %(problem)s") % {
                "name": hand.names[seat],
                "problem": message_of(error),
            }
            raise ServiceError(
                error.code, message, fields=dict.fromkeys(error.fields, message) or None
            ) from None
        raise
    outcome = getattr(result.outcome, "value", result.outcome)
    if hand.by_cards and hand.outcome in GINS and outcome != hand.outcome:
        raise _not_what_was_said(hand)
    return result


def _not_what_was_said(hand: HandInput) -> ServiceError:
    """A gin or big gin said of the knocker's cards that do not make one."""
    cards = parse_cards(hand.knocker_cards)
    values = {"name": (hand.names or {}).get(hand.knocker) or _("the knocker")}
    if hand.outcome == "big_gin" and len(cards) != 11:
        template = _("A big gin is all 11 cards melded: give %(name)s's 11 cards, or choose gin.")
    elif hand.outcome == "gin" and len(cards) != 10:
        template = _("A gin is 10 cards, after the discard: give %(name)s's 10, or choose big gin.")
    else:
        values["deadwood"] = best_deadwood(cards)
        if hand.outcome == "big_gin":
            template = _(
                "A big gin needs all 11 cards melded: %(name)s's leave %(deadwood)s deadwood. "
                "Check the cards."
            )
        else:
            template = _(
                "A gin needs 0 deadwood: %(name)s's cards leave %(deadwood)s. Choose knock, or "
                "check the cards."
            )
    message = template % values
    return ServiceError("illegal_knock", message, fields={"outcome": message})


def _melds(melds: Sequence[Sequence[str]] | None):
    return [parse_cards(meld) for meld in melds] if melds else None


def winner_seat(result: HandResult, knocker: str) -> str:
    if result.winner is None:
        return ""
    winner = getattr(result.winner, "value", result.winner)
    return knocker if winner == "knocker" else other(knocker)


# The fields of a hand as players read them (in the active language when shown).
LABELS = {
    "outcome": pgettext_lazy("hand field", "outcome"),
    "knocker": pgettext_lazy("hand field", "knocker"),
    "knocker_deadwood": gettext_lazy("knocker's deadwood"),
    "defender_deadwood": gettext_lazy("defender's deadwood"),
    "points": pgettext_lazy("hand field", "points"),
    "winner": pgettext_lazy("hand field", "winner"),
    "knocker_cards": gettext_lazy("knocker's cards"),
    "defender_cards": gettext_lazy("defender's cards"),
}

GIVE_DEADWOOD = {
    "knocker_deadwood": gettext_lazy("Give the knocker's deadwood."),
    "defender_deadwood": gettext_lazy("Give the defender's deadwood."),
}

# How a hand ended, and a hand's state, as players read them.
OUTCOME_WORDS = {
    "knock": pgettext_lazy("outcome", "knock"),
    "undercut": pgettext_lazy("outcome", "undercut"),
    "gin": pgettext_lazy("outcome", "gin"),
    "big_gin": pgettext_lazy("outcome", "big gin"),
    "dead": pgettext_lazy("outcome", "dead"),
}
STATE_WORDS = {
    "pending": pgettext_lazy("hand state", "pending"),
    "confirmed": pgettext_lazy("hand state", "confirmed"),
    "disputed": pgettext_lazy("hand state", "disputed"),
    "voided": pgettext_lazy("hand state", "voided"),
}


def outcome_text(outcome: str) -> str:
    """'big_gin' -> 'big gin' (in the active language); anything unknown as it is."""
    word = OUTCOME_WORDS.get(outcome)
    return str(word) if word is not None else str(outcome).replace("_", " ")


def state_text(state: str) -> str:
    """A hand's state in words ('pending'), in the active language."""
    word = STATE_WORDS.get(state)
    return str(word) if word is not None else str(state)


def differences(first: Mapping[str, Any], second: Mapping[str, Any]) -> dict[str, list]:
    """Fields where two entries of the same hand disagree, for players to read."""
    diff: dict[str, list] = {}
    for key in LABELS:
        a, b = first.get(key), second.get(key)
        if key.endswith("_cards"):
            if not a or not b:
                continue
            a, b = sorted(a), sorted(b)
        if a != b:
            diff[key] = [first.get(key), second.get(key)]
    return diff


def describe_differences(
    diff: Mapping[str, list],
    names: tuple[str, str] | None = None,
    seats: Mapping[str, str] | None = None,
) -> str:
    """'knocker's deadwood: 5 vs 7', or with `names` '... 5 (Alice) vs 7 (you)'; with
    `seats` (seat -> player's name) the knocker and winner by name, not seat letter.
    Said in the hand's own order of fields (LABELS), whatever order `diff` was stored in
    (PostgreSQL's jsonb keeps its keys in an order of its own)."""
    parts = []
    for key in sorted(diff, key=list(LABELS).index):
        a, b = diff[key]
        if seats and key in ("knocker", "winner"):
            a, b = seats.get(a, a), seats.get(b, b)
        values = {"field": LABELS[key], "a": show_value(a, key), "b": show_value(b, key)}
        if names:
            # Translators: two entries of one hand differ: "knocker's deadwood: 5 (Ada) vs 7 (you)".
            text = _("%(field)s: %(a)s (%(first)s) vs %(b)s (%(second)s)")
            values.update(first=names[0], second=names[1])
        else:
            text = _("%(field)s: %(a)s vs %(b)s")
        parts.append(text % values)
    return "; ".join(parts)


def dispute_words(
    diff: Mapping[str, list] | None,
    reason: str,
    names: tuple[str, str] | None = None,
    seats: Mapping[str, str] | None = None,
) -> str:
    """What a dispute says, in the reader's language: the figures in dispute as stored
    ([the hand's, the disputer's] by field: `differences`, with `names` the first entrant
    and the disputer), and the disputer's own words as they wrote them."""
    figures = describe_differences(diff, names, seats) if diff else ""
    if figures and reason:
        # Translators: a dispute: the figures in dispute, then the disputer's own words.
        return _("%(figures)s · “%(reason)s”") % {"figures": figures, "reason": reason}
    return figures or reason or _("no reason given")


def show_value(value: Any, key: str = "") -> str:
    """A hand field as players read it: cards as the grid shows them (9♣), no underscores;
    with `key` "outcome", the outcome's word in the active language."""
    if isinstance(value, (list, tuple)):
        return " ".join(card_text(str(card)) for card in value) or pgettext("no value", "none")
    if value in (None, ""):
        return pgettext("no value", "none")
    if key == "outcome":
        return outcome_text(str(value))
    return str(value).replace("_", " ")


SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card_text(card: str) -> str:
    """'9C' -> '9♣', 'TD' -> '10♦' (anything else unchanged)."""
    if len(card) != 2 or card[1] not in SUIT_SYMBOLS:
        return card
    return ("10" if card[0] == "T" else card[0]) + SUIT_SYMBOLS[card[1]]
