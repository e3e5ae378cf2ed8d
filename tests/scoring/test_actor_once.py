"""The actor is built once a request (ginclub.permissions.actor_of keeps it on the
request), and built again when the request changes the session's grants or seats."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from ginclub import permissions
from ginclub.permissions import table_token
from scoring.models import Hand
from tests.scoring.helpers import key

pytestmark = pytest.mark.django_db

HAND = {
    "game": 1,
    "number": 1,
    "outcome": "knock",
    "knocker": "A",
    "knocker_deadwood": 5,
    "defender_deadwood": 20,
}


@pytest.fixture
def builds(monkeypatch):
    """How many times an actor was built from a request."""
    counted = []
    build = permissions.build_actor

    def counting(request):
        counted.append(request)
        return build(request)

    monkeypatch.setattr(permissions, "build_actor", counting)
    return counted


def test_an_api_hand_submission_builds_the_actor_once(match, alice, builds):
    api = APIClient()
    api.force_authenticate(alice.user)
    response = api.post(
        f"/api/matches/{match.pk}/hands/", {**HAND, "idempotency_key": key()}, format="json"
    )
    assert response.status_code == 201, response.content
    assert len(builds) == 1


def test_a_seated_phones_hand_submission_builds_the_actor_once(match, alice, builds):
    phone = Client()
    phone.get(f"/t/{table_token(match)}/")
    phone.post(f"/matches/{match.pk}/seat/", {"player": alice.pk, "pin": "1234"})
    builds.clear()
    data = {**HAND, "mode": "quick", "idempotency_key": key()}
    assert phone.post(f"/matches/{match.pk}/hands/", data).status_code in (200, 302)
    assert Hand.objects.filter(game__match=match).count() == 1
    assert len(builds) == 1


def test_a_seat_claimed_or_released_in_the_request_is_seen_by_the_next_ask(match, alice):
    phone = Client()
    phone.get(f"/t/{table_token(match)}/")
    request = RequestFactory().get("/")
    request.session = phone.session
    assert permissions.actor_of(request, match).player is None
    permissions.claim_seat(request, match, alice)
    assert permissions.actor_of(request, match).player == alice
    permissions.release_seat(request, match)
    assert permissions.actor_of(request, match).player is None


def test_a_table_granted_in_the_request_is_seen_by_the_next_ask(match):
    request = RequestFactory().get("/")
    request.session = Client().session
    assert match.pk not in permissions.actor_of(request).tables
    permissions.grant_table(request, match)
    assert match.pk in permissions.actor_of(request).tables


def test_a_login_in_the_request_builds_a_new_actor(match, alice):
    request = RequestFactory().get("/")
    request.session = Client().session
    assert not permissions.actor_of(request).is_authenticated
    request.user = alice.user
    assert permissions.actor_of(request).user == alice.user
