"""Standings rows explain themselves on the pages and through the API (issue 9, 'every
number explains itself')."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import new_event, play_round
from tournaments import selectors

pytestmark = pytest.mark.django_db

P01 = "Ahead of P03 on game-win %: 2 of 2 against 2 of 3."
P03 = "Behind P01 on game-win %: 2 of 3 against 2 of 2; ahead of P04 on match wins: 1 against 0."


@pytest.fixture
def event(club, organiser):
    event = new_event(club, organiser, players=4)  # P01 v P02, P03 v P04
    play_round(event, organiser, {"P01": "2-0", "P03": "2-1"})
    return event


def test_each_row_says_why_it_stands_there(event):
    rows = {row.name: row.why for row in selectors.standings(event).rows}
    assert rows["P01"] == P01
    assert rows["P03"] == P03


def test_the_api_gives_the_same_words(event, client):
    body = client.get(f"/api/tournaments/{event.slug}/standings/").json()
    assert [row["why"] for row in body["rows"][:2]] == [P01, P03]


def test_public_and_organiser_standings_open_the_words_on_a_tap(event, client, organiser):
    public = client.get(f"/tournaments/{event.slug}/standings/").content.decode()
    assert f'<p class="small" data-testid="why">{P01}</p>' in public
    assert 'data-keep-open="why-' in public  # stays open when the table refreshes
    client.force_login(organiser)
    managed = client.get(f"/tournaments/{event.slug}/manage/standings/").content.decode()
    assert P03.replace("'", "&#x27;") in managed
