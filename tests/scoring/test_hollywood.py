"""Hollywood gin through the services, the pages and a tournament (issue 8), and the
fixed-length finding 3 through the services. Expected figures are worked by hand in
the comments (standard values: target 100, game bonus 100, box 25, shutout double)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ginclub.errors import Conflict
from scoring import services
from scoring.hand_input import HandInput
from scoring.models import Game, Match
from tests.scoring.helpers import key, play_hand, quick, start, submit

pytestmark = pytest.mark.django_db

KNOCK_47 = HandInput(  # docs/rules.md §6: K 3, the defender lays off 5S 6S 8S, D 50: 47
    game=1,
    number=1,
    outcome="knock",
    knocker="A",
    knocker_cards=("2S", "3S", "4S", "8D", "8H", "8C", "JH", "QH", "KH", "3D"),
    defender_cards=("9D", "TD", "5S", "6S", "2C", "2H", "7C", "8S", "KC", "QC"),
)
GIN_88 = HandInput(  # docs/rules.md §6: gin against 63 deadwood, 25 + 63 = 88
    game=1,
    number=2,
    outcome="gin",
    knocker="A",
    knocker_cards=("AC", "2C", "3C", "7D", "7H", "7S", "TD", "JD", "QD", "KD"),
    defender_cards=("9H", "9C", "5D", "4S", "5S", "6H", "KH", "QH", "2H", "3D"),
)

# The match, Alice is A and deals first, Bob is B (game: A-B hand points after it):
# 1 A knock 47 (cards)   first A win  -> G1 47-0
# 2 A gin 88 (cards)     second       -> G1 135-0 (game 1 ends), G2 88-0
# 3 B knock 45-5 = 40    Bob's first win; game 1 is over, so his lowest open game: G2 88-40
# 4 A knock 22-2 = 20    third        -> G2 108-40 (game 2 ends), G3 20-0
# 5 dead                              -> nothing, the same dealer deals again
# 6 B gin 25 + 30 = 55   G3 (Bob's first win there)       -> G3 20-55
# 7 B knock 53-3 = 50                 -> G3 20-105 (game 3 ends)
# Game 1: Alice 135 + 100 + 2 boxes x 25 = 285, Bob won no hand in it: shutout, doubled:
#         570 to 0.
# Game 2: Alice 108 + 100 + 2 boxes (hands 2, 4) = 258; Bob 40 + 25 = 65.
# Game 3: Bob 105 + 100 + 2 boxes (6, 7) = 255; Alice 20 + 25 = 45.
# Match: Alice won games 1 and 2, Bob game 3: Alice wins, 570 + 258 + 45 = 873 to
# 0 + 65 + 255 = 320.
SEQUENCE = [
    KNOCK_47,
    GIN_88,
    quick(number=3, knocker="B", kd=5, dd=45),
    quick(number=4, knocker="A", kd=2, dd=22),
    HandInput(game=1, number=5, outcome="dead"),
    HandInput(game=1, number=6, outcome="gin", knocker="B", defender_deadwood=30),
    quick(number=7, knocker="B", kd=3, dd=53),
]


def hollywood(club, alice, bob, organiser, **options) -> Match:
    return start(club, alice, bob, organiser, profile="hollywood", **options)


def entered_by(hand_input, alice, bob):
    """The winner's seat enters, the other confirms (a dead hand: Alice enters)."""
    return (bob, alice) if hand_input.knocker == "B" else (alice, bob)


def play(match, alice, bob, hands):
    for hand_input in hands:
        enterer, confirmer = entered_by(hand_input, alice, bob)
        play_hand(match, enterer, confirmer, hand_input)
    match.refresh_from_db()


def games_of(match):
    return {
        g.number: (g.state, g.winner, g.hand_points_a, g.hand_points_b, g.total_a, g.total_b)
        for g in match.games.order_by("number")
    }


