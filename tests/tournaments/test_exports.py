"""CSV exports and the JSON archive: export, import elsewhere, identical standings."""

from __future__ import annotations

import copy
import csv
import io
import json

import pytest

from ginclub import ledger
from ginclub.errors import Forbidden, ServiceError
from scoring import services as scoring
from scoring.hand_input import HandInput
from scoring.models import Club, Hand, Match, Player
from tests.factories import ClubFactory
from tests.tournaments.helpers import (
    actor,
    name_of,
    new_event,
    pairs_of,
    play_hand,
    play_round,
    reg,
    unsigned,
)
from tournaments import selectors, services
from tournaments.models import Tournament
from tournaments.selectors import exports
from tournaments.selectors.exports import tournament_archive

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(club, organiser):
    """Five players, two rounds closed and a third running; a card-entry hand, a voided
    hand, a pending hand, byes, an organiser's result, a withdrawal and a late entry."""
    event = new_event(club, organiser, players=5, rounds=4, bye_points=50)
    first = play_round(event, organiser, play=False, close=False)
    t1, t2 = first.pairings.exclude(match=None).select_related("match").order_by("position")
    scoring.submit_hand(
        match_id=t1.match_id,
        actor=actor(organiser),
        idempotency_key="k1",
        hand=HandInput(
            game=1,
            number=1,
            outcome="knock",
            knocker="A",
            knocker_cards=tuple("5H 6H 7H 9C 9D 9S JS QS KS 2D".split()),
            defender_cards=tuple("8H 9H KD KC KH 3C 4C 5C AS 7D".split()),
        ),
    )
    hand = Hand.objects.get(game__match=t1.match)
    scoring.void_hand(
        hand_id=hand.pk,
        actor=actor(organiser),
        version=hand.version,
        reason="misdeal",
        idempotency_key="v1",
    )
    for game in (1, 2):
        play_hand(t1.match, organiser, game=game, number=2 if game == 1 else 1, winner="B")
    play_hand(t2.match, organiser, game=1, number=1, winner="A", kd=3, dd=30)
    services.record_result(
        pairing_id=t2.pk, actor=actor(organiser), winner="B", games_b=1, reason="A had to leave"
    )
    services.close_round(round_id=first.pk, actor=actor(organiser))
    play_round(event, organiser, {"P05": "2-1"})
    services.withdraw_registration(registration_id=reg(event, "P04").pk, actor=actor(organiser))
    services.add_registration(tournament_id=event.pk, actor=actor(organiser), name="Late Liz")
    third = play_round(event, organiser, play=False, close=False)
    table = third.pairings.exclude(match=None).select_related("match").first()
    scoring.submit_hand(
        match_id=table.match_id,
        actor=scoring.Actor(player=table.player_a.player),
        idempotency_key="p1",
        hand=HandInput(
            game=1, number=1, outcome="knock", knocker="A", knocker_deadwood=4, defender_deadwood=9
        ),
    )
    event.refresh_from_db()
    return event


def standings_lines(tournament):
    return [
        (
            row.standing.rank,
            row.name,
            row.withdrawn,
            row.late,
            row.standing.matches,
            row.standing.match_wins,
            row.standing.games_won,
            row.standing.games_played,
            row.standing.points,
            row.standing.margin,
            row.standing.tiebreaks,
            row.head_to_head,
        )
        for row in selectors.standings(tournament).rows
    ]


def test_standings_csv_has_every_tiebreak_value(event):
    rows = list(csv.reader(io.StringIO(exports.standings_csv(selectors.standings(event)))))
    assert rows[0] == exports.STANDINGS_COLUMNS
    assert len(rows) == 1 + 6
    view = selectors.standings(event)
    first = view.rows[0]
    assert rows[1][:2] == [str(first.standing.rank), first.name]
    assert rows[1][7] == f"{first.standing.game_win_pct:.4f}"
    assert [r[2] for r in rows[1:]].count("yes") == 1  # P04 withdrew


def test_hands_csv_lists_every_hand_by_round_and_table(event):
    rows = list(csv.DictReader(io.StringIO(exports.hands_csv(event))))
    assert list(rows[0]) == exports.HAND_COLUMNS
    assert len(rows) == Hand.objects.count()
    voided = rows[0]
    assert (voided["round"], voided["table"], voided["game"], voided["hand"]) == (
        "1",
        "1",
        "1",
        "1",
    )
    assert (voided["state"], voided["points"], voided["knocker"], voided["winner"]) == (
        "voided",
        "6",
        "P01",
        "P01",
    )
    assert (voided["knocker_deadwood"], voided["defender_deadwood"]) == ("2", "8")
    assert rows[-1]["state"] == "pending" and rows[-1]["round"] == "3"


