"""Template filters for tournament pages."""

from __future__ import annotations

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext, pgettext_lazy

from scoring.rules.profiles import OPTION_TITLES
from scoring.templatetags.scoring_extras import RULE_VALUES, profile_title
from scoring.templatetags.scoring_extras import clock as scoring_clock
from tournaments import translated

register = template.Library()

# The round clock reads as on the match pages: one filter, scoring's.
register.filter("clock", scoring_clock)


@register.filter
def worded(value):
    """A standings line's why or head-to-head (English text carrying its phrase) in the
    reader's language; anything else as it is."""
    return translated.worded(value)


@register.filter
def reason_text(text: str) -> str:
    """A stored reason (a pairing's, a decided result's) in the reader's language; a
    reason an organiser typed stays as typed."""
    return translated.reason_text(text) if text else text


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


# A hand's outcome code as the rules preview shows a changed outcome ("knock → undercut").
OUTCOME_CODES = {
    "knock": pgettext_lazy("hand outcome code", "knock"),
    "undercut": pgettext_lazy("hand outcome code", "undercut"),
    "gin": pgettext_lazy("hand outcome code", "gin"),
    "big_gin": pgettext_lazy("hand outcome code", "big_gin"),
    "dead": pgettext_lazy("hand outcome code", "dead"),
}


@register.filter
def rule_option(key) -> str:
    """A rule option in words, in the page's language (scoring.rules.profiles.OPTION_TITLES);
    an unknown key as it is."""
    title = OPTION_TITLES.get(str(key))
    return _(title) if title is not None else str(key)


@register.filter
def rule_value(value, key):
    """A rule option's value in the page's language: yes or no, a choice's code, the
    profile's name (English: the code); None stays None."""
    if isinstance(value, bool):
        # Translators: a yes/no rule option's value ("layoffs: yes").
        return (
            pgettext("rule option value", "yes") if value else pgettext("rule option value", "no")
        )
    if key == "name" and isinstance(value, str):
        return profile_title(value)
    words = RULE_VALUES.get((str(key), value)) if isinstance(value, str) else None
    return str(words) if words is not None else value


@register.filter
def outcome_code(code) -> str:
    """A hand's outcome code in the page's language (English: the code itself)."""
    return str(OUTCOME_CODES.get(str(code), code))


@register.simple_tag(takes_context=True)
def roles_at(context, tournament) -> dict[str, bool]:
    """What the reader may do at `tournament` (ginclub.permissions): `manages` its
    settings, rules, players and roles (organisers); `runs` its rounds (organisers and
    scorekeepers). A scorekeeper's pages leave out the organisers' settings."""
    from ginclub import permissions

    request = context.get("request")
    if request is None:
        return {"manages": False, "runs": False}
    actor = permissions.actor_of(request)
    return {
        "manages": permissions.may_manage_tournament(actor, tournament),
        "runs": permissions.may_run_rounds(actor, tournament),
    }
