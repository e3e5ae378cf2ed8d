"""A player's record (scoring.stats): every figure checked against hand-worked examples,
and a fixed number of queries whatever the player's history."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from scoring import stats
from scoring.hand_input import HandInput
from scoring.models import Match
from scoring.services import Actor
from tests.factories import PlayerFactory, UserFactory
from tests.scoring.helpers import play_hand, quick, start, submit

pytestmark = pytest.mark.django_db

SHORT = {"game_target": 50}  # one game to 50 wins the match (standard: games_to_win 1)


@pytest.fixture
def carol(club):
    return PlayerFactory(club=club, name="Carol", user=UserFactory(username="carol"))


def dead(number: int) -> HandInput:
    return HandInput(game=1, number=number, outcome="dead")


@pytest.fixture
def history(club, organiser, alice, bob, carol):
    """Alice's three matches, worked by hand (points from Alice's side):

    M1 Alice (A) v Bob, to 50:
      1 Alice knocks 5 v 20            Alice +15   (a knock of Alice's, won)
      2 Bob knocks 8, Alice has 6      Alice +27   (undercut given: 2 + 25)
      3 dead hand
      4 Alice gin, Bob has 10          Alice +35   77 ≥ 50: Alice wins; Bob won no hand
    M2 Bob (A) v Alice (B), to 50:
      1 Alice knocks 3 v 30            Alice +27
      2 Alice knocks 7, Bob has 4      Bob +28     (undercut suffered: 3 + 25)
      3 Bob gin, Alice has 25          Bob +50     78 ≥ 50: Bob wins
    M3 Alice (A) v Carol, in progress:
      1 Carol knocks 2, Alice has 12   Carol +10
      2 Alice knocks 1 v 30, never confirmed (pending: counts nowhere)
    """
    m1 = start(club, alice, bob, organiser, overrides=SHORT)
    play_hand(m1, alice, bob, quick(1, knocker="A", kd=5, dd=20))
    play_hand(m1, alice, bob, quick(2, knocker="B", kd=8, dd=6))
    play_hand(m1, alice, bob, dead(3))
    play_hand(m1, alice, bob, quick(4, knocker="A", kd=0, dd=10, outcome="gin"))
    m2 = start(club, bob, alice, organiser, overrides=SHORT)
    play_hand(m2, alice, bob, quick(1, knocker="B", kd=3, dd=30))
    play_hand(m2, alice, bob, quick(2, knocker="B", kd=7, dd=4))
    play_hand(m2, alice, bob, quick(3, knocker="A", kd=0, dd=25, outcome="gin"))
    m3 = start(club, alice, carol, organiser, overrides=SHORT)
    play_hand(m3, alice, carol, quick(1, knocker="B", kd=2, dd=12))
    submit(m3, alice, quick(2, knocker="A", kd=1, dd=30))
    for match in (m1, m2, m3):
        match.refresh_from_db()
    return m1, m2, m3


def figures(record) -> dict[str, stats.Figure]:
    return {f.key: f for f in record.figures}


def test_hand_figures_match_the_worked_example(history, alice, organiser):
    m1, m2, m3 = history
    assert (m1.winner, m1.state, m2.winner, m3.state) == ("A", "finished", "A", "in_progress")
    record = stats.player_record(alice, Actor(user=organiser))
    f = figures(record)
    # Confirmed hands: 4 + 3 + 1 = 8 (the dead hand counts, the pending one does not).
    assert record.hands == 8
    # Won: M1 hands 1, 2, 4 and M2 hand 1 = 4 of 8 = 50 per 100.
    assert (f["hands_won"].count, f["hands_won"].value, f["hands_won"].basis) == (4, 50.0, 8)
    # Knocks (knock or undercut, Alice knocking): M1 h1, M2 h1, M2 h2 = 3 of 8 = 37.5.
    assert (f["knocks"].count, f["knocks"].value) == (3, 37.5)
    # Gins: M1 h4 = 1 of 8 = 12.5; no big gin.
    assert (f["gins"].count, f["gins"].value) == (1, 12.5)
    assert (f["big_gins"].count, f["big_gins"].value) == (0, 0.0)
    # Opponents' knocks: M1 h2 (Bob, undercut by Alice) and M3 h1 (Carol) = 2; given 1 = 50%.
    assert (f["undercuts_given"].count, f["undercuts_given"].basis) == (1, 2)
    assert f["undercuts_given"].value == 50.0
    # Suffered: M2 h2, 1 of Alice's 3 knocks = 33.33%.
    assert (f["undercuts_suffered"].count, f["undercuts_suffered"].basis) == (1, 3)
    assert f["undercuts_suffered"].value == 33.33
    # Deadwood when knocking: (5 + 3 + 7) / 3 = 5.
    assert (f["knock_deadwood"].value, f["knock_deadwood"].basis) == (5.0, 3)
    # Caught when defending (Bob's undercut knock, Bob's gin, Carol's knock): (6 + 25 + 12)
    # / 3 = 14.33.
    assert (f["caught_deadwood"].value, f["caught_deadwood"].basis) == (14.33, 3)
    # Every hand figure rests on fewer than 20 hands: marked as too few.
    assert not any(f[key].enough for key in ("hands_won", "knocks", "knock_deadwood"))
    assert f["knocks"].text == "37.5 per 100 hands (3)"
    assert f["undercuts_suffered"].text == "33.33% (1 of 3)"
    with translation.override("it"):  # decimals as Italian writes them (a walk saw 57.69)
        assert f["knocks"].text == "37,5 ogni 100 mani (3)"
        assert f["undercuts_suffered"].text == "33,33% (1 su 3)"
        assert f["caught_deadwood"].text == "14,33"


def test_game_figures_boxes_and_shutouts(history, alice, bob, organiser):
    f = figures(stats.player_record(alice, Actor(user=organiser)))
    # Finished games: M1 and M2. Boxes (hands won in each): 3 in M1, 1 in M2 = 4 / 2 = 2.
    assert (f["boxes"].value, f["boxes"].basis, f["boxes"].unit) == (2.0, 2, "games")
    # M1: Alice won, Bob won no hand: one shutout won; none suffered (she won M2's hand 1).
    assert (f["shutouts"].value, f["shut_out"].value) == (1, 0)
    g = figures(stats.player_record(bob, Actor(user=organiser)))
    # Bob from his side: boxes 0 in M1, 2 in M2 = 2 / 2 = 1; one shutout suffered.
    assert (g["boxes"].value, g["shutouts"].value, g["shut_out"].value) == (1.0, 0, 1)
    assert not f["boxes"].enough  # 2 games, fewer than MIN_GAMES


def test_head_to_head_and_match_lines_from_the_players_side(history, alice, bob, carol):
    m1, m2, m3 = history
    record = stats.player_record(alice, Actor(user=alice.user))
    # Only finished matches: Bob twice (Alice won M1, lost M2); Carol's match is in play.
    [line] = record.head_to_head
    assert (line.opponent, line.played, line.won, line.lost) == ("Bob", 2, 1, 1)
    assert (line.games_for, line.games_against) == (1, 1)
    # Points from Alice's side: seat A in M1, seat B in M2.
    assert line.points_for == m1.points_a + m2.points_b
    assert line.points_against == m1.points_b + m2.points_a
    lines = {ln.match.pk: ln for ln in record.matches}
    assert (lines[m1.pk].result, lines[m1.pk].games) == ("won", (1, 0))
    assert (lines[m2.pk].result, lines[m2.pk].games, lines[m2.pk].opponent) == ("lost", (0, 1), bob)
    assert (lines[m3.pk].result, lines[m3.pk].opponent) == ("in progress", carol)
    # The months: both finished matches this month, one won, one lost.
    assert [(m.won, m.lost) for m in record.months] == [(1, 1)]
    # Deadwood when knocking: 3, 5 and 7 once each.
    assert record.deadwood == [(3, 1), (5, 1), (7, 1)]


def test_card_entry_hands_give_meld_shapes_and_lay_offs(club, organiser):
    """Dana knocks holding the run 5-8♥ and the set of 3s, deadwood A♠ 2♦ 4♣ = 7; Eve
    holds the set of queens and lays off 9♥ on the run and 3♥ on the set."""
    dana = PlayerFactory(club=club, name="Dana", user=UserFactory(username="dana"))
    eve = PlayerFactory(club=club, name="Eve", user=UserFactory(username="eve"))
    match = start(club, dana, eve, organiser)
    hand = HandInput(
        game=1,
        number=1,
        outcome="knock",
        knocker="A",
        knocker_cards=("5H", "6H", "7H", "8H", "3S", "3D", "3C", "AS", "2D", "4C"),
        defender_cards=("9H", "3H", "QS", "QD", "QC", "KS", "KD", "TC", "9C", "2C"),
    )
    stored = play_hand(match, dana, eve, hand)
    assert sorted(stored.cards["laid_off"]) == ["3H", "9H"]
    f = figures(stats.player_record(dana, Actor(user=organiser)))
    # Dana's melds: one set (3s), one run (hearts): 50% each, of 2 melds, 1 card hand.
    assert (f["sets"].value, f["runs"].value, f["sets"].whole, f["sets"].basis) == (50, 50, 2, 1)
    # Two cards laid off on her melds in her one card-entry knock.
    assert (f["layoffs_against"].value, f["layoffs_against"].basis) == (2.0, 1)
    assert f["knock_deadwood"].value == 7.0
    g = figures(stats.player_record(eve, Actor(user=organiser)))
    # Eve defended: her melds are the queens (a set); she never knocked, so no lay-offs
    # against her (none yet, resting on 0 knocks).
    assert (g["sets"].value, g["runs"].value) == (100.0, 0.0)
    assert (g["layoffs_against"].value, g["layoffs_against"].basis) == (None, 0)
    assert g["caught_deadwood"].value == float(stored.defender_deadwood)


def test_meld_shape_reads_rank_not_suit():
    assert stats.meld_shape(["TS", "TD", "TC"]) == "set"
    assert stats.meld_shape(["9S", "TS", "JS"]) == "run"


def count_queries(func) -> int:
    with CaptureQueriesContext(connection) as captured:
        func()
    return len(captured.captured_queries)


def test_queries_do_not_grow_with_the_players_history(club, organiser, alice, bob, carol):
    actor = Actor(user=organiser)

    def one_match(a, b):
        match = start(club, a, b, organiser, overrides=SHORT)
        for number in range(1, 3):
            play_hand(match, alice, b if a == alice else a, quick(number, kd=2, dd=40))
        return match

    one_match(alice, bob)
    cache.clear()
    small = count_queries(lambda: stats.player_record(alice, actor))  # nothing cached
    for _ in range(4):
        one_match(alice, carol)
        one_match(bob, alice)
    record = stats.player_record(alice, actor)
    assert len(record.matches) == 9 and record.hands == 18
    assert Match.objects.filter(state="finished").count() == 9
    cache.clear()
    # Each count is a request of its own, with its own actor (an actor keeps the
    # organiser check it asked for the rest of its request).
    actor = Actor(user=organiser)
    assert count_queries(lambda: stats.player_record(alice, actor)) == small
    # From the cache: the two reads of her seat summaries and finished matches are not made.
    actor = Actor(user=organiser)
    assert count_queries(lambda: stats.player_record(alice, actor)) == small - 2


def test_the_figures_are_cached_until_one_of_the_players_matches_changes(
    club, organiser, alice, bob, carol
):
    """Alice knocks 2 v 40 twice against Bob (38 + 38 = 76 >= 50: she wins); then a
    match with Carol starts and one hand (the same knock) is entered: 3 hands, and the
    cached record must not hide the third; then a second hand in the same match (no
    match added: only the match row's save tells): 4 hands won of 4."""
    actor = Actor(user=organiser)
    first = start(club, alice, bob, organiser, overrides=SHORT)
    for number in (1, 2):
        play_hand(first, alice, bob, quick(number, kd=2, dd=40))
    assert stats.player_record(alice, actor).hands == 2
    cached = stats.player_record(alice, actor)
    assert (cached.hands, cached.figures[0].count) == (2, 2)  # hands won: 2
    second = start(club, alice, carol, organiser, overrides=SHORT)
    play_hand(second, alice, carol, quick(1, kd=2, dd=40))
    record = stats.player_record(alice, actor)
    assert (record.hands, record.figures[0].count) == (3, 3)
    play_hand(second, alice, carol, quick(2, kd=2, dd=40))
    record = stats.player_record(alice, actor)
    assert (record.hands, record.figures[0].count) == (4, 4)
