"""Every number explains itself (issue 9): scoring.words says a game's totals as sums with
names, built from the engine's stored breakdown and the match's rules. Each case scores
real hands with the engine and checks that the sum in words adds up to the stored total."""

from __future__ import annotations

import re

import pytest

from scoring import words
from scoring.models import Game, Match, Player
from scoring.rules.games import score_game
from scoring.rules.profiles import make_profile

NAMES = {"A": "Ada", "B": "Ben"}


def finished_game(profile, hands) -> Game:
    result = score_game(hands, profile).as_dict()
    assert result["finished"]
    return Game(
        number=1,
        state=Game.State.FINISHED,
        winner=result["winner"] or "",
        hand_points_a=result["hand_points"]["A"],
        hand_points_b=result["hand_points"]["B"],
        total_a=result["totals"]["A"],
        total_b=result["totals"]["B"],
        breakdown=result,
    )


def _adds_up(text: str) -> None:
    """The words' arithmetic is right: evaluate the sum and compare with what it equals."""
    sums = text.split(": ", 1)[1].split(" (no game bonus")[0]
    left, right = sums.rsplit(" = ", 1)
    expression = re.sub(r"[a-z ]+", " ", left.replace("×", "*")).replace("  ", " ")
    expression = re.sub(r"(\d)\s+(\d)", r"\1+\2", expression.strip())
    assert eval(expression) == int(right), text  # noqa: S307 (digits and + * ( ) only)


@pytest.mark.parametrize(
    ("profile", "hands", "ada", "ben"),
    [
        (  # the tournament profile's worked example (docs/rules.md §7)
            make_profile("tournament"),
            [("A", 80), ("B", 45), ("A", 95), (None, 0), ("B", 30), ("A", 90)],
            "Ada: 265 in hands + 100 game + 3 boxes × 25 = 440",
            "Ben: 75 in hands + 2 boxes × 25 = 125",
        ),
        (
            make_profile("tournament"),
            [("A", 120), ("A", 140)],
            "Ada: (260 in hands + 100 game + 2 boxes × 25) × 2 shutout = 820",
            "Ben: 0 in hands + 0 boxes × 25 = 0",
        ),
        (
            make_profile("tournament", {"shutout": "double_points"}),
            [("A", 120), ("A", 140)],
            "Ada: 260 in hands × 2 shutout + 100 game + 2 boxes × 25 = 670",
            "Ben: 0 in hands + 0 boxes × 25 = 0",
        ),
        (
            make_profile("tournament", {"shutout": "bonus"}),
            [("A", 120), ("A", 140)],
            "Ada: 260 in hands + 100 game + 2 boxes × 25 + 100 shutout = 510",
            "Ben: 0 in hands + 0 boxes × 25 = 0",
        ),
        (  # the school profile: B wins on totals with boxes, under the bonus floor
            make_profile("school"),
            [("A", 50)] + [("B", 5)] * 9,
            "Ada: 50 in hands + 1 box × 25 = 75",
            "Ben: 45 in hands + 9 boxes × 25 = 270 (no game bonus: 45 in hands, under 100)",
        ),
    ],
)
def test_each_total_reads_as_its_sum_with_names(profile, hands, ada, ben):
    game = finished_game(profile, hands)
    rules = profile.as_dict()
    said = words.totals(game, NAMES, rules)
    assert said == {"A": ada, "B": ben}
    for text in said.values():
        _adds_up(text)


def test_a_fixed_length_game_says_why_its_winner_won_with_names():
    profile = make_profile("standard", {"game_hands": 3})
    game = finished_game(profile, [("A", 50), ("B", 15), ("B", 10)])  # 75 each with boxes
    assert words.summary(game, NAMES, profile.as_dict()) == (
        "Game to Ben (level at 75 with boxes, more hands won). "
        "Ben: 25 in hands + 100 game + 2 boxes × 25 = 175; Ada: 50 in hands + 1 box × 25 = 75"
    )


def test_a_game_in_progress_says_hand_points_so_far():
    game = Game(number=2, state=Game.State.IN_PROGRESS, hand_points_a=45, hand_points_b=20)
    assert words.totals(game, NAMES, {}) == {
        "A": "Ada: 45 in hands so far",
        "B": "Ben: 20 in hands so far",
    }
    assert words.summary(game, NAMES, {}) == ""


def test_a_finished_match_and_its_arithmetic():
    match = Match(
        player_a=Player(name="Ada"),
        player_b=Player(name="Ben"),
        rules={"games_to_win": 3},
        state=Match.State.FINISHED,
        winner="B",
        games_won_a=1,
        games_won_b=3,
    )
    games = [
        Game(number=n, state=Game.State.FINISHED, winner=w, total_a=a, total_b=b)
        for n, w, a, b in [
            (1, "B", 40, 300),
            (2, "A", 280, 10),
            (3, "B", 0, 310),
            (4, "B", 55, 290),
        ]
    ]
    assert words.result(match) == "Ben wins 3–1"
    assert words.arithmetic(match, games) == (
        "Ada won game 2, Ben won games 1, 3 and 4; the first to 3 games wins. "
        "Match points (game totals): Ada 40 + 280 + 0 + 55 = 375; Ben 300 + 10 + 310 + 290 = 910."
    )
