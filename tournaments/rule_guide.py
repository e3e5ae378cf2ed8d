"""What a rule profile means to an organiser: its rules in words, how long a round under
it takes, and the tournament settings that follow from it.

**Follow-on settings** (FOLLOW_ON) are the tournament settings whose sensible value
depends on the rules: the round length (below) and the games a bye counts as won (a
whole match: `games_to_win`). `fitted_settings` is the one place that decides them; the
services give them to a tournament unless the organiser sets them (docs/rules.md §10).

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

from django.utils.translation import gettext as _

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


FOLLOW_ON = ("round_minutes", "bye_games")


def fitted_settings(rules: RuleProfile) -> dict[str, int]:
    """The follow-on settings as `rules` suggest them: rounds as long as
    suggested_round_minutes, and a bye worth a whole match won."""
    return {"round_minutes": suggested_round_minutes(rules), "bye_games": rules.games_to_win}


def rules_in_words(rules: RuleProfile) -> str:
    """One sentence an organiser can check a profile against."""
    parts = [_game(rules), _knock(rules), _bonuses(rules), _shutout(rules)]
    if not rules.layoffs:
        parts.append(_("no lay-offs"))
    if rules.oklahoma:
        parts.append(_("the up-card sets the knock limit (Oklahoma)"))
    # Translators: the clauses of a rule profile in words, each a part of one sentence.
    return _("%(clauses)s.") % {"clauses": "; ".join(parts)}


def _game(rules: RuleProfile) -> str:
    if rules.hollywood:
        return _("Hollywood: three games to %(target)s scored at once") % {
            "target": rules.game_target
        }
    if rules.game_hands is not None:
        if rules.games_to_win == 1:
            return _("Games of %(hands)s hands, one game a match") % {"hands": rules.game_hands}
        return _("Games of %(hands)s hands, first to %(count)s games wins the match") % {
            "hands": rules.game_hands,
            "count": rules.games_to_win,
        }
    if rules.games_to_win == 1:
        return _("Games to %(target)s, one game a match") % {"target": rules.game_target}
    return _("Games to %(target)s, first to %(count)s games wins the match") % {
        "target": rules.game_target,
        "count": rules.games_to_win,
    }


def _knock(rules: RuleProfile) -> str:
    if rules.knock_limit == 0:
        return _("gin only (no knocking)")
    return _("knock with %(limit)s or less") % {"limit": rules.knock_limit}


def _bonuses(rules: RuleProfile) -> str:
    big = (
        _(", big gin %(bonus)s") % {"bonus": rules.big_gin_bonus}
        if rules.big_gin_bonus is not None
        else ""
    )
    if rules.game_bonus_min is not None and rules.game_bonus_to == "each_reaching_min":
        game = _("game %(bonus)s (to each player on %(least)s or more)") % {
            "bonus": rules.game_bonus,
            "least": rules.game_bonus_min,
        }
    elif rules.game_bonus_min is not None:
        game = _("game %(bonus)s (to a winner on %(least)s or more)") % {
            "bonus": rules.game_bonus,
            "least": rules.game_bonus_min,
        }
    else:
        game = _("game %(bonus)s") % {"bonus": rules.game_bonus}
    # Translators: the bonuses of a rule profile: "gin 25, big gin 31, undercut 25, box 25
    # a hand won, game 100".
    return _("gin %(gin)s%(big)s, undercut %(undercut)s, box %(box)s a hand won, %(game)s") % {
        "gin": rules.gin_bonus,
        "big": big,
        "undercut": rules.undercut_bonus,
        "box": rules.box_bonus,
        "game": game,
    }


def _shutout(rules: RuleProfile) -> str:
    if rules.shutout == "bonus":
        return _("a shutout adds %(bonus)s") % {"bonus": rules.shutout_bonus}
    return {
        "double": _("a shutout doubles the winner's whole total"),
        "double_points": _("a shutout doubles the winner's hand points"),
        "none": _("no shutout bonus"),
    }[rules.shutout]
