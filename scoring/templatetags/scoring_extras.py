"""Template filters for the scoring pages."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext, pgettext_lazy

from scoring.hand_input import card_text
from scoring.rules import PROFILE_TITLES, explanation_parts, fill

register = template.Library()

# The coded values of the rules' choice options (English shows the code): the rules
# preview, the settings and the ledger say them from here.
RULE_VALUES = {
    ("shutout", "double"): pgettext_lazy("shutout rule code", "double"),
    ("shutout", "double_points"): pgettext_lazy("shutout rule code", "double_points"),
    ("shutout", "bonus"): pgettext_lazy("shutout rule code", "bonus"),
    ("shutout", "none"): pgettext_lazy("shutout rule code", "none"),
    ("next_dealer", "alternate"): pgettext_lazy("next dealer rule code", "alternate"),
    ("next_dealer", "winner"): pgettext_lazy("next dealer rule code", "winner"),
    ("next_dealer", "loser"): pgettext_lazy("next dealer rule code", "loser"),
    ("game_bonus_to", "winner"): pgettext_lazy("game bonus rule code", "winner"),
    ("game_bonus_to", "each_reaching_min"): pgettext_lazy(
        "game bonus rule code", "each_reaching_min"
    ),
}


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


@register.filter
def explained(value) -> str:
    """How a hand's points were worked out, in the page's language: an engine result
    (its `parts`), or a hand's stored English explanation read back into its parts by
    the engine. Text the engine did not write is shown as it is."""
    parts = getattr(value, "parts", None) or None
    if parts is None:
        text = getattr(value, "explanation", value)
        parts = explanation_parts(text) if isinstance(text, str) else None
        if parts is None:
            return "" if text is None else str(text)
    return fill(parts, gettext)


@register.filter
def profile_title(name) -> str:
    """A rule profile's name as people read it ("tournament"), in the page's language."""
    title = PROFILE_TITLES.get(str(name))
    return gettext(title) if title else str(name or "")
