"""Table access lasts as long as the link that gave it, and an organiser can withdraw a
match's links (and the access and seats that came from them)."""

from __future__ import annotations

import time

import pytest
from django.core import signing
from django.test import Client, RequestFactory

from ginclub import permissions
from ginclub.permissions import TABLE_SALT, TABLE_TOKEN_MAX_AGE, table_token
from scoring import services
from scoring.models import LedgerRow

pytestmark = pytest.mark.django_db


def open_link(client, token):
    return client.get(f"/t/{token}/")


def seat(client, match, player, pin="1234"):
    return client.post(f"/matches/{match.pk}/seat/", {"player": player.pk, "pin": pin})


def later(monkeypatch, seconds):
    now = time.time() + seconds
    monkeypatch.setattr("ginclub.permissions.time.time", lambda: now)


def test_access_and_seat_end_when_the_link_would_have_expired(match, alice, monkeypatch):
    client = Client()
    assert open_link(client, table_token(match)).status_code == 302
    assert seat(client, match, alice).status_code == 302
    assert b"Enter hand 1" in client.get(f"/matches/{match.pk}/").content
    # Not 14 days (the session's life): the link's day.
    later(monkeypatch, TABLE_TOKEN_MAX_AGE + 60)
    assert client.get(f"/matches/{match.pk}/").status_code == 403
    request = RequestFactory().get("/")
    request.session = client.session
    actor = permissions.actor_of(request)
    assert actor.tables == frozenset() and actor.seats == {}


def test_the_grant_keeps_the_links_own_expiry_not_a_fresh_day(match, monkeypatch):
    signed_at = time.time() - (TABLE_TOKEN_MAX_AGE - 600)  # a card printed 23 h 50 min ago
    monkeypatch.setattr("django.core.signing.time.time", lambda: signed_at)
    token = table_token(match)
    monkeypatch.undo()
    client = Client()
    assert open_link(client, token).status_code == 302
    assert client.get(f"/matches/{match.pk}/").status_code == 200
    later(monkeypatch, 660)
    assert client.get(f"/matches/{match.pk}/").status_code == 403


def test_a_grant_kept_the_old_way_without_expiry_counts_for_nothing(match):
    client = Client()
    session = client.session
    session["tables"] = [match.pk]
    session.save()
    assert client.get(f"/matches/{match.pk}/").status_code == 403


def test_links_made_before_generations_still_open_until_revoked(match, organiser):
    old_style = signing.TimestampSigner(salt=TABLE_SALT).sign(str(match.pk))
    assert open_link(Client(), old_style).status_code == 302
    services.revoke_table_links(match_id=match.pk, actor=services.Actor(user=organiser))
    refused = open_link(Client(), old_style)
    assert refused.status_code == 403 and b"withdrawn by the organiser" in refused.content


def test_revoking_withdraws_old_links_old_grants_and_seats(match, alice, organiser):
    old_token = table_token(match)
    phone = Client()
    open_link(phone, old_token)
    seat(phone, match, alice)

    org = Client()
    org.force_login(organiser, backend="ginclub.sessions.ModelBackend")
    page = org.get(f"/matches/{match.pk}/").content.decode()
    assert "Revoke table links" in page
    assert org.post(f"/matches/{match.pk}/revoke-links/").status_code == 302
    match.refresh_from_db()
    assert match.link_generation == 1
    row = LedgerRow.objects.filter(chain=f"match:{match.pk}").latest("position")
    assert row.action == "table_links_revoked" and row.after == {"link_generation": 1}

    assert phone.get(f"/matches/{match.pk}/").status_code == 403  # grant and seat gone
    assert phone.post(f"/matches/{match.pk}/scoreboard/").status_code in (403, 405)
    refused = open_link(Client(), old_token)
    assert refused.status_code == 403 and b"withdrawn" in refused.content

    fresh = Client()
    assert open_link(fresh, table_token(match)).status_code == 302
    assert seat(fresh, match, alice).status_code == 302


def test_only_organisers_revoke(match, alice):
    player = Client()
    player.force_login(alice.user, backend="ginclub.sessions.ModelBackend")
    assert player.post(f"/matches/{match.pk}/revoke-links/").status_code == 403
    match.refresh_from_db()
    assert match.link_generation == 0


@pytest.mark.parametrize(
    "language, first, withdrawn",
    [
        ("en-gb", "the first, as printed", "withdrawn (new links made)"),
        ("it", "i primi, come stampati", "revocati (creati link nuovi)"),
    ],
)
def test_the_ledger_says_links_withdrawn_in_words_not_a_generation(
    match, organiser, language, first, withdrawn
):
    """A walk read "link generation 0 → 1" on the ledger of a table whose links an
    organiser had withdrawn."""
    for _ in range(2):
        services.revoke_table_links(match_id=match.pk, actor=services.Actor(user=organiser))
    desk = Client(HTTP_ACCEPT_LANGUAGE=language)
    desk.force_login(organiser, backend="ginclub.sessions.ModelBackend")
    page = " ".join(desk.get(f"/matches/{match.pk}/ledger/").content.decode().split())
    assert "generation" not in page and "generazione" not in page
    assert f"<td>{first}</td><td>{withdrawn}</td>" in page
    twice = "withdrawn 2 times" if language == "en-gb" else "revocati 2 volte"
    assert f"<td>{withdrawn}</td><td>{twice}" in page
