"""Two phones, one hand (issue 9, traps 6 and 12): what the services do when both
players save the same hand, and how a disputed hand is settled by the players."""

from __future__ import annotations

import pytest

from ginclub.errors import Conflict, Forbidden
from scoring import services
from scoring.models import Entry, Hand
from scoring.selectors import match_view
from tests.scoring.helpers import as_player, confirm, key, quick, submit

pytestmark = pytest.mark.django_db


def test_the_same_figures_saved_by_the_opponent_confirm_the_hand(match, alice, bob):
    submit(match, alice, quick(kd=4, dd=30))
    hand = submit(match, bob, quick(kd=4, dd=30)).hand
    hand.refresh_from_db()
    assert hand.state == Hand.State.CONFIRMED
    assert hand.entries.filter(kind=Entry.Kind.SUBMIT).count() == 2
    game = match.games.get(number=1)
    assert (game.hand_points_a, game.hand_points_b) == (26, 0)


def test_other_figures_saved_by_the_opponent_are_refused_naming_both_entries(match, alice, bob):
    submit(match, alice, quick(kd=4, dd=30))
    with pytest.raises(Conflict) as caught:
        submit(match, bob, quick(kd=5, dd=30))
    assert caught.value.code == "hand_exists"
    assert "knocker's deadwood: 4 (Alice) vs 5 (you)" in caught.value.message
    assert caught.value.fields == {
        "knocker_deadwood": "Alice: 4; you: 5",
        "points": "Alice: 26; you: 25",
    }
    hand = Hand.objects.get(game__match=match)
    assert hand.state == Hand.State.PENDING
    assert hand.entries.count() == 1  # nothing of Bob's entry was written


def test_the_same_player_saving_twice_is_still_refused(match, alice):
    submit(match, alice, quick(kd=4, dd=30))
    with pytest.raises(Conflict) as caught:
        submit(match, alice, quick(kd=4, dd=30))
    assert caught.value.code == "hand_exists"


def test_the_disputer_settles_a_disputed_hand_by_confirming_it_after_all(match, alice, bob):
    hand = submit(match, alice, quick(kd=4, dd=30)).hand
    services.dispute_hand(
        hand_id=hand.pk, actor=as_player(bob), version=1, reason="4?", idempotency_key=key()
    )
    with pytest.raises(Forbidden):
        confirm(hand, alice)
    confirm(hand, bob)
    hand.refresh_from_db()
    assert hand.state == Hand.State.CONFIRMED


def test_in_double_entry_the_second_enterer_may_accept_the_first_entry(double_match, alice, bob):
    submit(double_match, alice, quick(kd=5, dd=30))
    hand = submit(double_match, bob, quick(kd=7, dd=30)).hand
    assert hand.state == Hand.State.DISPUTED
    with pytest.raises(Forbidden):
        confirm(hand, alice)
    confirm(hand, bob)
    hand.refresh_from_db()
    assert (hand.state, hand.knocker_deadwood) == (Hand.State.CONFIRMED, 5)


def test_the_players_see_who_entered_a_hand_and_an_organisers_correction(
    match, alice, bob, organiser
):
    hand = submit(match, alice, quick(kd=4, dd=30)).hand
    confirm(hand, bob)
    hand.refresh_from_db()
    services.correct_hand(
        hand_id=hand.pk,
        actor=services.Actor(user=organiser),
        hand_input=quick(kd=5, dd=30),
        version=hand.version,
        reason="misread a card",
        idempotency_key=key(),
    )
    services.submit_hand(
        match_id=match.pk,
        actor=services.Actor(user=organiser),
        hand=quick(2),
        idempotency_key=key(),
    )
    first, second = match_view(match.pk).games[0].hand_list
    assert first.entered_names == ["Alice"] and not first.by_organiser
    assert first.correction == {
        "before": "knock by Alice, deadwood 4 v 30: Alice +26",
        "reason": "misread a card",
    }
    assert second.by_organiser and second.correction is None
