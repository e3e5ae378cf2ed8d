"""Reinstating a withdrawn player asks first and says why, as withdrawing does: a walk
found it one tap ('Reinstate', the reason optional) with nothing on the ledger to say
why the player was back. The reason is the 'Player reinstated' row's."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from ginclub.errors import ServiceError
from scoring.models import LedgerRow
from tests.tournaments.helpers import actor, new_event, reg
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(club, organiser):
    event = new_event(club, organiser, players=["Ada", "Ben", "Cleo", "Dev"])
    services.withdraw_registration(
        registration_id=reg(event, "Ada").pk, actor=actor(organiser), reason="went home ill"
    )
    return event


def reinstatements(event) -> list[LedgerRow]:
    return list(LedgerRow.objects.filter(chain=event.chain, action="player_reinstated"))


@pytest.mark.parametrize("reason", ["", "   "])
def test_the_service_refuses_a_reinstatement_without_a_reason(event, organiser, reason):
    with pytest.raises(ServiceError) as refused:
        services.reinstate_registration(
            registration_id=reg(event, "Ada").pk, actor=actor(organiser), reason=reason
        )
    assert refused.value.code == "reason_required"
    assert refused.value.message == "Say why Ada is back."
    assert reg(event, "Ada").withdrawn and not reinstatements(event)


def test_the_players_row_asks_to_confirm_and_for_a_reason(client, organiser, event):
    client.force_login(organiser)
    ada = reg(event, "Ada")
    page = " ".join(
        client.get(f"/tournaments/{event.slug}/manage/players/").content.decode().split()
    )
    row = re.search(rf'<li id="reg-{ada.pk}".*?</li>', page).group(0)
    # a step before the button that reinstates (a <details>: no JavaScript needed)
    asked = re.search(r"<details class=\"confirm\">(.*?)</details>", row).group(1)
    assert "Reinstate Ada…</summary>" in asked and "Yes, reinstate Ada</button>" in asked
    assert re.search(r'<input name="reason" required', asked)
    assert "Reinstate</button>" not in row


def test_a_reinstatement_posted_without_a_reason_is_refused_and_with_one_is_on_the_ledger(
    client, organiser, event
):
    client.force_login(organiser)
    ada = reg(event, "Ada")
    path = f"/tournaments/{event.slug}/manage/players/{ada.pk}/reinstate/"
    refused = client.post(path, {"reason": " "})
    assert refused.status_code == 400
    assert "Say why Ada is back." in refused.content.decode()
    assert reg(event, "Ada").withdrawn and not reinstatements(event)
    assert client.post(path, {"reason": "  felt better after lunch "}).status_code == 302
    assert not reg(event, "Ada").withdrawn
    assert [row.reason for row in reinstatements(event)] == ["felt better after lunch"]
    ledger = client.get(f"/tournaments/{event.slug}/manage/corrections/").content.decode()
    assert "<q>felt better after lunch</q>" in ledger


def test_the_api_reinstatement_needs_a_reason(organiser, event):
    api = APIClient()
    api.force_authenticate(organiser)
    path = f"/api/registrations/{reg(event, 'Ada').pk}/reinstate/"
    for body in ({}, {"reason": ""}, {"reason": "   "}):
        refused = api.post(path, body, format="json")
        assert refused.status_code == 400, body
        assert "reason" in refused.json()["error"]["fields"], body
    assert reg(event, "Ada").withdrawn and not reinstatements(event)
    assert not api.post(path, {"reason": "back from the doctor"}, format="json").json()["withdrawn"]
    assert [row.reason for row in reinstatements(event)] == ["back from the doctor"]
