"""Fixing the hand that ended a game (issue 8, finding 2): while the next game has no
hands it goes away with the change, in one transaction and on the ledger; once it has
hands, the refusal names them."""

from __future__ import annotations

import pytest

from ginclub import ledger
from ginclub.errors import Conflict
from scoring import services
from scoring.models import Game, Hand, LedgerRow, Match
from tests.scoring.helpers import key, play_hand, quick, start, submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def ended(club, alice, bob, organiser):
    """Tournament profile (250, best of five): Alice knocks twice for 85 − 5 = 80 (160),
    then gins, 65 + 25 = 90: 250 ends game 1 at hand 3 and game 2 starts empty. The fix
    is 60, not 65 deadwood: 160 + 85 = 245, and game 1 goes on."""
    match = start(club, alice, bob, organiser, profile="tournament")
    play_hand(match, alice, bob, quick(number=1, kd=5, dd=85))
    play_hand(match, alice, bob, quick(number=2, kd=5, dd=85))
    last = play_hand(match, alice, bob, quick(number=3, kd=0, dd=65, outcome="gin"))
    return match, last


def organiser_actor(organiser):
    return services.Actor(user=organiser)


def correct(hand, organiser, hand_input, reason="245, not 250"):
    hand.refresh_from_db()
    return services.correct_hand(
        hand_id=hand.pk,
        actor=organiser_actor(organiser),
        hand_input=hand_input,
        version=hand.version,
        reason=reason,
        idempotency_key=key(),
    )


def void(hand, organiser, reason="entered twice"):
    hand.refresh_from_db()
    return services.void_hand(
        hand_id=hand.pk,
        actor=organiser_actor(organiser),
        version=hand.version,
        reason=reason,
        idempotency_key=key(),
    )


def test_the_game_really_ended_and_game_2_is_empty(ended):
    match, last = ended
    game1 = match.games.get(number=1)
    assert game1.state == Game.State.FINISHED and game1.hand_points_a == 250
    assert match.games.get(number=2).hands.count() == 0


def test_correcting_the_game_ending_hand_removes_the_empty_next_game(ended, organiser):
    match, last = ended
    game1 = match.games.get(number=1)
    points_before = game1.hand_points_a
    # 5 less deadwood caught: the game no longer reaches 250
    correct(last, organiser, quick(number=3, kd=0, dd=60, outcome="gin"))
    match.refresh_from_db()
    game1.refresh_from_db()
    assert game1.state == Game.State.IN_PROGRESS
    assert (points_before, game1.hand_points_a) == (250, 245)
    assert list(match.games.values_list("number", flat=True)) == [1]
    assert match.state == Match.State.IN_PROGRESS
    row = LedgerRow.objects.get(match=match, action="game_removed")
    assert row.before == {"game": 2, "first_dealer": row.before["first_dealer"]}
    assert "Game 1 no longer ends" in row.reason
    assert row.actor == organiser_actor(organiser).label
    assert ledger.verify() == []


def test_play_goes_on_in_game_1_after_the_fix(ended, organiser, alice, bob):
    match, last = ended
    correct(last, organiser, quick(number=3, kd=0, dd=60, outcome="gin"))
    hand = play_hand(match, alice, bob, quick(number=4, kd=0, dd=10, outcome="gin"))
    assert hand.game.number == 1
    assert match.games.get(number=1).state == Game.State.FINISHED
    assert match.games.get(number=2).hands.count() == 0  # a fresh game 2


def test_voiding_the_game_ending_hand_removes_the_empty_next_game(ended, organiser):
    match, last = ended
    void(last, organiser)
    assert list(match.games.values_list("number", flat=True)) == [1]
    assert match.games.get(number=1).state == Game.State.IN_PROGRESS
    assert LedgerRow.objects.filter(match=match, action="game_removed").count() == 1


def test_once_the_next_game_has_hands_the_refusal_names_them(ended, organiser, alice, bob):
    match, last = ended
    play_hand(match, alice, bob, quick(number=1, game=2, kd=5, dd=20))
    submit(match, bob, quick(number=2, game=2, knocker="B", kd=5, dd=20))
    rows, games = LedgerRow.objects.count(), Game.objects.count()
    with pytest.raises(Conflict) as caught:
        correct(last, organiser, quick(number=3, kd=0, dd=60, outcome="gin"))
    assert caught.value.code == "game_reopened"
    assert caught.value.message == (
        "This change would leave game 1 unfinished, but game 2 already has hands 1 and 2: "
        "void them (last first), then make this change."
    )
    assert (LedgerRow.objects.count(), Game.objects.count()) == (rows, games)
    last.refresh_from_db()
    assert last.defender_deadwood == 65  # nothing changed


def test_a_next_game_holding_only_voided_hands_stays_dormant_and_play_resumes(
    ended, organiser, alice, bob
):
    """As the refusal above says: void the hands in the way, then fix the hand. Game 2
    keeps its voided hand on record and is the game that follows once game 1 ends."""
    match, last = ended
    in_the_way = play_hand(match, alice, bob, quick(number=1, game=2, kd=5, dd=20))
    void(in_the_way, organiser)
    correct(last, organiser, quick(number=3, kd=0, dd=60, outcome="gin"))
    assert [(g.number, g.state) for g in match.games.order_by("number")] == [
        (1, Game.State.IN_PROGRESS),
        (2, Game.State.IN_PROGRESS),
    ]
    with pytest.raises(Conflict) as caught:  # hands still go to game 1
        submit(match, alice, quick(number=1, game=2))
    assert caught.value.code == "wrong_game"
    play_hand(match, alice, bob, quick(number=4, kd=0, dd=10, outcome="gin"))
    # game 1 ends again; the next hand of game 2 takes the next number after the voided one
    hand = play_hand(match, alice, bob, quick(number=2, game=2, kd=5, dd=20))
    assert (hand.game.number, hand.number) == (2, 2)
    assert match.games.get(number=2).hand_points_a == 15  # 20 − 5
    assert Hand.objects.filter(game__match=match).count() == 6
    assert ledger.verify() == []
