"""Who may do what with a tournament: every actor against every action, through the API.

The tournament here is NOT public: only its organisers, admins and registered players
may see it. "ok" means the permission check let the actor through (the action's own
status); "no" means refused (401/403/404, nothing private leaks to a stranger).
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import override_settings
from rest_framework.test import APIClient

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.tournaments.helpers import actor, built_once, new_event, play_round, reg
from tournaments import services
from tournaments.selectors.exports import tournament_archive

pytestmark = pytest.mark.django_db

ACTORS = [
    "anonymous",
    "player",
    "other_player",
    "organiser",
    "other_organiser",
    "admin",
    "auditor",
    "site_auditor",
    "scorekeeper",
]
SEE = ["no", "ok", "no", "ok", "no", "ok", "ok", "ok", "ok"]
# What the organisers read: their auditors (of the club, or of every club) and their
# scorekeepers read it too.
READ = ["no", "no", "no", "ok", "no", "ok", "ok", "ok", "ok"]
# What the organisers change: an auditor is refused, naming the role; a scorekeeper too
# (settings, rules, players, roles, seasons, imports).
MANAGE = ["no", "no", "no", "ok", "no", "ok", "no", "no", "no"]
# Running the rounds on the day: the organisers and the club's scorekeepers.
RUN = ["no", "no", "no", "ok", "no", "ok", "no", "no", "ok"]
AUDITORS = ("auditor", "site_auditor")

EXPECTED = {
    "detail": SEE,
    "rounds": SEE,
    "round": SEE,
    "pairings": SEE,
    "standings": SEE,
    "standings_csv": SEE,
    "own_match": SEE,
    "others_match": READ,
    "registrations": READ,
    "add_registration": MANAGE,
    "import_csv": MANAGE,
    "check_in": MANAGE,
    "signups": READ,
    "signup_settings": MANAGE,
    "withdraw": MANAGE,
    "seed": MANAGE,
    "update": MANAGE,
    "rules_preview": MANAGE,
    "draft": RUN,
    "discard": RUN,
    "swap": RUN,
    "fix": RUN,
    "publish": RUN,
    "timer": RUN,
    "call_time": RUN,
    "result": RUN,
    "close": RUN,
    "dashboard": READ,
    "tables": READ,
    "hands_csv": READ,
    "archive": READ,
    "import_archive": MANAGE,
    "audit": READ,
    "audit_csv": READ,
    "rules_apply": MANAGE,
    "time_policy": RUN,
    "clear_result": RUN,
    "remove_registration": MANAGE,
    "season_create": MANAGE,
    "calls": READ,
    "undo_time_call": RUN,
    "extend": RUN,
}


@pytest.fixture(scope="module")
def _ledger_dir(tmp_path_factory):
    """One ledger directory for the module: its world's ledger rows are written once."""
    with override_settings(LEDGER_DIR=tmp_path_factory.mktemp("ledger"), LEDGER_KEYS=""):
        yield


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, _ledger_dir):
    """Round 1 closed (the registered player P01 played P02), round 2 drafted: built once
    for the module's 380 tests."""
    with built_once(django_db_blocker):
        yield _build_world()