def test_csv_cells_that_look_like_formulas_are_quoted():
    assert exports.safe("=HYPERLINK(1)") == "'=HYPERLINK(1)" and exports.safe("Ada") == "Ada"


def test_archive_export_then_import_elsewhere_gives_identical_standings(event, club):
    archive = json.loads(json.dumps(tournament_archive(event)))
    other = ClubFactory(name="Elsewhere", slug="elsewhere")
    admin_user = other.organisers.create(username="elsewhere-org")
    copy_ = services.import_archive(club=other, actor=actor(admin_user), archive=archive)
    assert copy_.pk != event.pk and copy_.club == other and copy_.slug != event.slug
    assert standings_lines(copy_) == standings_lines(event)
    assert exports.hands_csv(copy_) == exports.hands_csv(event)
    assert copy_.rules == event.rules and copy_.state == event.state
    assert [(r.number, r.state, r.stage) for r in copy_.round_set.order_by("number")] == [
        (1, "closed", "swiss"),
        (2, "closed", "swiss"),
        (3, "published", "swiss"),
    ]
    originals = Match.objects.filter(club=club).count()
    assert Match.objects.filter(club=other).count() == originals
    assert Player.objects.filter(club=other).count() == 6
    assert copy_.registrations.get(player__name="P04").withdrawn
    assert copy_.registrations.get(player__name="Late Liz").late
    resolved = copy_.round_set.get(number=1).pairings.get(match__decided_by="organiser")
    assert (resolved.match.winner, resolved.match.decision_reason) == ("B", "A had to leave")
    assert copy_.roster == []  # a Swiss fixes no roster
    assert ledger.verify() == []
    # the copy can go on: the running round closes once its tables finish
    assert selectors.dashboard(copy_.round_set.get(number=3)).counts["pending"] == 1


def test_an_imported_bracket_goes_on_from_where_it_was(club, organiser, other_organiser):
    event = new_event(club, organiser, players=4, format="elimination")
    play_round(event, organiser, {"P04": "2-1", "P02": "2-0"})
    event.refresh_from_db()
    other = Club.objects.get(slug="other-club")
    copy_ = services.import_archive(
        club=other, actor=actor(other_organiser), archive=tournament_archive(event)
    )
    assert [name_of(pk) for pk in copy_.roster] == ["P01", "P02", "P03", "P04"]
    final = services.draft_round(tournament_id=copy_.pk, actor=actor(other_organiser))
    assert pairs_of(final) == [("P04", "P02")]


def test_archive_is_a_fixed_number_of_queries(event, django_assert_max_num_queries):
    with django_assert_max_num_queries(9):  # 8, and one for the ledger rows
        tournament_archive(event)


def test_import_into_the_same_club_reuses_its_players(event, club, organiser):
    archive = tournament_archive(event)
    players = Player.objects.count()
    copy_ = services.import_archive(club=club, actor=actor(organiser), archive=archive)
    assert Player.objects.count() == players
    assert standings_lines(copy_) == standings_lines(event)


def test_an_archive_written_before_the_event_language_imports_without_one(event, club, organiser):
    archive = json.loads(json.dumps(tournament_archive(event)))
    assert archive["tournament"]["language"] == ""
    archive = unsigned(archive)  # archives written before the setting existed
    del archive["tournament"]["language"]
    copy_ = services.import_archive(club=club, actor=actor(organiser), archive=archive)
    assert copy_.language == ""
    assert standings_lines(copy_) == standings_lines(event)


def test_an_archive_keeps_its_event_language(event, club, organiser):
    event.language = "it"
    event.save(update_fields=["language"])
    archive = json.loads(json.dumps(tournament_archive(event)))
    copy_ = services.import_archive(club=club, actor=actor(organiser), archive=archive)
    assert copy_.language == "it"


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
    event, club, organiser, path, value, message
):
    archive = tournament_archive(event)
    counts = (Tournament.objects.count(), Match.objects.count(), Player.objects.count())
    with pytest.raises(ServiceError) as caught:
        services.import_archive(
            club=club, actor=actor(organiser), archive=tamper(unsigned(archive), path, value)
        )
    assert caught.value.code == "bad_archive"
    assert message in caught.value.message
    nothing_written(counts)


def test_only_the_target_clubs_organisers_import(event, other_organiser):
    with pytest.raises(Forbidden):
        services.import_archive(
            club=event.club, actor=actor(other_organiser), archive=tournament_archive(event)
        )
