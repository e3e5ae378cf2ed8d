"""Settings that fit their profile: every profile creates a tournament with nothing else
given, the follow-on settings (round length, bye games) take the profile's values unless
set, and changing the profile re-fits those not set by hand (docs/rules.md §10)."""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from scoring.rules.profiles import PROFILES
from tests.tournaments.helpers import actor
from tournaments import services
from tournaments.forms import TournamentForm
from tournaments.models import Tournament
from tournaments.rule_guide import suggested_round_minutes

pytestmark = pytest.mark.django_db


def fitted(profile: str) -> tuple[int, int]:
    """(round_minutes, bye_games) as the profile suggests them: rounds as long as the rule
    guide says, and a bye worth a whole match."""
    rules = PROFILES[profile]
    return suggested_round_minutes(rules), rules.games_to_win


@pytest.fixture
def api(organiser) -> APIClient:
    client = APIClient()
    client.force_authenticate(organiser)
    return client


def create_by_api(api, club, **settings) -> dict:
    response = api.post(
        "/api/tournaments/",
        {"club": club.slug, "name": "Open", "date": "2027-03-01", **settings},
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


@pytest.mark.parametrize("profile", list(PROFILES))
def test_every_profile_creates_a_tournament_by_api_with_its_fitted_settings(api, club, profile):
    body = create_by_api(api, club, profile=profile)
    assert body["profile"] == profile
    assert (body["round_minutes"], body["bye_games"]) == fitted(profile)


@pytest.mark.parametrize("profile", list(PROFILES))
def test_every_profile_creates_a_tournament_by_the_form_with_its_fitted_settings(
    client, organiser, club, profile
):
    client.force_login(organiser)
    response = client.post(
        "/tournaments/new/",
        {
            "club": club.slug,
            "name": "Open",
            "date": "2027-03-01",
            "profile": profile,
            "format": "swiss",
            "rounds": 3,
            "cut_size": 0,
            "bye_points": 0,
            "agreement": "confirm",
            "hide_last_rounds": 0,
        },
    )
    assert response.status_code == 302, response.content.decode()
    tournament = Tournament.objects.get()
    assert tournament.profile == profile
    assert (tournament.round_minutes, tournament.bye_games) == fitted(profile)


def test_switching_a_tournament_to_standard_refits_its_settings_by_api(api, club):
    body = create_by_api(api, club)
    assert (body["round_minutes"], body["bye_games"]) == fitted("tournament")
    response = api.patch(
        f"/api/tournaments/{body['slug']}/", {"profile": "standard"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert (response.json()["round_minutes"], response.json()["bye_games"]) == fitted("standard")


def test_switching_a_tournament_to_standard_on_its_settings_page(client, organiser, club):
    tournament = services.create_tournament(
        club=club, actor=actor(organiser), name="Open", date=dt.date(2027, 3, 1)
    )
    # The page shows fitted settings blank ("as the rules suggest"), so they follow.
    initial = TournamentForm.initial_from(services.settings_of(tournament))
    assert initial["round_minutes"] is None and initial["bye_games"] is None
    client.force_login(organiser)
    response = client.post(
        f"/tournaments/{tournament.slug}/manage/",
        {
            "name": "Open",
            "date": "2027-03-01",
            "profile": "standard",
            "format": "swiss",
            "rounds": 3,
            "cut_size": 0,
            "round_minutes": "",
            "bye_games": "",
            "bye_points": 0,
            "agreement": "confirm",
            "hide_last_rounds": 0,
        },
    )
    assert response.status_code == 302, response.content.decode()
    tournament.refresh_from_db()
    assert tournament.profile == "standard"
    assert (tournament.round_minutes, tournament.bye_games) == fitted("standard")


def test_settings_set_by_hand_are_kept_when_the_profile_changes(api, club):
    body = create_by_api(api, club, profile="classic", round_minutes=90, bye_games=0)
    assert (body["round_minutes"], body["bye_games"]) == (90, 0)
    slug = body["slug"]
    changed = api.patch(f"/api/tournaments/{slug}/", {"profile": "oklahoma"}, format="json")
    assert (changed.json()["round_minutes"], changed.json()["bye_games"]) == (90, 0)
    # null asks for the rules' value again, whatever was set.
    refit = api.patch(f"/api/tournaments/{slug}/", {"round_minutes": None}, format="json")
    assert refit.status_code == 200, refit.content
    assert refit.json()["round_minutes"] == fitted("oklahoma")[0]


def test_a_setting_given_with_the_new_profile_wins_over_the_fit(club, organiser):
    tournament = services.create_tournament(
        club=club, actor=actor(organiser), name="Open", date=dt.date(2027, 3, 1)
    )
    services.update_tournament(
        tournament_id=tournament.pk, actor=actor(organiser), profile="standard", bye_games=0
    )
    tournament.refresh_from_db()
    assert (tournament.round_minutes, tournament.bye_games) == (fitted("standard")[0], 0)
