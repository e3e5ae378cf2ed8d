"""Between rounds (issue 23, finding 7): a phone that proved a player at one table of an
event sits for them at their own next table without the PIN again, and nowhere else;
a match that is over shows the seated player where to go next."""

from __future__ import annotations

import pytest
from django.test import Client

from ginclub.permissions import table_token
from scoring import services as scoring
from scoring.models import Player
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.tournaments.helpers import actor, new_event, play_round, win
from tournaments import services
from tournaments.selectors import next_table

pytestmark = pytest.mark.django_db

PINS = {"Ada": "1111", "Ben": "2222", "Cleo": "3333", "Dan": "4444"}


@pytest.fixture
def night():
    """Round 1 (Ada v Ben, Cleo v Dan) won by Ada and Cleo and closed; round 2 (Ada v
    Cleo, Ben v Dan) published."""
    club = ClubFactory()
    organiser = UserFactory()
    club.organisers.add(organiser)
    for name, pin in PINS.items():
        PlayerFactory(club=club, name=name, pin=pin)
    event = new_event(club, organiser, players=list(PINS))
    round_1 = play_round(event, organiser, play=False, close=False)
    tables_1 = {p.player_a.player.name: p for p in round_1.pairings.all()}
    win(tables_1["Ada"], organiser, "Ada")
    win(tables_1["Cleo"], organiser, "Cleo")
    return event, organiser, tables_1


def player(name: str) -> Player:
    return Player.objects.get(name=name)


def seated_phone(match, name: str) -> Client:
    phone = Client()
    phone.get(f"/t/{table_token(match)}/")
    response = phone.post(
        f"/matches/{match.pk}/seat/", {"player": player(name).pk, "pin": PINS[name]}
    )
    assert response.status_code == 302
    return phone


def seat_of(phone: Client, match) -> str | None:
    page = phone.get(f"/matches/{match.pk}/").content.decode()
    for name in PINS:
        if f'data-testid="seated-as">You are {name}<' in page:
            return name
    return None


def round_2(event, organiser):
    rnd = event.round_set.get(number=1)
    services.close_round(round_id=rnd.pk, actor=actor(organiser))
    rnd = play_round(event, organiser, play=False, close=False)
    return {
        name: p
        for p in rnd.pairings.all()
        for name in (p.player_a.player.name, p.player_b.player.name)
    }


def test_the_next_table_is_my_event_until_the_round_is_published_then_the_match(night):
    event, organiser, tables_1 = night
    found = next_table(tables_1["Ada"].match_id, player("Ada").pk)
    assert found.match_id is None
    assert found.event_path.endswith(f"/players/{event.registrations.get(player__name='Ada').pk}/")
    tables_2 = round_2(event, organiser)
    found = next_table(tables_1["Ada"].match_id, player("Ada").pk)
    assert found.match_id == tables_2["Ada"].match_id
    assert found.words == "Round 2, table 1 v Cleo"


def test_a_private_event_gives_no_my_event_path(night):
    event, _organiser, tables_1 = night
    event.public = False
    event.save()
    assert next_table(tables_1["Ada"].match_id, player("Ada").pk).event_path is None


def test_the_table_link_of_my_next_match_seats_me_and_no_other(night):
    event, organiser, tables_1 = night
    ada = seated_phone(tables_1["Ada"].match, "Ada")
    tables_2 = round_2(event, organiser)
    assert seat_of(ada, tables_2["Ben"].match) is None  # not hers: no grant, no seat
    ada.get(f"/t/{table_token(tables_2['Ben'].match)}/")
    assert seat_of(ada, tables_2["Ben"].match) is None  # her phone, not her table
    response = ada.get(f"/t/{table_token(tables_2['Ada'].match)}/", follow=True)
    assert "This phone enters results for Ada, as at your last table." in response.content.decode()
    assert seat_of(ada, tables_2["Ada"].match) == "Ada"
    stranger = Client()
    stranger.get(f"/t/{table_token(tables_2['Ada'].match)}/")
    assert seat_of(stranger, tables_2["Ada"].match) is None


def test_a_phone_that_proved_both_players_asks(night):
    event, organiser, tables_1 = night
    shared = seated_phone(tables_1["Ada"].match, "Ada")
    cleo = tables_1["Cleo"].match
    shared.get(f"/t/{table_token(cleo)}/")
    shared.post(f"/matches/{cleo.pk}/seat/", {"player": player("Cleo").pk, "pin": "3333"})
    tables_2 = round_2(event, organiser)
    shared.get(f"/t/{table_token(tables_2['Ada'].match)}/")
    assert seat_of(shared, tables_2["Ada"].match) is None


def test_not_you_is_not_undone_by_opening_the_link_again(night):
    event, organiser, tables_1 = night
    ada = seated_phone(tables_1["Ada"].match, "Ada")
    following = round_2(event, organiser)["Ada"].match
    ada.get(f"/t/{table_token(following)}/")
    assert seat_of(ada, following) == "Ada"
    ada.post(f"/matches/{following.pk}/seat/leave/")
    ada.get(f"/t/{table_token(following)}/")
    assert seat_of(ada, following) is None


def test_go_to_my_next_table_needs_the_seat_and_seats_only_the_same_player(night):
    event, organiser, tables_1 = night
    first = tables_1["Ada"].match
    ada = seated_phone(first, "Ada")
    response = ada.get(f"/matches/{first.pk}/next/")
    registration = event.registrations.get(player__name="Ada")
    assert response["Location"].endswith(f"/players/{registration.pk}/")  # not paired yet
    following = round_2(event, organiser)["Ada"].match
    page = ada.get(f"/matches/{first.pk}/").content.decode()
    assert 'data-testid="what-next"' in page and "Round 2, table 1 v Cleo" in page
    response = ada.get(f"/matches/{first.pk}/next/")
    assert response["Location"] == f"/matches/{following.pk}/"
    assert seat_of(ada, following) == "Ada"
    # A phone that only opened the table link (seated for nobody) goes back to the match.
    onlooker = Client()
    onlooker.get(f"/t/{table_token(first)}/")
    assert onlooker.get(f"/matches/{first.pk}/next/")["Location"] == f"/matches/{first.pk}/"
    assert 'data-testid="what-next"' not in onlooker.get(f"/matches/{first.pk}/").content.decode()


def test_a_table_whose_links_were_revoked_asks_every_phone_its_pin_again(night):
    """A walk: the organiser revoked a table's links to shut out a phone, was told
    "phones must scan the new code and give their PIN again", yet every phone that
    opened the new link was seated as before. Now no seat survives a revoke: not the one
    taken at that table, nor one carried from the player's last table."""
    event, organiser, tables_1 = night
    ada = seated_phone(tables_1["Ada"].match, "Ada")
    following = round_2(event, organiser)["Ada"].match
    ada.get(f"/t/{table_token(following)}/")
    assert seat_of(ada, following) == "Ada"  # carried from round 1
    cleo = seated_phone(following, "Cleo")
    scoring.revoke_table_links(match_id=following.pk, actor=actor(organiser))
    following.refresh_from_db()
    # the phones that have not opened the new link are told why they are out
    refused = cleo.get(f"/matches/{following.pk}/")
    assert refused.status_code == 403
    assert "withdrawn by the organiser" in refused.content.decode()
    new_link = f"/t/{table_token(following)}/"
    for phone in (ada, cleo):
        assert phone.get(new_link).status_code == 302
        assert seat_of(phone, following) is None  # the PIN again
    assert seat_of(seated_phone(following, "Cleo"), following) == "Cleo"
