"""The club page and logging in: club nights, registering players, login throttling."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring.models import Match, Player
from tests.factories import PASSWORD, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_two_members_start_their_own_match_at_a_club_night(club, alice, bob):
    client = logged_in(alice.user)
    assert b"Start a match" in client.get(f"/clubs/{club.slug}/").content
    response = client.post(
        f"/clubs/{club.slug}/matches/new/",
        {
            "player_a": alice.pk,
            "player_b": bob.pk,
            "profile": "standard",
            "agreement": "confirm",
            "first_dealer": "B",
        },
    )
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    assert (match.player_a, match.player_b, match.first_dealer) == (alice, bob, "B")


NEW_MATCH = {"profile": "standard", "agreement": "confirm", "first_dealer": "A"}


def test_a_member_cannot_start_a_match_between_two_other_players_by_the_api(club, alice, bob):
    carla = PlayerFactory(club=club, name="Carla")
    api = APIClient()
    api.force_authenticate(alice.user)
    body = {"club": club.slug, "player_a": bob.pk, "player_b": carla.pk}
    response = api.post("/api/matches/", body, format="json")
    assert response.status_code == 403, response.content
    assert response.json()["error"] == {
        "code": "not_allowed",
        "message": f"Only Bob, Carla and the organisers and scorekeepers of {club.name} may "
        "start a match between them.",
    }
    assert not Match.objects.exists()
    mine = api.post("/api/matches/", {**body, "player_a": alice.pk}, format="json")
    assert mine.status_code == 201, mine.content  # their own match, as ever


def test_a_member_cannot_start_a_match_between_two_other_players_on_the_club_page(club, alice, bob):
    carla = PlayerFactory(club=club, name="Carla")
    response = logged_in(alice.user).post(
        f"/clubs/{club.slug}/matches/new/",
        {**NEW_MATCH, "player_a": bob.pk, "player_b": carla.pk},
    )
    assert response.status_code == 403
    assert "Only Bob, Carla and the organisers and scorekeepers of" in response.content.decode()
    assert not Match.objects.exists()


def test_an_organiser_starts_a_match_between_any_two_players(club, organiser, alice, bob):
    response = logged_in(organiser).post(
        f"/clubs/{club.slug}/matches/new/", {**NEW_MATCH, "player_a": alice.pk, "player_b": bob.pk}
    )
    assert response.status_code == 302 and Match.objects.count() == 1


def test_a_member_of_another_club_cannot_start_a_match_here(club, alice, bob):
    stranger = UserFactory()
    response = logged_in(stranger).post(
        f"/clubs/{club.slug}/matches/new/",
        {
            "player_a": alice.pk,
            "player_b": bob.pk,
            "profile": "standard",
            "agreement": "confirm",
            "first_dealer": "A",
        },
    )
    assert response.status_code == 404 and not Match.objects.exists()


def test_organiser_adds_a_player_with_a_pin(club, organiser):
    client = logged_in(organiser)
    client.post(f"/clubs/{club.slug}/players/new/", {"name": "  Carla   Rossi ", "pin": "4321"})
    carla = Player.objects.get(club=club, name="Carla Rossi")
    assert carla.check_pin("4321")
    assert b"Carla Rossi joined" in client.get(f"/clubs/{club.slug}/").content


def test_duplicate_player_name_is_refused_with_a_message_and_nothing_saved(club, organiser, alice):
    client = logged_in(organiser)
    response = client.post(f"/clubs/{club.slug}/players/new/", {"name": "alice", "pin": "4321"})
    assert club.players.count() == 1
    assert response.status_code == 400
    assert b"already has a player called alice" in response.content


def test_a_player_cannot_register_players(club, alice):
    response = logged_in(alice.user).post(f"/clubs/{club.slug}/players/new/", {"name": "Mallory"})
    assert not Player.objects.filter(name="Mallory").exists()
    assert response.status_code == 403
    assert f"Only the organisers of {club.name} may add players".encode() in response.content


def test_login_locks_a_username_after_five_wrong_passwords_but_not_the_venue(db):
    """django-axes counts failures per username: forty players share one Wi-Fi address."""
    victim, neighbour = UserFactory(username="victim"), UserFactory(username="neighbour")
    client = Client()
    for _ in range(5):
        client.post("/accounts/login/", {"username": victim.username, "password": "wrong"})
    locked = client.post("/accounts/login/", {"username": victim.username, "password": PASSWORD})
    assert locked.status_code == 429 and "_auth_user_id" not in client.session
    other = Client().post(
        "/accounts/login/", {"username": neighbour.username, "password": PASSWORD}
    )
    assert other.status_code == 302


def test_an_admin_creates_a_club_with_its_organisers_and_a_ledger_row(admin_user, organiser):
    from ginclub import ledger
    from ginclub.errors import Forbidden
    from scoring import services
    from scoring.models import LedgerRow

    with pytest.raises(Forbidden):
        services.create_club(name="Elsewhere", slug="elsewhere", actor=services.Actor(organiser))
    club = services.create_club(
        name="Second Club", slug="second", actor=services.Actor(admin_user), organisers=[organiser]
    )
    assert list(club.organisers.all()) == [organiser]
    row = LedgerRow.objects.get(chain=f"club:{club.pk}")
    assert (row.action, row.after) == ("club_created", {"name": "Second Club", "slug": "second"})
    assert ledger.verify(f"club:{club.pk}") == []
