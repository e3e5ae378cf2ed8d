"""What a rule profile means to an organiser: its rules in words, and how long a round
under it takes.

Round lengths are estimates from a club's real tables, to be adjusted per event:

- a **hand** takes about 2.5 minutes with real cards: shuffle, deal, play, count the
  deadwood and enter it on a phone;
- a **game** to 100 takes about 6 hands (the winner nets about 18 points a hand once
  the loser's hands are counted too), so a game to T takes T / 18 hands, rounded up; a
  fixed-length game (``game_hands``) takes exactly that many; Hollywood scores three
  games at once from one run of hands, which lasts as long as the slowest of the three,
  about 1.5 times one game;
- a **match** first to N games plays about (3N - 1) / 2 games (1 of 1, 2 of a best of
  three, 4 of a best of five);
- plus 10 minutes to seat the players and finish the last hand.

So the tournament profile (best of five games to 250) suggests 150 minutes: about 4
games of 14 hands. A 50-minute round, the old default, fits barely one of those games;
the time policy would decide nearly every match. The result is rounded up to 5 minutes.
"""

from __future__ import annotations

import math

from scoring.rules.profiles import RuleProfile

MINUTES_A_HAND = 2.5
POINTS_A_HAND = 18
SEATING_MINUTES = 10
HOLLYWOOD_FACTOR = 1.5


def hands_a_game(rules: RuleProfile) -> int:
    if rules.game_hands is not None:
        return rules.game_hands
    return math.ceil(rules.game_target / POINTS_A_HAND)


def games_a_match(rules: RuleProfile) -> float:
    if rules.hollywood:
        return HOLLYWOOD_FACTOR
    return max(1, (3 * rules.games_to_win - 1) // 2)


def suggested_round_minutes(rules: RuleProfile) -> int:
    """Minutes for a round under `rules` (module docstring), rounded up to 5, at most 600."""
    minutes = hands_a_game(rules) * games_a_match(rules) * MINUTES_A_HAND + SEATING_MINUTES
    return min(600, 5 * math.ceil(minutes / 5))


def rules_in_words(rules: RuleProfile) -> str:
    """One sentence an organiser can check a profile against."""
    parts = [_game(rules), _knock(rules), _bonuses(rules), _shutout(rules)]
    if not rules.layoffs:
        parts.append("no lay-offs")
    if rules.oklahoma:
        parts.append("the up-card sets the knock limit (Oklahoma)")
    return "; ".join(parts) + "."


def _game(rules: RuleProfile) -> str:
    if rules.hollywood:
        return f"Hollywood: three games to {rules.game_target} scored at once"
    length = (
        f"games of {rules.game_hands} hands"
        if rules.game_hands is not None
        else f"games to {rules.game_target}"
    )
    match = (
        "one game a match"
        if rules.games_to_win == 1
        else f"first to {rules.games_to_win} games wins the match"
    )
    return f"{length.capitalize()}, {match}"


def _knock(rules: RuleProfile) -> str:
    if rules.knock_limit == 0:
        return "gin only (no knocking)"
    return f"knock with {rules.knock_limit} or less"


def _bonuses(rules: RuleProfile) -> str:
    big = f", big gin {rules.big_gin_bonus}" if rules.big_gin_bonus is not None else ""
    game = f"game {rules.game_bonus}"
    if rules.game_bonus_min is not None:
        game += f" (to a winner on {rules.game_bonus_min} or more)"
    return (
        f"gin {rules.gin_bonus}{big}, undercut {rules.undercut_bonus}, "
        f"box {rules.box_bonus} a hand won, {game}"
    )


def _shutout(rules: RuleProfile) -> str:
    return {
        "double": "a shutout doubles the winner's whole total",
        "double_points": "a shutout doubles the winner's hand points",
        "bonus": f"a shutout adds {rules.shutout_bonus}",
        "none": "no shutout bonus",
    }[rules.shutout]
