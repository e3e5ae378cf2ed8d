"""GET /api/players/<id>/: a player's record with typed output, asked of the same
permission question as the page (may_see_player), in a fixed number of queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from scoring import serializers as ss
from tests.factories import UserFactory
from tests.scoring.helpers import play_hand, quick, start
from tests.test_api_outputs import assert_shape

pytestmark = pytest.mark.django_db


def url(player) -> str:
    return reverse("api-player", args=[player.pk])


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def played(club, organiser, alice, bob):
    """Alice (A) v Bob to 50: Alice knocks 4 v 30 (+26), Bob knocks 6 v Alice's 9 (Bob +3),
    Alice gin v 30 (+55): Alice wins, 81 to 3."""
    match = start(club, alice, bob, organiser, overrides={"game_target": 50})
    play_hand(match, alice, bob, quick(1, knocker="A", kd=4, dd=30))
    play_hand(match, alice, bob, quick(2, knocker="B", kd=6, dd=9))
    play_hand(match, alice, bob, quick(3, knocker="A", kd=0, dd=30, outcome="gin"))
    match.refresh_from_db()
    return match


def test_a_member_reads_the_record_in_its_declared_shape(api, played, alice, bob):
    api.force_authenticate(bob.user)
    response = api.get(url(alice))
    assert response.status_code == 200
    data = response.json()
    assert_shape(data, ss.PlayerRecordOutputSerializer)
    figures = {f["key"]: f for f in data["figures"]}
    # 3 hands, Alice won 2: 66.67 per 100; one knock of hers at deadwood 4.
    assert (figures["hands_won"]["value"], figures["hands_won"]["basis"]) == (66.67, 3)
    assert figures["hands_won"]["enough"] is False and data["minimums"]["hands"] == 20
    assert figures["knock_deadwood"]["value"] == 4.0
    # Caught when defending: Bob's knock, Alice had 9.
    assert (figures["caught_deadwood"]["value"], figures["caught_deadwood"]["basis"]) == (9.0, 1)
    [h2h] = data["head_to_head"]
    assert (h2h["opponent"]["name"], h2h["won"], h2h["lost"]) == ("Bob", 1, 0)
    assert h2h["points"] == {"for": played.points_a, "against": played.points_b}
    [match] = data["matches"]
    assert (match["result"], match["games"], match["place"]) == (
        "won",
        {"for": 1, "against": 0},
        "",
    )
    assert data["knock_deadwood"] == [{"deadwood": 4, "knocks": 1}]
    assert [m["won"] for m in data["months"]] == [1]


def test_strangers_get_the_api_404_and_a_public_club_opens_it(api, club, played, alice):
    response = api.get(url(alice))
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    api.force_authenticate(UserFactory(username="stranger"))
    assert api.get(url(alice)).status_code == 404
    assert api.get(reverse("api-player", args=[2_000_000])).status_code == 404
    club.player_pages_public = True
    club.save()
    api.force_authenticate(None)
    response = api.get(url(alice))
    assert response.status_code == 200
    assert_shape(response.json(), ss.PlayerRecordOutputSerializer)


def test_the_api_reads_in_a_fixed_number_of_queries(api, club, organiser, alice, bob, played):
    api.force_authenticate(organiser)

    def count() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert api.get(url(alice)).status_code == 200
        return len(captured.captured_queries)

    small = count()
    for _ in range(3):
        match = start(club, bob, alice, organiser, overrides={"game_target": 50})
        play_hand(match, alice, bob, quick(1, knocker="B", kd=1, dd=60))
    assert count() == small


def test_the_club_list_says_whether_player_pages_are_public(api, club, organiser):
    api.force_authenticate(organiser)
    [row] = api.get(reverse("api-clubs")).json()
    assert row["player_pages_public"] is False
