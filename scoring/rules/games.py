"""Scoring a game and a match, and who deals next.

Terms:
    target     hand points accumulate until a player's total reaches it (or, with
               `game_hands`, the game is a fixed number of hands).
    box        the line bonus: each player gets `box_bonus` per hand they won, at the end.
    game bonus at the end: to the winner of the game, or with `game_bonus_to`
               `each_reaching_min` to every player whose hand points reached
               `game_bonus_min` (the school rules' "after a player has reached 100 points").
    shutout    the loser won no hand: `double` doubles the winner's whole total,
               `double_points` doubles the winner's hand points before bonuses, `bonus`
               adds `shutout_bonus`, `none` does nothing.
    margin     winner's total − loser's total.
    game_bonus_min  with it set, a player gets the game bonus only if their hand points
               reached it.
    Hollywood  three games from one sequence of hands (`score_hollywood`).
    forfeit    a game loss penalty (`forfeit_game`, docs/rules.md §18): the game ends
               at once; the penalised player scores nothing in it, the opponent their
               hand points, a box per hand they won and the game bonus (no shutout).
Players are "A" and "B". Bonuses never count toward the target.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.rules.errors import RulesError, gettext_noop
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
    game_bonus: int  # the winner's (kept: games stored before game_bonuses read it)
    box_bonus: dict[str, int]
    shutout: bool
    margin: int
    explanation: str
    game_bonuses: dict[str, int]  # each player's game bonus
    forfeited_by: str | None = None  # a game loss penalty ended it against this player

    def as_dict(self) -> dict:
        data = {
            "winner": self.winner,
            "finished": self.finished,
            "totals": dict(self.totals),
            "hand_points": dict(self.hand_points),
            "hands_won": dict(self.hands_won),
            "game_bonus": self.game_bonus,
            "game_bonuses": dict(self.game_bonuses),
            "box_bonus": dict(self.box_bonus),
            "shutout": self.shutout,
            "margin": self.margin,
            "explanation": self.explanation,
        }
        if self.forfeited_by:  # only then: the breakdowns stored before keep their keys
            data["forfeited_by"] = self.forfeited_by
        return data


def _hand(entry) -> HandScore:
    if isinstance(entry, HandScore):
        winner, points = entry.winner, entry.points
    elif isinstance(entry, dict):
        winner, points = entry.get("winner"), entry.get("points")
    elif isinstance(entry, (list, tuple)) and len(entry) == 2:
        winner, points = entry
    else:
        raise RulesError(
            "bad_hand",
            gettext_noop('a hand is {"winner", "points"}, not %(hand)s'),
            {"hand": repr(entry)},
        )
    if winner not in (None, "A", "B"):
        raise RulesError(
            "bad_hand",
            gettext_noop("a hand's winner is A, B or null, not %(winner)s"),
            {"winner": repr(winner)},
        )
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise RulesError(
            "bad_hand",
            gettext_noop("a hand's points are a whole number ≥ 0, not %(points)s"),
            {"points": repr(points)},
        )
    if winner is None and points:
        raise RulesError("bad_hand", gettext_noop("a hand nobody won scores 0 points"))
    return HandScore(winner, points)


@dataclass(frozen=True)
class Tally:
    """A game's hands added up: each player's hand points and hands won, who won the
    last hand anybody won, and the hand that ended the game (None: still in play)."""

    points: dict[str, int]
    won: dict[str, int]
    last_winner: str | None
    finished_at: int | None


def tally_game(hands: Sequence, profile: RuleProfile) -> Tally:
    """The hands, in order, added up; raises `bad_hand`, or `game_over` for a hand after
    the one that ended the game."""
    points = {"A": 0, "B": 0}
    won = {"A": 0, "B": 0}
    counted = 0
    last_winner = None
    finished_at = None
    for number, entry in enumerate(hands, start=1):
        if finished_at is not None:
            raise RulesError(
                "game_over",
                gettext_noop("hand %(number)s comes after the game ended at hand %(end)s"),
                {"number": number, "end": finished_at},
            )
        hand = _hand(entry)
        if hand.winner:
            points[hand.winner] += hand.points
            won[hand.winner] += 1
            last_winner = hand.winner
        if hand.winner or profile.dead_hands_count:
            counted += 1
        if _over(points, counted, profile):
            finished_at = number
    return Tally(points, won, last_winner, finished_at)


def score_game(hands: Sequence, profile: RuleProfile) -> GameResult:
    """The game after these hands, in order; bonuses once it is finished."""
    tally = tally_game(hands, profile)
    if tally.finished_at is None:
        return _in_progress(tally.points, tally.won)
    return _final(tally.points, tally.won, tally.last_winner, profile)


def game_bonuses(points: dict[str, int], winner: str | None, profile: RuleProfile) -> dict:
    """Each player's game bonus. To the winner only (`game_bonus_to` `winner`), if their
    hand points reached `game_bonus_min` when it is set; or to each player whose hand
    points reached `game_bonus_min` (`each_reaching_min`), whoever wins. `winner` None
    (a game in play): the winner's bonus is not earned yet, so only the second kind."""
    floor = profile.game_bonus_min

    def earns(side: str) -> bool:
        if profile.game_bonus_to == "winner" and side != winner:
            return False
        return floor is None or points[side] >= floor

    return {side: profile.game_bonus if earns(side) else 0 for side in SIDES}


