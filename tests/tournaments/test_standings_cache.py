"""The standings lines and their rendered table are reused while nothing they follow
from changes (tournaments.selectors.standings_version): a hand in play leaves them be;
a decided match, a renamed player or other tie-breaks make them new."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from scoring.models import Player
from tests.tournaments.helpers import actor, new_event, play_hand, win
from tournaments import selectors, services

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(club, organiser):
    cache.clear()
    tournament = new_event(club, organiser, players=4)
    rnd = services.draft_round(tournament_id=tournament.pk, actor=actor(organiser))
    services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    pairings = list(
        rnd.pairings.select_related("match", "player_a__player", "player_b__player").order_by(
            "position"
        )
    )
    return tournament, pairings


def test_a_hand_in_play_keeps_the_version_and_the_lines(event, organiser):
    tournament, (first, _) = event
    before = selectors.standings(tournament)
    # P01 knocks and wins game 1 of a first-to-two match: the match is undecided.
    play_hand(first.match, organiser, game=1, number=1, winner="A")
    after = selectors.standings(tournament)
    assert after.version == before.version
    assert after.rows is before.rows or after.rows == before.rows
    assert [r.standing.match_wins for r in after.rows] == [0, 0, 0, 0]


def test_a_decided_match_moves_the_version_and_the_public_table(event, organiser, client):
    tournament, (first, _) = event
    url = reverse("tournaments:standings-table", args=[tournament.slug])
    before = selectors.standings(tournament, public=True)
    assert "1/1" not in client.get(url).content.decode()
    win(first, organiser, "P01")  # 2-0: P01 has one match win of one
    after = selectors.standings(tournament, public=True)
    assert after.version != before.version
    top = after.rows[0]
    assert (top.name, top.standing.match_wins, top.standing.matches) == ("P01", 1, 1)
    assert "1/1" in client.get(url).content.decode()


def test_a_renamed_player_is_shown_by_the_new_name(event, client):
    tournament, (first, _) = event
    url = reverse("tournaments:projector-board", args=[tournament.slug])
    assert "P01" in client.get(url).content.decode()
    Player.objects.filter(pk=first.player_a.player_id).update(name="Ada Lovelace")
    page = client.get(url).content.decode()
    # the pairing and the standings line (the projector's names are plain: nobody taps)
    assert page.count("<td>Ada Lovelace</td>") == 2
    assert "P01" not in page


def test_other_tie_breaks_are_other_lines(event):
    tournament, _ = event
    before = selectors.standings(tournament)
    tournament.tiebreaks = ["points", "margin"]
    after = selectors.standings(tournament)
    assert after.version != before.version
    assert after.tiebreaks == ("points", "margin")
