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

from tests.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import actor, new_event
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