def test_a_hollywood_match_starts_with_three_games(club, alice, bob, organiser):
    match = hollywood(club, alice, bob, organiser)
    assert list(match.games.values_list("number", "state")) == [
        (1, "in_progress"),
        (2, "in_progress"),
        (3, "in_progress"),
    ]


def test_a_whole_hollywood_match_by_card_and_quick_entry(club, alice, bob, organiser):
    match = hollywood(club, alice, bob, organiser)
    play(match, alice, bob, SEQUENCE[:2])
    assert games_of(match)[1] == ("finished", "A", 135, 0, 570, 0)
    assert games_of(match)[2] == ("in_progress", "", 88, 0, 88, 0)
    play(match, alice, bob, SEQUENCE[2:4])
    assert games_of(match)[2] == ("finished", "A", 108, 40, 258, 65)
    assert games_of(match)[3] == ("in_progress", "", 20, 0, 20, 0)
    assert match.state == Match.State.IN_PROGRESS
    assert (match.games_won_a, match.games_won_b) == (2, 0)
    play(match, alice, bob, SEQUENCE[4:])
    assert games_of(match)[3] == ("finished", "B", 20, 105, 45, 255)
    assert (match.state, match.winner) == (Match.State.FINISHED, "A")
    assert (match.games_won_a, match.games_won_b, match.points_a, match.points_b) == (
        2,
        1,
        873,
        320,
    )
    # every hand is in game 1's sequence; the dealer alternates through it, a dead hand
    # (5) is dealt again by the same dealer
    hands = match.games.get(number=1).hands.order_by("number")
    assert list(hands.values_list("number", "dealer")) == [
        (1, "A"),
        (2, "B"),
        (3, "A"),
        (4, "B"),
        (5, "A"),
        (6, "A"),
        (7, "B"),
    ]
    assert not match.games.get(number=2).hands.exists()
    with pytest.raises(Conflict) as refused:
        submit(match, alice, quick(number=8))
    assert refused.value.code == "match_finished"


def test_hands_go_to_game_1_even_after_it_ended(club, alice, bob, organiser):
    match = hollywood(club, alice, bob, organiser)
    play(match, alice, bob, SEQUENCE[:2])  # game 1 is over
    with pytest.raises(Conflict) as refused:
        submit(match, bob, quick(number=3, game=2, knocker="B", kd=5, dd=45))
    assert refused.value.code == "wrong_game"
    assert "Hands now go to game 1, not game 2" in refused.value.message
    play(match, alice, bob, [SEQUENCE[2]])
    assert games_of(match)[2][2:4] == (88, 40)


def test_a_pending_hand_holds_the_games_it_could_change(club, alice, bob, organiser):
    match = hollywood(club, alice, bob, organiser)
    play(match, alice, bob, SEQUENCE[:1])
    submit(match, alice, GIN_88)  # not confirmed yet
    match.refresh_from_db()
    assert games_of(match)[1][0] == "in_progress"
    assert games_of(match)[1][2] == 47


def test_a_correction_rescores_the_whole_sequence(club, alice, bob, organiser):
    match = hollywood(club, alice, bob, organiser)
    play(match, alice, bob, SEQUENCE[:4])
    # Hand 2 was a knock of 45 - 5 = 40, not gin 88: G1 47 + 40 = 87 stays open, so Bob's
    # 40 (hand 3) now scores in game 1 (his first win, game 1 open): G1 87-40; hand 4,
    # Alice's third win, scores in all three: G1 107-40 (ends), G2 40 + 20 = 60, G3 20.
    hand = match.games.get(number=1).hands.get(number=2)
    services.correct_hand(
        hand_id=hand.pk,
        actor=services.Actor(user=organiser),
        hand_input=quick(number=2, knocker="A", kd=5, dd=45),
        version=hand.version,
        reason="it was a knock",
        idempotency_key=key(),
    )
    match.refresh_from_db()
    games = games_of(match)
    # G1: Alice 107 + 100 + 3 boxes = 282; Bob 40 + 25 = 65
    assert games[1] == ("finished", "A", 107, 40, 282, 65)
    assert games[2] == ("in_progress", "", 60, 0, 60, 0)
    assert games[3] == ("in_progress", "", 20, 0, 20, 0)
    assert (match.games_won_a, match.points_a, match.points_b) == (1, 282, 65)


