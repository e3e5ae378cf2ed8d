"""Template filters for the scoring pages."""

from __future__ import annotations

from django import template

from scoring.hand_input import card_text

register = template.Library()


@register.filter
def clock(seconds: int | None) -> str:
    """Seconds left as m:ss ("" when the clock has not started)."""
    if seconds is None:
        return ""
    seconds = max(int(seconds), 0)
    return f"{seconds // 60}:{seconds % 60:02d}"


@register.filter
def cards(value) -> str:
    """Cards as the card grid writes them: ["9C", "TD"] -> "9♣ 10♦" (a meld, a hand)."""
    return " ".join(card_text(str(card)) for card in value or ())
