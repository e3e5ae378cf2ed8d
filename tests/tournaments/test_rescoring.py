"""Changing a running tournament's rules: the preview lists what would change and writes
nothing; apply recomputes hands, games, matches and standings with ledger rows; a change
the stored hands cannot take is refused whole."""

from __future__ import annotations

import pytest

from ginclub import ledger
from ginclub.errors import Conflict, ServiceError
from scoring import services as scoring
from scoring.hand_input import HandInput
from scoring.models import Game, Hand, LedgerRow, Match
from tests.tournaments.helpers import QUICK, actor, new_event, play_hand, play_round
from tournaments import selectors, services

pytestmark = pytest.mark.django_db

KNOCKER = "5H 6H 7H 9C 9D 9S JS QS KS 2D".split()
DEFENDER = "8H 9H KD KC KH 3C 4C 5C AS 7D".split()  # lays off 8H 9H: D 8, knocker +6


@pytest.fixture
def running(club, organiser):
    """Round 1 closed (P01 beat P02 2-0, P03 beat P04 2-0); round 2 running, where
    table 1 has a card-entry knock worth 6 and table 2 a gin worth 25 + 10 = 35 that
    ended game 1."""
    event = new_event(club, organiser, players=4, rounds=3)
    play_round(event, organiser)
    rnd = play_round(event, organiser, play=False, close=False)
    t1, t2 = rnd.pairings.order_by("position").select_related("match")
    scoring.submit_hand(
        match_id=t1.match_id,
        actor=actor(organiser),
        idempotency_key="c1",
        hand=HandInput(
            game=1,
            number=1,
            outcome="knock",
            knocker="A",
            knocker_cards=tuple(KNOCKER),
            defender_cards=tuple(DEFENDER),
        ),
    )
    scoring.submit_hand(
        match_id=t2.match_id,
        actor=actor(organiser),
        idempotency_key="g1",
        hand=HandInput(
            game=1, number=1, outcome="gin", knocker="B", knocker_deadwood=0, defender_deadwood=10
        ),
    )
    event.refresh_from_db()
    return event, t1, t2


def state(event):
    """Everything a rules change could touch."""
    return (
        list(Hand.objects.order_by("pk").values_list("points", "version", "winner")),
        list(Game.objects.order_by("pk").values_list("state", "total_a", "total_b")),
        list(Match.objects.order_by("pk").values_list("rules", "points_a", "points_b")),
        LedgerRow.objects.count(),
        event.rules,
    )


def change(event, organiser, apply=False, **overrides):
    kwargs = {
        "tournament_id": event.pk,
        "actor": actor(organiser),
        "profile": "tournament",
        "overrides": {**QUICK, **overrides},
    }
    if apply:
        return services.apply_rules_change(**kwargs, reason="house rules")
    return services.preview_rules_change(**kwargs)


def test_preview_lists_the_changes_and_writes_nothing(running, organiser):
    event, t1, t2 = running
    before = state(event)
    preview = change(event, organiser, layoffs=False, gin_bonus=20)
    assert state(event) == before
    assert preview.options == {"layoffs": [True, False], "gin_bonus": [25, 20]}
    by_table = {(m["round"], m["table"]): m for m in preview.matches}
    card = by_table[(2, 1)]["hands"]
    assert card == [
        {
            "game": 1,
            "hand": 1,
            "before": {
                "outcome": "knock",
                "points": 6,
                "winner": "A",
                "knocker_deadwood": 2,
                "defender_deadwood": 8,
            },
            "after": {
                "outcome": "knock",
                "points": 23,
                "winner": "A",
                "knocker_deadwood": 2,
                "defender_deadwood": 25,
            },
        }
    ]
    gin = by_table[(2, 2)]
    assert [(h["before"]["points"], h["after"]["points"]) for h in gin["hands"]] == [(35, 30)]
    # game 1 of table 2: (30 + 100 + 25) × 2 shutout = 310, was 320
    assert gin["games"][0]["after"]["totals"] == {"A": 0, "B": 310}
    assert gin["games"][0]["before"]["totals"] == {"A": 0, "B": 320}
    assert (2, 1) in by_table and not any(m["round"] == 1 for m in preview.matches)
    assert preview.hands_changed == 2 and not preview.applied


def test_apply_recomputes_everything_with_ledger_rows(running, organiser):
    event, t1, t2 = running
    result = change(event, organiser, apply=True, box_bonus=10)
    event.refresh_from_db()
    assert event.rules["box_bonus"] == 10 and event.overrides["box_bonus"] == 10
    assert result.applied and result.hands_changed == 0
    # every finished one-hand game is now (30 + 100 + 10) × 2 = 280 instead of 310
    finished = Game.objects.filter(state="finished", match__pairing__round__number=1)
    assert set(finished.values_list("total_a", flat=True)) == {280}
    assert all(m.rules == event.rules for m in Match.objects.all())
    # winners' points and everyone's margin move
    assert {line["name"] for line in result.standings} == {"P01", "P02", "P03", "P04"}
    line = next(x for x in result.standings if x["name"] == "P02")
    assert (line["before"]["margin"], line["after"]["margin"]) == (-620, -560)
    top = selectors.standings(event).rows[0]
    assert top.standing.points == 560
    row = LedgerRow.objects.get(chain=event.chain, action="rules_changed")
    assert row.reason == "house rules" and row.before["rules"]["box_bonus"] == 25
    assert LedgerRow.objects.filter(action="match_rescored").count() == 4
    assert ledger.verify() == []


