"""An organiser's withdrawal is asked twice and says why: a walk found it one tap with no
reason, where corrections, penalties and a time call undone take one for the audit trail.
The reason is the ledger row's, as theirs is."""

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
    return new_event(club, organiser, players=["Ada", "Ben", "Cleo", "Dev"])


def withdrawals(event) -> list[LedgerRow]:
    return list(LedgerRow.objects.filter(chain=event.chain, action="player_withdrawn"))


@pytest.mark.parametrize("reason", ["", "   "])
def test_the_service_refuses_a_withdrawal_without_a_reason(event, organiser, reason):
    with pytest.raises(ServiceError) as refused:
        services.withdraw_registration(
            registration_id=reg(event, "Dev").pk, actor=actor(organiser), reason=reason
        )
    assert refused.value.code == "reason_required"
    assert refused.value.message == "Say why Dev is withdrawn."
    assert not reg(event, "Dev").withdrawn and not withdrawals(event)


def test_the_players_row_asks_to_confirm_and_for_a_reason(client, organiser, event):
    client.force_login(organiser)
    dev = reg(event, "Dev")
    page = " ".join(
        client.get(f"/tournaments/{event.slug}/manage/players/").content.decode().split()
    )
    row = re.search(rf'<li id="reg-{dev.pk}".*?</li>', page).group(0)
    # a step before the button that withdraws (a <details>: no JavaScript needed)
    asked = re.search(r"<details class=\"confirm\">(.*?)</details>", row).group(1)
    assert "Withdraw Dev…</summary>" in asked and "Yes, withdraw Dev</button>" in asked
    assert re.search(r'<input name="reason" required', asked)
    assert "Withdraw Dev</button>" not in row


def test_a_withdrawal_posted_without_a_reason_is_refused_and_with_one_is_on_the_ledger(
    client, organiser, event
):
    client.force_login(organiser)
    dev = reg(event, "Dev")
    path = f"/tournaments/{event.slug}/manage/players/{dev.pk}/withdraw/"
    assert client.post(path, {"reason": " "}).status_code == 400
    assert not reg(event, "Dev").withdrawn and not withdrawals(event)
    assert client.post(path, {"reason": "  went home ill "}).status_code == 302
    assert reg(event, "Dev").withdrawn
    assert [row.reason for row in withdrawals(event)] == ["went home ill"]
    ledger = client.get(f"/tournaments/{event.slug}/manage/corrections/").content.decode()
    assert "<q>went home ill</q>" in ledger


def test_the_api_withdrawal_needs_a_reason(organiser, event):
    api = APIClient()
    api.force_authenticate(organiser)
    path = f"/api/registrations/{reg(event, 'Dev').pk}/withdraw/"
    for body in ({}, {"reason": ""}, {"reason": "   "}):
        refused = api.post(path, body, format="json")
        assert refused.status_code == 400, body
        assert "reason" in refused.json()["error"]["fields"], body
    assert not reg(event, "Dev").withdrawn and not withdrawals(event)
    assert api.post(path, {"reason": "flu"}, format="json").json()["withdrawn"]
    assert [row.reason for row in withdrawals(event)] == ["flu"]


def test_the_withdrawal_row_names_the_player_not_the_registration_number(client, organiser, event):
    """The walk read 'registration 8' on the row: an internal number nobody sees
    elsewhere. The row names the player."""
    dev = reg(event, "Dev")
    services.withdraw_registration(registration_id=dev.pk, actor=actor(organiser), reason="ill")
    client.force_login(organiser)
    page = client.get(f"/tournaments/{event.slug}/manage/corrections/").content.decode()
    row = " ".join(re.sub(r"<[^>]+>", " ", page[page.index("Player withdrawn") :]).split())
    row = row[: row.index("ill") + 200]
    assert "player Dev" in row
    assert f"registration {dev.pk}" not in row
