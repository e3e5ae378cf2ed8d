"""The hand flow through the services: entry, agreement, progress, corrections, closing."""

from __future__ import annotations

import pytest
from django.test import Client

from ginclub.errors import Conflict, Forbidden, ServiceError
from scoring import services
from scoring.hand_input import HandInput
from scoring.models import Entry, Game, Hand, LedgerRow, Match
from scoring.rules import RulesError
from tests.scoring.helpers import as_player, confirm, key, play_hand, quick, start, submit

pytestmark = pytest.mark.django_db


def db_state():
    return (
        Hand.objects.count(),
        Entry.objects.count(),
        LedgerRow.objects.count(),
        Game.objects.count(),
    )


def test_entered_hand_is_pending_until_the_opponent_confirms(match, alice, bob):
    outcome = submit(match, alice, quick(kd=5, dd=20))
    hand = outcome.hand
    assert hand.state == Hand.State.PENDING
    assert (hand.winner, hand.points, hand.explanation) == ("A", 15, hand.explanation)
    assert "15" in hand.explanation
    confirm(hand, bob)
    hand.refresh_from_db()
    assert hand.state == Hand.State.CONFIRMED
    game = match.games.get(number=1)
    assert (game.hand_points_a, game.hand_points_b) == (15, 0)


def test_the_enterer_cannot_confirm_their_own_entry(match, alice):
    hand = submit(match, alice, quick()).hand
    with pytest.raises(Forbidden) as caught:
        confirm(hand, alice)
    assert caught.value.code == "own_entry"


def test_undercut_pays_the_defender(match, alice, bob):
    hand = play_hand(match, alice, bob, quick(knocker="A", kd=9, dd=8))
    assert (hand.outcome, hand.winner, hand.points) == ("undercut", "B", 26)


def test_card_entry_computes_deadwood_layoffs_and_score(match, alice, bob):
    hand_input = HandInput(
        game=1,
        number=1,
        outcome="knock",
        knocker="A",
        knocker_cards=tuple("5H 6H 7H 9C 9D 9S JS QS KS 2D".split()),
        defender_cards=tuple("8H 9H KD KC KH 3C 4C 5C AS 7D".split()),
    )
    hand = submit(match, alice, hand_input).hand
    assert (hand.knocker_deadwood, hand.defender_deadwood, hand.points) == (2, 8, 6)
    assert sorted(hand.cards["laid_off"]) == ["8H", "9H"]


def test_dead_hand_needs_no_numbers_and_the_same_dealer_deals_again(match, alice, bob):
    dealer_before = submit(match, alice, quick(outcome="dead", knocker="", kd=None, dd=None)).hand
    confirm(dealer_before, bob)
    dealer_before.refresh_from_db()
    assert (dealer_before.outcome, dealer_before.points, dealer_before.winner) == ("dead", 0, "")
    second = submit(match, alice, quick(number=2)).hand
    assert second.dealer == dealer_before.dealer


def test_game_finishes_at_the_target_with_bonuses_and_the_next_game_starts(match, alice, bob):
    for number in range(1, 5):  # 4 hands of 25 each: 100 reaches the standard target
        play_hand(match, alice, bob, quick(number=number, kd=0, dd=0, outcome="gin"))
    game = match.games.get(number=1)
    assert game.state == Game.State.FINISHED and game.winner == "A"
    # 100 points + 100 game bonus + 4 boxes x 25, doubled for the shutout
    assert game.total_a == (100 + 100 + 4 * 25) * 2
    match.refresh_from_db()
    assert match.state == Match.State.FINISHED  # standard: one game wins the match
    assert match.winner == "A" and match.games_won_a == 1


def test_a_game_cannot_finish_on_an_unconfirmed_hand(match, alice, bob):
    for number in range(1, 4):
        play_hand(match, alice, bob, quick(number=number, kd=0, dd=0, outcome="gin"))
    submit(match, alice, quick(number=4, kd=0, dd=0, outcome="gin"))
    game = match.games.get(number=1)
    assert game.state == Game.State.IN_PROGRESS
    with pytest.raises(Conflict) as caught:
        submit(match, alice, quick(number=5))
    assert caught.value.code == "game_decided"
    # the hand form says so before anyone types hand 5 (a walk typed one to be refused)
    said = "The hands entered already end game 1; confirm them (or dispute one) before"
    organiser = Client()
    organiser.force_login(match.created_by)
    assert said in organiser.get(f"/matches/{match.pk}/").content.decode()
    confirm(Hand.objects.get(game=game, number=4), bob)  # game 1 ends: game 2's form
    assert said not in organiser.get(f"/matches/{match.pk}/").content.decode()