def test_a_changed_hand_gets_a_new_version(running, organiser):
    event, t1, t2 = running
    change(event, organiser, apply=True, layoffs=False)
    hand = Hand.objects.get(game__match=t1.match)
    assert (hand.points, hand.defender_deadwood, hand.version) == (23, 25, 2)
    assert hand.cards["knocker_cards"] == KNOCKER


@pytest.mark.parametrize(
    ("overrides", "code", "message"),
    [
        (
            {"knock_limit": 1},
            "rescore_impossible",
            "Round 1, table 1 (P01 v P02): Hand 1 of game 1 (P01 v P02) cannot be scored under the "
            "new rules: deadwood 5 is over the knock limit 1.",
        ),
        (
            {"game_target": 40},
            "game_reopened",
            "Round 1, table 1 (P01 v P02): This change would leave game 1 unfinished, but game 2 "
            "already has hand 1: void it, then make this change.",
        ),
        (
            {"games_to_win": 3},
            "would_reopen",
            "Round 1, table 1 (P01 v P02): the match would no longer be finished "
            "under these rules, "
            "but its round is closed.",
        ),
        (
            {"games_to_win": 1},
            "hands_after_match_end",
            "Round 1, table 1 (P01 v P02): This change would decide the match before game 2, "
            "which has hand 1; void them first.",
        ),
        ({"knock_limit": "ten"}, "bad_option", "knock_limit must be a whole number"),
        ({}, "no_change", "These are the rules already in force."),
    ],
)
def test_a_change_the_event_cannot_take_is_refused_whole(
    running, organiser, overrides, code, message
):
    event = running[0]
    before = state(event)
    for apply in (False, True):
        with pytest.raises(ServiceError) as caught:
            change(event, organiser, apply=apply, **overrides)
        assert caught.value.code == code
        assert message in caught.value.message
    assert state(event) == before


def test_rules_are_changed_in_the_settings_until_they_freeze(club, organiser):
    event = new_event(club, organiser, players=2)
    with pytest.raises(Conflict, match="not frozen yet"):
        change(event, organiser, gin_bonus=20)


def test_an_organisers_result_stands_through_a_rules_change(club, organiser):
    event = new_event(club, organiser, players=2, rounds=2)
    rnd = play_round(event, organiser, play=False, close=False)
    pairing = rnd.pairings.select_related("match").get()
    play_hand(pairing.match, organiser, game=1, number=1, winner="A")
    services.record_result(
        pairing_id=pairing.pk,
        actor=actor(organiser),
        winner="B",
        reason="forfeit",
        games_a=1,
        games_b=2,
    )
    services.close_round(round_id=rnd.pk, actor=actor(organiser))
    event.refresh_from_db()
    change(event, organiser, apply=True, box_bonus=10)
    pairing.refresh_from_db()
    match = pairing.match
    assert match.rules["box_bonus"] == 10  # the match is re-scored...
    assert (match.winner, match.decided_by, match.points_a) == ("B", "organiser", 310)
    assert (match.games_won_a, match.games_won_b) == (1, 2)  # ...the result set stands
    assert pairing.match.state == "closed"
    assert selectors.standings(event).rows[0].name == "P02"


def test_a_hand_not_yet_agreed_is_rescored_from_its_entry(club, organiser):
    """Double entry: one player's entry is not accepted yet. An Oklahoma quick entry keeps
    its upcard only in the entry, and the spade double needs it."""
    event = new_event(
        club,
        organiser,
        players=2,
        profile="oklahoma",
        agreement="double",
        overrides={"game_target": 100, "games_to_win": 2},
    )
    rnd = play_round(event, organiser, play=False, close=False)
    pairing = rnd.pairings.select_related("player_a__player").get()
    scoring.submit_hand(
        match_id=pairing.match_id,
        idempotency_key="ok1",
        actor=scoring.Actor(player=pairing.player_a.player),
        hand=HandInput(
            game=1,
            number=1,
            outcome="knock",
            knocker="A",
            knocker_deadwood=5,
            defender_deadwood=20,
            upcard="7S",
        ),
    )
    hand = Hand.objects.get(game__match_id=pairing.match_id)
    assert (hand.state, hand.accepted_entry, hand.points) == ("pending", None, 15)
    event.refresh_from_db()
    services.apply_rules_change(
        tournament_id=event.pk,
        actor=actor(organiser),
        profile="oklahoma",
        reason="spades double",
        overrides={"game_target": 100, "games_to_win": 2, "oklahoma_spade_double": True},
    )
    hand.refresh_from_db()
    assert (hand.points, hand.state, hand.version) == (30, "pending", 2)
