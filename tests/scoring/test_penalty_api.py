"""Penalties over the API (issue 25): staff record, preview and reverse them; the
players of the match read them; refusals carry a code and a message naming players."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import Penalty
from tests.scoring.helpers import play_hand, quick

pytestmark = pytest.mark.django_db


def client_for(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def staff(organiser):
    return client_for(organiser)


@pytest.fixture
def played(match, alice, bob):
    """Alice has knocked once for 15 in game 1 (standard rules: one game of 100)."""
    play_hand(match, alice, bob, quick(kd=5, dd=20))
    return match


GAME_LOSS = {"seat": "B", "kind": "game_loss", "infraction": "cards", "details": "Bob peeked"}


def test_staff_record_a_game_loss_and_the_match_is_decided(staff, played):
    response = staff.post(f"/api/matches/{played.pk}/penalties/", GAME_LOSS, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["player"], body["kind"], body["game"], body["active"]) == (
        "Bob", "game_loss", 1, True
    )  # fmt: skip
    match = staff.get(f"/api/matches/{played.pk}/").json()
    assert match["winner"] == "A" and match["state"] == "finished"


def test_the_preview_shows_the_result_before_and_after_and_writes_nothing(staff, played):
    response = staff.post(
        f"/api/matches/{played.pk}/penalties/preview/",
        {"seat": "B", "kind": "game_loss"},
        format="json",
    )
    assert response.status_code == 200, response.content
    result = response.json()["result"]
    assert result["before"]["winner"] is None and result["after"]["winner"] == "A"
    assert result["after"]["points"] == {"A": 140, "B": 0} and result["changed"]
    assert not Penalty.objects.exists()


def test_a_player_cannot_record_a_penalty(played, alice):
    response = client_for(alice.user).post(
        f"/api/matches/{played.pk}/penalties/", GAME_LOSS, format="json"
    )
    assert response.status_code == 403
    error = response.json()["error"]
    assert error["code"] == "not_allowed"
    assert "Alice or Bob" in error["message"]
    assert not Penalty.objects.exists()


def test_the_players_read_the_penalties_of_their_table(staff, played, bob):
    staff.post(f"/api/matches/{played.pk}/penalties/", {**GAME_LOSS, "kind": "warning"},
               format="json")  # fmt: skip
    response = client_for(bob.user).get(f"/api/matches/{played.pk}/penalties/")
    assert response.status_code == 200
    assert [(p["player"], p["kind_label"]) for p in response.json()] == [("Bob", "warning")]


def test_a_reversal_without_a_reason_is_refused_and_with_one_restores_the_hands(staff, played):
    penalty = staff.post(f"/api/matches/{played.pk}/penalties/", GAME_LOSS, format="json").json()
    path = f"/api/penalties/{penalty['id']}/reverse/"
    refused = staff.post(path, {"reason": ""}, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "reason_required"
    done = staff.post(path, {"reason": "it was Alice who peeked"}, format="json")
    assert done.status_code == 200 and done.json()["active"] is False
    match = staff.get(f"/api/matches/{played.pk}/").json()
    assert match["winner"] is None and match["state"] == "in_progress"


def test_a_game_loss_with_no_game_in_play_names_the_players(staff, played):
    staff.post(f"/api/matches/{played.pk}/penalties/", GAME_LOSS, format="json")
    again = staff.post(f"/api/matches/{played.pk}/penalties/", GAME_LOSS, format="json")
    assert again.status_code == 409
    assert again.json()["error"] == {
        "code": "match_over",
        "message": "Alice v Bob has no game in play: a game loss for Bob needs one.",
    }


def test_details_are_required(staff, played):
    response = staff.post(
        f"/api/matches/{played.pk}/penalties/", {**GAME_LOSS, "details": " "}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] in ("details_required", "invalid")
    assert not Penalty.objects.exists()