def _in_progress(points: dict[str, int], won: dict[str, int]) -> GameResult:
    text = f"Game in progress: A {points['A']}, B {points['B']}"
    return GameResult(
        None,
        False,
        dict(points),
        dict(points),
        dict(won),
        0,
        {"A": 0, "B": 0},
        False,
        abs(points["A"] - points["B"]),
        text,
        {"A": 0, "B": 0},
    )


def _over(points: dict[str, int], hands_counted: int, profile: RuleProfile) -> bool:
    if profile.game_hands is not None:
        return hands_counted >= profile.game_hands
    return max(points.values()) >= profile.game_target


@dataclass(frozen=True)
class Standing:
    """Where a game stands after the hands so far (see `game_standing`)."""

    totals: dict[str, int]
    hand_points: dict[str, int]
    box_bonus: dict[str, int]
    game_bonuses: dict[str, int]


def game_standing(hands: Sequence, profile: RuleProfile) -> Standing:
    """Who leads a game, by how much, when it is stopped before its end (time called,
    docs/rules.md §13): the figures §7 ranks it on. To a target, each player's hand
    points (the bonuses come only with the end). A fixed number of hands, the totals so
    far: hand points, boxes for the hands won, and each game bonus already earned (under
    `game_bonus_to` `each_reaching_min`, that of each player who reached
    `game_bonus_min`; a winner's bonus is not earned before the end, and could only widen
    the winner's lead). Neither a game bonus still to be won nor a shutout counts."""
    tally = tally_game(hands, profile)
    return _standing(tally.points, tally.won, profile)


def _standing(points: dict[str, int], won: dict[str, int], profile: RuleProfile) -> Standing:
    if profile.game_hands is None:
        nothing = {"A": 0, "B": 0}
        return Standing(dict(points), dict(points), nothing, dict(nothing))
    boxes = {s: won[s] * profile.box_bonus for s in SIDES}
    bonuses = game_bonuses(points, None, profile)
    totals = {s: points[s] + boxes[s] + bonuses[s] for s in SIDES}
    return Standing(totals, dict(points), boxes, bonuses)


def _game_winner(
    points: dict[str, int], won: dict[str, int], last_winner: str | None, profile: RuleProfile
) -> tuple[str | None, str]:
    """Who won a finished game, and why (for the explanation).

    To a target: the player who reached it (only the scorer of a hand can reach it, so
    it is the higher hand-point total). A fixed number of hands: the higher standing
    (hand points plus boxes, plus the game bonuses earned whoever wins), which is the
    higher final total, since a winner's game bonus and the shutout only ever go to the
    winner; level: more hands won; still level: the winner of the last hand anybody won;
    nobody won a hand: drawn."""
    if profile.game_hands is None:
        return ("A" if points["A"] > points["B"] else "B"), ""
    before = _standing(points, won, profile).totals
    with_ = "with boxes" if profile.game_bonus_to == "winner" else "with boxes and game bonuses"
    if before["A"] != before["B"]:
        side = "A" if before["A"] > before["B"] else "B"
        return side, f"higher total {with_}, {before[side]} to {before[other(side)]}"
    if won["A"] != won["B"]:
        side = "A" if won["A"] > won["B"] else "B"
        return side, f"level at {before['A']} {with_}, more hands won"
    if last_winner is not None:
        return last_winner, f"level at {before['A']} {with_} and hands won, won the last hand"
    return None, ""


