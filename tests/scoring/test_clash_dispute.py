"""A clash disputed (two phones saved other figures for one hand, the second says "Mine
is right: dispute"): the figures the disputer claims are kept as figures with the
dispute, not as a sentence in the disputer's language, and every reader reads them in
their own; the reason box is the disputer's own words, never prefilled."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from ginclub.errors import ServiceError
from scoring import services
from scoring.hand_input import describe_differences
from scoring.models import Hand, LedgerRow
from tests.scoring.helpers import as_player, key, quick, seated_phone, submit

pytestmark = pytest.mark.django_db

IT = {"HTTP_ACCEPT_LANGUAGE": "it"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
# Bob's phone: the same hand as Alice's, but Alice's deadwood 5 where she saved 2
BOBS_FORM = {
    "game": "1",
    "number": "1",
    "idempotency_key": "bob-1",
    "mode": "quick",
    "outcome": "knock",
    "knocker": "A",
    "knocker_deadwood": "5",
    "defender_deadwood": "30",
}
DISPUTE_FORM = re.compile(r'<form[^>]*action="(/hands/\d+/dispute/)"[^>]*>(.*?)</form>', re.S)


def post(client: Client, url: str, data: dict):
    return client.post(url, data, headers={"X-CSRFToken": client.cookies["csrftoken"].value})


def clash(match, bob) -> tuple[Client, str, str]:
    """Alice saved hand 1 (deadwood 2 v 30); Bob's phone saves 5 v 30 and is shown the
    clash: his client, the dispute form's address and its inside."""
    submit(match, match.player_a, quick(kd=2, dd=30))
    phone = seated_phone(match, bob, **EN)
    page = post(phone, f"/matches/{match.pk}/hands/compare/", BOBS_FORM).content.decode()
    url, form = DISPUTE_FORM.search(page).groups()
    return phone, url, form


def fields_of(form: str) -> list[tuple[str, str]]:
    """What the form sends as it stands (each input's name and value)."""
    found = []
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]*)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name:
            found.append((name.group(1), html.unescape(value.group(1)) if value else ""))
    return found


def test_the_clash_leaves_the_reason_box_to_the_disputer_and_sends_the_figures(match, bob):
    _phone, _url, form = clash(match, bob)
    sent = fields_of(form)
    assert ("reason", "") in sent  # the box is empty, for the player's own words
    assert "entered other figures" not in form
    assert ("claim-knocker_deadwood", "5") in sent and ("claim-defender_deadwood", "30") in sent
    assert ("claim-outcome", "knock") in sent and ("claim-knocker", "A") in sent


def test_a_clash_disputed_keeps_the_claimed_figures_as_figures(match, bob):
    phone, url, form = clash(match, bob)
    response = post(phone, url, dict(fields_of(form)))
    assert response.status_code in (200, 302), response.content[:300]
    hand = Hand.objects.get(game__match=match)
    assert hand.state == Hand.State.DISPUTED
    row = LedgerRow.objects.get(action="hand_disputed")
    assert row.reason == ""
    assert row.after["differences"] == {"knocker_deadwood": [2, 5], "points": [28, 25]}


def test_an_italian_reader_reads_the_clash_disputes_figures_in_italian(match, alice, bob):
    phone, url, form = clash(match, bob)
    post(phone, url, {**dict(fields_of(form)), "reason": "ho contato due volte"})
    page = seated_phone(match, alice, **IT).get(f"/matches/{match.pk}/").content.decode()
    said = html.unescape(page)
    assert "deadwood di chi bussa: 2 (Alice) contro 5 (Bob)" in said
    assert "«ho contato due volte»" in said  # the disputer's words, as written
    assert "entered other figures" not in said and "knocker's deadwood" not in said
    english = phone.get(f"/matches/{match.pk}/").content.decode()
    assert "knocker&#x27;s deadwood: 2 (Alice) vs 5 (Bob)" in english


def test_the_ledger_page_names_the_disputed_figures_in_the_readers_language(match, bob, organiser):
    phone, url, form = clash(match, bob)
    post(phone, url, dict(fields_of(form)))
    admin = Client(**IT)
    admin.force_login(organiser)
    page = html.unescape(admin.get(f"/matches/{match.pk}/ledger/").content.decode())
    assert "valori contestati" in page
    assert "deadwood di chi bussa: 2 contro 5" in page
    assert "differences" not in page


def test_a_dispute_needs_words_only_when_its_figures_say_nothing(match, alice, bob):
    hand = submit(match, alice, quick(kd=2, dd=30)).hand
    with pytest.raises(ServiceError) as caught:
        services.dispute_hand(
            hand_id=hand.pk,
            actor=as_player(bob),
            version=1,
            reason="",
            claim=quick(kd=2, dd=30),  # the same figures: nothing said
            idempotency_key=key(),
        )
    assert caught.value.code == "reason_required"
    outcome = services.dispute_hand(
        hand_id=hand.pk,
        actor=as_player(bob),
        version=1,
        reason="",
        claim=quick(kd=2, dd=25),
        idempotency_key=key(),
    )
    assert outcome.response["differences"] == {"defender_deadwood": [30, 25], "points": [28, 23]}


def test_the_api_takes_a_disputes_claim_and_answers_its_differences(match, alice, bob, organiser):
    hand = submit(match, alice, quick(kd=2, dd=30)).hand
    api = APIClient()
    api.force_authenticate(bob.user)
    claim = {"outcome": "knock", "knocker": "A", "knocker_deadwood": 5, "defender_deadwood": 30}
    body = {"version": 1, "idempotency_key": key(), "claim": claim}
    response = api.post(f"/api/hands/{hand.pk}/dispute/", body, format="json")
    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["hand"]["state"] == "disputed"
    assert answer["differences"] == {"knocker_deadwood": [2, 5], "points": [28, 25]}
    api.force_authenticate(organiser)
    rows = api.get(f"/api/matches/{match.pk}/ledger/").json()
    row = next(r for r in rows if r["action"] == "hand_disputed")
    assert row["reason"] == "" and row["after"]["differences"] == answer["differences"]


def test_the_figures_in_dispute_are_said_in_the_hands_order_whatever_order_they_were_kept():
    """PostgreSQL's jsonb gives a ledger row's keys back in an order of its own ('points'
    before 'knocker_deadwood'): CI's PostgreSQL leg read 'points: … ; knocker's deadwood:
    …' where SQLite read the reverse. The words follow the hand's fields."""
    kept = {"points": [28, 25], "knocker_deadwood": [2, 5]}
    assert describe_differences(kept) == describe_differences(dict(reversed(kept.items())))
    assert describe_differences(kept).startswith("knocker's deadwood: 2 vs 5; points")
