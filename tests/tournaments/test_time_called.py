"""Time called stops play (issue 9, trap 2; docs/rules.md §13): each table enters exactly
the hand in play after the call, then no new hand may start (scoring asks tournaments
through its play gate); the round's policy decides only tables whose time is up; an
organiser gives one table more time (minutes or hands) or undoes a mistaken call."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from ginclub.errors import Conflict, ServiceError
from scoring import services as scoring
from scoring.hand_input import HandInput
from scoring.models import Match
from tests.tournaments.helpers import actor, new_event, play_hand
from tournaments import selectors, services
from tournaments.models import Pairing, Round
from tournaments.selectors.play import clock_time

SMALL = {"kd": 5, "dd": 10}  # 5 points: the QUICK game (to 25) goes on


def published_round(event, organiser) -> Round:
    rnd = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    return services.publish_round(round_id=rnd.pk, actor=actor(organiser))


@pytest.fixture
def table(club, organiser):
    """Ada and Ben at table 1 of a published round, one hand played (seat A 5)."""
    event = new_event(club, organiser, players=["Ada", "Ben"])
    rnd = published_round(event, organiser)
    pairing = rnd.pairings.select_related("match", "player_a__player", "player_b__player").get()
    play_hand(pairing.match, organiser, game=1, number=1, winner="A", **SMALL)
    return pairing


def _both(pairing) -> str:
    return f"{pairing.player_a.player.name} and {pairing.player_b.player.name}"


def _call(pairing, organiser) -> str:
    rnd = services.call_time(round_id=pairing.round_id, actor=actor(organiser))
    return clock_time(rnd.time_called_at)


def _ada_enters(pairing, number: int, key: str) -> None:
    scoring.submit_hand(
        match_id=pairing.match_id,
        actor=scoring.Actor(player=pairing.player_a.player),
        hand=HandInput(
            game=1,
            number=number,
            outcome="knock",
            knocker="A",
            knocker_deadwood=5,
            defender_deadwood=10,
        ),
        idempotency_key=key,
    )


def test_after_the_call_a_table_enters_the_hand_in_play_and_then_no_new_hand(table, organiser):
    at = _call(table, organiser)
    play_hand(table.match, organiser, game=1, number=2, winner="B", **SMALL)  # in play
    with pytest.raises(Conflict) as refused:
        play_hand(table.match, organiser, game=1, number=3, winner="A", **SMALL)
    assert refused.value.code == "time_called"
    assert refused.value.message == (
        f"Time was called at {at}: {_both(table)} finish the hand in play; no new hand "
        "(hand 2 of game 1 was the hand in play)."
    )
    assert table.match.games.get().hands.count() == 2  # nothing half written


def test_a_hand_entered_before_the_call_is_not_the_hand_in_play(table, organiser):
    _ada_enters(table, 2, "before")  # pending: entered before the call
    _call(table, organiser)
    hand = table.match.games.get().hands.get(number=2)
    scoring.confirm_hand(
        hand_id=hand.pk,
        actor=scoring.Actor(player=table.player_b.player),
        version=hand.version,
        idempotency_key="confirm",
    )  # confirming is no new hand
    play_hand(table.match, organiser, game=1, number=3, winner="A", **SMALL)  # in play
    with pytest.raises(Conflict, match="no new hand"):
        play_hand(table.match, organiser, game=1, number=4, winner="A", **SMALL)


def test_a_withdrawn_hand_in_play_may_be_entered_again(table, organiser):
    _call(table, organiser)
    _ada_enters(table, 2, "first try")
    hand = table.match.games.get().hands.get(number=2)
    scoring.withdraw_hand(
        hand_id=hand.pk,
        actor=scoring.Actor(player=table.player_a.player),
        version=hand.version,
        idempotency_key="withdraw",
    )
    # the same hand in play, entered again under its own number (issue 23, trap 6)
    _ada_enters(table, 2, "second try")
    with pytest.raises(Conflict, match="hand 2 of game 1 was the hand in play"):
        play_hand(table.match, organiser, game=1, number=3, winner="A", **SMALL)


def test_one_more_hand_and_extra_minutes_for_one_table(table, organiser):
    _call(table, organiser)
    play_hand(table.match, organiser, game=1, number=2, winner="B", **SMALL)
    services.extend_table(pairing_id=table.pk, actor=actor(organiser), hands=1)
    play_hand(table.match, organiser, game=1, number=3, winner="A", **SMALL)
    with pytest.raises(Conflict, match="no new hand"):
        play_hand(table.match, organiser, game=1, number=4, winner="A", **SMALL)
    before = timezone.now()
    services.extend_table(pairing_id=table.pk, actor=actor(organiser), minutes=10)
    table.refresh_from_db()
    assert before + timedelta(minutes=10) <= table.plays_until
    for number in (4, 5):  # extra minutes: play on
        play_hand(table.match, organiser, game=1, number=number, winner="B", kd=5, dd=6)
    row = selectors.dashboard(table.round).tables[0]
    assert row.play.state == "extended"
    assert row.play_words.endswith(
        f"the organiser gave {_both(table)} until {clock_time(table.plays_until)}: play on, "
        "then finish the hand in play."
    )
    # The minutes run out: the hand then in play (and the one extra hand) and no more.
    Pairing.objects.filter(pk=table.pk).update(plays_until=timezone.now())
    play_hand(table.match, organiser, game=1, number=6, winner="B", kd=5, dd=6)
    play_hand(table.match, organiser, game=1, number=7, winner="B", kd=5, dd=6)
    with pytest.raises(Conflict, match="no new hand"):
        play_hand(table.match, organiser, game=1, number=8, winner="B", kd=5, dd=6)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, "either more minutes or more hands"),
        ({"minutes": 5, "hands": 1}, "either more minutes or more hands"),
        ({"minutes": 0}, "Minutes: a whole number from 1 to 120."),
        ({"hands": 10}, "Hands: a whole number from 1 to 9."),
    ],
)
def test_extending_a_table_needs_minutes_or_hands(table, organiser, options, message):
    with pytest.raises(ServiceError, match=message):
        services.extend_table(pairing_id=table.pk, actor=actor(organiser), **options)


def test_a_decided_table_gets_no_more_time(table, organiser):
    services.record_result(
        pairing_id=table.pk, actor=actor(organiser), winner="A", reason="Ben left ill"
    )
    with pytest.raises(Conflict, match=rf"Table 1 \({_both(table)}\) already has a result"):
        services.extend_table(pairing_id=table.pk, actor=actor(organiser), hands=1)


def test_the_round_policy_decides_only_tables_whose_time_is_up(club, organiser):
    event = new_event(club, organiser, players=4)
    rnd = published_round(event, organiser)
    t1, t2 = rnd.pairings.order_by("position").select_related("match")
    for pairing in (t1, t2):
        play_hand(pairing.match, organiser, game=1, number=1, winner="A", **SMALL)
    services.call_time(round_id=rnd.pk, actor=actor(organiser))
    play_hand(t2.match, organiser, game=1, number=2, winner="A", **SMALL)  # t2's hand in play
    board = selectors.dashboard(Round.objects.get(pk=rnd.pk))
    assert [row.play.state for row in board.tables] == ["last_hand", "time_up"]
    assert board.play_counts == {"last_hand": 1, "extended": 0, "time_up": 1}
    report = services.apply_time_policy(round_id=rnd.pk, actor=actor(organiser))
    assert [p.pk for p in report.settled] == [t2.pk]
    assert report.waiting == [(t1, f"table 1: {_both(t1)} are finishing the hand in play")]
    t2.refresh_from_db()
    assert t2.match.decision_reason == (
        f"time was called with games level and {t2.player_a.player.name} led game 1 10–0"
    )
    assert Match.objects.get(pk=t2.match_id).state == Match.State.CLOSED


def test_undoing_a_mistaken_call_undoes_the_policys_results_and_play_goes_on(club, organiser):
    event = new_event(club, organiser, players=4)
    rnd = published_round(event, organiser)
    services.start_round_timer(round_id=rnd.pk, actor=actor(organiser), minutes=30)
    t1, t2 = rnd.pairings.order_by("position").select_related("match")
    play_hand(t1.match, organiser, game=1, number=1, winner="A", **SMALL)
    services.record_result(pairing_id=t2.pk, actor=actor(organiser), winner="B", reason="no show")
    with pytest.raises(Conflict, match="Time has not been called in round 1"):
        services.undo_time_call(round_id=rnd.pk, actor=actor(organiser), reason="oops")
    ends_at = Round.objects.get(pk=rnd.pk).ends_at
    services.call_time(round_id=rnd.pk, actor=actor(organiser))
    services.apply_time_policy(round_id=rnd.pk, actor=actor(organiser), pairing_ids=[t1.pk])
    t1.refresh_from_db()
    assert t1.resolved and t1.match.decided_by == "time"
    with pytest.raises(ServiceError, match="Say why the call is undone"):
        services.undo_time_call(round_id=rnd.pk, actor=actor(organiser), reason=" ")
    services.undo_time_call(round_id=rnd.pk, actor=actor(organiser), reason="called too early")
    again = Round.objects.get(pk=rnd.pk)
    assert not again.time_called and again.time_called_at is None and again.ends_at == ends_at
    assert selectors.clock(again).seconds_left > 25 * 60  # the clock runs on as it was
    t1.refresh_from_db(), t2.refresh_from_db()
    assert not t1.resolved and t1.match.decided_by == ""
    assert Match.objects.get(pk=t1.match_id).state == Match.State.IN_PROGRESS
    assert t2.resolved and t2.match.decided_by == "organiser"  # the organiser's own result stays
    for number in (2, 3):  # no call: any number of hands
        play_hand(t1.match, organiser, game=1, number=number, winner="B", **SMALL)
