"""The shared core: one family of refusals, read one way, answered in one place each for
pages and the API, whatever raised them (a service, the rules engine, pairing, Django)."""

from __future__ import annotations

import pytest
from django.http import Http404
from django.test import Client

from ginclub.errors import Conflict, ServiceError, Throttled, refusal_of
from ginclub.middleware import refusal_response
from scoring.rules import RulesError
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.pairing import PairingError


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (Conflict("stale_version", "Hand 3 has changed."), ("stale_version", 409, None)),
        (
            ServiceError("reason_required", "Say why.", fields={"reason": ["required"]}),
            ("reason_required", 400, {"reason": "required"}),
        ),
        (
            RulesError("duplicate_card", "7H appears twice", field="cards_a"),
            ("duplicate_card", 400, {"cards_a": "7H appears twice"}),
        ),
        (
            PairingError("too_few_players", "Two players are needed."),
            ("too_few_players", 400, None),
        ),
        (Http404("No such tournament."), ("not_found", 404, None)),
    ],
)
def test_every_kind_of_user_error_reads_as_a_refusal(error, expected):
    refusal = refusal_of(error)
    assert (refusal.code, refusal.status, refusal.fields) == expected
    assert refusal.message


def test_every_429_says_when_to_ask_again_as_page_htmx_partial_and_json(rf):
    """RFC 6585: a 429 may say how long to wait; ours always do (Retry-After, whole
    seconds, at least one), whichever way the refusal is answered."""
    with pytest.raises(TypeError):
        Throttled("pin_locked", "Too many.")  # a 429 that does not say when: refused
    refusal = refusal_of(Throttled("pin_locked", "Too many.", retry_after=299.2))
    assert (refusal.status, refusal.retry_after) == (429, 300)
    assert refusal_of(Throttled("x", "Too many.", retry_after=0.01)).retry_after == 1
    for request in (rf.get("/clubs/"), rf.get("/clubs/", HTTP_HX_REQUEST="true"), rf.get("/api/")):
        request.htmx = request.headers.get("HX-Request") == "true"
        answer = refusal_response(request, refusal)
        assert (answer.status_code, answer["Retry-After"]) == (429, "300")
    assert not refusal_response(rf.get("/api/"), refusal_of(Conflict("c", "m"))).has_header(
        "Retry-After"
    )


def test_a_bug_is_not_a_refusal():
    assert refusal_of(TypeError("unexpected keyword")) is None


def test_a_refusal_page_says_the_message_and_never_a_field_name(rf):
    """Issue 23, trap 3: "games_b: at least 2" under the message. The fields mark the
    inputs (data-fields) for the page's script; people read the message alone."""
    from django.template.loader import render_to_string

    refusal = refusal_of(
        ServiceError(
            "invalid",
            "Cleo cannot win the match with fewer games (1) than Ada (2).",
            fields={"games_b": "at least 2"},
        )
    )
    html = render_to_string("core/_refusal.html", {"refusal": refusal})
    assert 'data-fields="games_b"' in html
    text = html.split(">", 1)[1]  # what is shown, after the element's attributes
    assert "games_b" not in text and "at least 2" not in text
    assert "Cleo cannot win the match with fewer games (1) than Ada (2)." in text


@pytest.mark.django_db
def test_an_address_nothing_answers_is_a_page_for_people_and_json_for_the_api(client):
    page = client.get("/no/such/page/")
    assert page.status_code == 404 and b'data-code="not_found"' in page.content
    api = client.get("/api/no-such-endpoint/")
    assert api.status_code == 404 and api.json()["error"]["code"] == "not_found"


@pytest.mark.django_db
def test_an_expired_form_token_is_explained_not_a_bare_403():
    client = Client(enforce_csrf_checks=True)
    response = client.post("/accounts/login/", {"username": "x", "password": "y"})
    assert response.status_code == 403
    assert b'data-code="csrf_failed"' in response.content
    assert b"Reload the page and try again." in response.content


@pytest.mark.django_db
def test_an_htmx_refusal_keeps_the_address_bar_where_it_was(client):
    organiser = UserFactory()
    club = ClubFactory()
    club.organisers.add(organiser)
    PlayerFactory(club=club, name="Ada")
    client.force_login(organiser)
    response = client.post(
        f"/clubs/{club.slug}/players/new/", {"name": "ada"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 400
    assert response["X-Refusal"] == "duplicate_player"
    assert response["HX-Push-Url"] == "false"
    assert b"already has a player called ada" in response.content


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "6.6.6.6", "10.0.0.1"),  # no proxy of ours: the header is the client's word
        (1, "6.6.6.6, 203.0.113.9", "203.0.113.9"),  # what our proxy saw, not the forgery
        (2, "203.0.113.9, 10.0.0.7", "203.0.113.9"),
        (2, "", "10.0.0.1"),  # fewer hops than proxies: the direct address
    ],
)
def test_the_client_address_is_read_from_our_proxies_only(
    settings, rf, proxies, forwarded, expected
):
    from ginclub.permissions import client_ip

    settings.TRUSTED_PROXIES = proxies
    request = rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected


@pytest.mark.django_db
def test_behind_a_proxy_failed_logins_lock_the_guesser_not_the_organiser(settings, client):
    settings.TRUSTED_PROXIES = 1
    UserFactory(username="organiser")
    for _ in range(6):
        client.post(
            "/accounts/login/",
            {"username": "organiser", "password": "wrong"},
            REMOTE_ADDR="10.0.0.1",
            HTTP_X_FORWARDED_FOR="198.51.100.66",
        )
    response = client.post(
        "/accounts/login/",
        {"username": "organiser", "password": "correct-horse-battery"},
        REMOTE_ADDR="10.0.0.1",
        HTTP_X_FORWARDED_FOR="203.0.113.9",
    )
    assert response.status_code == 302 and "_auth_user_id" in client.session


def test_the_browsers_favicon_request_finds_the_icon(client):
    """Browsers ask for /favicon.ico whatever the page links (issue 9: it was a 404)."""
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].startswith("/static/favicon")
    page = client.get("/accounts/login/").content.decode()
    assert 'rel="icon"' in page and 'rel="apple-touch-icon"' in page
