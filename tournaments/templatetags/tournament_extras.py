"""Template filters for tournament pages."""

from __future__ import annotations

from django import template

from scoring.templatetags.scoring_extras import clock as scoring_clock

register = template.Library()

# The round clock reads as on the match pages: one filter, scoring's.
register.filter("clock", scoring_clock)


@register.filter
def percent(value: float | None) -> str:
    """0.6667 → "66.7%"."""
    if value is None:
        return ""
    return f"{value * 100:.1f}%"


@register.filter
def seat_name(pairing, seat: str) -> str:
    """The name of the player in seat "A" or "B" of a pairing ("" for a bye's B)."""
    registration = pairing.player_a if seat == "A" else pairing.player_b
    return registration.player.name if registration is not None else ""


@register.filter
def get(mapping, key):
    return mapping.get(key) if mapping else None


@register.filter
def rules_in_words(rules: dict) -> str:
    """A table's rules as a score sheet heads them: "first to 3 games · games to 250 ·
    knock ≤ 10"; "Hollywood: three games at once, each to 100"; "10 hands a game"."""
    if not isinstance(rules, dict) or not rules:
        return ""
    parts = []
    if rules.get("hollywood"):
        parts.append(f"Hollywood: three games at once, each to {rules.get('game_target')}")
    else:
        to_win = rules.get("games_to_win", 1)
        parts.append(f"first to {to_win} game{'s' if to_win != 1 else ''}")
        if rules.get("game_hands"):
            parts.append(f"{rules['game_hands']} hands a game")
        else:
            parts.append(f"games to {rules.get('game_target')}")
    if rules.get("oklahoma"):
        parts.append("knock limit: the upcard")
    elif rules.get("knock_limit") is not None:
        parts.append("gin only" if rules["knock_limit"] == 0 else f"knock ≤ {rules['knock_limit']}")
    if rules.get("layoffs") is False:
        parts.append("no lay-offs")
    return " · ".join(parts)
