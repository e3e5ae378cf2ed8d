"""A player's events on their page (tournaments.selectors.events through scoring.hooks): the record
in each, results the organisers hide kept from other viewers, and standings names linked
to the players' pages for those who may read them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import stats
from scoring.services import Actor
from tests.factories import UserFactory
from tests.tournaments.helpers import new_event, play_round, reg
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def member(club):
    """A club member who plays in none of the events."""
    from tests.factories import PlayerFactory

    return PlayerFactory(club=club, name="Member", user=UserFactory(username="member"))


def event_line(player, user, name):
    record = stats.player_record(player, Actor(user=user))
    return next(e for e in record.events if e.name == name), record


def test_the_record_of_each_event(club, organiser, member):
    event = new_event(club, organiser, players=4, rounds=3, name="Autumn Open")
    # Round 1 pairs in list order: P01 v P02, P03 v P04. P01 wins; round 2 pairs the
    # winners (P01 v P03), and P03 wins there.
    play_round(event, organiser, {"P01": "2-0", "P03": "2-0"})
    play_round(event, organiser, {"P03": "2-1", "P02": "2-0"})
    p01 = reg(event, "P01").player
    line, record = event_line(p01, member.user, "Autumn Open")
    assert (line.won, line.lost, line.drawn, line.byes, line.undecided) == (1, 1, 0, 0, 0)
    assert line.record_shown and line.path == reverse("tournaments:public", args=[event.slug])
    assert len(line.match_ids) == 2
    assert {m.result for m in record.matches} == {"won", "lost"}
    assert [m.place.split(" · ")[0] for m in record.matches] == ["Autumn Open"] * 2


def test_hidden_last_rounds_stay_hidden_from_members_not_organisers(club, organiser, member):
    # The last three rounds of three are hidden: round 1 is one of them (as on the
    # event's public standings, tournaments.selectors.hidden_after).
    event = new_event(club, organiser, players=4, rounds=3, name="Secret Cup", hide_last_rounds=3)
    play_round(event, organiser, {"P01": "2-0", "P03": "2-0"})
    p01 = reg(event, "P01").player
    assert Tournament.objects.get(pk=event.pk).state != Tournament.State.FINISHED
    line, record = event_line(p01, member.user, "Secret Cup")
    assert not line.record_shown
    assert [m.result for m in record.matches] == ["hidden"]
    # Nothing of the hidden match counts: no hands, no finished games, no head to head.
    assert (record.hands, record.games, record.head_to_head) == (0, 0, [])
    line, record = event_line(p01, organiser, "Secret Cup")
    assert line.record_shown and line.won == 1
    assert record.hands == 2 and record.head_to_head[0].won == 1


def test_a_round_before_the_hidden_last_rounds_reads_as_on_the_public_standings(
    club, organiser, member
):
    event = new_event(club, organiser, players=4, rounds=3, name="Open Cup", hide_last_rounds=1)
    play_round(event, organiser, {"P01": "2-0", "P03": "2-0"})
    p01 = reg(event, "P01").player
    line, record = event_line(p01, member.user, "Open Cup")
    assert line.record_shown and line.won == 1
    assert [m.result for m in record.matches] == ["won"]


def test_a_private_event_is_listed_only_to_those_who_may_open_it(club, organiser, member):
    event = new_event(club, organiser, players=2, rounds=1, name="Invitational", public=False)
    play_round(event, organiser)
    p01 = reg(event, "P01").player
    assert stats.player_record(p01, Actor(user=member.user)).events == ()
    assert [e.name for e in stats.player_record(p01, Actor(user=organiser)).events]


def test_standings_link_names_to_player_pages_for_those_who_may_read_them(
    client, club, organiser, member
):
    event = new_event(club, organiser, players=4, rounds=3, name="Links Open")
    play_round(event, organiser)
    p01 = reg(event, "P01").player
    page = reverse("scoring:player", args=[p01.pk])
    url = reverse("tournaments:public-standings", args=[event.slug])
    assert page not in client.get(url).content.decode()  # the public: pages are private
    client.force_login(member.user)
    assert page in client.get(url).content.decode()
    table = reverse("tournaments:standings-table", args=[event.slug])
    assert page in client.get(table).content.decode()
    client.force_login(organiser)
    manage = reverse("tournaments:standings", args=[event.slug])
    assert page in client.get(manage).content.decode()
    club.player_pages_public = True
    club.save()
    client.logout()
    assert page in client.get(url).content.decode()
