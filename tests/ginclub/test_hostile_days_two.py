"""Hostile days, round two (issue 24, finding 9): who asks is checked before the body is
read, the language cookie is as guarded as the session's, a body of countless fields is
the site's refusal, the health check never answers a page, file addresses refuse junk
parameters, and inputs are as strict as the schema says."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import OperationalError
from django.test import Client, override_settings
from rest_framework.test import APIClient

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.scoring.helpers import key, start
from tests.tournaments.helpers import actor, new_event, reg
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(db):
    return ClubFactory(name="Gin Club", slug="gin-club")


@pytest.fixture
def organiser(club):
    user = UserFactory(username="org")
    club.organisers.add(user)
    return user


@pytest.fixture
def event(club, organiser):
    """A public tournament with round 1 published."""
    tournament = new_event(club, organiser)
    rnd = services.draft_round(tournament_id=tournament.pk, actor=actor(organiser))
    services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    return tournament


def api_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def refusal(response, status, code):
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["code"] == code and error["message"], error
    return error


# ------------------------------------------------------------ permission first


@pytest.mark.parametrize("action", ["swap", "fix", "undo-time-call", "timer", "time-policy"])
def test_a_stranger_posting_junk_to_a_round_action_is_refused_before_the_body_is_read(
    event, action
):
    rnd = event.round_set.get()
    stranger = api_for(UserFactory())
    response = stranger.post(f"/api/rounds/{rnd.pk}/{action}/", {"junk": 1}, format="json")
    error = refusal(response, 403, "not_allowed")
    assert "fields" not in error and "junk" not in response.content.decode()


def test_a_stranger_posting_junk_to_a_table_or_registration_is_refused_first(event):
    pairing = event.round_set.get().pairings.exclude(match=None).first()
    stranger = api_for(UserFactory())
    for url in [
        f"/api/pairings/{pairing.pk}/result/",
        f"/api/pairings/{pairing.pk}/extend/",
        f"/api/pairings/{pairing.pk}/result/clear/",
        f"/api/registrations/{reg(event, 'P01').pk}/check-in/",
        f"/api/tournaments/{event.slug}/registrations/",
    ]:
        response = stranger.post(url, {"junk": 1}, format="json")
        assert response.status_code == 403, (url, response.content)
        assert "fields" not in response.json()["error"], url


@pytest.mark.parametrize(
    ("path", "body"),
    [("adjust/swap/", {"swap-first": "x"}), ("undo-time-call/", {}), ("timer/", {"minutes": "x"})],
)
def test_round_pages_refuse_a_stranger_before_the_form(client, event, path, body):
    client.force_login(UserFactory())
    response = client.post(f"/tournaments/{event.slug}/manage/rounds/1/{path}", body)
    assert response.status_code == 403
    assert "minutes" not in response.content.decode()


# ----------------------------------------------------------------- the cookie


def test_the_language_cookie_is_secure_and_kept_from_scripts(client):
    response = client.post("/i18n/setlang/", {"language": "it", "next": "/"})
    cookie = response.cookies["django_language"]
    assert cookie.value == "it"
    assert cookie["secure"] and cookie["httponly"] and cookie["samesite"] == "Lax"


# ------------------------------------------------------------ too many fields


def test_a_page_form_of_too_many_fields_is_the_sites_refusal_page(club, organiser):
    # The CSRF check reads the form before any view: that is where Django refuses it.
    client = Client(raise_request_exception=False, enforce_csrf_checks=True)
    client.force_login(organiser)
    client.cookies["csrftoken"] = "a" * 32
    body = "&".join(f"f{n}=1" for n in range(50))
    with override_settings(DATA_UPLOAD_MAX_NUMBER_FIELDS=20):
        page = client.post(
            "/clubs/gin-club/players/new/", body, content_type="application/x-www-form-urlencoded"
        )
        htmx = client.post(
            "/clubs/gin-club/players/new/",
            body,
            content_type="application/x-www-form-urlencoded",
            HTTP_HX_REQUEST="true",
        )
    assert page.status_code == 400
    text = page.content.decode()
    assert "more than 20 fields" in text and "<html" in text and "Bad Request" not in text
    assert htmx.status_code == 400 and htmx["X-Refusal"] == "too_many_fields"


def test_a_bad_host_header_is_the_refusal_page_not_a_500():
    client = Client(raise_request_exception=False)
    page = client.get("/", HTTP_HOST="evil.example", HTTP_REFERER="http://evil.example/")
    api = client.get("/api/clubs/", HTTP_HOST="evil.example")
    assert page.status_code == 400 and "<html" in page.content.decode()
    assert refusal(api, 400, "bad_request")


# ---------------------------------------------------------------- health check


def test_the_health_check_answers_json_503_whatever_fails(client):
    with mock.patch(
        "django.db.backends.base.base.BaseDatabaseWrapper.ensure_connection",
        side_effect=OperationalError("could not connect to server"),
    ):
        down = client.get("/healthz")
    with mock.patch("ginclub.views.connection.cursor", side_effect=RuntimeError("bug")):
        broken = Client(raise_request_exception=False).get("/healthz")
    for response in (down, broken):
        assert response.status_code == 503 and response["Retry-After"] == "10"
        assert response["Content-Type"] == "application/json"
        assert response.json()["error"]["code"] == "unavailable"


def test_the_health_check_answers_json_when_a_middleware_meets_the_outage():
    from django.conf import settings

    position = settings.MIDDLEWARE.index("django.contrib.sessions.middleware.SessionMiddleware")
    middleware = list(settings.MIDDLEWARE)
    middleware.insert(position + 1, "tests.ginclub.test_robustness.TouchesTheDatabase")
    with (
        override_settings(MIDDLEWARE=middleware),
        mock.patch(
            "django.db.backends.base.base.BaseDatabaseWrapper.ensure_connection",
            side_effect=OperationalError("could not connect to server"),
        ),
    ):
        response = Client(raise_request_exception=False).get("/healthz")
    assert response.status_code == 503 and response["Content-Type"] == "application/json"


# ------------------------------------------------------- file addresses' params


def test_file_addresses_refuse_an_unknown_format(client, event, organiser):
    api = api_for(organiser)
    pairing = event.round_set.get().pairings.exclude(match=None).first()
    for url in [
        f"/api/pairings/{pairing.pk}/qr.svg?format=junk",
        f"/api/pairings/{pairing.pk}/qr.svg?format=json",
        f"/api/tournaments/{event.slug}/export/standings.csv?format=junk",
        f"/api/tournaments/{event.slug}/export/standings.csv?format=json",
    ]:
        assert refusal(api.get(url), 400, "invalid")["fields"].keys() == {"format"}, url
    assert api.get(f"/api/pairings/{pairing.pk}/qr.svg?format=svg").status_code == 200
    client.force_login(organiser)
    for url in [
        f"/matches/{pairing.match_id}/qr.svg?format=junk",
        f"/tournaments/{event.slug}/manage/export/standings.csv?format=junk",
    ]:
        response = client.get(url)
        assert response.status_code == 400 and "format" in response.content.decode(), url


@pytest.mark.parametrize("value", ["x", "0", "99", "1.5"])
def test_standings_csv_refuses_a_junk_round(client, event, organiser, value):
    api = api_for(organiser)
    response = api.get(f"/api/tournaments/{event.slug}/export/standings.csv?round={value}")
    assert refusal(response, 400, "invalid")["fields"].keys() == {"round"}
    client.force_login(organiser)
    page = client.get(f"/tournaments/{event.slug}/manage/export/standings.csv?round={value}")
    assert page.status_code == 400, page.content[:200]
    ok = client.get(f"/tournaments/{event.slug}/manage/export/standings.csv?round=1")
    assert ok.status_code == 200 and ok["Content-Type"].startswith("text/csv")


# --------------------------------------------------------------- strict inputs


def test_multipart_layoffs_that_are_not_cards_are_refused(club, organiser):
    match = start(
        club, PlayerFactory(club=club, name="A"), PlayerFactory(club=club, name="B"), organiser
    )
    body = {
        "game": 1,
        "number": 1,
        "outcome": "knock",
        "knocker": "A",
        "knocker_deadwood": 5,
        "defender_deadwood": 20,
        "idempotency_key": key(),
        "layoffs": "{}",
    }
    response = api_for(organiser).post(f"/api/matches/{match.pk}/hands/", body, format="multipart")
    assert "layoffs" in refusal(response, 400, "invalid")["fields"]


@pytest.mark.parametrize(
    ("body", "form"),
    [
        ({"checked_in": 0}, "json"),
        ({"checked_in": "0"}, "multipart"),
        ({"checked_in": "yes"}, "multipart"),
    ],
)
def test_checked_in_must_be_true_or_false(event, organiser, body, form):
    registration = reg(event, "P01")
    response = api_for(organiser).post(
        f"/api/registrations/{registration.pk}/check-in/", body, format=form
    )
    assert refusal(response, 400, "invalid")["fields"].keys() == {"checked_in"}


def test_checked_in_words_in_a_form_still_work(event, organiser):
    registration = reg(event, "P01")
    response = api_for(organiser).post(
        f"/api/registrations/{registration.pk}/check-in/",
        {"checked_in": "false"},
        format="multipart",
    )
    assert response.status_code == 200 and response.json()["checked_in"] is False


@pytest.mark.parametrize("minutes", ["5.0", 5.0, "5", True])
def test_junk_timer_bodies_are_refused(event, organiser, minutes):
    rnd = event.round_set.get()
    response = api_for(organiser).post(
        f"/api/rounds/{rnd.pk}/timer/", {"minutes": minutes}, format="json"
    )
    assert refusal(response, 400, "invalid")["fields"].keys() == {"minutes"}


def test_a_timer_in_a_form_body_takes_digits(event, organiser):
    rnd = event.round_set.get()
    response = api_for(organiser).post(
        f"/api/rounds/{rnd.pk}/timer/", {"minutes": "45"}, format="multipart"
    )
    assert response.status_code == 200, response.content