def test_a_correction_that_ends_the_match_early_is_refused(club, alice, bob, organiser):
    match = hollywood(club, alice, bob, organiser)
    play(match, alice, bob, SEQUENCE)
    # Bob's gin at hand 6 against 80, not 30: 25 + 80 = 105 ends game 3 (and the match)
    # at hand 6, but hand 7 follows.
    hand = match.games.get(number=1).hands.get(number=6)
    with pytest.raises(Conflict) as refused:
        services.correct_hand(
            hand_id=hand.pk,
            actor=services.Actor(user=organiser),
            hand_input=HandInput(
                game=1, number=6, outcome="gin", knocker="B", defender_deadwood=80
            ),
            version=hand.version,
            reason="80, not 30",
            idempotency_key=key(),
        )
    assert refused.value.code == "hands_after_game_end"
    assert "end all three games at hand 6, but hand 7 follows it" in refused.value.message


def test_the_scoreboard_shows_the_three_games_side_by_side(client, club, alice, bob, organiser):
    match = hollywood(club, alice, bob, organiser)
    play(match, alice, bob, SEQUENCE[:4])
    client.force_login(organiser)
    page = client.get(reverse("scoring:match", args=[match.pk])).content.decode()
    assert 'data-testid="hollywood-games"' in page
    assert '<th scope="col" class="num">3</th>' in page
    # Alice's row: game 1 570 (won), game 2 258 (won), game 3 20 (open)
    assert '"1">570 ✓</td>' in page and '"2">258 ✓</td>' in page and '"3">20</td>' in page
    assert "scores in games 2, 3" in page  # hand 4: Alice's third win, game 1 over
    assert "scores in game 1<" in page  # hand 1
    assert 'data-game="1" data-next-hand="5"' in page
    assert "Next to deal:" in page


def test_finding_3_through_the_services(club, alice, bob, organiser):
    # Ten hands, no lay-offs: Alice gins for 25 + 25 = 50, Bob knocks nine times for 5.
    # Alice 50 + 25 = 75; Bob 45 + 9 x 25 = 225 + 45 = 270, and the game bonus (these are
    # the options the old service had too: game_hands 10, layoffs off) makes it 370.
    # The old service gave Alice the game, 175 to 270, margin -95.
    match = start(club, alice, bob, organiser, overrides={"game_hands": 10, "layoffs": False})
    play_hand(match, alice, bob, quick(number=1, kd=0, dd=25, outcome="gin"))
    for number in range(2, 11):
        play_hand(match, bob, alice, quick(number=number, knocker="B", kd=5, dd=10))
    match.refresh_from_db()
    game = match.games.get(number=1)
    assert (game.winner, game.total_a, game.total_b) == ("B", 75, 370)
    assert (match.winner, match.points_a, match.points_b, match.margin) == ("B", 75, 370, 295)


def test_the_school_profile_through_the_services(club, alice, bob, organiser):
    # The same ten hands under the school profile: no game bonus (Bob has 45 < 100).
    match = start(club, alice, bob, organiser, profile="school")
    play_hand(match, alice, bob, quick(number=1, kd=0, dd=25, outcome="gin"))
    for number in range(2, 11):
        play_hand(match, bob, alice, quick(number=number, knocker="B", kd=5, dd=10))
    match.refresh_from_db()
    assert (match.state, match.winner, match.points_a, match.points_b) == (
        Match.State.FINISHED,
        "B",
        75,
        270,
    )
    assert match.games.get(number=1).breakdown["game_bonus"] == 0
    assert match.games.count() == 1


def test_games_are_rows_under_hollywood_only(club, alice, bob, organiser):
    match = start(club, alice, bob, organiser)
    assert match.games.count() == 1
    assert Game.objects.filter(match=match, number=1).exists()
