"""The event ledger in words (issue 23, finding 8): a round's pairs, byes and the tables
the time policy decided or left open are said with the players' names in the reader's
language, and dates in Italian write their months in lower case."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.template import Context, Template
from django.test import Client
from django.utils import translation

from tests.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import actor, new_event, play_hand, play_round
from tournaments.selectors.events import (
    ledger_pairs_text,
    ledger_settled_text,
    ledger_waiting_text,
)
from tournaments.services import apply_time_policy, call_time

pytestmark = pytest.mark.django_db


@pytest.fixture
def decided():
    club = ClubFactory()
    organiser = UserFactory()
    club.organisers.add(organiser)
    event = new_event(club, organiser, players=["Ada", "Ben", "Cleo", "Dan"])
    rnd = play_round(event, organiser, play=False, close=False)
    first = rnd.pairings.get(table=1)
    play_hand(first.match, organiser, game=1, number=1, winner="A")
    call_time(round_id=rnd.pk, actor=actor(organiser))
    report = apply_time_policy(
        round_id=rnd.pk, actor=actor(organiser), pairing_ids=[p.pk for p in rnd.pairings.all()]
    )
    return event, organiser, rnd, report


def test_a_rounds_pairs_and_the_time_policys_tables_are_said_with_names(decided):
    event, _organiser, _rnd, report = decided
    values = report.ledger_values()
    a, b, c = (event.registrations.get(player__name=n).pk for n in ("Ada", "Ben", "Cleo"))
    assert ledger_pairs_text([[a, b, "score group 0"], [c, None, "bye"]]) == (
        "Ada v Ben (score group 0); Cleo: bye"
    )
    assert ledger_settled_text(values["settled"]) == (
        "Table 1: Ada wins (time was called and Ada led on games)"
    )
    assert ledger_waiting_text(values["waiting"]) == (
        "Table 2: level on games and points; record the result by hand"
    )
    with translation.override("it"):
        said = ledger_settled_text(values["settled"])
        assert said.startswith("Tavolo 1: vince Ada (") and "time was called" not in said
        assert ledger_waiting_text(values["waiting"]).startswith("Tavolo 2: ")
        assert "Ada vs Ben" in ledger_pairs_text([[a, b, "score group 0"]])
    # what is not a list of pairs is left to the page
    assert ledger_pairs_text("14, 13") is None and ledger_settled_text([1, 2]) is None


def test_the_corrections_page_shows_no_raw_ids_or_seat_letters(decided):
    event, organiser, _rnd, _report = decided
    desk = Client(HTTP_ACCEPT_LANGUAGE="it")
    desk.force_login(organiser)
    page = re.sub(
        r"\s+", " ", desk.get(f"/tournaments/{event.slug}/manage/corrections/").content.decode()
    )
    assert "Tavolo 1: vince Ada (" in page and "Ada vs Ben (" in page
    assert "vincitore A" not in page and "settled" not in page and "waiting" not in page
    assert "28 novembre 2026" in page and "Novembre" not in page


@pytest.mark.parametrize(
    "language, expected",
    [
        ("it", "26 novembre 2026 · gio 26 nov 2026 · 26 nov 2026, 14:05 · nov 2026"),
        ("en-gb", "26 Nov 2026 · Thu 26 Nov 2026 · 26 Nov 2026, 14:05 · Nov 2026"),
    ],
)
def test_dates_as_each_language_writes_them(language, expected):
    moment = dt.datetime(2026, 11, 26, 14, 5)
    template = Template(
        '{{ d.date }} · {{ d|date:"D" }} {{ d|date:"SHORT_DATE_FORMAT" }} · '
        '{{ d|date:"SHORT_DATETIME_FORMAT" }} · {{ d|date:"YEAR_MONTH_FORMAT" }}'
    )
    with translation.override(language):
        assert template.render(Context({"d": moment})) == expected


@pytest.mark.parametrize("language, day", [("it", "26 novembre 2026"), ("en-gb", "26 Nov 2026")])
def test_a_tournaments_date_on_its_created_row_reads_as_a_date(language, day):
    """Issue 23: the "Tournament created" row showed the date as "2026-11-26"."""
    from scoring.models import LedgerRow
    from scoring.templatetags.ledger_extras import ledger_changes

    club = ClubFactory()
    organiser = UserFactory()
    club.organisers.add(organiser)
    event = new_event(club, organiser, players=["Ada", "Ben"], date=dt.date(2026, 11, 26))
    row = LedgerRow.objects.get(chain=event.chain, action="tournament_created")
    with translation.override(language):
        lines = {line["field"]: line["after"] for line in ledger_changes(row)}
    assert day in lines.values(), lines
    assert "2026-11-26" not in lines.values()


def test_a_matchs_decided_row_names_the_players_and_the_state_in_words():
    """A walk read "state in_progress → finished" and "games won A 0; B 0 → A 1; B 0" in
    the admin's ledger of a match."""
    from scoring.models import LedgerRow
    from scoring.templatetags.ledger_extras import ledger_changes

    club = ClubFactory()
    organiser = UserFactory()
    club.organisers.add(organiser)
    event = new_event(club, organiser, players=["Ada", "Ben"], rounds=1)
    rnd = play_round(event, organiser)
    match = rnd.pairings.get().match
    row = LedgerRow.objects.filter(chain=f"match:{match.pk}", action="match_decided").latest(
        "position"
    )
    lines = {line["field"]: (line["before"], line["after"]) for line in ledger_changes(row)}
    said = repr(lines)
    assert "in_progress" not in said and "in progress" in said, lines
    assert "A 0" not in said and "Ada " in said and "Ben " in said, lines
