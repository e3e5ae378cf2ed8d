"""The table pages without JavaScript: every form posts to a real action."""

from __future__ import annotations

import gzip
import re

import pytest
from django.test import Client

from ginclub.permissions import table_token
from scoring.models import Hand
from tests.scoring.helpers import key

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_client(match):
    client = Client()
    client.get(f"/t/{table_token(match)}/")
    return client


def seat(client, match, player, pin="1234"):
    return client.post(f"/matches/{match.pk}/seat/", {"player": player.pk, "pin": pin})


def test_table_link_opens_the_match_and_asks_who_is_playing(table_client, match):
    page = table_client.get(f"/matches/{match.pk}/")
    assert page.status_code == 200
    assert b"Who is this phone?" in page.content and b"Alice" in page.content


def test_wrong_pin_does_not_seat_the_phone(table_client, match, alice):
    response = seat(table_client, match, alice, pin="0000")
    assert response.status_code == 403 and b"Wrong PIN for Alice" in response.content
    page = table_client.get(f"/matches/{match.pk}/")
    assert b"Who is this phone?" in page.content


def test_quick_entry_without_javascript_then_confirm_on_the_same_phone(
    table_client, match, alice, bob
):
    seat(table_client, match, alice)
    page = table_client.get(f"/matches/{match.pk}/")
    assert b"Enter hand 1" in page.content
    response = table_client.post(
        f"/matches/{match.pk}/hands/",
        {
            "game": 1,
            "number": 1,
            "idempotency_key": key(),
            "mode": "quick",
            "outcome": "knock",
            "knocker": "A",
            "knocker_deadwood": 4,
            "defender_deadwood": 30,
        },
    )
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert (hand.state, hand.points) == ("pending", 26)
    page = table_client.get(f"/matches/{match.pk}/").content.decode()
    assert "Knock" in page and "Alice +26" in page
    table_client.post(
        f"/hands/{hand.pk}/confirm/",
        {"version": 1, "idempotency_key": key(), "player": bob.pk, "pin": "1234"},
    )
    hand.refresh_from_db()
    assert hand.state == "confirmed"


def test_form_error_is_shown_and_nothing_is_saved(table_client, match, alice):
    seat(table_client, match, alice)
    response = table_client.post(
        f"/matches/{match.pk}/hands/",
        {
            "game": 1,
            "number": 1,
            "idempotency_key": key(),
            "mode": "quick",
            "outcome": "knock",
            "knocker": "A",
            "knocker_deadwood": 15,
            "defender_deadwood": 30,
        },
    )
    assert response.status_code == 400
    assert "deadwood 15 is over the knock limit 10" in response.content.decode()
    assert Hand.objects.count() == 0


def test_htmx_submit_returns_the_hand_form_partial_and_an_event(table_client, match, alice):
    seat(table_client, match, alice)
    response = table_client.post(
        f"/matches/{match.pk}/hands/",
        {
            "game": 1,
            "number": 1,
            "idempotency_key": key(),
            "mode": "quick",
            "outcome": "gin",
            "knocker": "A",
            "knocker_deadwood": 0,
            "defender_deadwood": 30,
        },
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert response["HX-Trigger"] == "hand-recorded"
    assert response.content.decode().lstrip().startswith('<section id="hand-form"')
    assert "Enter hand 2" in response.content.decode()


def test_preview_shows_the_explanation(table_client, match, alice):
    seat(table_client, match, alice)
    response = table_client.post(
        f"/matches/{match.pk}/hands/preview/",
        {
            "game": 1,
            "number": 1,
            "idempotency_key": key(),
            "mode": "cards",
            "outcome": "knock",
            "knocker": "A",
            "knocker_cards": "5H 6H 7H 9C 9D 9S JS QS KS 2D".split(),
            "defender_cards": "8H 9H KD KC KH 3C 4C 5C AS 7D".split(),
        },
    )
    text = response.content.decode()
    assert "8 − 2 = 6" in text and "Laid off" in text
    assert Hand.objects.count() == 0


def test_match_page_is_light_and_loads_nothing_from_other_hosts(table_client, match, alice):
    seat(table_client, match, alice)
    html = table_client.get(f"/matches/{match.pk}/").content
    external = re.findall(rb'(?:src|href)="(https?://[^"]+)"', html)
    assert external == []
    assets = re.findall(rb'(?:src|href)="(/static/[^"]+)"', html)
    sizes = [len(gzip.compress(html))]
    for asset in assets:
        body = b"".join(table_client.get(asset.decode()).streaming_content)
        sizes.append(len(gzip.compress(body)))
    assert sum(sizes) <= 50 * 1024, sizes


def test_organiser_sees_the_ledger_page(client, organiser, match):
    client.force_login(organiser)
    page = client.get(f"/matches/{match.pk}/ledger/")
    assert page.status_code == 200 and b"Match started" in page.content


def test_table_qr_code_is_an_svg_for_organisers(client, organiser, match):
    client.force_login(organiser)
    response = client.get(f"/matches/{match.pk}/qr.svg")
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert b"<svg" in response.content
