"""Seasons: create and change a club's season ladder (services; see the package and
tournaments.models.Season for the terms).

A season's settings are an organiser's choice, audited like a tournament's: each change
is one row on the season's own ledger chain ("season:<id>"), written in the transaction
that holds the season's row lock (the club's, when creating), so the chain never forks.
The ladder itself is a read (tournaments.selectors.seasons), stored for reuse in the
background after each change (tournaments.services.season_ladders).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from ginclub import ledger, permissions
from ginclub.errors import NotFound, ServiceError
from ginclub.inputs import date_in_range, date_range_text
from ginclub.permissions import Actor
from scoring.models import Club
from tournaments.models import Season, Tournament
from tournaments.services.season_ladders import queue_ladder_refresh

# The checks a tournament's settings use (tie-breaks, text, whole numbers), shared.
from tournaments.services.tournaments import _one_of, _text, _tiebreak_problems, _whole, user_of

SETTINGS = Season.SETTINGS
POINTS_MAX = 1_000
MIN_MATCHES_MAX = 10_000
DAYS_MAX = 3_700  # about ten years: a longer "season" is a typo in a year


def create_season(
    *, club: Club, actor: Actor, name: str, starts_on: dt.date, ends_on: dt.date, **settings: Any
) -> Season:
    """Create a season of `club`. `settings` are any of SETTINGS (defaults: every
    tournament in the dates and the club nights count, 1 point a win, no minimum, the
    tournaments' default tie-breaks, not public). `tournaments` is a list of tournament
    ids, for events "chosen".

    Raises Forbidden, ServiceError (`invalid`, with `fields`).
    """
    _refuse_unknown(settings)
    permissions.require_organiser(actor, club, _("create seasons"))
    season = Season(
        club=club, name=name, starts_on=starts_on, ends_on=ends_on, created_by=user_of(actor)
    )
    chosen = settings.pop("tournaments", [])
    for key, value in settings.items():
        setattr(season, key, value)
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()  # one slug at a time
        found = check_season(season, chosen)
        season.slug = unique_slug(season)
        season.save()
        season.tournaments.set(found)
        _log(season, "season_created", actor, after=settings_of(season))
        queue_ladder_refresh(season_id=season.pk)  # stored before anybody reads it
    return season


def update_season(*, season_id: int, actor: Actor, **changes: Any) -> Season:
    """Change settings (any of SETTINGS; only those given). The slug stays, so links
    to the ladder keep working when the season is renamed.

    Raises NotFound, Forbidden, ServiceError (`invalid`, with `fields`).
    """
    _refuse_unknown(changes)
    with transaction.atomic():
        season = Season.objects.select_for_update().select_related("club").filter(pk=season_id)
        season = season.first()
        if season is None:
            raise NotFound("not_found", _("No such season."))
        permissions.require_view_season(actor, season)
        permissions.require_organiser(
            actor, season.club, _("change %(name)s") % {"name": season.name}
        )
        before = settings_of(season)
        chosen = changes.pop("tournaments", None)
        for key, value in changes.items():
            setattr(season, key, value)
        if chosen is None:
            chosen = [t["id"] for t in before["tournaments"]]
        found = check_season(season, chosen)
        season.save()
        season.tournaments.set(found)
        after = settings_of(season)
        changed = [key for key in SETTINGS if before[key] != after[key]]
        if changed:
            _log(
                season,
                "season_updated",
                actor,
                before={k: before[k] for k in changed},
                after={k: after[k] for k in changed},
            )
            queue_ladder_refresh(season_id=season.pk)
    return season


def _refuse_unknown(settings: dict[str, Any]) -> None:
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise ServiceError(
            "invalid",
            _("Unknown setting: %(names)s.") % {"names": ", ".join(unknown)},
            fields={key: _("unknown setting") for key in unknown},
        )


def check_season(season: Season, chosen: Any) -> list[Tournament]:
    """The chosen tournaments, once every setting is found good; else ServiceError
    (`invalid`) naming the first bad setting, all of them in `fields`."""
    problems: dict[str, str] = {}
    _text(problems, "name", season.name, 120, required=True)
    _dates(problems, season)
    if season.events not in Season.Events.values:
        problems["events"] = _one_of(Season.Events.values)
    if not isinstance(season.club_nights, bool):
        problems["club_nights"] = _("must be true or false")
    if not isinstance(season.public, bool):
        problems["public"] = _("must be true or false")
    _whole(problems, "points_per_win", season.points_per_win, 1, POINTS_MAX)
    _whole(problems, "min_matches", season.min_matches, 0, MIN_MATCHES_MAX)
    _tiebreak_problems(problems, season.tiebreaks)
    found = _chosen(problems, season, chosen)
    if not problems and season.events == Season.Events.CHOSEN and not found:
        if not season.club_nights:
            problems["tournaments"] = _(
                "nothing would count: choose tournaments, or count the club nights"
            )
    if problems:
        key, text = next(iter(problems.items()))
        setting = key.replace("_", " ")
        message = _("%(setting)s: %(problem)s") % {"setting": setting, "problem": text}
        raise ServiceError("invalid", message, fields=problems)
    return found


def _dates(problems: dict[str, str], season: Season) -> None:
    starts, ends = season.starts_on, season.ends_on
    for key, value in (("starts_on", starts), ("ends_on", ends)):
        if not isinstance(value, dt.date) or isinstance(value, dt.datetime):
            problems[key] = _("a date (YYYY-MM-DD) is required")
    if "starts_on" in problems or "ends_on" in problems:
        return
    for key, value in (("starts_on", starts), ("ends_on", ends)):
        if not date_in_range(value):
            problems[key] = date_range_text()
    if "starts_on" in problems or "ends_on" in problems:
        return
    if ends < starts:
        problems["ends_on"] = _("the season ends (%(ends)s) before it starts (%(starts)s)") % {
            "ends": ends.isoformat(),
            "starts": starts.isoformat(),
        }
    elif (ends - starts).days > DAYS_MAX:
        problems["ends_on"] = _("a season lasts at most %(days)s days (about ten years)") % {
            "days": DAYS_MAX
        }


def _chosen(problems: dict[str, str], season: Season, chosen: Any) -> list[Tournament]:
    """The chosen tournaments, checked: the club's own, in the season's dates."""
    if not isinstance(chosen, (list, tuple)) or not all(
        isinstance(i, int) and not isinstance(i, bool) for i in chosen
    ):
        problems["tournaments"] = _("a list of tournament ids")
        return []
    if season.events != Season.Events.CHOSEN:
        if chosen:
            problems["tournaments"] = _(
                "every tournament in the dates counts: choose tournaments only with events 'chosen'"
            )
        return []
    found = list(Tournament.objects.filter(club=season.club, pk__in=set(chosen)))
    missing = sorted(set(chosen) - {t.pk for t in found})
    if missing:
        problems["tournaments"] = _("%(club)s has no tournament #%(id)s") % {
            "club": season.club.name,
            "id": missing[0],
        }
    elif "starts_on" not in problems and "ends_on" not in problems:
        outside = [t for t in found if not season.starts_on <= t.date <= season.ends_on]
        if outside:
            t = outside[0]
            problems["tournaments"] = _(
                "%(name)s (%(date)s) is outside the season's dates (%(starts)s to %(ends)s)"
            ) % {
                "name": t.name,
                "date": t.date.isoformat(),
                "starts": season.starts_on.isoformat(),
                "ends": season.ends_on.isoformat(),
            }
    return found


def settings_of(season: Season) -> dict[str, Any]:
    """The settings as plain values (dates as ISO text, tournaments with their names)."""
    values = {key: getattr(season, key) for key in SETTINGS if key != "tournaments"}
    values["starts_on"] = season.starts_on.isoformat()
    values["ends_on"] = season.ends_on.isoformat()
    values["tournaments"] = [
        {"id": t.pk, "name": t.name} for t in season.tournaments.order_by("date", "name")
    ]
    return {key: values[key] for key in SETTINGS}


def unique_slug(season: Season) -> str:
    base = slugify(season.name)[:50].strip("-") or "season"
    if base == "new":  # the address of the new-season form
        base = "new-season"
    slug, n = base, 1
    while Season.objects.filter(club=season.club, slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _log(season: Season, action: str, actor: Actor, **changes: Any) -> None:
    ledger.append(chain=season.chain, action=action, actor=actor.label, user=actor.user, **changes)