def _final(
    points: dict[str, int], won: dict[str, int], last_winner: str | None, profile: RuleProfile
) -> GameResult:
    boxes = {s: won[s] * profile.box_bonus for s in SIDES}
    winner, why = _game_winner(points, won, last_winner, profile)
    if winner is None:  # only a fixed number of hands, all of them dead
        totals = {s: points[s] + boxes[s] for s in SIDES}
        return GameResult(
            None,
            True,
            totals,
            dict(points),
            dict(won),
            0,
            boxes,
            False,
            0,
            "Game drawn: nobody won a hand",
            {"A": 0, "B": 0},
        )
    loser = other(winner)
    shutout = won[loser] == 0 and profile.shutout != "none"
    bonuses = game_bonuses(points, winner, profile)
    totals = {loser: points[loser] + boxes[loser] + bonuses[loser]}
    totals[winner], text = _winner_total(
        points[winner], won[winner], bonuses[winner], shutout, profile
    )
    totals = {side: totals[side] for side in SIDES}
    if bonuses[winner] != profile.game_bonus:
        text += f" (no game bonus: {points[winner]} points, under {profile.game_bonus_min})"
    text += f"; {loser}: {_plain_total(points[loser], won[loser], bonuses[loser], profile)}"
    return GameResult(
        winner,
        True,
        totals,
        dict(points),
        dict(won),
        bonuses[winner],
        boxes,
        shutout,
        totals[winner] - totals[loser],
        f"Game to {winner}{f' ({why})' if why else ''}: {text}",
        bonuses,
    )


def forfeit_game(hands: Sequence, profile: RuleProfile, loser: str) -> GameResult:
    """The game after these hands, ended at once by a game loss penalty against `loser`
    (docs/rules.md §18). Raises `game_over` for hands past the game's own end."""
    tally = tally_game(hands, profile)
    winner = other(loser)
    points, won = tally.points, tally.won
    boxes = {winner: won[winner] * profile.box_bonus, loser: 0}
    total = points[winner] + profile.game_bonus + boxes[winner]
    totals = {winner: total, loser: 0}
    text = (
        f"Game to {winner} (game loss penalty against {loser}): {points[winner]} points + "
        f"{profile.game_bonus} game bonus + {_boxes(won[winner], profile)} = {total}; "
        f"{loser}: 0 (forfeited)"
    )
    return GameResult(
        winner,
        True,
        {side: totals[side] for side in SIDES},
        dict(points),
        dict(won),
        profile.game_bonus,
        {side: boxes[side] for side in SIDES},
        False,
        total,
        text,
        {winner: profile.game_bonus, loser: 0},
        loser,
    )


def _boxes(count: int, profile: RuleProfile) -> str:
    return f"{count} box{'es' if count != 1 else ''} × {profile.box_bonus}"


def _plain_total(points: int, won: int, bonus: int, profile: RuleProfile) -> str:
    game = f" + {bonus} game bonus" if bonus else ""
    total = points + bonus + won * profile.box_bonus
    return f"{points} points{game} + {_boxes(won, profile)} = {total}"


def _winner_total(
    points: int, won: int, bonus: int, shutout: bool, profile: RuleProfile
) -> tuple[int, str]:
    boxes = won * profile.box_bonus
    parts = f"{bonus} game bonus + {_boxes(won, profile)}"
    if shutout and profile.shutout == "double":
        total = (points + bonus + boxes) * 2
        return total, f"({points} points + {parts}) × 2 shutout = {total}"
    if shutout and profile.shutout == "double_points":
        total = points * 2 + bonus + boxes
        return total, f"{points} points × 2 shutout + {parts} = {total}"
    if shutout and profile.shutout == "bonus":
        total = points + bonus + boxes + profile.shutout_bonus
        return total, f"{points} points + {parts} + {profile.shutout_bonus} shutout = {total}"
    total = points + bonus + boxes
    return total, f"{points} points + {parts} = {total}"


