"""What a tournament or a season stores is bounded (issue 24, finding 5): its date lies
from 2000-01-01 to 2100-12-31 and its names (the tournament's, its venue, a season's)
hold no control characters, refused alike by the API, the pages and the services, with
the field named and nothing written (ginclub.inputs declares both bounds)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from rest_framework.test import APIClient

from ginclub.errors import ServiceError
from tests.tournaments.helpers import actor
from tournaments import services
from tournaments.models import Season, Tournament
from tournaments.services import seasons

pytestmark = pytest.mark.django_db

ESCAPED = "A\u001b[31mB\u0007"
FORM = {
    "name": "Winter Open",
    "date": "2026-12-05",
    "profile": "tournament",
    "format": "swiss",
    "rounds": 3,
    "cut_size": 0,
    "round_minutes": 40,
    "bye_games": 1,
    "bye_points": 0,
    "agreement": "confirm",
    "hide_last_rounds": 0,
}


@pytest.fixture
def api(organiser) -> APIClient:
    client = APIClient()
    client.force_authenticate(organiser)
    return client


@pytest.fixture
def org(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


@pytest.mark.parametrize("date", ["0001-01-01", "9999-12-31", "1999-12-31", "2101-01-01"])
def test_the_api_refuses_a_tournament_date_outside_2000_to_2100(api, club, date):
    response = api.post(
        "/api/tournaments/", {"club": club.slug, "name": "X", "date": date}, format="json"
    )
    assert response.status_code == 400, response.content
    assert "2000-01-01 to 2100-12-31" in str(response.json()["error"]["fields"]["date"])
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "char"),
    [
        ("name", ESCAPED, "U+001B"),
        ("venue", "Hall\u202e", "U+202E"),
        ("name", "Two\nlines", "U+000A"),
    ],
)
def test_the_api_refuses_a_tournament_name_or_venue_with_control_characters(
    api, club, field, value, char
):
    body = {"club": club.slug, "name": "Spring Cup", "date": "2027-03-01", field: value}
    response = api.post("/api/tournaments/", body, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert error["fields"] == {field: f"must not hold control characters ({char})"}
    assert not Tournament.objects.exists()


def test_the_tournament_form_refuses_a_date_in_year_one_and_a_name_with_escapes(org, club):
    response = org.post("/tournaments/new/", {**FORM, "club": club.slug, "date": "0001-01-01"})
    assert response.status_code == 400
    assert "Enter a date from 2000-01-01 to 2100-12-31." in response.content.decode()
    response = org.post("/tournaments/new/", {**FORM, "club": club.slug, "name": ESCAPED})
    assert response.status_code == 400
    assert "must not hold control characters (U+001B)" in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_service_refuses_moving_a_tournament_to_9999(club, organiser):
    event = services.create_tournament(
        club=club, actor=actor(organiser), name="Cup", date=dt.date(2026, 12, 1)
    )
    with pytest.raises(ServiceError) as refused:
        services.update_tournament(
            tournament_id=event.pk, actor=actor(organiser), date=dt.date(9999, 12, 31)
        )
    assert refused.value.fields == {"date": "a date from 2000-01-01 to 2100-12-31"}
    event.refresh_from_db()
    assert event.date == dt.date(2026, 12, 1)


def test_a_season_name_with_control_characters_is_refused_by_api_and_service(api, club, organiser):
    response = api.post(
        "/api/clubs/gin-club/seasons/",
        {"name": ESCAPED, "starts_on": "2026-09-01", "ends_on": "2026-11-30"},
        format="json",
    )
    assert response.status_code == 400, response.content
    assert response.json()["error"]["fields"] == {
        "name": "must not hold control characters (U+001B)"
    }
    with pytest.raises(ServiceError):
        seasons.create_season(
            club=club,
            actor=actor(organiser),
            name="Bell\u0007",
            starts_on=dt.date(2026, 9, 1),
            ends_on=dt.date(2026, 11, 30),
        )
    assert not Season.objects.exists()
