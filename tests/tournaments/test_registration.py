"""Registrations: one by one, CSV import with its row-by-row report, check-in, late
entries and withdrawals."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ginclub import ledger
from ginclub.errors import Conflict, Forbidden, ServiceError
from scoring.models import LedgerRow, Player
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tests.tournaments.helpers import actor, new_event, pairs_of, play_round, reg
from tournaments import services
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(club, organiser):
    return new_event(club, organiser, players=0)


def add(event, user, **details):
    return services.add_registration(tournament_id=event.pk, actor=actor(user), **details)


def test_adding_a_new_name_creates_the_club_player(event, organiser, club):
    registration = add(
        event, organiser, name="  Ada   Lovelace ", email="ada@example.org", member_id="M7"
    )
    player = registration.player
    assert (player.name, player.email, player.member_id, player.club) == (
        "Ada Lovelace",
        "ada@example.org",
        "M7",
        club,
    )
    assert not registration.late


def test_adding_a_known_name_reuses_the_club_player(event, organiser, club):
    known = PlayerFactory(club=club, name="Ben")
    assert add(event, organiser, name="ben").player == known
    assert add(event, organiser, name="Cleo", player_id=None).player.name == "Cleo"
    assert Player.objects.filter(club=club).count() == 2


@pytest.mark.parametrize(
    ("details", "code", "message"),
    [
        ({"name": " "}, "empty_name", "The name is empty."),
        ({"name": "X" * 121}, "name_too_long", "121 characters long"),
        ({"name": "Dev", "email": "dev@"}, "bad_email", "'dev@' is not an email address."),
        ({"name": "Dev", "member_id": "9" * 41}, "bad_member_id", "40 characters at most"),
        ({"name": "Dev", "seed": 0}, "invalid", "seed is a whole number from 1 to 9999"),
    ],
)
def test_bad_details_are_refused_and_nothing_is_written(event, organiser, details, code, message):
    with pytest.raises(ServiceError) as caught:
        add(event, organiser, **details)
    assert caught.value.code == code and message in caught.value.message
    assert not Registration.objects.exists() and not Player.objects.exists()


def test_registering_twice_or_a_foreign_player_is_refused(event, organiser):
    add(event, organiser, name="Eve")
    with pytest.raises(ServiceError, match="Eve is already registered"):
        add(event, organiser, name="EVE")
    stranger = PlayerFactory(name="Zed")  # another club's
    with pytest.raises(ServiceError, match="has no player"):
        add(event, organiser, player_id=stranger.pk)
    assert Registration.objects.count() == 1


def test_a_member_id_names_one_player(event, organiser, club):
    PlayerFactory(club=club, name="Finn", member_id="42")
    with pytest.raises(ServiceError, match="Member id 42 belongs to Finn, not Gus"):
        add(event, organiser, name="Gus", member_id="42")
    assert add(event, organiser, name="finn", member_id="42").player.name == "Finn"


CSV = (
    "Name;E-mail;Member ID;Shirt\n"
    "Ada;ada@example.org;1;M\n"
    "Ben;;;L\n"
    ";nobody@example.org;;S\n"
    "Cleo;not-an-email;;M\n"
    "ada;;;M\n"
    "\n"
    "Dev;dev@example.org;;XL\n"
)


def test_csv_import_reports_every_row_and_keeps_the_accepted_ones(event, organiser):
    report = services.import_registrations(
        tournament_id=event.pk, actor=actor(organiser), content=CSV.encode()
    )
    rows = [(r.line, r.name, r.accepted, r.code) for r in report.rows]
    assert rows == [
        (2, "Ada", True, ""),
        (3, "Ben", True, ""),
        (4, "", False, "empty_name"),
        (5, "Cleo", False, "bad_email"),
        (6, "ada", False, "duplicate"),
        (8, "Dev", True, ""),
    ]
    assert report.rows[3].reason == "'not-an-email' is not an email address."
    assert report.rows[4].reason == "duplicate of line 2"
    assert report.rows[0].reason == "registered (new club player)"
    assert report.ignored_columns == ["Shirt"]
    assert sorted(r.player.name for r in event.registrations.all()) == ["Ada", "Ben", "Dev"]
    assert event.registrations.get(player__name="Ada").player.member_id == "1"
    row = LedgerRow.objects.filter(chain=event.chain, action="registrations_imported").get()
    assert (row.after["accepted"], row.after["refused"]) == (3, 3)


def test_csv_import_refuses_already_registered_players_row_by_row(event, organiser):
    add(event, organiser, name="Ada")
    report = services.import_registrations(
        tournament_id=event.pk, actor=actor(organiser), content="name\nAda\nBen\n"
    )
    assert [(r.name, r.accepted, r.reason) for r in report.rows] == [
        ("Ada", False, "Ada is already registered."),
        ("Ben", True, "registered (new club player)"),
    ]


def test_excel_style_csv_with_bom_and_cp1252_is_read(event, organiser):
    content = "\ufeffname,email\r\nZoë,\r\n".encode("utf-8")
    report = services.import_registrations(
        tournament_id=event.pk, actor=actor(organiser), content=content
    )
    assert [r.name for r in report.accepted] == ["Zoë"]
    report = services.import_registrations(
        tournament_id=event.pk, actor=actor(organiser), content="name\nRenée\n".encode("cp1252")
    )
    assert [r.name for r in report.accepted] == ["Renée"]


def imported_with_queries(event, organiser, names: list[str]):
    content = "name,member_id\n" + "".join(f"{n},M-{n.lower()}\n" for n in names)
    with CaptureQueriesContext(connection) as queries:
        report = services.import_registrations(
            tournament_id=event.pk, actor=actor(organiser), content=content
        )
    return report, len(queries)


def test_a_csv_chunk_takes_the_same_few_queries_for_any_number_of_rows(club, organiser):
    # Eight queries a row made a 2,000-player file take 10 s of CPU (over a minute on a
    # busy machine, past gunicorn's timeout): a chunk's players are read, and the new
    # ones and the registrations written, at once.
    PlayerFactory(club=club, name="Known 1", member_id="M-known 1")
    PlayerFactory(club=club, name="Known 2")
    small = new_event(club, organiser, players=0, name="Small Open")
    big = new_event(club, organiser, players=0, name="Big Open")
    few_names = ["known 1", "New 1", "New 2"]
    many_names = ["Known 1", "known 2"] + [f"New {n}" for n in range(1, 100)]
    few_report, few = imported_with_queries(small, organiser, few_names)
    many_report, many = imported_with_queries(big, organiser, many_names)
    assert len(few_report.accepted) == 3 and len(many_report.accepted) == 101
    assert few == many and many <= 14, (few, many)
    assert sorted(r.player.name for r in big.registrations.all()) == sorted(
        ["Known 1", "Known 2"] + [f"New {n}" for n in range(1, 100)]
    )
    # the second file found the players the first created, in any case
    assert Player.objects.filter(club=club).count() == 2 + 99
    assert Player.objects.get(name="New 7").member_id == "M-new 7"
    row = many_report.rows[1]
    assert (row.name, row.reason) == ("known 2", "registered")
    assert ledger.verify() == []


def test_csv_rows_see_the_players_earlier_rows_created(event, organiser, club):
    PlayerFactory(club=club, name="Finn", member_id="42")
    content = (
        "name,member_id\n"
        "Gus,7\n"  # new, member 7
        "Hal,7\n"  # member 7 is now Gus's
        "Gus,\n"  # the same name again
        "Ivy,42\n"  # member 42 is Finn's
        "finn,43\n"  # Finn has member id 42
        "FINN,42\n"
        "Bad\u0007Name,\n"  # a control character: the name cannot be stored
    )
    report = services.import_registrations(
        tournament_id=event.pk, actor=actor(organiser), content=content
    )
    assert [(r.name, r.accepted, r.code) for r in report.rows] == [
        ("Gus", True, ""),
        ("Hal", False, "member_id_taken"),
        ("Gus", False, "duplicate"),
        ("Ivy", False, "member_id_taken"),
        ("finn", False, "member_id_mismatch"),
        ("FINN", True, ""),
        ("Bad\u0007Name", False, "invalid"),
    ]
    assert report.rows[1].reason == "Member id 7 belongs to Gus, not Hal."
    assert report.rows[5].reason == "registered"
    assert sorted(r.player.name for r in event.registrations.all()) == ["Finn", "Gus"]
    assert event.registrations.get(player__name="Gus").pk == report.rows[0].registration_id


def test_a_csv_import_by_a_stranger_writes_nothing(event, organiser, django_user_model):
    stranger = django_user_model.objects.create_user("stranger", password="x" * 12)
    with pytest.raises(Forbidden):
        services.import_registrations(
            tournament_id=event.pk, actor=actor(stranger), content="name\nAda\n"
        )
    assert not Player.objects.exists() and not Registration.objects.exists()


@pytest.mark.parametrize(
    ("content", "code", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not_csv", "not a CSV text file"),
        (b"", "empty_file", "The file is empty."),
        (
            b"player_id,email\n1,a@example.org\n",
            "no_name_column",
            "a header with a 'name' column (optional 'email', 'member_id'); found 'player_id', "
            "'email'",
        ),
        (b"Ada\nBen\n", "no_name_column", "found 'Ada'"),
        (b'name\n"Ada\n', "not_csv", "is not valid CSV"),
    ],
)
def test_a_file_that_is_not_a_player_csv_is_refused_whole(event, organiser, content, code, message):
    with pytest.raises(ServiceError) as caught:
        services.import_registrations(
            tournament_id=event.pk, actor=actor(organiser), content=content
        )
    assert caught.value.code == code and message in caught.value.message
    assert not Registration.objects.exists() and not Player.objects.exists()
    assert not LedgerRow.objects.filter(action="registrations_imported").exists()


def test_check_in_is_required_for_pairing_when_the_event_says_so(club, organiser):
    event = new_event(club, organiser, players=3, check_in_required=True)
    for name in ("P01", "P02"):
        services.check_in(registration_id=reg(event, name).pk, actor=actor(organiser))
    rnd = play_round(event, organiser)
    assert pairs_of(rnd) == [("P01", "P02")]
    assert reg(event, "P01").checked_in and not reg(event, "P03").checked_in


def test_late_entries_join_a_running_swiss_with_no_points(club, organiser):
    event = new_event(club, organiser, players=4)
    play_round(event, organiser, {"P01": "2-0", "P03": "2-0"})
    late = add(event, organiser, name="Late Larry")
    assert late.late
    rnd = play_round(event, organiser)
    pairs = pairs_of(rnd)
    assert ("Late Larry", None) in pairs or any("Late Larry" in p for p in pairs)
    assert ("P01", "P03") in pairs


def test_late_entries_are_closed_in_a_round_robin(club, organiser):
    event = new_event(club, organiser, players=4, format="round_robin")
    play_round(event, organiser, close=False)
    with pytest.raises(Conflict) as caught:
        add(event, organiser, name="Late Larry")
    assert caught.value.code == "late_entry_closed"
    assert "round robin field was fixed in round 1" in caught.value.message
    assert not Player.objects.filter(name="Late Larry").exists()


def test_a_withdrawn_player_is_not_paired_but_results_stand(club, organiser):
    event = new_event(club, organiser, players=4)
    play_round(event, organiser, {"P04": "2-0"})
    services.withdraw_registration(
        registration_id=reg(event, "P04").pk, actor=actor(organiser), reason="went home"
    )
    rnd = play_round(event, organiser)
    assert all("P04" not in pair for pair in pairs_of(rnd))
    from tournaments import selectors

    line = next(r for r in selectors.standings(event).rows if r.name == "P04")
    assert (line.standing.match_wins, line.withdrawn) == (1, True)
    with pytest.raises(Conflict, match="already withdrawn"):
        services.withdraw_registration(
            registration_id=reg(event, "P04").pk, actor=actor(organiser), reason="again"
        )


def test_a_player_who_withdrew_after_the_draft_blocks_publishing(club, organiser):
    event = new_event(club, organiser, players=4)
    rnd = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    services.withdraw_registration(
        registration_id=reg(event, "P02").pk, actor=actor(organiser), reason="went home"
    )
    with pytest.raises(Conflict) as caught:
        services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    assert caught.value.code == "withdrawn_in_draft"
    assert "P02 withdrew after this round was drafted" in caught.value.message
    rnd.refresh_from_db()
    assert rnd.state == "draft" and not rnd.pairings.exclude(match=None).exists()


def test_a_paired_registration_cannot_be_removed_only_withdrawn(club, organiser):
    event = new_event(club, organiser, players=3)
    services.remove_registration(registration_id=reg(event, "P03").pk, actor=actor(organiser))
    play_round(event, organiser, close=False)
    with pytest.raises(Conflict, match="has been paired; withdraw them instead"):
        services.remove_registration(registration_id=reg(event, "P01").pk, actor=actor(organiser))
    assert event.registrations.count() == 2


def test_seeds_are_unique(club, organiser):
    event = new_event(club, organiser, players=2)
    services.set_seed(registration_id=reg(event, "P01").pk, actor=actor(organiser), seed=1)
    with pytest.raises(ServiceError, match="Seed 1 is already P01's"):
        services.set_seed(registration_id=reg(event, "P02").pk, actor=actor(organiser), seed=1)
    assert reg(event, "P02").seed is None


def test_check_in_can_be_undone_and_a_withdrawn_player_cannot_check_in(organiser, club):
    registration = RegistrationFactory(tournament=TournamentFactory(club=club))
    services.check_in(registration_id=registration.pk, actor=actor(organiser))
    services.check_in(registration_id=registration.pk, actor=actor(organiser), checked_in=False)
    registration.refresh_from_db()
    assert not registration.checked_in
    assert list(
        LedgerRow.objects.filter(chain=registration.tournament.chain).values_list(
            "action", flat=True
        )
    ) == ["checked_in", "check_in_undone"]
    services.withdraw_registration(
        registration_id=registration.pk, actor=actor(organiser), reason="went home"
    )
    with pytest.raises(Conflict, match="has withdrawn"):
        services.check_in(registration_id=registration.pk, actor=actor(organiser))


def test_a_long_csv_is_registered_in_chunks_that_each_hold_the_lock_briefly(event, organiser):
    from tournaments.services import registration

    names = [f"Player {n:03d}" for n in range(450)] + ["player 007"]  # a late duplicate
    report = services.import_registrations(
        tournament_id=event.pk, actor=actor(organiser), content="name\n" + "\n".join(names)
    )
    assert (len(report.accepted), len(report.refused)) == (450, 1)
    assert report.rows[-1].reason == "duplicate of line 9"
    rows = LedgerRow.objects.filter(chain=event.chain, action="registrations_imported")
    chunks = [row.after["accepted"] + row.after["refused"] for row in rows.order_by("position")]
    assert chunks == [200, 200, 51] and registration.IMPORT_CHUNK == 200


def test_a_line_split_by_another_separator_is_refused_not_made_a_player(event, organiser):
    """A walk pasted "Finn;;" into a comma file: it became a club player called "Finn;;"."""
    content = "name,email\nAda,\nFinn;;\nGus\tgus@example.org\n"
    report = services.import_registrations(
        tournament_id=event.pk, actor=actor(organiser), content=content.encode()
    )
    rows = [(r.line, r.name, r.accepted, r.code) for r in report.rows]
    assert rows == [
        (2, "Ada", True, ""),
        (3, "Finn;;", False, "stray_separator"),
        (4, "Gus gus@example.org", False, "stray_separator"),
    ]
    assert "the name holds ';'" in report.rows[1].reason
    assert not Player.objects.filter(name__startswith="Finn").exists()