def test_next_hand_may_be_entered_while_one_is_pending(match, alice, bob):
    submit(match, alice, quick(number=1))
    second = submit(match, bob, quick(number=2, knocker="B")).hand
    assert second.state == Hand.State.PENDING


def test_best_of_five_match_ends_when_a_player_has_won_three_games(club, alice, bob, organiser):
    match = start(
        club,
        alice,
        bob,
        organiser,
        profile="standard",
        overrides={"games_to_win": 3, "game_target": 50},
    )
    for game in range(1, 4):
        play_hand(match, alice, bob, quick(number=1, game=game, kd=0, dd=40, outcome="gin"))
    match.refresh_from_db()
    assert (match.state, match.winner, match.games_won_a, match.games_won_b) == (
        Match.State.FINISHED,
        "A",
        3,
        0,
    )
    assert match.games.count() == 3


def test_double_entry_equal_entries_confirm_the_hand(double_match, alice, bob):
    submit(double_match, alice, quick(kd=4, dd=30))
    hand = submit(double_match, bob, quick(kd=4, dd=30)).hand
    assert hand.state == Hand.State.CONFIRMED
    assert hand.entries.filter(kind=Entry.Kind.SUBMIT).count() == 2


def test_double_entry_different_entries_dispute_and_name_the_fields(double_match, alice, bob):
    submit(double_match, alice, quick(kd=5, dd=30))
    outcome = submit(double_match, bob, quick(kd=7, dd=30))
    assert outcome.hand.state == Hand.State.DISPUTED
    assert outcome.response["differences"]["knocker_deadwood"] == [5, 7]
    from scoring.hand_input import describe_differences

    assert "knocker's deadwood: 5 vs 7" in describe_differences(outcome.response["differences"])


def test_double_entry_refuses_a_second_entry_from_the_same_seat(double_match, alice):
    submit(double_match, alice, quick())
    with pytest.raises(Conflict) as caught:
        submit(double_match, alice, quick())
    assert caught.value.code == "hand_exists"


def test_withdraw_voids_a_pending_entry_and_keeps_it_on_record(match, alice, bob):
    hand = submit(match, alice, quick()).hand
    services.withdraw_hand(
        hand_id=hand.pk, actor=as_player(alice), version=1, idempotency_key=key()
    )
    hand.refresh_from_db()
    assert hand.state == Hand.State.VOIDED
    assert Hand.objects.filter(pk=hand.pk).exists()
    # issue 23, trap 6: the hand is entered again under its own number, as on paper
    with pytest.raises(Conflict) as caught:
        submit(match, alice, quick(number=2))
    assert caught.value.code == "wrong_hand_number"
    again = submit(match, alice, quick(number=1)).hand
    assert (again.number, again.state) == (1, Hand.State.PENDING)
    assert again.pk != hand.pk  # the withdrawn entry stays on record, its own row
    confirm(again, bob)
    assert submit(match, alice, quick(number=2)).hand.number == 2


def test_an_organisers_void_keeps_the_hand_number_on_record(match, alice, bob, organiser):
    hand = submit(match, alice, quick()).hand
    services.void_hand(
        hand_id=hand.pk,
        actor=services.Actor(user=organiser),
        version=1,
        reason="misdeal",
        idempotency_key=key(),
    )
    assert submit(match, alice, quick(number=2)).hand.number == 2


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "Say what is wrong with hand 1: a dispute needs a reason."),
        ("it", "Di' cosa non va nella mano 1: una contestazione ha bisogno di un motivo."),
    ],
)
def test_a_dispute_without_a_reason_is_refused_and_writes_nothing(
    match, alice, bob, language, message
):
    from django.utils import translation

    hand = submit(match, alice, quick()).hand
    before = db_state()
    with translation.override(language), pytest.raises(ServiceError) as caught:
        services.dispute_hand(
            hand_id=hand.pk, actor=as_player(bob), version=1, reason="  ", idempotency_key=key()
        )
    assert (caught.value.code, caught.value.message) == ("reason_required", message)
    assert db_state() == before
    hand.refresh_from_db()
    assert hand.state == Hand.State.PENDING


def test_only_the_enterer_withdraws(match, alice, bob):
    hand = submit(match, alice, quick()).hand
    with pytest.raises(Forbidden):
        services.withdraw_hand(
            hand_id=hand.pk, actor=as_player(bob), version=1, idempotency_key=key()
        )


