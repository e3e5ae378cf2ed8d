"""The ledger as auditors read it: each row's change field by field, with names, cards
written as the grid shows them, dates with the time, and the row's hash.

A ledger row keeps `before` and `after` as the services wrote them (JSON, seat letters,
card codes): that stays the record. These filters only present it.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_noop, pgettext_lazy

from ginclub import ledger
from scoring.hand_input import LABELS as HAND_LABELS
from scoring.hand_input import describe_differences
from scoring.models import Penalty
from scoring.rules.profiles import OPTION_TITLES, PROFILE_TITLES
from scoring.templatetags.scoring_extras import RULE_VALUES
from scoring.words import FIELD_LABELS

register = template.Library()

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
# A row's fields as the page names them (others: the key with spaces).
LABELS = FIELD_LABELS
# Other fields as the page names them: English says the key with spaces (as before),
# other languages a label (tournament and season settings, rounds). A rule option is
# named as everywhere else (scoring.rules.profiles.OPTION_TITLES).
FIELD_WORDS = {
    "name": pgettext_lazy("ledger field", "name"),
    "date": pgettext_lazy("ledger field", "date"),
    "venue": pgettext_lazy("ledger field", "venue"),
    "profile": pgettext_lazy("ledger field", "profile"),
    "overrides": pgettext_lazy("ledger field", "overrides"),
    "format": pgettext_lazy("ledger field", "format"),
    "cut_size": pgettext_lazy("ledger field", "cut size"),
    "round_minutes": pgettext_lazy("ledger field", "round minutes"),
    "first_round": pgettext_lazy("ledger field", "first round"),
    "tiebreaks": pgettext_lazy("ledger field", "tiebreaks"),
    "bye_games": pgettext_lazy("ledger field", "bye games"),
    "bye_points": pgettext_lazy("ledger field", "bye points"),
    "agreement": pgettext_lazy("ledger field", "agreement"),
    "hide_standings_during_round": pgettext_lazy("ledger field", "hide standings during round"),
    "hide_last_rounds": pgettext_lazy("ledger field", "hide last rounds"),
    "public": pgettext_lazy("ledger field", "public"),
    "language": pgettext_lazy("ledger field", "language"),
    "check_in_required": pgettext_lazy("ledger field", "check in required"),
    "stage": pgettext_lazy("ledger field", "stage"),
    "pairs": pgettext_lazy("ledger field", "pairs"),
    "tables": pgettext_lazy("ledger field", "tables"),
    "byes": pgettext_lazy("ledger field", "byes"),
    "late": pgettext_lazy("ledger field", "late"),
    "registration": pgettext_lazy("ledger field", "registration"),
    "draw": pgettext_lazy("ledger field", "draw"),
    "rating_order": pgettext_lazy("ledger field", "rating order"),
    "minutes": pgettext_lazy("ledger field", "minutes"),
    "ends_at": pgettext_lazy("ledger field", "ends at"),
    "at": pgettext_lazy("ledger field", "at"),
    "starts_on": pgettext_lazy("ledger field", "starts on"),
    "ends_on": pgettext_lazy("ledger field", "ends on"),
    "events": pgettext_lazy("ledger field", "events"),
    "tournaments": pgettext_lazy("ledger field", "tournaments"),
    "club_nights": pgettext_lazy("ledger field", "club nights"),
    "points_per_win": pgettext_lazy("ledger field", "points per win"),
    "min_matches": pgettext_lazy("ledger field", "min matches"),
    "player_a": pgettext_lazy("ledger field", "player a"),
    "player_b": pgettext_lazy("ledger field", "player b"),
    "accepted": pgettext_lazy("ledger field", "accepted"),
    "refused": pgettext_lazy("ledger field", "refused"),
    "rows": pgettext_lazy("ledger field", "rows"),
    "settled": pgettext_lazy("ledger field", "decided"),
    "waiting": pgettext_lazy("ledger field", "left open"),
}
# Values said in words: a hand's outcome and the states of hands and matches.
VALUES = {
    "outcome": {
        "knock": pgettext_lazy("hand outcome", "knock"),
        "undercut": pgettext_lazy("hand outcome", "undercut"),
        "gin": pgettext_lazy("hand outcome", "gin"),
        "big_gin": pgettext_lazy("hand outcome", "big gin"),
        # Translators: a hand's outcome in the ledger: nobody won it (a dead hand).
        "dead": pgettext_lazy("hand outcome", "dead"),
    },
    "state": {
        "in_progress": pgettext_lazy("ledger state", "in progress"),
        "pending": pgettext_lazy("ledger state", "pending"),
        "confirmed": pgettext_lazy("ledger state", "confirmed"),
        "disputed": pgettext_lazy("ledger state", "disputed"),
        "voided": pgettext_lazy("ledger state", "voided"),
        "finished": pgettext_lazy("ledger state", "finished"),
        "closed": pgettext_lazy("ledger state", "closed"),
    },
    # a penalty's kind and infraction (scoring.models.Penalty), as staff chose them
    "kind": dict(Penalty.Kind.choices),
    "infraction": dict(Penalty.Infraction.choices),
}
# Coded values of settings said in words: English shows the code as before (the msgid is
# the code), other languages a word.
CODES = {
    "format": {
        # Translators: tournament formats as the ledger shows them (codes in English).
        "swiss": pgettext_lazy("ledger value", "swiss"),
        "round_robin": pgettext_lazy("ledger value", "round_robin"),
        "elimination": pgettext_lazy("ledger value", "elimination"),
        "swiss_cut": pgettext_lazy("ledger value", "swiss_cut"),
    },
    "first_round": {
        # Translators: how round 1 is paired, as the ledger shows it (codes in English).
        "random": pgettext_lazy("ledger value", "random"),
        "seed": pgettext_lazy("ledger value", "seed"),
        "list": pgettext_lazy("ledger value", "list"),
        "rating": pgettext_lazy("ledger value", "rating"),
    },
    "agreement": {
        # Translators: how a table agrees on each hand, as the ledger shows it (codes).
        "confirm": pgettext_lazy("ledger value", "confirm"),
        "double": pgettext_lazy("ledger value", "double"),
    },
    "tiebreaks": {
        # Translators: tie-breaks as the ledger shows them (codes in English).
        "head_to_head": pgettext_lazy("ledger value", "head_to_head"),
        "game_win_pct": pgettext_lazy("ledger value", "game_win_pct"),
        "opponents_match_win_pct": pgettext_lazy("ledger value", "opponents_match_win_pct"),
        "margin": pgettext_lazy("ledger value", "margin"),
        "points": pgettext_lazy("ledger value", "points"),
    },
    "game_bonus_to": {
        # Translators: who gets a fixed-length game's bonus, as the ledger shows it (codes).
        "winner": pgettext_lazy("ledger value", "winner"),
        "each_reaching_min": pgettext_lazy("ledger value", "each_reaching_min"),
    },
}
CODES["stage"] = CODES["format"]
SEAT_FIELDS = {"knocker", "winner", "dealer", "first_dealer", "seat"}
# Fields holding a moment as ISO text (time called, a round's end).
MOMENTS = {"at", "ends_at"}
# Fields holding a day as ISO text (a tournament's date, a season's first and last day).
DAYS = {"date", "starts_on", "ends_on"}
# Fields that identify the row rather than change (shown in the row's heading instead; a
# registration's number is an internal id, its player is named).
QUIET = {"number", "game", "version", "players", "table", "registration"}


def card_text(code: Any) -> str:
    """`9C` → `9♣`, `TD` → `10♦` (the grid's way of writing a card)."""
    text = str(code)
    if len(text) < 2 or text[-1].upper() not in SUITS:
        return text
    rank = text[:-1].upper()
    return f"{'10' if rank == 'T' else rank}{SUITS[text[-1].upper()]}"


def _names(match, row=None) -> dict[str, str]:
    """Seat letter → name: the match's players, or those a row names (a tournament's
    result rows carry their table's players)."""
    if match is not None:
        return {"A": match.player_a.name, "B": match.player_b.name}
    for side in (getattr(row, "after", None), getattr(row, "before", None)):
        if isinstance(side, dict) and isinstance(side.get("players"), dict):
            return side["players"]
    return {}


def _text(value: Any, field: str, names: dict[str, str]) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    whole = ledger.value_text(field, value)
    if whole is not None:
        return whole
    if field == "differences" and _figures(value):
        return describe_differences(value, seats=names)
    if field in MOMENTS and isinstance(value, str):
        moment = parse_datetime(value)
        if moment is not None:  # an ISO moment, in the reader's way of writing dates
            return date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")
    if field in DAYS and isinstance(value, str):
        day = parse_date(value)
        if day is not None:  # in the reader's way of writing dates, not "2026-11-26"
            return date_format(day, "DATE_FORMAT")
    if field in SEAT_FIELDS and value in names:
        return names[value]
    if isinstance(value, list):
        if field == "games" or field == "points":
            return " – ".join(_text(v, "", names) for v in value)
        return ", ".join(_text(v, field, names) for v in value)
    if isinstance(value, dict):
        # a rule set's "name" is its profile's
        inner = {"name": "profile"} if field == "rules" else {}
        # by seat ({"A": 1, "B": 0}: games won, points): the players' names, not A and B
        return "; ".join(
            f"{names.get(k) or _label(inner.get(k, k))} {_text(v, inner.get(k, k), names)}"
            for k, v in value.items()
        )
    said = (
        VALUES.get(field, {}).get(str(value))
        or CODES.get(field, {}).get(str(value))
        or RULE_VALUES.get((field, str(value)))
    )
    if said:
        return str(said)
    if field == "profile" and str(value) in PROFILE_TITLES:
        return gettext(PROFILE_TITLES[str(value)])
    worded = ledger.field_text(field, value)
    if worded is not None:
        return worded
    if field == "outcome":
        return str(value).replace("_", " ")
    return str(value)


def _figures(value: Any) -> bool:
    """Whether `value` is a dispute's figures as the services write them."""
    return isinstance(value, dict) and all(
        key in HAND_LABELS and isinstance(pair, list) and len(pair) == 2
        for key, pair in value.items()
    )


def _label(key: str) -> str:
    if key in LABELS:
        return gettext(LABELS[key])
    if key in OPTION_TITLES and key != "name":  # a row's "name" is the event's
        return gettext(OPTION_TITLES[key])
    return str(FIELD_WORDS[key]) if key in FIELD_WORDS else key.replace("_", " ")


@register.filter
def actor_label(actor: str) -> str:
    """Who acted, as the ledger stored it, in the page's language (ginclub.ledger)."""
    return ledger.actor_label(actor)


@register.filter
def action_label(action: str) -> str:
    """`hand_corrected` → `Hand corrected` (each app labels its own actions: ginclub.ledger)."""
    return ledger.action_label(action)


@register.filter
def ledger_changes(row, match=None) -> list[dict[str, str]]:
    """What the row changed, field by field: [{"field", "before", "after"}]. A row that
    only creates (or only removes) lists the values it holds."""
    names = _names(match or getattr(row, "match", None), row)
    before = row.before if isinstance(row.before, dict) else {}
    after = row.after if isinstance(row.after, dict) else {}
    lines = []
    for key in list(before) + [k for k in after if k not in before]:
        if key in QUIET:
            continue
        old, new = before.get(key), after.get(key)
        if before and after and old == new:
            continue
        lines.append(
            {
                "field": _label(key),
                "before": _text(old, key, names) if key in before else "",
                "after": _text(new, key, names) if key in after else "",
            }
        )
    return lines


@register.filter
def ledger_subject(row) -> str:
    """`hand 3 of game 1, version 2` for a hand's row, `table 2: Ada v Ben` for a
    tournament's result row, else ""."""
    for side in (row.after, row.before):
        if isinstance(side, dict) and "table" in side and isinstance(side.get("players"), dict):
            players = side["players"]
            return gettext("table %(table)s: %(a)s v %(b)s") % {
                "table": side["table"],
                "a": players["A"],
                "b": players["B"],
            }
    snap = row.after if isinstance(row.after, dict) and "number" in row.after else row.before
    if not isinstance(snap, dict) or "number" not in snap or "game" not in snap:
        return ""
    values = {"number": snap["number"], "game": snap["game"], "version": snap.get("version")}
    if snap.get("version"):
        return gettext("hand %(number)s of game %(game)s, version %(version)s") % values
    return gettext("hand %(number)s of game %(game)s") % values


@register.filter
def ledger_cards(row, match=None) -> list[dict[str, str]]:
    """A card-entry hand's cards as its entry sent them: [{"who", "cards"}]; melds and
    lay-offs too when the hand row holds them."""
    entry = getattr(row, "entry", None)
    payload = getattr(entry, "payload", None) if entry is not None else None
    if not isinstance(payload, dict):
        return []
    values = payload.get("values") if isinstance(payload.get("values"), dict) else payload
    knocker_cards = values.get("knocker_cards") or []
    defender_cards = values.get("defender_cards") or []
    if not knocker_cards and not defender_cards:
        return []
    names = _names(match or getattr(row, "match", None))
    knocker = names.get(values.get("knocker")) or gettext("knocker")
    defender = names.get("B" if values.get("knocker") == "A" else "A") or gettext("defender")
    lines = [
        {
            "who": gettext("%(name)s (knocked)") % {"name": knocker},
            "cards": " ".join(map(card_text, knocker_cards)),
        },
        {"who": defender, "cards": " ".join(map(card_text, defender_cards))},
    ]
    if values.get("upcard"):
        lines.append({"who": gettext("upcard"), "cards": card_text(values["upcard"])})
    hand = getattr(row, "hand", None)
    stored = getattr(hand, "cards", None) if hand is not None else None
    after = row.after if isinstance(row.after, dict) else {}
    if isinstance(stored, dict) and after.get("version") == hand.version:
        # the melds found are the hand's as it stands: shown on its latest row only
        for key, label in (
            ("knocker_melds", gettext_noop("melds")),
            ("laid_off", gettext_noop("laid off")),
        ):
            groups = stored.get(key) or []
            if groups:
                lines.append({"who": gettext(label), "cards": _groups(groups)})
    return lines


def _groups(groups) -> str:
    parts = []
    for group in groups:
        if isinstance(group, (list, tuple)):
            parts.append(" ".join(card_text(card) for card in group))
        else:
            parts.append(card_text(group))
    return " · ".join(parts)
