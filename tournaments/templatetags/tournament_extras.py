"""Template filters for tournament pages."""

from __future__ import annotations

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.templatetags.scoring_extras import clock as scoring_clock

register = template.Library()

# The round clock reads as on the match pages: one filter, scoring's.
register.filter("clock", scoring_clock)


@register.filter
def percent(value: float | None) -> str:
    """0.6667 → "66.7%" ("66,7%" in Italian)."""
    if value is None:
        return ""
    return f"{number_format(value * 100, 1)}%"


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
    target = rules.get("game_target")
    if rules.get("hollywood"):
        parts.append(_("Hollywood: three games at once, each to %(target)s") % {"target": target})
    else:
        to_win = rules.get("games_to_win", 1)
        parts.append(
            ngettext("first to %(count)s game", "first to %(count)s games", to_win)
            % {"count": to_win}
        )
        if rules.get("game_hands"):
            parts.append(_("%(count)s hands a game") % {"count": rules["game_hands"]})
        else:
            parts.append(_("games to %(target)s") % {"target": target})
    if rules.get("oklahoma"):
        parts.append(_("knock limit: the upcard"))
    elif rules.get("knock_limit") is not None:
        limit = rules["knock_limit"]
        parts.append(_("gin only") if limit == 0 else _("knock ≤ %(limit)s") % {"limit": limit})
    if rules.get("layoffs") is False:
        parts.append(_("no lay-offs"))
    return " · ".join(parts)
