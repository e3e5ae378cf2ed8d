"""Penalties on the match page (issue 25): the organiser previews and records one, and
reverses it with a reason; the players read the list on their scoreboard; a player
cannot post one."""

from __future__ import annotations

import re

import pytest

from ginclub.permissions import Actor
from scoring import services
from scoring.models import Penalty
from tests.scoring.helpers import play_hand, quick

pytestmark = pytest.mark.django_db

FORM = {"seat": "B", "kind": "game_loss", "infraction": "cards", "details": "Bob peeked"}


@pytest.fixture
def played(match, alice, bob):
    play_hand(match, alice, bob, quick(kd=5, dd=20))  # Alice 15 in game 1 (to 100)
    return match


@pytest.fixture
def staff(client, organiser):
    client.force_login(organiser)
    return client


def test_the_preview_partial_shows_the_result_before_and_after(staff, played):
    response = staff.post(
        f"/matches/{played.pk}/penalties/preview/", FORM, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="penalty-preview"' in body and "If you record it against Bob" in body
    assert "undecided: games Alice 0 – 0 Bob, points 0 – 0" in body
    assert "Alice wins: games Alice 1 – 0 Bob, points 140 – 0" in body
    assert not Penalty.objects.exists()


def test_a_plain_preview_shows_the_whole_page_with_it(staff, played):
    response = staff.post(f"/matches/{played.pk}/penalties/preview/", FORM)
    body = response.content.decode()
    assert response.status_code == 200 and "Alice wins: games Alice 1 – 0 Bob" in body
    assert 'id="penalty-form"' in body


def test_recording_then_reversing_from_the_page(staff, played, client):
    response = staff.post(f"/matches/{played.pk}/penalties/", FORM)
    assert response.status_code == 302
    penalty = Penalty.objects.get()
    page = staff.get(f"/matches/{played.pk}/").content.decode()
    assert "Game loss" in page and "Bob peeked" in page and "Alice wins 1–0" in page
    refused = staff.post(f"/penalties/{penalty.pk}/reverse/", {"reason": ""})
    assert refused.status_code == 400
    assert "Say why the penalty is reversed." in refused.content.decode()
    staff.post(f"/penalties/{penalty.pk}/reverse/", {"reason": "it was Alice"})
    penalty.refresh_from_db()
    assert not penalty.active
    played.refresh_from_db()
    assert played.winner == ""


def test_the_players_scoreboard_lists_the_penalties_against_the_table(
    client, played, bob, organiser
):
    services.record_penalty(
        match_id=played.pk, actor=Actor(user=organiser), seat="B", kind="warning",
        infraction="slow_play", details="took minutes to discard",
    )  # fmt: skip
    client.force_login(bob.user)
    board = client.get(f"/matches/{played.pk}/scoreboard/").content.decode()
    assert "Penalties at this table" in board
    assert "Warning</strong> against Bob (slow play): took minutes to discard" in board
    page = client.get(f"/matches/{played.pk}/").content.decode()
    assert 'id="penalty-form"' not in page  # the staff's form is not the player's


def test_a_player_cannot_post_a_penalty(client, played, alice):
    client.force_login(alice.user)
    response = client.post(f"/matches/{played.pk}/penalties/", FORM)
    assert response.status_code == 403
    assert "Only the staff of" in response.content.decode()
    assert not Penalty.objects.exists()


def test_a_penalty_against_nobody_is_refused_with_the_players_names(staff, played):
    """Found on a walk: 'Check the penalty: seat: This field is required.'"""
    without = {key: value for key, value in FORM.items() if key != "seat"}
    response = staff.post(
        f"/matches/{played.pk}/penalties/preview/", without, headers={"HX-Request": "true"}
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "Say against whom: Alice or Bob." in body
    words = re.sub(r"<[^>]+>", " ", body)  # what the organiser reads
    assert "seat" not in words
    assert not Penalty.objects.exists()
