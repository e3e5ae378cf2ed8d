"""CSV exports and the JSON archive: export, import elsewhere, identical standings."""

from __future__ import annotations

import csv
import io
import json

import pytest

from ginclub import ledger
from ginclub.errors import Forbidden
from scoring.models import Club, Hand, Match, Player
from tests.factories import ClubFactory
from tests.tournaments.helpers import (
    actor,
    eventful_event,
    name_of,
    new_event,
    pairs_of,
    play_round,
    unsigned,
)
from tournaments import selectors, services
from tournaments.selectors import exports
from tournaments.selectors.exports import tournament_archive

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(club, organiser):
    return eventful_event(club, organiser)


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


def test_only_the_target_clubs_organisers_import(event, other_organiser):
    with pytest.raises(Forbidden):
        services.import_archive(
            club=event.club, actor=actor(other_organiser), archive=tournament_archive(event)
        )
