"""The ledger as auditors read it: each row's change field by field, with names, cards
written as the grid shows them, dates with the time, and the row's hash.

A ledger row keeps `before` and `after` as the services wrote them (JSON, seat letters,
card codes): that stays the record. These filters only present it.
"""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
LABELS = {
    "outcome": "how it ended",
    "knocker": "knocked",
    "knocker_deadwood": "knocker's deadwood",
    "defender_deadwood": "defender's deadwood",
    "first_dealer": "first dealer",
    "games": "games",
    "points": "points",
    "winner": "winner",
    "resolved": "decided by hand",
}
SEAT_FIELDS = {"knocker", "winner", "dealer", "first_dealer"}
# Fields that identify the row rather than change (shown in the row's heading instead).
QUIET = {"number", "game", "version", "players", "table"}


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
        return "yes" if value else "no"
    if field in SEAT_FIELDS and value in names:
        return names[value]
    if isinstance(value, list):
        if field == "games" or field == "points":
            return " – ".join(_text(v, "", names) for v in value)
        return ", ".join(_text(v, field, names) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{_label(k)} {_text(v, k, names)}" for k, v in value.items())
    if field == "outcome":
        return str(value).replace("_", " ")
    return str(value)


def _label(key: str) -> str:
    return LABELS.get(key, key.replace("_", " "))


@register.filter
def action_label(action: str) -> str:
    """`hand_corrected` → `Hand corrected`."""
    return str(action).replace("_", " ").capitalize()


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
            return f"table {side['table']}: {side['players']['A']} v {side['players']['B']}"
    snap = row.after if isinstance(row.after, dict) and "number" in row.after else row.before
    if not isinstance(snap, dict) or "number" not in snap or "game" not in snap:
        return ""
    version = f", version {snap['version']}" if snap.get("version") else ""
    return f"hand {snap['number']} of game {snap['game']}{version}"


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
    knocker = names.get(values.get("knocker"), "knocker")
    defender = names.get("B" if values.get("knocker") == "A" else "A", "defender")
    lines = [
        {"who": f"{knocker} (knocked)", "cards": " ".join(map(card_text, knocker_cards))},
        {"who": defender, "cards": " ".join(map(card_text, defender_cards))},
    ]
    if values.get("upcard"):
        lines.append({"who": "upcard", "cards": card_text(values["upcard"])})
    hand = getattr(row, "hand", None)
    stored = getattr(hand, "cards", None) if hand is not None else None
    after = row.after if isinstance(row.after, dict) else {}
    if isinstance(stored, dict) and after.get("version") == hand.version:
        # the melds found are the hand's as it stands: shown on its latest row only
        for key, label in (("knocker_melds", "melds"), ("laid_off", "laid off")):
            groups = stored.get(key) or []
            if groups:
                lines.append({"who": label, "cards": _groups(groups)})
    return lines


def _groups(groups) -> str:
    parts = []
    for group in groups:
        if isinstance(group, (list, tuple)):
            parts.append(" ".join(card_text(card) for card in group))
        else:
            parts.append(card_text(group))
    return " · ".join(parts)
