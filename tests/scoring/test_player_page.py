"""The player's page: who may read it (ginclub.permissions.may_see_player), what it shows,
and a fixed number of queries whatever the player's history."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ginclub import permissions
from scoring.models import Player
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.scoring.helpers import play_hand, quick, start

pytestmark = pytest.mark.django_db


def page(client, player):
    return client.get(reverse("scoring:player", args=[player.pk]))


@pytest.fixture
def played(club, organiser, alice, bob):
    match = start(club, alice, bob, organiser, overrides={"game_target": 50})
    play_hand(match, alice, bob, quick(1, kd=4, dd=30))  # Alice +26
    play_hand(match, alice, bob, quick(2, kd=2, dd=40))  # Alice +38: 64, she wins
    return match


def test_members_and_organisers_read_a_players_page(client, played, alice, bob, organiser):
    client.force_login(bob.user)  # a member of the club, another player
    response = page(client, alice)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Alice" in html and 'data-figure="hands_won"' in html
    # 2 hands, both won: 100 per 100, marked as resting on too few.
    assert "100 per 100 hands (2)" in html and "too few" in html
    assert reverse("scoring:player", args=[bob.pk]) in html  # head to head links Bob
    client.force_login(organiser)
    assert page(client, alice).status_code == 200


def test_strangers_and_the_public_are_told_no_such_player(client, played, alice):
    anonymous = page(client, alice)
    assert anonymous.status_code == 404  # a private page may be theirs once logged in:
    assert f'href="/accounts/login/?next=/players/{alice.pk}/"' in anonymous.content.decode()
    client.force_login(UserFactory(username="stranger"))
    response = page(client, alice)
    assert response.status_code == 404
    said = "No player page here that you may see. A club&#x27;s player pages are for its members"
    assert said in response.content.decode()
    assert said in page(client, Player(pk=10**6)).content.decode()  # as for no player at all
    other = ClubFactory(name="Other club")
    client.force_login(PlayerFactory(club=other, user=UserFactory(username="elsewhere")).user)
    assert page(client, alice).status_code == 404


def test_a_club_that_says_so_shows_its_player_pages_to_everybody(client, club, played, alice):
    club.player_pages_public = True
    club.save()
    response = page(client, alice)
    assert response.status_code == 200
    # The public reads results but does not get links into the match's own page.
    assert reverse("scoring:match", args=[played.pk]) not in response.content.decode()


def test_the_player_opens_their_own_matches_from_the_page(client, played, alice):
    client.force_login(alice.user)
    assert reverse("scoring:match", args=[played.pk]) in page(client, alice).content.decode()


def test_an_unknown_player_is_a_404(client, organiser):
    client.force_login(organiser)
    assert client.get(reverse("scoring:player", args=[999_999])).status_code == 404


def test_may_see_player_answers_for_each_kind_of_viewer(club, alice, bob, organiser):
    anonymous = permissions.Actor()
    assert not permissions.may_see_player(anonymous, alice)
    assert permissions.may_see_player(permissions.Actor(user=bob.user), alice)
    assert permissions.may_see_player(permissions.Actor(user=organiser), alice)
    admin = UserFactory(username="root", is_superuser=True)
    assert permissions.may_see_player(permissions.Actor(user=admin), alice)
    club.player_pages_public = True
    assert permissions.may_see_player(anonymous, alice)


def test_the_club_page_links_each_player_to_their_page(client, club, alice, bob, organiser):
    client.force_login(bob.user)
    html = client.get(reverse("scoring:club", args=[club.slug])).content.decode()
    assert reverse("scoring:player", args=[alice.pk]) in html


def count_queries(func) -> int:
    with CaptureQueriesContext(connection) as captured:
        func()
    return len(captured.captured_queries)


def test_the_page_reads_in_a_fixed_number_of_queries(client, club, organiser, alice, bob, played):
    client.force_login(bob.user)
    small = count_queries(lambda: page(client, alice))
    carol = PlayerFactory(club=club, name="Carol", user=UserFactory(username="carol"))
    for opponent in (bob, carol, bob, carol):
        match = start(club, alice, opponent, organiser, overrides={"game_target": 50})
        play_hand(match, alice, opponent, quick(1, kd=2, dd=40))
        play_hand(match, alice, opponent, quick(2, kd=2, dd=40))
    assert count_queries(lambda: page(client, alice)) == small


def test_organisers_open_the_player_pages_and_the_ledger_says_who(client, club, organiser, alice):
    from scoring.models import LedgerRow

    url = reverse("scoring:player-pages-setting", args=[club.slug])
    client.force_login(organiser)
    assert client.post(url, {"player_pages_public": "on"}).status_code == 302
    club.refresh_from_db()
    assert club.player_pages_public
    row = LedgerRow.objects.get(chain=f"club:{club.pk}", action="player_pages_public")
    assert row.after == {"player_pages_public": True} and row.user == organiser
    client.logout()
    assert page(client, alice).status_code == 200
    client.force_login(organiser)
    client.post(url, {})  # the box unticked
    club.refresh_from_db()
    assert not club.player_pages_public
    client.logout()
    assert page(client, alice).status_code == 404


def test_a_member_may_not_open_the_player_pages(client, club, alice):
    client.force_login(alice.user)
    response = client.post(
        reverse("scoring:player-pages-setting", args=[club.slug]), {"player_pages_public": "on"}
    )
    assert response.status_code == 403
    assert "Only the organisers of" in response.content.decode()
    club.refresh_from_db()
    assert not club.player_pages_public


def test_the_page_lists_the_latest_matches_and_links_to_all(
    client, monkeypatch, club, organiser, alice, bob, played
):
    from scoring import views_players

    monkeypatch.setattr(views_players, "MATCHES_SHOWN", 2)
    for _ in range(2):
        start(club, alice, bob, organiser)
    client.force_login(bob.user)
    html = page(client, alice).content.decode()
    rows = html[html.index('data-testid="player-matches"') :].split("</table>")[0]
    assert rows.count("<tr>") == 1 + 2  # the header and the latest two
    assert "All 3 matches" in html and "3 matches," in html
    html = client.get(reverse("scoring:player", args=[alice.pk]) + "?matches=all").content.decode()
    rows = html[html.index('data-testid="player-matches"') :].split("</table>")[0]
    assert rows.count("<tr>") == 1 + 3 and "All 3 matches" not in html