def test_correction_needs_a_reason_makes_a_new_version_and_recomputes(match, alice, bob, organiser):
    hand = play_hand(match, alice, bob, quick(kd=5, dd=20))
    with pytest.raises(ServiceError) as caught:
        services.correct_hand(
            hand_id=hand.pk,
            actor=services.Actor(user=organiser),
            hand_input=quick(kd=5, dd=40),
            version=hand.version,
            reason=" ",
            idempotency_key=key(),
        )
    assert caught.value.code == "reason_required"
    services.correct_hand(
        hand_id=hand.pk,
        actor=services.Actor(user=organiser),
        hand_input=quick(kd=5, dd=40),
        version=hand.version,
        reason="defender miscounted",
        idempotency_key=key(),
    )
    hand.refresh_from_db()
    assert (hand.version, hand.points, hand.state) == (2, 35, Hand.State.CONFIRMED)
    assert match.games.get(number=1).hand_points_a == 35
    row = LedgerRow.objects.filter(action="hand_corrected").get()
    assert row.reason == "defender miscounted"
    assert (row.before["points"], row.after["points"]) == (15, 35)


def test_stale_version_is_refused_with_conflict(match, alice, bob, organiser):
    hand = play_hand(match, alice, bob, quick())
    actor = services.Actor(user=organiser)
    services.correct_hand(
        hand_id=hand.pk,
        actor=actor,
        hand_input=quick(dd=30),
        version=1,
        reason="fix",
        idempotency_key=key(),
    )
    with pytest.raises(Conflict) as caught:
        services.correct_hand(
            hand_id=hand.pk,
            actor=actor,
            hand_input=quick(dd=40),
            version=1,
            reason="fix again",
            idempotency_key=key(),
        )
    assert caught.value.code == "stale_version" and caught.value.status == 409


@pytest.mark.parametrize(("played", "corrected"), [(2, 1), (4, 2)])
def test_correction_that_would_end_a_game_before_later_hands_is_refused(
    match, alice, bob, organiser, played, corrected
):
    hands = [
        play_hand(match, alice, bob, quick(number=n, kd=5, dd=20)) for n in range(1, played + 1)
    ]
    hand = hands[corrected - 1]
    before = db_state()
    with pytest.raises(Conflict) as caught:
        services.correct_hand(
            hand_id=hand.pk,
            actor=services.Actor(user=organiser),
            hand_input=quick(number=corrected, outcome="gin", kd=0, dd=98),
            version=hand.version,
            reason="was gin",
            idempotency_key=key(),
        )
    assert caught.value.code == "hands_after_game_end"
    # the hand the correction would end the game at, not the last one or the first
    assert f"end game 1 at hand {corrected}," in caught.value.message
    assert db_state() == before


def test_closed_match_refuses_entries_until_reopened_with_a_reason(club, alice, bob, organiser):
    match = start(club, alice, bob, organiser, overrides={"game_target": 10})
    play_hand(match, alice, bob, quick(kd=0, dd=30, outcome="gin"))
    actor = services.Actor(user=organiser)
    services.close_match(match_id=match.pk, actor=actor)
    with pytest.raises(Conflict) as caught:
        services.void_hand(
            hand_id=Hand.objects.get().pk, actor=actor, version=1, reason="x", idempotency_key=key()
        )
    assert caught.value.code == "match_closed" and caught.value.status == 409
    with pytest.raises(ServiceError):
        services.reopen_match(match_id=match.pk, actor=actor, reason="")
    services.reopen_match(match_id=match.pk, actor=actor, reason="score sheet error")
    match.refresh_from_db()
    assert match.state == Match.State.FINISHED


def test_closing_an_unfinished_match_is_refused(match, organiser):
    with pytest.raises(Conflict):
        services.close_match(match_id=match.pk, actor=services.Actor(user=organiser))


