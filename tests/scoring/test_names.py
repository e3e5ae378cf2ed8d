"""A player's or a club's name holds no control characters, and a player's email is an
email address (issue 24, finding 5): the services refuse them, so the API, the club
page and the archive import (tests/tournaments/test_exports.py) all do."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from ginclub.errors import ServiceError
from ginclub.inputs import control_character
from scoring import services
from scoring.models import Club, Player

pytestmark = pytest.mark.django_db

ESCAPED = "A\u001b[31mB\u0007"


def test_the_api_refuses_a_player_name_with_an_escape_sequence(club, organiser):
    api = APIClient()
    api.force_authenticate(organiser)
    response = api.post(f"/api/clubs/{club.slug}/players/", {"name": ESCAPED}, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert error["fields"] == {"name": "must not hold control characters (U+001B)"}
    assert "A\\x1b[31mB\\x07" in error["message"]
    assert not Player.objects.filter(club=club).exists()


def test_the_club_page_refuses_a_player_name_with_a_bell(club, organiser):
    client = Client()
    client.force_login(organiser)
    response = client.post(f"/clubs/{club.slug}/players/new/", {"name": "Carla\u0007"})
    assert response.status_code == 400
    assert "must not hold control characters (U+0007)" in response.content.decode()
    assert not Player.objects.filter(club=club).exists()


def test_the_service_refuses_an_email_that_is_not_one(club, organiser):
    with pytest.raises(ServiceError) as refused:
        services.add_player(
            club=club, name="Carla", actor=services.Actor(user=organiser), email="2026-13-45"
        )
    assert refused.value.fields == {"email": "not an email address"}
    assert not Player.objects.filter(club=club).exists()


def test_an_admin_cannot_create_a_club_named_with_a_bidi_override(admin_user):
    with pytest.raises(ServiceError) as refused:
        services.create_club(
            name="Gin \u202eClub", slug="gin", actor=services.Actor(user=admin_user)
        )
    assert refused.value.fields == {"name": "must not hold control characters (U+202E)"}
    assert not Club.objects.filter(slug="gin").exists()


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Zoë Núñez-O'Brien", None),
        ("李 小龙", None),
        ("👩‍👩‍👧 family", None),  # the zero-width joiner of an emoji is not a control
        ("tab\there", "U+0009"),
        ("del\x7f", "U+007F"),
        ("c1\x85", "U+0085"),
        ("isolate\u2066", "U+2066"),
    ],
)
def test_control_characters_are_found_and_letters_of_any_script_are_not(text, found):
    assert control_character(text) == found
