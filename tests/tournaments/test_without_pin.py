"""Issue 23, trap 1: who cannot sit at a table's phones (no PIN yet) is known before the
round is published, for the players page, a draft round and the dashboard."""

from __future__ import annotations

import datetime as dt

import pytest

from scoring.services import Actor
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import selectors, services

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    club = ClubFactory()
    olga = UserFactory()
    club.organisers.add(olga)
    who = Actor(user=olga)
    for name in ("Ada", "Ben"):
        PlayerFactory(club=club, name=name)  # with a PIN
    event = services.create_tournament(
        club=club, actor=who, name="Open", date=dt.date(2026, 11, 28)
    )
    for name in ("Ada", "Ben", "Jun Park", "Zoe"):  # the last two are new: no PIN
        services.add_registration(tournament_id=event.pk, actor=who, name=name)
    return event, who


def test_the_players_without_a_pin_are_named_a_to_z(event):
    tournament, _who = event
    assert selectors.without_pin(tournament) == ["Jun Park", "Zoe"]


def test_a_withdrawn_player_is_not_named_for_the_event(event):
    tournament, who = event
    zoe = tournament.registrations.get(player__name="Zoe")
    services.withdraw_registration(registration_id=zoe.pk, actor=who, reason="went home")
    assert selectors.without_pin(tournament) == ["Jun Park"]


def test_a_round_names_only_its_paired_players_and_a_pin_set_clears_the_name(event):
    from scoring import services as scoring

    tournament, who = event
    rnd = services.draft_round(tournament_id=tournament.pk, actor=who)
    assert selectors.without_pin(tournament, rnd) == ["Jun Park", "Zoe"]
    jun = tournament.registrations.get(player__name="Jun Park").player
    scoring.set_pin(player=jun, pin="4321", actor=who)
    assert selectors.without_pin(tournament, rnd) == ["Zoe"]
