"""A season's dates lie within the dates a club may store (ginclub.inputs: 2000-01-01 to
2100-12-31), by the API, the form and the service alike; a season stored before the
bound (to 9999-12-31) still reads and leaves the club's other ladders refreshed
(issue 24, finding 4). The worked club of tests.tournaments.test_seasons."""

from __future__ import annotations

import datetime as dt
import importlib

import pytest
from django.apps import apps

from ginclub.errors import ServiceError
from tests.tournaments.helpers import actor
from tests.tournaments.test_seasons import client_for, new_season
from tests.tournaments.test_seasons import worked as worked  # noqa: F401 (a fixture)
from tournaments.models import Season, SeasonLadder
from tournaments.services import season_ladders
from tournaments.services import seasons as services

pytestmark = pytest.mark.django_db

FAR = dt.date(9999, 12, 31)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"starts_on": "9999-01-01", "ends_on": "9999-12-31"}, "ends_on"),
        ({"starts_on": "0001-01-01", "ends_on": "0001-12-31"}, "starts_on"),
        ({"ends_on": "2101-01-01"}, "ends_on"),
    ],
)
def test_the_api_refuses_a_season_day_outside_2000_to_2100(club, organiser, body, field):
    payload = {"name": "Forever", "starts_on": "2026-09-01", "ends_on": "2026-11-30", **body}
    response = client_for(organiser).post(
        "/api/clubs/gin-club/seasons/", payload, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert "2000-01-01 to 2100-12-31" in str(error["fields"][field])
    assert not Season.objects.exists()


def test_the_api_refuses_moving_a_season_to_9999(club, organiser):
    season = new_season(club, organiser)
    response = client_for(organiser).patch(
        f"/api/clubs/gin-club/seasons/{season.slug}/",
        {"starts_on": "9999-01-01", "ends_on": "9999-12-31"},
        content_type="application/json",
    )
    assert response.status_code == 400, response.content
    assert set(response.json()["error"]["fields"]) == {"starts_on", "ends_on"}
    season.refresh_from_db()
    assert season.ends_on == dt.date(2026, 11, 30)


def test_the_season_form_refuses_a_last_day_in_9999(club, organiser):
    response = client_for(organiser).post(
        "/clubs/gin-club/seasons/new/",
        {
            "name": "Forever",
            "starts_on": "2026-09-01",
            "ends_on": "9999-12-31",
            "events": "all",
            "points_per_win": "1",
            "min_matches": "0",
        },
    )
    assert response.status_code == 400
    assert "Enter a date from 2000-01-01 to 2100-12-31." in response.content.decode()
    assert not Season.objects.exists()


@pytest.mark.parametrize(
    ("dates", "field"),
    [
        ({"ends_on": FAR}, "ends_on"),
        ({"starts_on": dt.date(1, 1, 1)}, "starts_on"),
    ],
)
def test_the_service_refuses_a_season_day_outside_the_range(club, organiser, dates, field):
    with pytest.raises(ServiceError) as refused:
        new_season(club, organiser, **dates)
    assert refused.value.fields[field] == "a date from 2000-01-01 to 2100-12-31"
    season = new_season(club, organiser)
    with pytest.raises(ServiceError):
        services.update_season(season_id=season.pk, actor=actor(organiser), **dates)
    assert Season.objects.get().ends_on == dt.date(2026, 11, 30)


def test_a_season_stored_to_9999_still_shows_its_ladder_page_csv_and_api(club, organiser, worked):
    season = new_season(club, organiser, starts_on=dt.date(2026, 1, 1), public=True)
    Season.objects.filter(pk=season.pk).update(ends_on=FAR)  # stored before the bound
    client = client_for(organiser)
    for address in (
        f"/clubs/gin-club/seasons/{season.slug}/",
        f"/clubs/gin-club/seasons/{season.slug}/ladder.csv",
        f"/api/clubs/gin-club/seasons/{season.slug}/ladder/",
    ):
        response = client.get(address)
        assert response.status_code == 200, address
    rows = client.get(f"/api/clubs/gin-club/seasons/{season.slug}/ladder/").json()["rows"]
    assert [r["name"] for r in rows] == ["Ada", "Dev", "Ben", "Cleo"]  # every match counted


def test_a_season_stored_to_9999_leaves_the_clubs_other_ladders_refreshed(club, organiser, worked):
    far = new_season(club, organiser, name="Forever")
    Season.objects.filter(pk=far.pk).update(ends_on=FAR)
    later = new_season(club, organiser, name="Autumn")
    SeasonLadder.objects.all().delete()
    assert season_ladders.refresh_ladders.call([far.pk, later.pk]) == 2
    assert set(SeasonLadder.objects.values_list("season_id", flat=True)) == {far.pk, later.pk}


def test_a_ladder_that_fails_to_store_does_not_stop_the_next_seasons(club, organiser, monkeypatch):
    broken = new_season(club, organiser, name="Broken")
    later = new_season(club, organiser, name="Autumn")
    SeasonLadder.objects.all().delete()
    store = season_ladders.store_ladder

    def store_or_fail(*, season_id: int) -> bool:
        if season_id == broken.pk:
            raise OverflowError("date value out of range")
        return store(season_id=season_id)

    monkeypatch.setattr(season_ladders, "store_ladder", store_or_fail)
    assert season_ladders.refresh_ladders.call([broken.pk, later.pk]) == 1
    assert list(SeasonLadder.objects.values_list("season_id", flat=True)) == [later.pk]


def test_the_migration_brings_stored_season_days_into_the_range(club, organiser):
    season = new_season(club, organiser)
    Season.objects.filter(pk=season.pk).update(starts_on=dt.date(1, 1, 1), ends_on=FAR)
    migration = importlib.import_module("tournaments.migrations.0014_season_dates_in_range")
    migration.clamp_dates(apps, None)
    season.refresh_from_db()
    assert (season.starts_on, season.ends_on) == (dt.date(2000, 1, 1), dt.date(2100, 12, 31))
