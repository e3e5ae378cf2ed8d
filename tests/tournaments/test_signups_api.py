"""The sign-up API: settings (organisers only), signing up, the waiting list, leaving,
approval and resolving, checking in and dropping with the PIN."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.tournaments.helpers import new_event, play_round, reg
from tournaments.models import SignUp

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(organiser):
    client = APIClient()
    client.force_authenticate(organiser)
    return client


@pytest.fixture
def event(club, organiser):
    return new_event(club, organiser, players=0)


def error(response) -> dict:
    return response.json()["error"]


def test_settings_are_for_organisers_and_signing_up_fills_the_list(api, event, club):
    stranger = APIClient()
    stranger.force_authenticate(UserFactory(username="nobody"))
    refused = stranger.patch(
        f"/api/tournaments/{event.slug}/signups/", {"open": True}, format="json"
    )
    assert refused.status_code in (403, 404)
    auditor = UserFactory(username="aud")
    club.auditors.add(auditor)
    reader = APIClient()
    reader.force_authenticate(auditor)
    assert reader.get(f"/api/tournaments/{event.slug}/signups/").status_code == 200
    barred = reader.patch(f"/api/tournaments/{event.slug}/signups/", {"open": True}, format="json")
    assert error(barred)["code"] == "auditor_read_only"

    opened = api.patch(
        f"/api/tournaments/{event.slug}/signups/",
        {"open": True, "capacity": 1, "late_entry": "bye"},
        format="json",
    ).json()
    assert opened["open"] and opened["capacity"] == 1 and opened["closed"] == ""
    code = opened["code"]
    assert opened["path"] == f"/join/{code}/"

    phone = APIClient()
    ada = phone.post(f"/api/join/{code.lower()}/", {"name": "Ada", "pin": "1357"}, format="json")
    assert ada.status_code == 201 and ada.json()["state"] == "entered"
    ben = phone.post(f"/api/join/{code}/", {"name": "Ben", "pin": "2468"}, format="json").json()
    assert (ben["state"], ben["position"], ben["waiting"]) == ("waiting", 1, 1)
    listed = api.get(f"/api/tournaments/{event.slug}/signups/").json()
    assert [w["name"] for w in listed["waiting"]] == ["Ben"]

    wrong = phone.post(
        f"/api/join/{code}/{ada.json()['id']}/leave/", {"pin": "0000"}, format="json"
    )
    assert wrong.status_code == 403 and error(wrong)["code"] == "wrong_pin"
    left = phone.post(f"/api/join/{code}/{ada.json()['id']}/leave/", {"pin": "1357"}, format="json")
    assert left.json()["state"] == "left"
    status = phone.get(f"/api/join/{code}/{ben['id']}/").json()
    assert status["state"] == "entered" and status["moved_up_at"] is not None
    assert "moved up" in status["where"]

    bad = phone.post(f"/api/join/{code}/", {"name": "Cleo", "pin": "12"}, format="json")
    assert bad.status_code == 400 and error(bad)["code"] == "invalid"
    nowhere = phone.post("/api/join/NOCODE/", {"name": "Cleo", "pin": "1234"}, format="json")
    assert nowhere.status_code == 404


def test_approval_and_resolving_by_api(api, event, club):
    from scoring.models import Player

    Player.objects.create(club=club, name="Gil")
    code = api.patch(
        f"/api/tournaments/{event.slug}/signups/", {"open": True, "approval": True}, format="json"
    ).json()["code"]
    phone = APIClient()
    dora = phone.post(f"/api/join/{code}/", {"name": "Dora", "pin": "1111"}, format="json").json()
    gil = phone.post(f"/api/join/{code}/", {"name": "gil", "pin": "2222"}, format="json").json()
    assert (dora["state"], gil["state"], gil["claims"]) == ("pending", "pending", "Gil")
    assert phone.post(f"/api/signups/{dora['id']}/approve/").status_code in (401, 403)
    assert api.post(f"/api/signups/{dora['id']}/approve/").json()["state"] == "entered"
    unresolved = api.post(f"/api/signups/{gil['id']}/approve/")
    assert unresolved.status_code == 409 and error(unresolved)["code"] == "unresolved"
    resolved = api.post(
        f"/api/signups/{gil['id']}/resolve/", {"same": False, "name": "Gil Verdi"}, format="json"
    ).json()
    assert resolved["state"] == "entered"
    assert SignUp.objects.get(pk=gil["id"]).player.name == "Gil Verdi"


def test_check_in_and_drop_with_the_pin(api, event, organiser):
    code = api.patch(
        f"/api/tournaments/{event.slug}/signups/",
        {"open": True, "starts_at": (timezone.now() + dt.timedelta(minutes=30)).isoformat()},
        format="json",
    ).json()["code"]
    phone = APIClient()
    for name, pin in (("Ada", "1111"), ("Ben", "2222"), ("Cleo", "3333")):
        phone.post(f"/api/join/{code}/", {"name": name, "pin": pin}, format="json")
    ada = reg(event, "Ada")
    wrong = phone.post(
        f"/api/registrations/{ada.pk}/self-check-in/", {"pin": "2222"}, format="json"
    )
    assert wrong.status_code == 403
    done = phone.post(f"/api/registrations/{ada.pk}/self-check-in/", {"pin": "1111"}, format="json")
    assert done.json()["checked_in"]
    play_round(event, organiser)
    late = phone.post(f"/api/registrations/{ada.pk}/self-check-in/", {"pin": "1111"}, format="json")
    assert late.status_code == 409 and error(late)["code"] == "check_in_closed"
    dropped = phone.post(f"/api/registrations/{ada.pk}/drop/", {"pin": "1111"}, format="json")
    assert dropped.json()["withdrawn"]
    again = phone.post(f"/api/registrations/{ada.pk}/drop/", {"pin": "1111"}, format="json")
    assert again.status_code == 409 and error(again)["code"] == "already_withdrawn"
