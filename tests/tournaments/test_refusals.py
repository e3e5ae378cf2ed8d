"""Tournament pages and the API let refusals rise: ginclub.middleware answers a page's
with the refusal page (or the htmx partial) at the refusal's status, the API's handler
with {"error": ...}. Who may see or manage a tournament is asked of ginclub.permissions
alone, and input that is not a number is a refusal, never a server error."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from ginclub import permissions
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import actor, new_event
from tournaments import services
from tournaments.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


@pytest.fixture
def stranger(db) -> Client:
    """An organiser, but of another club."""
    user = UserFactory(username="stranger")
    ClubFactory(name="Far Club", slug="far").organisers.add(user)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def running(club, organiser) -> Round:
    tournament = new_event(club, organiser, players=4)
    rnd = services.draft_round(tournament_id=tournament.pk, actor=actor(organiser))
    return services.publish_round(round_id=rnd.pk, actor=actor(organiser))


def manage(rnd: Round, page: str) -> str:
    return f"/tournaments/{rnd.tournament.slug}/manage/{page}"


def text(response) -> str:
    return response.content.decode()


# ----------------------------------------------------------- one-button refusals


def test_publishing_a_published_round_answers_the_refusal_page(org, running):
    dashboard = "http://testserver" + manage(running, "dashboard/")
    response = org.post(manage(running, "rounds/1/publish/"), HTTP_REFERER=dashboard)
    page = text(response)
    assert response.status_code == 409
    assert "Round 1 was published already, perhaps from another tab: nothing was changed." in page
    assert "<title>Not done" in page and f'href="{dashboard}"' in page  # site layout, Back


def test_closing_a_round_closed_in_another_tab_says_it_was_closed_already(org, running):
    """A walk closed round 1 in one tab, then tapped "Close round 1" in a second and read
    "Round 1 is closed, not published.": a round that had been published all along."""
    for pairing in running.pairings.exclude(match=None):
        org.post(
            manage(running, f"tables/{pairing.pk}/result/"),
            {"winner": "A", "games_a": 1, "games_b": 0, "points_a": 0, "points_b": 0,
             "reason": "score sheet"},
        )  # fmt: skip
    assert org.post(manage(running, "rounds/1/close/")).status_code == 302
    page = text(org.post(manage(running, "rounds/1/close/")))
    assert "Round 1 was closed already, perhaps from another tab: nothing was changed." in page
    assert "not published" not in page


def test_closing_a_round_with_tables_open_answers_the_htmx_partial(org, running):
    response = org.post(manage(running, "rounds/1/close/"), HTTP_HX_REQUEST="true")
    page = text(response)
    assert response.status_code == 409 and response["X-Refusal"] == "round_unfinished"
    assert "<html" not in page and "Tables still open: 1 (playing), 2 (playing)" in page
    running.refresh_from_db()
    assert running.state == Round.State.PUBLISHED


def test_a_refused_check_in_row_is_the_refusal_partial(org, club, organiser):
    tournament = new_event(club, organiser, players=3)
    registration = tournament.registrations.get(player__name="P01")
    services.withdraw_registration(
        registration_id=registration.pk, actor=actor(organiser), reason="went home"
    )
    path = f"/tournaments/{tournament.slug}/manage/players/{registration.pk}/check-in/"
    response = org.post(path, HTTP_HX_REQUEST="true")
    assert 400 <= response.status_code < 500 and response["X-Refusal"]
    assert "HX-Trigger" not in response  # nothing changed: the counts are not refreshed


# ------------------------------------------------------------------ who may look


PUBLIC = ["", "standings/", "projector/", "pairings-table/", "standings-table/"]
MANAGE = ["manage/", "manage/dashboard/", "manage/players/"]


def make_private(rnd: Round, organiser) -> None:
    services.update_tournament(
        tournament_id=rnd.tournament_id, actor=actor(organiser), public=False
    )


@pytest.mark.parametrize("page", PUBLIC + MANAGE)
def test_a_private_tournament_is_not_found_by_a_stranger(stranger, running, organiser, page):
    make_private(running, organiser)
    response = stranger.get(f"/tournaments/{running.tournament.slug}/{page}")
    assert response.status_code == 404
    assert "No such tournament." in text(response)


def test_a_private_tournament_is_not_found_through_the_api_either(running, organiser):
    make_private(running, organiser)
    client = APIClient()
    client.force_authenticate(UserFactory(username="nosy"))
    slug = running.tournament.slug
    for path in (
        f"/api/tournaments/{slug}/",
        f"/api/tournaments/{slug}/standings/",
        f"/api/rounds/{running.pk}/",
    ):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.json()["error"]["code"] == "not_found"


def test_the_pages_ask_the_permission_module(client, running, monkeypatch):
    """One rule: a public tournament hidden by permissions.may_view_tournament is a 404
    on its public pages and in the list, with no second check anywhere to disagree."""
    monkeypatch.setattr(permissions, "may_view_tournament", lambda actor, tournament: False)
    slug = running.tournament.slug
    assert client.get(f"/tournaments/{slug}/").status_code == 404
    assert client.get(f"/tournaments/{slug}/standings/").status_code == 404
    assert client.get(f"/api/tournaments/{slug}/").status_code == 404


def test_managing_is_asked_of_the_permission_module(org, running, monkeypatch):
    monkeypatch.setattr(permissions, "may_audit_tournament", lambda actor, tournament: False)
    response = org.get(manage(running, "dashboard/"))
    assert response.status_code == 403
    said = "Only the organisers and auditors of Gin Club (and admins) read that of Club Open."
    assert said in text(response)
    monkeypatch.setattr(permissions, "may_manage_tournament", lambda actor, tournament: False)
    response = org.post(manage(running, "players/add/"), {"name": "Newcomer"})
    assert response.status_code == 403
    assert "Only the organisers of Gin Club (and admins) manage Club Open." in text(response)


# ------------------------------------------------------- bad input, never a 500


@pytest.mark.parametrize(
    "path",
    [
        "dashboard/?round=abc",
        "dashboard/tables/?round=%C2%B2",  # "²" is a digit to Python, not a number
        "standings/?round=99999999999999999999",
        "print/cards/?table=x",
        "print/sheets/?round=-1",
    ],
)
def test_a_bad_number_in_the_query_is_a_refusal(org, running, path):
    response = org.get(manage(running, path))
    assert response.status_code == 400
    assert "is a whole number" in text(response)


@pytest.mark.parametrize(
    "page",
    ["", "pairings-table/?round=x"],
)
def test_a_bad_round_on_public_pages_is_a_refusal(client, running, page):
    path = f"/tournaments/{running.tournament.slug}/{page}"
    response = client.get(path + ("?round=%C2%B2" if "?" not in page else ""))
    assert response.status_code == 400


def test_bad_round_actions_are_refusals(org, running):
    assert org.post(manage(running, "rounds/1/explode/")).status_code == 404
    assert org.post(manage(running, "rounds/9/close/")).status_code == 404
    assert org.post(manage(running, "rounds/99999999999999999999/close/")).status_code == 404
    assert org.get(manage(running, "tables/99999999999999999999/result/")).status_code == 404
    assert org.post(manage(running, "rounds/1/adjust/shuffle/")).status_code == 404
    time_policy = org.post(manage(running, "rounds/1/time-policy/"), {"pairing": "x"})
    assert time_policy.status_code == 400
    timer = org.post(manage(running, "rounds/1/timer/"), {"minutes": "9999"})
    assert timer.status_code == 400 and "A round lasts 1 to 600 minutes." in text(timer)


def test_an_unknown_player_action_is_a_refusal(org, running):
    registration = running.tournament.registrations.first()
    response = org.post(manage(running, f"players/{registration.pk}/explode/"))
    assert response.status_code == 404 and "There is no player action" in text(response)


def test_a_bad_round_in_the_api_is_a_refusal(running):
    client = APIClient()
    slug = running.tournament.slug
    for value in ("x", "²", "99999999999999999999"):
        response = client.get(f"/api/tournaments/{slug}/standings/", {"round": value})
        assert response.status_code == 400, value
        assert response.json()["error"]["fields"] == {"round": "a whole number"}
