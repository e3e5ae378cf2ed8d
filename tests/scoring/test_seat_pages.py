"""A phone seated by PIN says whom it acts for, and "Not you?" gives the seat back
(issue 9, trap 15: a seated player still saw "Log in")."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from ginclub.permissions import table_token

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def test_a_seated_phone_says_who_it_is_and_not_you_gives_the_seat_back(match, alice):
    phone = Client()
    phone.get(f"/t/{table_token(match)}/")
    page = text(phone.get(f"/matches/{match.pk}/"))
    assert "Who is this phone?" in page and "Log in" in page
    phone.post(f"/matches/{match.pk}/seat/", {"player": alice.pk, "pin": "1234"})
    page = text(phone.get(f"/matches/{match.pk}/"))
    assert 'data-testid="seated-as">You are Alice</span>' in page
    assert "Log in" not in page and "Who is this phone?" not in page
    response = phone.post(f"/matches/{match.pk}/seat/leave/")
    assert response.status_code == 302
    page = text(phone.get(response["Location"]))
    assert "This phone no longer enters results for Alice: choose your name." in page
    assert "Who is this phone?" in page and "You are Alice" not in page  # the link still opens


def test_leaving_needs_the_table(match):
    stranger = Client()
    assert stranger.post(f"/matches/{match.pk}/seat/leave/").status_code == 403


def test_a_finished_match_reloaded_says_how_it_ended_not_no_game_in_progress(match, alice, bob):
    """Issue 9, trap 3: after a normal finish the form said "No game in progress."."""
    from tests.scoring.helpers import play_hand, quick

    for number in range(1, 5):  # four gins of 25: 100 ends the standard game and match
        play_hand(match, alice, bob, quick(number=number, kd=0, dd=0, outcome="gin"))
    phone = Client()
    phone.get(f"/t/{table_token(match)}/")
    phone.post(f"/matches/{match.pk}/seat/", {"player": alice.pk, "pin": "1234"})
    page = text(phone.get(f"/matches/{match.pk}/"))
    assert "No game in progress" not in page
    assert "<summary><strong>Alice wins 1–0</strong>" in page
    assert "Alice won game 1; the first to 1 game wins." in page
