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
