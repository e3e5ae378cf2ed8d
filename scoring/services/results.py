"""A match's result, and what changing it means beyond the match.

Every hand action that can move a match's result recomputes it through `recompute`:
the games and the match are re-derived from the hand rows (scoring.progress), and when
the result (state, winner, games won, points) is not what it was, the apps above
scoring are asked through scoring.hooks' result guards. A guard may refuse (a match of a
closed tournament round must stay decided: the refusal rolls the whole change back), or
describe what the change does there (standings rows that move, later rounds paired from
the old standings). Each description is written to the match's ledger as a
`result_changed_after_close` row, in the same transaction, and returned to the caller.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import pgettext

from ginclub.permissions import Actor
from scoring import hooks
from scoring.models import Hand, Match
from scoring.progress import recompute_match
from scoring.services import ratings
from scoring.services.base import log

RESULT_CHANGED = "result_changed_after_close"


def result_of(match: Match) -> dict[str, Any]:
    """The match's result as the standings read it."""
    return {
        "state": match.state,
        "winner": match.winner or None,
        "games_won": {"A": match.games_won_a, "B": match.games_won_b},
        "points": {"A": match.points_a, "B": match.points_b},
    }


@dataclass
class ResultReport:
    """What a recompute did to the match's result, and the guards' descriptions."""

    before: dict[str, Any]
    after: dict[str, Any]
    consequences: list[dict[str, Any]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.before != self.after


def recompute(match: Match, actor: Actor, *, action: str, hand: Hand, reason: str = ""):
    """Recompute `match` after `action` on `hand` (inside the caller's transaction, the
    match locked), ask the result guards when its result moved, and log what they say.

    Raises the recompute's Conflicts and whatever a guard refuses with.
    """
    before = result_of(match)
    recompute_match(match, actor)
    report = ResultReport(before, result_of(match))
    if not report.changed:
        return report
    if ratings.counts(report.before) or ratings.counts(report.after):
        # A rated result moved (a match ended, or a finished one was corrected): the
        # club's ratings are rebuilt in the background once this commits.
        ratings.queue_ratings(match.club_id)
    change = hooks.ResultChange(
        match_id=match.pk,
        action=action,
        # Translators: the apps above put this in their sentences ("Correct hand 3 of game 1 ...").
        hand=pgettext("in a sentence", "hand %(number)s of game %(game)s")
        % {"number": hand.number, "game": hand.game.number},
        before=report.before,
        after=report.after,
    )
    report.consequences = hooks.guard_result_change(change)
    for consequence in report.consequences:
        log(
            match,
            RESULT_CHANGED,
            actor,
            hand=hand,
            reason=reason,
            before={"result": report.before},
            after={"result": report.after, "action": action, **consequence},
        )
    return report