def _build_world() -> dict:
    club = ClubFactory(name="Gin Club", slug="gin-club")
    organiser = UserFactory(username="org")
    club.organisers.add(organiser)
    UserFactory(username="admin", is_superuser=True, is_staff=True)
    club.auditors.add(UserFactory(username="aud"))
    club.scorekeepers.add(UserFactory(username="keeper"))
    site_auditor = UserFactory(username="site-aud")
    site_auditor.user_permissions.add(Permission.objects.get(codename="audit_every_club"))
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
        "auditor": "aud",
        "site_auditor": "site-aud",
        "scorekeeper": "keeper",
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
        "audit": base + "audit/",
        "audit_csv": base + "export/audit.csv",
        "calls": base + "calls/",
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
        "rules_apply": (
            base + "rules/apply/",
            {"profile": "tournament", "overrides": {"game_target": 25}, "reason": "x"},
        ),
        "season_create": (
            f"/api/clubs/{event.club.slug}/seasons/",
            {"name": "Spring", "starts_on": "2026-03-01", "ends_on": "2026-05-31"},
        ),
        "import_archive": (
            f"/api/clubs/{event.club.slug}/tournaments/import/",
            json.loads(json.dumps(tournament_archive(event))),
        ),
    }
    if action in post:
        return client.post(*post[action], format="json")
    if action == "update":
        return client.patch(base, {"venue": "Hall"}, format="json")
    if action == "signups":
        return client.get(base + "signups/")
    if action == "signup_settings":
        return client.patch(base + "signups/", {"open": True, "capacity": 8}, format="json")
    if action == "draft":
        services.discard_round(round_id=rnd.pk, actor=actor(world["organiser"]))
        return client.post(base + "rounds/", {}, format="json")
    if action == "discard":
        return client.delete(f"/api/rounds/{rnd.pk}/")
    if action == "remove_registration":
        newcomer = services.add_registration(
            tournament_id=event.pk, actor=actor(world["organiser"]), name="Late"
        )
        return client.delete(f"/api/registrations/{newcomer.pk}/")
    rnd = published(world)
    if action == "result":
        pairing = rnd.pairings.exclude(match=None).first()
        return client.post(
            f"/api/pairings/{pairing.pk}/result/",
            {"winner": "A", "reason": "forfeit"},
            format="json",
        )
    if action == "clear_result":
        pairing = rnd.pairings.exclude(match=None).first()
        return client.post(
            f"/api/pairings/{pairing.pk}/result/clear/", {"reason": "x"}, format="json"
        )
    if action in ("dashboard", "tables"):
        return client.get(f"/api/rounds/{rnd.pk}/{action}/")
    if action == "extend":
        pairing = rnd.pairings.exclude(match=None).first()
        return client.post(f"/api/pairings/{pairing.pk}/extend/", {"hands": 1}, format="json")
    path = {
        "timer": "timer",
        "call_time": "call-time",
        "close": "close",
        "time_policy": "time-policy",
        "undo_time_call": "undo-time-call",
    }[action]
    if action == "undo_time_call":
        return client.post(f"/api/rounds/{rnd.pk}/{path}/", {"reason": "x"}, format="json")
    return client.post(f"/api/rounds/{rnd.pk}/{path}/", {}, format="json")


@pytest.mark.parametrize("action", list(EXPECTED))
@pytest.mark.parametrize("who", ACTORS)
def test_permission_matrix(world, who, action):
    expected = EXPECTED[action][ACTORS.index(who)]
    organiser_may = EXPECTED[action][ACTORS.index("organiser")] == "ok"
    response = perform(world, client_for(world, who), action)
    if expected == "no" and who in AUDITORS and EXPECTED[action][ACTORS.index("organiser")] == "ok":
        # an auditor is refused every change with a 403 that names the role
        assert response.status_code == 403, response.content
        error = response.json()["error"]
        assert error["code"] == "auditor_read_only" and "Auditors can read" in error["message"]
    elif expected == "no" and who == "scorekeeper" and organiser_may:
        # a scorekeeper is refused the organisers' own changes, naming the role
        assert response.status_code == 403, response.content
        error = response.json()["error"]
        assert error["code"] == "scorekeeper_not_allowed", error
        assert "Scorekeepers run the rounds" in error["message"]
    elif expected == "no":
        assert response.status_code in (401, 403, 404), (response.status_code, response.content)
        assert "error" in response.json()
    elif action in ("close", "time_policy", "clear_result", "undo_time_call"):
        # allowed through: refused only by the round's state (tables still playing, time
        # not called, no result set by hand)
        assert response.status_code == 409, response.content
    elif action == "extend":
        # allowed through: one more hand, or refused by the round's state (no clock yet)
        assert response.status_code in (200, 409), response.content
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