@pytest.mark.parametrize(
    ("hand_input", "code", "message"),
    [
        (
            HandInput(
                game=1,
                number=1,
                outcome="knock",
                knocker="A",
                knocker_cards=tuple("5H 6H 7H 9C 9D 9S JS QS KS ZZ".split()),
                defender_cards=tuple("8H 9H KD KC KH 3C 4C 5C AS 7D".split()),
            ),
            "bad_card",
            "ZZ",
        ),
        (
            HandInput(
                game=1,
                number=1,
                outcome="knock",
                knocker="A",
                knocker_cards=tuple("5H 6H 7H 9C 9D 9S JS QS KS 2D".split()),
                defender_cards=tuple("8H 9H KD KC KH 3C 4C 5C AS 5H".split()),
            ),
            "duplicate_card",
            "5H appears twice",
        ),
        (
            HandInput(
                game=1,
                number=1,
                outcome="knock",
                knocker="A",
                knocker_cards=tuple("5H 6H 7H 9C 9D 9S JS QS KS".split()),
                defender_cards=tuple("8H 9H KD KC KH 3C 4C 5C AS 7D".split()),
            ),
            "wrong_card_count",
            "9",
        ),
        (
            HandInput(
                game=1,
                number=1,
                outcome="knock",
                knocker="A",
                knocker_cards=tuple("5H 6H 7H 9C 9D 9S JS QS KS 2D".split()),
                defender_cards=tuple("8H 9H KD KC KH 3C 4C 5C AS 7D".split()),
                knocker_melds=(("QS", "KS", "JS"), ("9C", "9D", "2D")),
            ),
            "invalid_meld",
            "9C 9D 2D",
        ),
        (quick(kd=12, dd=30), "illegal_knock", "deadwood 12 is over the knock limit 10"),
        (quick(kd=5, dd=99), None, "98"),
        (quick(kd=-1, dd=20), None, "-1"),
    ],
    ids=[
        "bad-card",
        "duplicate-card",
        "wrong-count",
        "invalid-meld",
        "illegal-knock",
        "deadwood-over-98",
        "negative-deadwood",
    ],
)
def test_bad_hand_is_refused_with_a_clear_message_and_writes_nothing(
    match, alice, hand_input, code, message
):
    before = db_state()
    with pytest.raises(RulesError) as caught:
        submit(match, alice, hand_input)
    if code:
        assert caught.value.code == code
    assert message in caught.value.message
    assert db_state() == before


def test_hand_for_a_finished_game_is_refused(club, alice, bob, organiser):
    match = start(club, alice, bob, organiser, overrides={"game_target": 10, "games_to_win": 2})
    play_hand(match, alice, bob, quick(kd=0, dd=30, outcome="gin"))
    before = db_state()
    with pytest.raises(Conflict) as caught:
        submit(match, alice, quick(number=2, game=1))
    assert caught.value.code == "game_finished"
    assert "game 2" in caught.value.message
    assert db_state() == before


def test_a_player_not_in_the_match_is_refused(match, club):
    from tests.factories import PlayerFactory

    carol = PlayerFactory(club=club, name="Carol")
    before = db_state()
    with pytest.raises(Forbidden) as caught:
        submit(match, carol, quick())
    assert caught.value.code == "not_in_match" and "Carol" in caught.value.message
    assert db_state() == before


def test_retry_with_the_same_key_returns_the_same_response_and_writes_nothing(match, alice):
    first = submit(match, alice, quick(), idempotency_key="k1")
    before = db_state()
    again = submit(match, alice, quick(), idempotency_key="k1")
    assert again.replayed and again.response == first.response
    assert db_state() == before


def test_reused_key_with_a_different_payload_is_refused(match, alice):
    submit(match, alice, quick(), idempotency_key="k1")
    with pytest.raises(Conflict) as caught:
        submit(match, alice, quick(dd=30), idempotency_key="k1")
    assert caught.value.code == "idempotency_conflict"


def test_wrong_pins_are_throttled_per_player_and_table(match, alice):
    for _ in range(services.PIN_FAILURE_LIMIT):
        with pytest.raises(Forbidden):
            services.verify_pin(match=match, player=alice, pin="0000")
    from ginclub.errors import Throttled

    with pytest.raises(Throttled):
        services.verify_pin(match=match, player=alice, pin="1234")  # even the right one


def test_next_dealer_alternates_by_default(match, alice, bob):
    first = play_hand(match, alice, bob, quick(number=1))
    second = submit(match, alice, quick(number=2)).hand
    assert first.dealer == "A" and second.dealer == "B"


def test_reopening_a_match_stopped_undecided_lets_it_go_on(match, organiser, alice, bob):
    org = services.Actor(user=organiser)
    services.stop_match(match_id=match.pk, actor=org, reason="time called, result by hand")
    services.reopen_match(match_id=match.pk, actor=org, reason="result recorded in error")
    match.refresh_from_db()
    assert (match.state, match.winner) == (Match.State.IN_PROGRESS, "")
    assert play_hand(match, alice, bob, quick()).state == Hand.State.CONFIRMED
