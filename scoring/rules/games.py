"""Scoring a game and a match, and who deals next.

Terms:
    target     hand points accumulate until a player's total reaches it (or, with
               `game_hands`, the game is a fixed number of hands).
    box        the line bonus: each player gets `box_bonus` per hand they won, at the end.
    game bonus to the winner of the game, at the end.
    shutout    the loser won no hand: `double` doubles the winner's whole total,
               `double_points` doubles the winner's hand points before bonuses, `bonus`
               adds `shutout_bonus`, `none` does nothing.
    margin     winner's total − loser's total.
Players are "A" and "B". Bonuses never count toward the target.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.rules.errors import RulesError
from scoring.rules.profiles import RuleProfile

SIDES = ("A", "B")


def other(side: str) -> str:
    return "B" if side == "A" else "A"


@dataclass(frozen=True)
class HandScore:
    winner: str | None
    points: int


@dataclass(frozen=True)
class GameResult:
    winner: str | None
    finished: bool
    totals: dict[str, int]
    hand_points: dict[str, int]
    hands_won: dict[str, int]
    game_bonus: int
    box_bonus: dict[str, int]
    shutout: bool
    margin: int
    explanation: str

    def as_dict(self) -> dict:
        return {
            "winner": self.winner,
            "finished": self.finished,
            "totals": dict(self.totals),
            "hand_points": dict(self.hand_points),
            "hands_won": dict(self.hands_won),
            "game_bonus": self.game_bonus,
            "box_bonus": dict(self.box_bonus),
            "shutout": self.shutout,
            "margin": self.margin,
            "explanation": self.explanation,
        }


def _hand(entry) -> HandScore:
    if isinstance(entry, HandScore):
        winner, points = entry.winner, entry.points
    elif isinstance(entry, dict):
        winner, points = entry.get("winner"), entry.get("points")
    elif isinstance(entry, (list, tuple)) and len(entry) == 2:
        winner, points = entry
    else:
        raise RulesError("bad_hand", f'a hand is {{"winner", "points"}}, not {entry!r}')
    if winner not in (None, "A", "B"):
        raise RulesError("bad_hand", f"a hand's winner is A, B or null, not {winner!r}")
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise RulesError("bad_hand", f"a hand's points are a whole number ≥ 0, not {points!r}")
    if winner is None and points:
        raise RulesError("bad_hand", "a hand nobody won scores 0 points")
    return HandScore(winner, points)


def score_game(hands: Sequence, profile: RuleProfile) -> GameResult:
    """The game after these hands, in order; bonuses once it is finished."""
    points = {"A": 0, "B": 0}
    won = {"A": 0, "B": 0}
    finished_at = None
    for number, entry in enumerate(hands, start=1):
        if finished_at is not None:
            raise RulesError(
                "game_over", f"hand {number} comes after the game ended at hand {finished_at}"
            )
        hand = _hand(entry)
        if hand.winner:
            points[hand.winner] += hand.points
            won[hand.winner] += 1
        if _over(points, number, profile):
            finished_at = number
    if finished_at is None:
        text = f"Game in progress: A {points['A']}, B {points['B']}"
        return GameResult(
            None,
            False,
            dict(points),
            dict(points),
            won,
            0,
            {"A": 0, "B": 0},
            False,
            abs(points["A"] - points["B"]),
            text,
        )
    return _final(points, won, profile)


def _over(points: dict[str, int], hands_played: int, profile: RuleProfile) -> bool:
    if profile.game_hands is not None:
        return hands_played >= profile.game_hands
    return max(points.values()) >= profile.game_target


def _final(points: dict[str, int], won: dict[str, int], profile: RuleProfile) -> GameResult:
    if points["A"] == points["B"]:  # only possible in a fixed number of hands
        boxes = {s: won[s] * profile.box_bonus for s in SIDES}
        totals = {s: points[s] + boxes[s] for s in SIDES}
        text = f"Game drawn at {points['A']} each"
        return GameResult(
            None,
            True,
            totals,
            dict(points),
            won,
            0,
            boxes,
            False,
            abs(totals["A"] - totals["B"]),
            text,
        )
    winner = "A" if points["A"] > points["B"] else "B"
    loser = other(winner)
    boxes = {s: won[s] * profile.box_bonus for s in SIDES}
    shutout = won[loser] == 0 and profile.shutout != "none"
    totals = {loser: points[loser] + boxes[loser]}
    totals[winner], text = _winner_total(points[winner], won[winner], shutout, profile)
    totals = {side: totals[side] for side in SIDES}
    text += f"; {loser}: {_plain_total(points[loser], won[loser], profile)}"
    return GameResult(
        winner,
        True,
        totals,
        dict(points),
        won,
        profile.game_bonus,
        boxes,
        shutout,
        totals[winner] - totals[loser],
        f"Game to {winner}: {text}",
    )


def _boxes(count: int, profile: RuleProfile) -> str:
    return f"{count} box{'es' if count != 1 else ''} × {profile.box_bonus}"


def _plain_total(points: int, won: int, profile: RuleProfile) -> str:
    return f"{points} points + {_boxes(won, profile)} = {points + won * profile.box_bonus}"


def _winner_total(points: int, won: int, shutout: bool, profile: RuleProfile) -> tuple[int, str]:
    boxes = won * profile.box_bonus
    parts = f"{profile.game_bonus} game bonus + {_boxes(won, profile)}"
    if shutout and profile.shutout == "double":
        total = (points + profile.game_bonus + boxes) * 2
        return total, f"({points} points + {parts}) × 2 shutout = {total}"
    if shutout and profile.shutout == "double_points":
        total = points * 2 + profile.game_bonus + boxes
        return total, f"{points} points × 2 shutout + {parts} = {total}"
    if shutout and profile.shutout == "bonus":
        total = points + profile.game_bonus + boxes + profile.shutout_bonus
        return total, f"{points} points + {parts} + {profile.shutout_bonus} shutout = {total}"
    total = points + profile.game_bonus + boxes
    return total, f"{points} points + {parts} = {total}"


# -------------------------------------------------------------------------- match


@dataclass(frozen=True)
class MatchResult:
    winner: str | None
    finished: bool
    games_won: dict[str, int]
    totals: dict[str, int]
    margin: int

    def as_dict(self) -> dict:
        return {
            "winner": self.winner,
            "finished": self.finished,
            "games_won": dict(self.games_won),
            "totals": dict(self.totals),
            "margin": self.margin,
        }


def score_match(games: Sequence[GameResult], profile: RuleProfile) -> MatchResult:
    """Best of N: the first to `games_to_win` finished games wins the match."""
    won = {"A": 0, "B": 0}
    totals = {"A": 0, "B": 0}
    winner = None
    for number, game in enumerate(games, start=1):
        if winner is not None:
            raise RulesError("game_over", f"game {number} comes after the match was decided")
        if not game.finished:
            raise RulesError("bad_hand", f"game {number} is not finished")
        for side in SIDES:
            totals[side] += game.totals[side]
        if game.winner:
            won[game.winner] += 1
            if won[game.winner] >= profile.games_to_win:
                winner = game.winner
    margin = abs(totals["A"] - totals["B"])
    return MatchResult(winner, winner is not None, won, totals, margin)


def next_dealer(*, dealer: str, hand_winner: str | None, profile: RuleProfile) -> str:
    """Who deals the next hand: a dead hand is redealt by the same dealer."""
    assert dealer in SIDES
    if hand_winner is None:
        return dealer
    if profile.next_dealer == "winner":
        return hand_winner
    if profile.next_dealer == "loser":
        return other(hand_winner)
    return other(dealer)
