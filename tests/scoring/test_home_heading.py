"""The home page's list of matches is headed for whose matches they are: a scorekeeper,
an organiser or an auditor reads the club's matches (not theirs), a player their own."""

from __future__ import annotations

import pytest

from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def heading(client, user) -> str:
    client.force_login(user)
    page = client.get("/").content.decode()
    return page.split('data-testid="matches-heading">')[1].split("</h2>")[0]


def test_a_scorekeeper_reads_the_clubs_matches_not_their_own(client):
    club = ClubFactory(name="Riverside Gin", slug="riverside")
    keeper = UserFactory(username="sam")
    club.scorekeepers.add(keeper)
    assert heading(client, keeper) == "Latest matches at Riverside Gin"


def test_an_organiser_of_two_clubs_and_an_auditor_read_their_clubs_matches(client):
    organiser, auditor = UserFactory(username="olga"), UserFactory(username="aldo")
    for name in ("Riverside Gin", "Hilltop Gin"):
        club = ClubFactory(name=name, slug=name.split()[0].lower())
        club.organisers.add(organiser)
    club.auditors.add(auditor)
    assert heading(client, organiser) == "Latest matches at your clubs"
    assert heading(client, auditor) == "Latest matches at Hilltop Gin"


def test_an_admin_reads_every_clubs_matches_and_a_player_their_own(client):
    admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    assert heading(client, admin) == "Latest matches at every club"
    player = UserFactory(username="ada")
    PlayerFactory(club=ClubFactory(name="Riverside Gin", slug="riverside"), name="Ada", user=player)
    assert heading(client, player) == "Your matches"