# -------------------------------------------------------------------------- Hollywood

HOLLYWOOD_GAMES = 3


@dataclass(frozen=True)
class HollywoodResult:
    """Three games scored from one sequence of hands (docs/rules.md §8a).

    `games`: each game's GameResult; `ended_at`: the hand (1-based position in the
    sequence) that ended each game, or None; `scored_in`: for each hand, the games
    (1-3) it scored in. The match: finished once all three games are; won by the player
    who won more of them; totals are the sums of the three games' totals."""

    games: tuple[GameResult, ...]
    ended_at: tuple[int | None, ...]
    scored_in: tuple[tuple[int, ...], ...]
    match: MatchResult

    @property
    def finished(self) -> bool:
        return self.match.finished

    @property
    def explanation(self) -> str:
        return "; ".join(f"game {n}: {g.explanation}" for n, g in enumerate(self.games, 1))

    def as_dict(self) -> dict:
        return {
            "games": [game.as_dict() for game in self.games],
            "ended_at": list(self.ended_at),
            "scored_in": [list(games) for games in self.scored_in],
            "match": self.match.as_dict(),
            "explanation": self.explanation,
        }


def score_hollywood(hands: Sequence, profile: RuleProfile) -> HollywoodResult:
    """Hollywood scoring: every hand is scored, in order, into the games still open.

    A hand a player wins scores in every open game in which that player has already won
    a hand, and in the lowest-numbered open game in which they have not (if any). So
    their first win scores in game 1 only, the second in games 1 and 2, the third and
    later ones in all three still open; and a player shut out of a game that has ended
    starts in the next open game. Each game ends at `game_target` and is finished like
    any game (boxes for the hands it counted, game bonus, shutout). Dead hands score in
    no game. Raises `game_over` for a hand after all three games ended."""
    if profile.game_hands is not None:
        raise RulesError(
            "bad_option",
            gettext_noop("hollywood games are played to a target, not game_hands"),
        )
    count = HOLLYWOOD_GAMES
    points = [{"A": 0, "B": 0} for _ in range(count)]
    won = [{"A": 0, "B": 0} for _ in range(count)]
    ended: list[int | None] = [None] * count
    scored_in: list[tuple[int, ...]] = []
    for number, entry in enumerate(hands, start=1):
        open_games = [g for g in range(count) if ended[g] is None]
        if not open_games:
            raise RulesError(
                "game_over",
                gettext_noop("hand %(number)s comes after all three games ended at hand %(end)s"),
                {"number": number, "end": ended[-1]},
            )
        hand = _hand(entry)
        games: list[int] = []
        if hand.winner:
            side = hand.winner
            games = [g for g in open_games if won[g][side]]
            fresh = next((g for g in open_games if not won[g][side]), None)
            if fresh is not None:
                games.append(fresh)
            for g in games:
                points[g][side] += hand.points
                won[g][side] += 1
                if points[g][side] >= profile.game_target:
                    ended[g] = number
        scored_in.append(tuple(g + 1 for g in sorted(games)))
    results = tuple(
        _final(points[g], won[g], None, profile)
        if ended[g] is not None
        else _in_progress(points[g], won[g])
        for g in range(count)
    )
    return HollywoodResult(results, tuple(ended), tuple(scored_in), hollywood_match(results))


def hollywood_match(games: Sequence[GameResult]) -> MatchResult:
    """The match of three Hollywood games: over when all are; won by whoever won more."""
    won = {"A": 0, "B": 0}
    totals = {"A": 0, "B": 0}
    for game in games:
        if game.finished:
            for side in SIDES:
                totals[side] += game.totals[side]
            if game.winner:
                won[game.winner] += 1
    finished = all(game.finished for game in games)
    winner = None
    if finished and won["A"] != won["B"]:
        winner = "A" if won["A"] > won["B"] else "B"
    return MatchResult(winner, finished, won, totals, abs(totals["A"] - totals["B"]))


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
            raise RulesError(
                "game_over",
                gettext_noop("game %(number)s comes after the match was decided"),
                {"number": number},
            )
        if not game.finished:
            raise RulesError(
                "bad_hand", gettext_noop("game %(number)s is not finished"), {"number": number}
            )
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
