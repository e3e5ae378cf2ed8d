"""Every number explains itself: a game's totals, a game's summary and a match's result in
words with players' names, for the scoreboard, the public match summary and the API.

The words are built here, in the presentation layer, from what is stored: a finished
game's `breakdown` (the engine's GameResult, which speaks of seats "A" and "B":
scoring.rules stays pure) and the match's frozen rules. Nothing is recomputed.

    total       "Ada: 105 in hands + 100 game + 2 boxes × 25 = 255"
    summary     "Game to Ada. Ada: 105 in hands + ... = 255; Ben: 30 in hands + 1 box × 25 = 55"
    result      "Ada wins 2–1: time was called and Ada led on games"; "Ben wins 3–1"
    arithmetic  how the match result came about: who won which games, the target, the
                match points as sums of the game totals.
"""

from __future__ import annotations

from typing import Any

from scoring.hooks import MatchDecision
from scoring.models import Game, Match

SEATS = ("A", "B")


def names_of(match: Match) -> dict[str, str]:
    return {"A": match.player_a.name, "B": match.player_b.name}


def _other(seat: str) -> str:
    return "B" if seat == "A" else "A"


def _boxes(won: int, each: int) -> str:
    return f"{won} box{'es' if won != 1 else ''} × {each}"


def _box_each(breakdown: dict[str, Any], seat: str, rules: dict[str, Any]) -> int:
    won = breakdown["hands_won"][seat]
    return breakdown["box_bonus"][seat] // won if won else rules.get("box_bonus", 0)


def total(game: Game, seat: str, names: dict[str, str], rules: dict[str, Any]) -> str:
    """One player's total in a game, as a sum: "Ada: 105 in hands + 100 game + 2 boxes ×
    25 = 255". An unfinished game has no bonuses yet: "Ada: 45 in hands so far"."""
    bd = game.breakdown or {}
    if game.state != Game.State.FINISHED or not bd:
        points = game.hand_points_a if seat == "A" else game.hand_points_b
        return f"{names[seat]}: {points} in hands so far"
    points, won = bd["hand_points"][seat], bd["hands_won"][seat]
    boxes = _boxes(won, _box_each(bd, seat, rules))
    final = bd["totals"][seat]
    if bd["winner"] != seat:
        return f"{names[seat]}: {points} in hands + {boxes} = {final}"
    bonus = f"{bd['game_bonus']} game + " if bd["game_bonus"] else ""
    shutout = rules.get("shutout") if bd.get("shutout") else None
    if shutout == "double":
        text = f"({points} in hands + {bonus}{boxes}) × 2 shutout = {final}"
    elif shutout == "double_points":
        text = f"{points} in hands × 2 shutout + {bonus}{boxes} = {final}"
    elif shutout == "bonus":
        extra = rules.get("shutout_bonus", 100)
        text = f"{points} in hands + {bonus}{boxes} + {extra} shutout = {final}"
    else:
        text = f"{points} in hands + {bonus}{boxes} = {final}"
    floor = rules.get("game_bonus_min")
    if not bd["game_bonus"] and floor is not None and points < floor:
        text += f" (no game bonus: {points} in hands, under {floor})"
    return f"{names[seat]}: {text}"


def totals(game: Game, names: dict[str, str], rules: dict[str, Any]) -> dict[str, str]:
    return {seat: total(game, seat, names, rules) for seat in SEATS}


def _why(bd: dict[str, Any], rules: dict[str, Any]) -> str:
    """Why the winner of a fixed-length game won (docs/rules.md §7); blank to a target."""
    if rules.get("game_hands") is None:
        return ""
    with_boxes = {s: bd["hand_points"][s] + bd["box_bonus"][s] for s in SEATS}
    winner = bd["winner"]
    loser = _other(winner)
    if with_boxes[winner] != with_boxes[loser]:
        return f" (higher total with boxes, {with_boxes[winner]} to {with_boxes[loser]})"
    if bd["hands_won"][winner] != bd["hands_won"][loser]:
        return f" (level at {with_boxes[winner]} with boxes, more hands won)"
    return f" (level at {with_boxes[winner]} with boxes and hands won, won the last hand)"


def summary(game: Game, names: dict[str, str], rules: dict[str, Any]) -> str:
    """A finished game in words with names, winner first (blank while it is played)."""
    bd = game.breakdown or {}
    if game.state != Game.State.FINISHED or not bd:
        return ""
    if not bd.get("winner"):
        return "Game drawn: nobody won a hand. " + "; ".join(
            total(game, s, names, rules) for s in SEATS
        )
    winner = bd["winner"]
    parts = [total(game, seat, names, rules) for seat in (winner, _other(winner))]
    return f"Game to {names[winner]}{_why(bd, rules)}. {'; '.join(parts)}"


def result(match: Match, decision: MatchDecision | None = None) -> str:
    """How the match ended, winner's games first ("Ben wins 3–1"; decided above scoring:
    "Ada wins 2–1: time was called and Ada led on games"); blank while it is played."""
    names = names_of(match)
    if decision is not None:
        w, games = decision.winner, decision.games
        return f"{names[w]} wins {games[w]}–{games[_other(w)]}: {decision.why}"
    if not match.winner:
        if match.state == Match.State.CLOSED:
            return "The match was stopped by an organiser; no result yet."
        return ""
    w = match.winner
    games = {"A": match.games_won_a, "B": match.games_won_b}
    return f"{names[w]} wins {games[w]}–{games[_other(w)]}"


def _listed(numbers: list[int]) -> str:
    if len(numbers) == 1:
        return f"game {numbers[0]}"
    return f"games {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"


def arithmetic(match: Match, games: list[Game], decision: MatchDecision | None = None) -> str:
    """The match result's arithmetic in words: who won which games against what the
    match asks, and each player's match points as the sum of their game totals."""
    names, rules = names_of(match), match.rules
    finished = [g for g in games if g.state == Game.State.FINISHED]
    won = {s: [g.number for g in finished if g.winner == s] for s in SEATS}
    drawn = [g.number for g in finished if not g.winner]
    said = [f"{names[s]} won {_listed(won[s])}" for s in SEATS if won[s]] or ["No game finished"]
    if drawn:
        said.append(f"{_listed(drawn)} drawn")
    if rules.get("hollywood"):
        goal = "three games at once: the match goes to whoever wins more of them"
    else:
        to_win = rules.get("games_to_win", 1)
        goal = f"the first to {to_win} game{'s' if to_win != 1 else ''} wins"
    text = f"{', '.join(said)}; {goal}."
    if finished:
        sums = []
        for s in SEATS:
            parts = [str(g.total_a if s == "A" else g.total_b) for g in finished]
            shown = " + ".join(parts) + (f" = {sum(map(int, parts))}" if len(parts) > 1 else "")
            sums.append(f"{names[s]} {shown}")
        text += f" Match points (game totals): {'; '.join(sums)}."
    if decision is not None:
        text += f" The match did not run to its end: {decision.why}."
    return text
