"""Seat summaries (scoring.stats.summaries): kept current by every hand action, equal to
a from-scratch recount after corrections, voids and re-scoring, and filled for the
matches played before them by migration 0006."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.core.management import call_command

from scoring import services
from scoring.models import SeatSummary
from scoring.services.summaries import rebuild_summaries
from scoring.stats.summaries import COUNTS
from tests.scoring.helpers import key, play_hand, quick, start

pytestmark = pytest.mark.django_db


def stored(match) -> dict[str, dict]:
    """The match's summaries as stored, by seat."""
    rows = SeatSummary.objects.filter(match=match)
    return {r.pop("seat"): r for r in rows.values("seat", "player_id", *COUNTS, "knock_deadwoods")}


def recounted(match) -> dict[str, dict]:
    """The same from scratch: every summary deleted and rebuilt from the hand rows."""
    SeatSummary.objects.all().delete()
    rebuild_summaries()
    return stored(match)


def organiser_actor(organiser):
    return services.Actor(user=organiser)


def correct(hand, organiser, hand_input):
    hand.refresh_from_db()
    services.correct_hand(
        hand_id=hand.pk, actor=organiser_actor(organiser), hand_input=hand_input,
        version=hand.version, reason="Bob knocked, not Alice", idempotency_key=key(),
    )  # fmt: skip


def void(hand, organiser):
    hand.refresh_from_db()
    services.void_hand(
        hand_id=hand.pk, actor=organiser_actor(organiser), version=hand.version,
        reason="entered twice", idempotency_key=key(),
    )  # fmt: skip


def test_summaries_equal_a_recount_after_correction_void_and_rescore(club, organiser, alice, bob):
    """Alice (A) v Bob to 100, worked from Alice's side:
    1 Alice knocks 5 v 20 (+15)   2 Alice knocks 2 v 40 (+38)   3 Bob knocks 3 v 10 (Bob +7)
    then hand 1 is corrected to Bob knocking 8 v Alice's 6 (undercut: Alice +27), hand 3
    voided, and the match re-scored to 50: 27 + 38 = 65, Alice wins the game 2 boxes to 0."""
    match = start(club, alice, bob, organiser, overrides={"game_target": 100})
    first = play_hand(match, alice, bob, quick(1, knocker="A", kd=5, dd=20))
    play_hand(match, alice, bob, quick(2, knocker="A", kd=2, dd=40))
    third = play_hand(match, alice, bob, quick(3, knocker="B", kd=3, dd=10))
    a = stored(match)["A"]
    # Alice: 3 hands, 2 won, 2 knocks (5 + 2 = 7), Bob's one knock caught her with 10.
    assert (a["player_id"], a["hands"], a["won"], a["knocks"]) == (alice.pk, 3, 2, 2)
    assert (a["knock_deadwood"], a["knock_deadwoods"]) == (7, {"5": 1, "2": 1})
    assert (a["opp_knocks"], a["given"], a["defended"], a["caught"]) == (1, 0, 1, 10)
    assert stored(match) == recounted(match)

    correct(first, organiser, quick(1, knocker="B", kd=8, dd=6))
    a = stored(match)["A"]
    # Hand 1 is now Bob's knock, undercut by Alice: one knock of hers left (2), two of
    # his, one undercut given; caught 6 + 10 = 16 over 2; she still won hands 1 and 2.
    assert (a["knocks"], a["knock_deadwood"], a["knock_deadwoods"]) == (1, 2, {"2": 1})
    assert (a["opp_knocks"], a["given"], a["defended"], a["caught"], a["won"]) == (2, 1, 2, 16, 2)
    b = stored(match)["B"]
    assert (b["knocks"], b["suffered"], b["knock_deadwood"]) == (2, 1, 11)
    assert stored(match) == recounted(match)

    void(third, organiser)
    a = stored(match)["A"]
    assert (a["hands"], a["opp_knocks"], a["defended"], a["caught"]) == (2, 1, 1, 6)
    assert (a["games"], a["boxes"]) == (0, 0)  # 65 of 100: no game finished
    assert stored(match) == recounted(match)

    match.refresh_from_db()
    services.rescore_match(
        match_id=match.pk, rules=match.rules | {"game_target": 50},
        actor=organiser_actor(organiser), reason="the club plays to 50",
    )  # fmt: skip
    a, b = stored(match)["A"], stored(match)["B"]
    # 65 >= 50: the game is Alice's, 2 boxes to none, a shutout (suffered by Bob).
    assert (a["games"], a["boxes"], a["shutouts"], a["shut_out"]) == (1, 2, 1, 0)
    assert (b["games"], b["boxes"], b["shutouts"], b["shut_out"]) == (1, 0, 0, 1)
    assert stored(match) == recounted(match)


def test_a_match_with_no_confirmed_hand_sums_to_nothing(club, organiser, alice, bob):
    match = start(club, alice, bob, organiser)
    assert not SeatSummary.objects.filter(match=match).exists()  # none until a recompute
    rebuild_summaries()
    assert {s: (r["hands"], r["games"]) for s, r in stored(match).items()} == {
        "A": (0, 0),
        "B": (0, 0),
    }


def test_migration_0006_fills_the_summaries_of_earlier_matches(club, organiser, alice, bob):
    match = start(club, alice, bob, organiser)
    play_hand(match, alice, bob, quick(1, knocker="A", kd=4, dd=30))
    before = stored(match)
    SeatSummary.objects.all().delete()  # as before the migration
    migration = importlib.import_module("scoring.migrations.0006_seat_summaries")
    migration.fill_summaries(apps, None)
    assert stored(match) == before
    assert before["A"]["knock_deadwoods"] == {"4": 1} and before["B"]["caught"] == 30


def test_the_rebuild_command_rewrites_a_clubs_summaries(club, organiser, alice, bob, capsys):
    match = start(club, alice, bob, organiser)
    play_hand(match, alice, bob, quick(1, knocker="A", kd=4, dd=30))
    before = stored(match)
    SeatSummary.objects.filter(match=match).update(hands=99)  # written behind its back
    call_command("rebuild_seat_summaries", "--club", club.slug)
    assert stored(match) == before
    assert "2 seat summaries written" in capsys.readouterr().out
