"""Who may do what with a tournament: every actor against every action, through the API.

The tournament here is NOT public: only its organisers, admins and registered players
may see it. "ok" means the permission check let the actor through (the action's own
status); "no" means refused (401/403/404, nothing private leaks to a stranger).
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.tournaments.helpers import actor, new_event, play_round, reg
from tournaments import services
from tournaments.selectors.exports import tournament_archive

pytestmark = pytest.mark.django_db

ACTORS = ["anonymous", "player", "other_player", "organiser", "other_organiser", "admin"]
SEE = ["no", "ok", "no", "ok", "no", "ok"]
MANAGE = ["no", "no", "no", "ok", "no", "ok"]

EXPECTED = {
    "detail": SEE,
    "rounds": SEE,
    "round": SEE,
    "pairings": SEE,
    "standings": SEE,
    "standings_csv": SEE,
    "own_match": SEE,
    "others_match": MANAGE,
    "registrations": MANAGE,
    "add_registration": MANAGE,
    "import_csv": MANAGE,
    "check_in": MANAGE,
    "withdraw": MANAGE,
    "seed": MANAGE,
    "update": MANAGE,
    "rules_preview": MANAGE,
    "draft": MANAGE,
    "discard": MANAGE,
    "swap": MANAGE,
    "fix": MANAGE,
    "publish": MANAGE,
    "timer": MANAGE,
    "call_time": MANAGE,
    "result": MANAGE,
    "close": MANAGE,
    "dashboard": MANAGE,
    "tables": MANAGE,
    "hands_csv": MANAGE,
    "archive": MANAGE,
    "import_archive": MANAGE,
}


@pytest.fixture
def world(club, organiser):
    """Round 1 closed (the registered player P01 played P02), round 2 drafted."""
    UserFactory(username="admin", is_superuser=True, is_staff=True)
    other_club = ClubFactory(name="Other", slug="other")
    other_club.organisers.add(UserFactory(username="other-org"))
    event = new_event(club, organiser, players=4, public=False, rounds=3)
    p01 = reg(event, "P01").player
    p01.user = UserFactory(username="p01")
    p01.save()
    PlayerFactory(club=club, name="Outsider", user=UserFactory(username="outsider"))
    first = play_round(event, organiser)
    second = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    users = {
        "player": "p01",
        "other_player": "outsider",
        "organiser": "org",
        "other_organiser": "other-org",
        "admin": "admin",
    }
    return {
        "event": event,
        "first": first,
        "second": second,
        "users": users,
        "organiser": organiser,
    }


def client_for(world, who: str) -> APIClient:
    client = APIClient()
    if who != "anonymous":
        client.force_authenticate(get_user_model().objects.get(username=world["users"][who]))
    return client


def published(world):
    """Publish round 2 (as the organiser) and return it."""
    services.publish_round(round_id=world["second"].pk, actor=actor(world["organiser"]))
    return world["second"]


def perform(world, client: APIClient, action: str):
    event, rnd = world["event"], world["second"]
    base = f"/api/tournaments/{event.slug}/"
    get = {
        "detail": base,
        "rounds": base + "rounds/",
        "round": f"/api/rounds/{world['first'].pk}/",
        "pairings": base + "pairings/",
        "standings": base + "standings/",
        "standings_csv": base + "export/standings.csv",
        "registrations": base + "registrations/",
        "hands_csv": base + "export/hands.csv",
        "archive": base + "archive/",
    }
    if action in get:
        return client.get(get[action])
    if action in ("own_match", "others_match"):
        pairings = world["first"].pairings.order_by("position")
        return client.get(f"/api/matches/{pairings[0 if action == 'own_match' else 1].match_id}/")
    p01, p02 = reg(event, "P01").pk, reg(event, "P02").pk
    post = {
        "add_registration": (base + "registrations/", {"name": "Newcomer"}),
        "check_in": (f"/api/registrations/{p01}/check-in/", {}),
        "withdraw": (f"/api/registrations/{p01}/withdraw/", {"reason": "ill"}),
        "seed": (f"/api/registrations/{p01}/seed/", {"seed": 3}),
        "rules_preview": (
            base + "rules/preview/",
            {
                "profile": "tournament",
                "overrides": {"game_target": 25, "games_to_win": 2, "box_bonus": 10},
            },
        ),
        "swap": (f"/api/rounds/{rnd.pk}/swap/", {"first": p01, "second": p02}),
        "fix": (f"/api/rounds/{rnd.pk}/fix/", {"player_a": p01, "player_b": p02}),
        "publish": (f"/api/rounds/{rnd.pk}/publish/", {}),
        "import_csv": (base + "registrations/import/", {"csv": "name\nNewcomer\n"}),
        "import_archive": (
            f"/api/clubs/{event.club.slug}/tournaments/import/",
            json.loads(json.dumps(tournament_archive(event))),
        ),
    }
    if action in post:
        return client.post(*post[action], format="json")
    if action == "update":
        return client.patch(base, {"venue": "Hall"}, format="json")
    if action == "draft":
        services.discard_round(round_id=rnd.pk, actor=actor(world["organiser"]))
        return client.post(base + "rounds/", {}, format="json")
    if action == "discard":
        return client.delete(f"/api/rounds/{rnd.pk}/")
    rnd = published(world)
    if action == "result":
        pairing = rnd.pairings.exclude(match=None).first()
        return client.post(
            f"/api/pairings/{pairing.pk}/result/",
            {"winner": "A", "reason": "forfeit"},
            format="json",
        )
    if action in ("dashboard", "tables"):
        return client.get(f"/api/rounds/{rnd.pk}/{action}/")
    path = {"timer": "timer", "call_time": "call-time", "close": "close"}[action]
    return client.post(f"/api/rounds/{rnd.pk}/{path}/", {}, format="json")


@pytest.mark.parametrize("action", list(EXPECTED))
@pytest.mark.parametrize("who", ACTORS)
def test_permission_matrix(world, who, action):
    expected = EXPECTED[action][ACTORS.index(who)]
    response = perform(world, client_for(world, who), action)
    if expected == "no":
        assert response.status_code in (401, 403, 404), (response.status_code, response.content)
        assert "error" in response.json()
    elif action == "close":
        # allowed through: refused only because round 2's tables are still playing
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "round_unfinished"
    else:
        # 202: the archive import is queued as a background job (tests/tournaments/test_jobs.py)
        assert response.status_code in (200, 201, 202, 204), response.content


def test_a_stranger_learns_nothing_of_a_private_tournament(world):
    client = APIClient()
    event = world["event"]
    for url in [
        f"/api/tournaments/{event.slug}/",
        f"/api/tournaments/{event.slug}/standings/",
        f"/api/rounds/{world['first'].pk}/",
        "/api/tournaments/",
    ]:
        response = client.get(url)
        assert b"P01" not in response.content and event.slug.encode() not in response.content
    assert client.get("/api/tournaments/").json() == []


def test_the_public_sees_a_public_tournament_but_no_draft_and_nothing_to_manage(world):
    event = world["event"]
    services.update_tournament(tournament_id=event.pk, actor=actor(world["organiser"]), public=True)
    client = APIClient()
    base = f"/api/tournaments/{event.slug}/"
    assert client.get(base).status_code == 200
    assert [r["number"] for r in client.get(base + "rounds/").json()] == [1]
    assert client.get(f"/api/rounds/{world['second'].pk}/").status_code == 404
    pairings = client.get(base + "pairings/").json()
    assert pairings["number"] == 1 and "pending" not in pairings["pairings"][0]
    assert client.get(base + "standings/").json()["rows"][0]["match_wins"] == 1
    for url in (
        base + "registrations/",
        f"/api/rounds/{world['first'].pk}/dashboard/",
        base + "archive/",
        base + "export/hands.csv",
    ):
        assert client.get(url).status_code in (401, 403), url
    assert client.post(base + "rounds/", {}, format="json").status_code == 403
    assert client.post("/api/tournaments/", {}, format="json").status_code == 403
