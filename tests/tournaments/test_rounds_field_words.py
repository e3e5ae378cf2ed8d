"""The rounds page's line about the field says what is true in each state: who is to be
paired, why nobody is (check-in), and, once the event is finished, who played."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.tournaments.helpers import actor, new_event, play_round
from tournaments import services

pytestmark = pytest.mark.django_db


def field_html(client: Client, event) -> str:
    page = client.get(f"/tournaments/{event.slug}/manage/rounds/").content.decode()
    return page.split('data-testid="field-planned">')[1].split("</p>")[0]


def field_line(client: Client, event) -> str:
    return " ".join(re.sub(r"<[^>]+>", "", field_html(client, event)).split())


@pytest.fixture
def desk(client, organiser) -> Client:
    client.force_login(organiser)
    return client


def test_nobody_checked_in_says_check_in_is_why_nobody_is_paired(desk, club, organiser):
    event = new_event(club, organiser, players=5, check_in_required=True)
    line = field_line(desk, event)
    assert line == (
        "No player to pair: check-in is required and none of the 5 players registered "
        "has checked in yet. Check players in."
    )
    assert f'href="/tournaments/{event.slug}/manage/players/"' in field_html(desk, event)


def test_some_checked_in_counts_those_still_to_check_in(desk, club, organiser):
    event = new_event(club, organiser, players=5, check_in_required=True)
    for registration in event.registrations.order_by("player__name")[:3]:
        services.check_in(registration_id=registration.pk, actor=actor(organiser))
    assert field_line(desk, event).startswith(
        "3 players to pair · 2 registered players not checked in yet · "
    )


def test_without_check_in_the_field_is_everyone_registered(desk, club, organiser):
    event = new_event(club, organiser, players=5)
    assert field_line(desk, event) == "5 players to pair · 5 rounds planned."


def test_nobody_registered_says_so(desk, club, organiser):
    event = new_event(club, organiser, players=0)
    assert field_line(desk, event) == "No player to pair: nobody is registered yet. Add players."


def test_a_finished_event_says_who_played_not_who_is_to_pair(desk, club, organiser):
    event = new_event(club, organiser, players=3, format="round_robin")
    for _ in range(3):
        play_round(event, organiser)
    event.refresh_from_db()
    assert event.state == "finished"
    assert field_line(desk, event) == "3 rounds played · 3 players took part."
