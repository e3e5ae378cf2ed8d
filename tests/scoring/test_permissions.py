"""Who may do what: every actor against every action, through the API.

"ok" means the permission check let the actor through (the action's own status);
"no" means refused (401/403/404 — nothing private leaks to a stranger).
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from rest_framework.test import APIClient

from ginclub.permissions import match_id_from_token, table_token
from scoring import services
from scoring.models import Hand, Match
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.scoring.helpers import key, quick

pytestmark = pytest.mark.django_db

ACTORS = [
    "anonymous",
    "table_visitor",
    "player_a",
    "player_b",
    "other_player",
    "organiser",
    "other_organiser",
    "admin",
    "auditor",
    "site_auditor",
    "scorekeeper",
]

EXPECTED = {
    #               anon  table  A     B     other org   o-org admin aud   site-aud keeper
    "view": ["no", "ok", "ok", "ok", "no", "ok", "no", "ok", "ok", "ok", "ok"],
    "submit": ["no", "no", "ok", "ok", "no", "ok", "no", "ok", "no", "no", "ok"],
    "confirm": ["no", "no", "no", "ok", "no", "ok", "no", "ok", "no", "no", "ok"],
    "dispute": ["no", "no", "no", "ok", "no", "ok", "no", "ok", "no", "no", "ok"],
    "withdraw": ["no", "no", "ok", "no", "no", "ok", "no", "ok", "no", "no", "ok"],
    "correct": ["no", "no", "no", "no", "no", "ok", "no", "ok", "no", "no", "ok"],
    "void": ["no", "no", "no", "no", "no", "ok", "no", "ok", "no", "no", "ok"],
    "close": ["no", "no", "no", "no", "no", "ok", "no", "ok", "no", "no", "ok"],
    "ledger": ["no", "no", "no", "no", "no", "ok", "no", "ok", "ok", "ok", "ok"],
    "correct_preview": ["no", "no", "no", "no", "no", "ok", "no", "ok", "no", "no", "ok"],
    "reopen": ["no", "no", "no", "no", "no", "ok", "no", "ok", "no", "no", "ok"],
    "start_match": ["no", "no", "ok", "ok", "no", "ok", "no", "ok", "no", "no", "ok"],
    "add_player": ["no", "no", "no", "no", "no", "ok", "no", "ok", "no", "no", "no"],
    "verify_all": ["no", "no", "no", "no", "no", "no", "no", "ok", "no", "ok", "no"],
    # "Organiser, please": the table's players and staff call; staff take and resolve
    "call": ["no", "no", "ok", "ok", "no", "ok", "no", "ok", "no", "no", "ok"],
    "calls_list": ["no", "ok", "ok", "ok", "no", "ok", "no", "ok", "ok", "ok", "ok"],
    "take_call": ["no", "no", "no", "no", "no", "ok", "no", "ok", "no", "no", "ok"],
    "resolve_call": ["no", "no", "no", "no", "no", "ok", "no", "ok", "no", "no", "ok"],
    # Penalties: staff record and reverse them; the table reads those against it
    "penalty": ["no", "no", "no", "no", "no", "ok", "no", "ok", "no", "no", "ok"],
    "penalties_list": ["no", "ok", "ok", "ok", "no", "ok", "no", "ok", "ok", "ok", "ok"],
    "reverse_penalty": ["no", "no", "no", "no", "no", "ok", "no", "ok", "no", "no", "ok"],
}
AUDITORS = ("auditor", "site_auditor")


@pytest.fixture
def world():
    club = ClubFactory()
    organiser = UserFactory(username="org")
    club.organisers.add(organiser)
    other_club = ClubFactory()
    other_organiser = UserFactory(username="other-org")
    other_club.organisers.add(other_organiser)
    a = PlayerFactory(club=club, name="A", user=UserFactory(username="pa"))
    b = PlayerFactory(club=club, name="B", user=UserFactory(username="pb"))
    PlayerFactory(club=club, name="C", user=UserFactory(username="pc"))
    admin = UserFactory(username="admin", is_superuser=True, is_staff=True)
    club.auditors.add(UserFactory(username="aud"))
    club.scorekeepers.add(UserFactory(username="keeper"))
    site_auditor = UserFactory(username="site-aud")
    site_auditor.user_permissions.add(Permission.objects.get(codename="audit_every_club"))
    match = services.start_match(
        club=club, player_a=a, player_b=b, actor=services.Actor(user=organiser)
    )
    users = {
        "player_a": "pa",
        "player_b": "pb",
        "other_player": "pc",
        "organiser": "org",
        "other_organiser": "other-org",
        "admin": "admin",
        "auditor": "aud",
        "site_auditor": "site-aud",
        "scorekeeper": "keeper",
    }
    return {"match": match, "club": club, "a": a, "b": b, "users": users, "admin": admin}


def client_for(world, actor: str) -> APIClient:
    from django.contrib.auth import get_user_model

    client = APIClient()
    if actor == "table_visitor":
        client.get(f"/t/{table_token(world['match'])}/")
    elif actor != "anonymous":
        client.force_authenticate(get_user_model().objects.get(username=world["users"][actor]))
    return client


def pending_hand_by_a(world) -> Hand:
    return services.submit_hand(
        match_id=world["match"].pk,
        actor=services.Actor(player=world["a"]),
        hand=quick(),
        idempotency_key=key(),
    ).hand


def perform(world, client: APIClient, action: str):
    match = world["match"]
    body = {"version": 1, "idempotency_key": key()}
    if action == "view":
        return client.get(f"/api/matches/{match.pk}/")
    if action == "ledger":
        return client.get(f"/api/matches/{match.pk}/ledger/")
    if action == "close":
        return client.post(f"/api/matches/{match.pk}/close/", {}, format="json")
    if action == "reopen":
        return client.post(f"/api/matches/{match.pk}/reopen/", {"reason": "x"}, format="json")
    if action == "verify_all":
        return client.get("/api/ledger/verify/")
    if action == "start_match":
        payload = {"club": world["club"].slug, "player_a": world["a"].pk, "player_b": world["b"].pk}
        return client.post("/api/matches/", payload, format="json")
    if action == "add_player":
        return client.post(
            f"/api/clubs/{world['club'].slug}/players/", {"name": "Zed"}, format="json"
        )
    if action == "submit":
        payload = {
            "game": 1,
            "number": 1,
            "outcome": "knock",
            "knocker": "A",
            "knocker_deadwood": 3,
            "defender_deadwood": 20,
            "idempotency_key": key(),
        }
        return client.post(f"/api/matches/{match.pk}/hands/", payload, format="json")
    if action == "call":
        return client.post(f"/api/matches/{match.pk}/calls/", {"reason": "ruling"}, format="json")
    if action == "calls_list":
        return client.get(f"/api/matches/{match.pk}/calls/")
    if action in ("take_call", "resolve_call"):
        call = services.call_staff(
            match_id=match.pk, actor=services.Actor(player=world["a"]), reason="dispute"
        ).call
        verb = "take" if action == "take_call" else "resolve"
        return client.post(f"/api/calls/{call.pk}/{verb}/", {}, format="json")
    if action == "penalty":
        caution = {"seat": "B", "kind": "caution", "infraction": "procedure", "details": "slow"}
        return client.post(f"/api/matches/{match.pk}/penalties/", caution, format="json")
    if action == "penalties_list":
        return client.get(f"/api/matches/{match.pk}/penalties/")
    if action == "reverse_penalty":
        organiser = services.Actor(user=world["club"].organisers.get())
        penalty = services.record_penalty(
            match_id=match.pk, actor=organiser, seat="B", kind="caution",
            infraction="procedure", details="slow",
        )  # fmt: skip
        return client.post(
            f"/api/penalties/{penalty.pk}/reverse/", {"reason": "misread"}, format="json"
        )
    hand = pending_hand_by_a(world)
    if action in ("dispute", "void"):
        body["reason"] = "checking"
    if action == "correct_preview":
        payload = {"game": 1, "number": 1, "outcome": "knock", "knocker": "A",
                   "knocker_deadwood": 3, "defender_deadwood": 30, "version": 1}  # fmt: skip
        return client.post(f"/api/hands/{hand.pk}/correct/preview/", payload, format="json")
    if action == "correct":
        body.update(
            {
                "game": 1,
                "number": 1,
                "outcome": "knock",
                "knocker": "A",
                "knocker_deadwood": 3,
                "defender_deadwood": 30,
                "reason": "recount",
            }
        )
    return client.post(f"/api/hands/{hand.pk}/{action}/", body, format="json")


@pytest.mark.parametrize("action", list(EXPECTED))
@pytest.mark.parametrize("actor", ACTORS)
def test_permission_matrix(world, actor, action):
    expected = EXPECTED[action][ACTORS.index(actor)]
    response = perform(world, client_for(world, actor), action)
    if (
        expected == "no"
        and actor in AUDITORS
        and EXPECTED[action][ACTORS.index("organiser")] == "ok"
    ):
        # an auditor is refused every change with a 403 that names the role
        assert response.status_code == 403, response.content
        error = response.json()["error"]
        assert error["code"] == "auditor_read_only" and "Auditors can read" in error["message"]
    elif expected == "no" and actor == "scorekeeper":
        # a scorekeeper is refused what stays the organisers', naming the role
        assert response.status_code == 403, response.content
        assert response.json()["error"]["code"] in ("scorekeeper_not_allowed", "not_allowed")
    elif expected == "no":
        assert response.status_code in (401, 403, 404), response.content
        assert "error" in response.json()
    elif action == "close":
        # allowed through: refused only because the match is not finished yet
        assert response.status_code == 409 and response.json()["error"]["code"] == "not_finished"
    elif action == "reopen":
        # allowed through: refused only because the match is not closed
        assert response.status_code == 409, response.content
    else:
        assert response.status_code in (200, 201), response.content


def test_anonymous_visitor_reads_nothing_private(world):
    client = APIClient()
    match = world["match"]
    for url in [
        f"/matches/{match.pk}/",
        f"/api/matches/{match.pk}/",
        "/api/matches/",
        f"/matches/{match.pk}/ledger/",
        "/api/clubs/",
    ]:
        response = client.get(url)
        assert response.status_code in (302, 401, 403), url
        assert b"A v B" not in response.content


def test_expired_table_link_is_refused(world, settings):
    token = table_token(world["match"])
    with pytest.raises(Exception) as caught:
        match_id_from_token(token, max_age=-1)
    assert caught.value.code == "expired_token"
    response = APIClient().get("/t/not-a-token/")
    assert response.status_code == 403 and b"not valid" in response.content


def test_csrf_holds_for_session_api_calls(world):
    from django.contrib.auth import get_user_model

    client = APIClient(enforce_csrf_checks=True)
    client.force_login(get_user_model().objects.get(username="org"))
    response = client.post(f"/api/matches/{world['match'].pk}/close/", {}, format="json")
    assert response.status_code == 403 and "CSRF" in response.json()["error"]["message"]


def test_csrf_holds_for_table_sessions_too(world):
    client = APIClient(enforce_csrf_checks=True)
    client.get(f"/t/{table_token(world['match'])}/")
    payload = {"token": table_token(world["match"]), "player": world["a"].pk, "pin": "1234"}
    response = client.post(f"/api/matches/{world['match'].pk}/seat/", payload, format="json")
    assert response.status_code == 403 and "CSRF" in response.json()["error"]["message"]


def test_csrf_holds_on_page_forms(world):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.get(f"/t/{table_token(world['match'])}/")
    response = client.post(
        f"/matches/{world['match'].pk}/seat/", {"player": world["a"].pk, "pin": "1234"}
    )
    assert response.status_code == 403


def test_token_auth_needs_no_csrf(world):
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=world["a"].user)
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    payload = {
        "game": 1,
        "number": 1,
        "outcome": "knock",
        "knocker": "A",
        "knocker_deadwood": 3,
        "defender_deadwood": 20,
        "idempotency_key": key(),
    }
    response = client.post(f"/api/matches/{world['match'].pk}/hands/", payload, format="json")
    assert response.status_code == 201, response.content
    assert Match.objects.get().games.get().hands.count() == 1
