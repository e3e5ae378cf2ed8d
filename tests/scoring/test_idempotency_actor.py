"""An idempotency key replays only for the actor who made the entry (issue 24, finding 7):
anyone else sending that key and body, the opponent, another organiser or a link holder
who never sat down, is refused without learning anything of the original answer."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from ginclub.errors import Conflict, Forbidden
from ginclub.permissions import table_token
from scoring import services
from scoring.models import Entry
from tests.factories import UserFactory
from tests.scoring.helpers import as_player, quick, submit

pytestmark = pytest.mark.django_db

BODY = {
    "game": 1,
    "number": 1,
    "outcome": "knock",
    "knocker": "A",
    "knocker_deadwood": 5,
    "defender_deadwood": 20,
    "idempotency_key": "alice-phone-1",
}


def test_the_opponent_sending_a_players_key_and_body_is_refused(match, alice, bob):
    submit(match, alice, quick(), idempotency_key="k1")
    with pytest.raises(Conflict) as caught:
        submit(match, bob, quick(), idempotency_key="k1")
    assert caught.value.code == "idempotency_key_in_use"
    assert "Alice" not in caught.value.message
    assert Entry.objects.filter(match=match).count() == 1


def test_the_enterer_still_gets_the_replay(match, alice):
    first = submit(match, alice, quick(), idempotency_key="k1")
    again = submit(match, alice, quick(), idempotency_key="k1")
    assert again.replayed and again.response == first.response


def test_another_actors_hand_action_key_is_refused(match, alice, bob, organiser):
    hand = submit(match, alice, quick()).hand
    services.confirm_hand(hand_id=hand.pk, actor=as_player(bob), version=1, idempotency_key="c1")
    other = UserFactory()
    match.club.organisers.add(other)
    with pytest.raises(Conflict) as caught:
        services.confirm_hand(
            hand_id=hand.pk, actor=services.Actor(user=other), version=1, idempotency_key="c1"
        )
    assert caught.value.code == "idempotency_key_in_use"
    replay = services.confirm_hand(
        hand_id=hand.pk, actor=as_player(bob), version=1, idempotency_key="c1"
    )
    assert replay.replayed


def test_permission_is_asked_before_the_replay(match, alice, club):
    from tests.factories import PlayerFactory

    submit(match, alice, quick(), idempotency_key="k1")
    carol = PlayerFactory(club=club, name="Carol")
    with pytest.raises(Forbidden):
        submit(match, carol, quick(), idempotency_key="k1")


def test_over_the_api_the_opponent_gets_a_409_without_the_original_answer(match, alice, bob):
    mine, theirs = APIClient(), APIClient()
    mine.force_authenticate(alice.user)
    theirs.force_authenticate(bob.user)
    url = f"/api/matches/{match.pk}/hands/"
    assert mine.post(url, BODY, format="json").status_code == 201
    response = theirs.post(url, BODY, format="json")
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "idempotency_key_in_use" and "hand" not in response.json()
    assert set(error) == {"code", "message", "fields"}


def test_over_the_api_a_link_holder_who_never_sat_down_is_refused(match, alice):
    mine = APIClient()
    mine.force_authenticate(alice.user)
    url = f"/api/matches/{match.pk}/hands/"
    assert mine.post(url, BODY, format="json").status_code == 201
    visitor = APIClient()
    visitor.get(f"/t/{table_token(match)}/")
    response = visitor.post(url, BODY, format="json")
    assert response.status_code in (401, 403)
    assert "hand" not in response.json()
