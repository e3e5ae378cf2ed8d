"""Tournaments and their settings: create, update, check (services; see the package).

`check_settings` and `unique_slug` are shared with the archive import
(tournaments.services.archive), which builds a tournament from an archive's settings.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from ginclub import permissions
from ginclub.errors import Conflict, ServiceError
from ginclub.inputs import date_in_range, date_range_text, name_problem
from ginclub.permissions import Actor
from scoring.models import Club, Match
from scoring.rules import RuleProfile, RulesError, make_profile
from scoring.services.ratings import queue_ratings
from tournaments.models import Round, Tournament
from tournaments.pairing import TIEBREAKS
from tournaments.rule_guide import FOLLOW_ON, fitted_settings
from tournaments.services.base import lock_tournament, log
from tournaments.translated import error_text

SETTINGS = Tournament.SETTINGS
# Fixed once round 1 is published: the rules change only through rescoring,
# the rest would contradict rounds already played.
LOCKED_ONCE_STARTED = (
    "profile",
    "overrides",
    "format",
    "cut_size",
    "bye_games",
    "bye_points",
    "agreement",
)
CUT_SIZES = (4, 8)


def create_tournament(
    *, club: Club, actor: Actor, name: str, date: dt.date, **settings: Any
) -> Tournament:
    """Create a tournament of `club` in setup. `settings` are any of SETTINGS (defaults:
    profile "tournament", Swiss, 5 rounds, round 1 at random, byes 0 points). The
    follow-on settings (rule_guide.FOLLOW_ON: round length, bye games) not given, or
    given as None, take the values the rules suggest (rule_guide.fitted_settings).

    Raises Forbidden, ServiceError (`invalid` or `bad_option`, with `fields`).
    """
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise ServiceError(
            "invalid",
            _("Unknown setting: %(names)s.") % {"names": ", ".join(unknown)},
            fields={key: _("unknown setting") for key in unknown},
        )
    permissions.require_organiser(actor, club, "create tournaments")
    tournament = Tournament(club=club, name=name, date=date, created_by=user_of(actor))
    for key, value in settings.items():
        setattr(tournament, key, value)
    for key, value in _fitted(tournament).items():
        if settings.get(key) is None:
            setattr(tournament, key, value)
    check_settings(tournament)
    with transaction.atomic():
        tournament.slug = unique_slug(tournament)
        tournament.save()
        log(tournament, "tournament_created", actor, after=settings_of(tournament))
    return tournament


def _fitted(tournament: Tournament, changes: dict[str, Any] | None = None) -> dict[str, int]:
    """The follow-on settings fitted to the tournament's rules (frozen, or as its profile
    and overrides are with `changes`); none when those are bad: check_settings names them."""
    changes = changes or {}
    try:
        if tournament.frozen:  # the profile changes only through a rules change
            rules = RuleProfile.from_dict(tournament.rules)
        else:
            rules = make_profile(
                changes.get("profile", tournament.profile),
                changes.get("overrides", tournament.overrides),
            )
    except RulesError:
        return {}
    return fitted_settings(rules)


def _refit(tournament: Tournament, changes: dict[str, Any]) -> dict[str, Any]:
    """`changes` with the follow-on settings fitted to the rules they leave: each given
    as None, and each not given that holds the old rules' value (so was not set by hand;
    it stays as it is unless the rules change)."""
    old, new = _fitted(tournament), _fitted(tournament, changes)
    changes = dict(changes)
    for key in FOLLOW_ON:
        if key in changes:
            if changes[key] is None:
                changes[key] = new.get(key, getattr(tournament, key))
        elif key in new and getattr(tournament, key) == old.get(key):
            changes[key] = new[key]
    return changes


def update_tournament(*, tournament_id: int, actor: Actor, **changes: Any) -> Tournament:
    """Change settings. A follow-on setting (rule_guide.FOLLOW_ON) given as None takes
    the value the rules suggest; one not given follows a change of profile or overrides
    when it held the old rules' value (see _refit). After round 1 is published,
    LOCKED_ONCE_STARTED settings are refused (change the rules with
    services.rescoring), and the Swiss rounds can not go below the rounds already drafted.

    Raises Forbidden, ServiceError (`invalid`, `bad_option`), Conflict (`frozen`).
    """
    unknown = sorted(set(changes) - set(SETTINGS))
    if unknown:
        raise ServiceError(
            "invalid",
            _("Unknown setting: %(names)s.") % {"names": ", ".join(unknown)},
            fields={key: _("unknown setting") for key in unknown},
        )
    with transaction.atomic():
        tournament = lock_tournament(tournament_id, actor)
        before = settings_of(tournament)
        changes = _refit(tournament, changes)
        changed = {k: v for k, v in changes.items() if before.get(k) != _plain(v)}
        locked = [key for key in changed if key in LOCKED_ONCE_STARTED]
        if tournament.frozen and locked:
            raise Conflict(
                "frozen",
                (
                    _(
                        "%(names)s cannot change once round 1 is published; change the rules "
                        "with a rules change instead."
                    )
                    if {"profile", "overrides"} & set(locked)
                    else _("%(names)s cannot change once round 1 is published.")
                )
                % {"names": ", ".join(locked)},
                fields={key: _("frozen") for key in locked},
            )
        for key, value in changed.items():
            setattr(tournament, key, value)
        check_settings(tournament)
        if "rounds" in changed:
            _check_rounds_change(tournament)
        if changed:
            tournament.save()
            if Tournament.VISIBILITY_SETTINGS & changed.keys():
                # results a visitor may read join the club's ratings, or leave them
                queue_ratings(tournament.club_id)
            log(
                tournament,
                "tournament_updated",
                actor,
                before={k: before[k] for k in changed},
                after={k: _plain(v) for k, v in changed.items()},
            )
    return tournament


def _check_rounds_change(tournament: Tournament) -> None:
    stages = list(tournament.round_set.values_list("stage", flat=True))
    swiss = stages.count(Round.Stage.SWISS)
    if len(stages) > swiss:  # the cut has started
        raise Conflict(
            "frozen",
            _("The top cut has started: the number of Swiss rounds stays %(swiss)s.")
            % {"swiss": swiss},
            fields={"rounds": _("too late")},
        )
    if tournament.rounds < swiss:
        raise Conflict(
            "frozen",
            _("%(swiss)s Swiss rounds are already drafted: the number cannot go below it.")
            % {"swiss": swiss},
            fields={"rounds": _("too late")},
        )


def settings_of(tournament: Tournament) -> dict[str, Any]:
    return {key: _plain(getattr(tournament, key)) for key in SETTINGS}


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.date) else value


def check_settings(t: Tournament) -> None:
    """Raise ServiceError naming the first bad setting (all of them in `fields`)."""
    problems: dict[str, str] = {}
    _text(problems, "name", t.name, 120, required=True)
    _text(problems, "venue", t.venue, 200)
    if not isinstance(t.date, dt.date):
        problems["date"] = _("a date (YYYY-MM-DD) is required")
    elif not date_in_range(t.date):
        problems["date"] = date_range_text()
    games_to_win = _profile_problems(problems, t)
    if t.format not in Tournament.Format.values:
        problems["format"] = _one_of(Tournament.Format.values)
    _whole(problems, "rounds", t.rounds, 1, 50)
    if t.format == Tournament.Format.SWISS_CUT and t.cut_size not in CUT_SIZES:
        problems["cut_size"] = _("a Swiss with a top cut needs a cut of 4 or 8 players")
    elif t.format != Tournament.Format.SWISS_CUT and t.cut_size != 0:
        problems["cut_size"] = _("a top cut exists only in the Swiss-then-top-cut format")
    _whole(problems, "round_minutes", t.round_minutes, 1, 600)
    if t.first_round not in Tournament.FirstRound.values:  # first_round
        problems["first_round"] = _one_of(Tournament.FirstRound.values)
    _tiebreak_problems(problems, t.tiebreaks)
    _whole(problems, "bye_games", t.bye_games, 0, games_to_win)
    _whole(problems, "bye_points", t.bye_points, 0, 10_000)
    if t.agreement not in Match.Agreement.values:
        problems["agreement"] = _one_of(Match.Agreement.values)
    _whole(problems, "hide_last_rounds", t.hide_last_rounds, 0, 50)
    codes = [code for code, _name in settings.LANGUAGES]
    if t.language not in ("", *codes):
        problems["language"] = _("must be one of %(values)s, or empty (none chosen)") % {
            "values": ", ".join(codes)
        }
    for key in ("hide_standings_during_round", "public", "check_in_required"):
        if not isinstance(getattr(t, key), bool):
            problems[key] = _("must be true or false")
    if problems:
        key, text = next(iter(problems.items()))
        code = "bad_option" if key in ("profile", "overrides") else "invalid"
        # Translators: a setting's name as the API spells it ("round minutes"), and what is
        # wrong with it.
        message = _("%(setting)s: %(problem)s") % {
            "setting": key.replace("_", " "),
            "problem": text,
        }
        raise ServiceError(code, message, fields=problems)


def _one_of(values) -> str:
    return _("must be one of %(values)s") % {"values": ", ".join(values)}


def _text(problems, key: str, value: Any, most: int, required: bool = False) -> None:
    """A name (of a tournament, a season, a venue): text within `most`, no controls."""
    if not isinstance(value, str) or len(value) > most or (required and not value.strip()):
        problems[key] = _("text of %(least)s to %(most)s characters") % {
            "least": 1 if required else 0,
            "most": most,
        }
    elif problem := name_problem(value):
        problems[key] = problem


def _whole(problems, key: str, value: Any, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        problems[key] = _("a whole number from %(low)s to %(high)s") % {"low": low, "high": high}


def _profile_problems(problems, t: Tournament) -> int:
    try:
        return make_profile(t.profile, t.overrides).games_to_win
    except RulesError as error:
        problems["profile" if error.field == "profile" else "overrides"] = error_text(error)
        return 99


def _tiebreak_problems(problems, tiebreaks: Any) -> None:
    if not isinstance(tiebreaks, list) or not all(isinstance(x, str) for x in tiebreaks):
        problems["tiebreaks"] = _("a list of tie-breaks from %(names)s") % {
            "names": ", ".join(TIEBREAKS)
        }
    elif unknown := [x for x in tiebreaks if x not in TIEBREAKS]:
        problems["tiebreaks"] = _("unknown tie-break %(name)s: use %(names)s") % {
            "name": repr(unknown[0]),
            "names": ", ".join(TIEBREAKS),
        }
    elif len(set(tiebreaks)) != len(tiebreaks):
        problems["tiebreaks"] = _("a tie-break is listed twice")


def unique_slug(tournament: Tournament) -> str:
    base = slugify(f"{tournament.name}-{tournament.date.year}")[:50].strip("-") or "event"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def user_of(actor: Actor):
    user = actor.user
    return user if user is not None and user.is_authenticated else None
