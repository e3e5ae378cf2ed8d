"""An archive that is wrong in one field is refused, naming the field's path, and nothing
of it is written: one case per kind of wrong value.

The event and its archive are built once for the module (`built_once`)."""

from __future__ import annotations

import copy

import pytest
from django.test import override_settings

from ginclub.errors import ServiceError
from scoring.models import Match, Player
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import actor, built_once, eventful_event, unsigned
from tournaments import services
from tournaments.models import Tournament
from tournaments.selectors.exports import tournament_archive

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def archived(django_db_setup, django_db_blocker, tmp_path_factory):
    """(club, organiser, the event's archive)."""
    ledger = override_settings(LEDGER_DIR=tmp_path_factory.mktemp("ledger"), LEDGER_KEYS="")
    with ledger, built_once(django_db_blocker):
        club = ClubFactory(name="Gin Club", slug="gin-club")
        organiser = UserFactory(username="org")
        club.organisers.add(organiser)
        yield club, organiser, tournament_archive(eventful_event(club, organiser))


def nothing_written(counts):
    assert (Tournament.objects.count(), Match.objects.count(), Player.objects.count()) == counts


def tamper(archive, path, value):
    changed = copy.deepcopy(archive)
    target = changed
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return changed


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("format",), "zip", "This is not a ginclub tournament archive"),
        (("version",), 9, "Archive version 9 is not supported"),
        (("rounds",), "many", "rounds must be a list."),
        (
            ("rounds", 0, "pairings", 0, "match", "games", 0, "hands", 1, "points"),
            99,
            "round 1 table 1, game 1 hand 2: the archive says 99 points to B, the rules give 30 "
            "to B.",
        ),
        (
            ("rounds", 0, "pairings", 0, "match", "games_won"),
            {"A": 0, "B": 1},
            "round 1 table 1: the archive says games_won {'A': 0, 'B': 1}, its hands give "
            "{'A': 0, 'B': 2}.",
        ),
        (
            ("rounds", 1, "pairings", 0, "a"),
            12345,
            "rounds[1].pairings[0].a names no registration (key 12345).",
        ),
        (("tournament", "format"), "ladder", "tournament.format must be one of"),
        (
            ("tournament", "language"),
            "fr",
            "tournament.language must be one of en-gb, it, or empty (none chosen).",
        ),
        (
            ("tournament", "rules", "gin_bonus"),
            -1,
            "tournament.rules.gin_bonus must be a whole number from 0 to 10000, not -1.",
        ),
        # Issue 24: each of these was stored as it came; now refused, naming the path.
        (("tournament", "rules", "name"), True, "tournament.rules.name must be one of"),
        (
            ("rounds", 0, "pairings", 0, "match", "rules", "name"),
            None,
            "rounds[0].pairings[0].match.rules.name must be one of",
        ),
        (
            ("rounds", 0, "pairings", 0, "match", "rules", "layoffs"),
            "yes",
            "rounds[0].pairings[0].match.rules.layoffs must be true or false, not 'yes'.",
        ),
        (("players", 0, "email"), "2026-13-45", "players[0].email must be an email address."),
        (
            ("players", 0, "name"),
            "A\u001b[31mB\u0007",
            "players[0].name must not hold control characters (U+001B).",
        ),
        (
            ("tournament", "name"),
            "Open\u0007",
            "tournament.name must not hold control characters (U+0007).",
        ),
        (
            ("tournament", "date"),
            "0001-01-01",
            "tournament.date must be a date from 2000-01-01 to 2100-12-31.",
        ),
        (
            ("tournament", "date"),
            "9999-12-31",
            "tournament.date must be a date from 2000-01-01 to 2100-12-31.",
        ),
        (
            ("rounds", 0, "started_at"),
            "0001-01-01T10:00:00+00:00",
            "rounds[0].started_at must be a date from 2000-01-01 to 2100-12-31.",
        ),
        # Issue 10: each of these was an IntegrityError, OverflowError or DataError (a 500),
        # or stored as is on SQLite; now refused on both databases, naming the path.
        (
            ("registrations", 3, "seed"),
            -1,
            "registrations[3].seed must be a whole number from 1 to 9999 (or null).",
        ),
        (
            ("registrations", 3, "seed"),
            2**70,
            "registrations[3].seed must be a whole number from 1 to 9999 (or null).",
        ),
        (("registrations", 0, "checked_in"), "yes", "registrations[0].checked_in must be true"),
        (
            ("rounds", 0, "pairings", 0, "table"),
            -1,
            "rounds[0].pairings[0].table must be a whole number from 1 to 32767 (or null).",
        ),
        (
            ("rounds", 0, "pairings", 0, "position"),
            2**70,
            "rounds[0].pairings[0].position must be a whole number from 0 to 32767.",
        ),
        (
            ("rounds", 0, "pairings", 0, "match", "first_dealer"),
            "True",
            "rounds[0].pairings[0].match.first_dealer must be one of 'A', 'B'.",
        ),
        (
            ("rounds", 0, "pairings", 0, "match", "games", 0, "first_dealer"),
            "True",
            "rounds[0].pairings[0].match.games[0].first_dealer must be one of 'A', 'B'.",
        ),
        (
            ("rounds", 0, "pairings", 0, "match", "games", 0, "hands", 0, "input", "upcard"),
            "TOO-LONG",
            "rounds[0].pairings[0].match.games[0].hands[0].input.upcard is wrong: ensure",
        ),
        (
            ("rounds", 0, "pairings", 0, "match", "games", 0, "hands", 0, "number"),
            2**70,
            "rounds[0].pairings[0].match.games[0].hands[0].number must be a whole number from 1",
        ),
        (("tournament", "date"), "2026-13-45", "tournament.date must be a date (YYYY-MM-DD)."),
        (("tournament", "rounds"), 2**70, "tournament.rounds must be a whole number from 1"),
        (
            ("rounds", 0, "started_at"),
            "2026-13-45T10:00:00+00:00",
            "rounds[0].started_at must be a date and time",
        ),
        (("rounds", 1, "number"), 1, "rounds[1].number repeats round 1."),
        (("registrations", 1, "player"), "nobody", "registrations[1].player names no player"),
        (("tournament", "roster"), [424242], "tournament.roster[0] names no registration."),
    ],
)
def test_a_bad_archive_is_refused_naming_the_problem_and_nothing_is_written(
    archived, path, value, message
):
    club, organiser, archive = archived
    counts = (Tournament.objects.count(), Match.objects.count(), Player.objects.count())
    with pytest.raises(ServiceError) as caught:
        services.import_archive(
            club=club,
            actor=actor(organiser),
            archive=tamper(unsigned(copy.deepcopy(archive)), path, value),
        )
    assert caught.value.code == "bad_archive"
    assert message in caught.value.message
    nothing_written(counts)
