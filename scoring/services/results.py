"""A match's result, and what changing it means beyond the match.

Every hand action that can move a match's result recomputes it through `recompute`:
the games and the match are re-derived from the hand rows (scoring.services.recompute),
and when the result (state, winner, games won, points) is not what it was, the apps above
scoring are asked through scoring.hooks' result guards. A guard may refuse (a match of a
closed tournament round must stay decided: the refusal rolls the whole change back), or
describe what the change does there (standings rows that move, later rounds paired from
the old standings). Each description is written to the match's ledger as a
`result_changed_after_close` row, in the same transaction, and returned to the caller.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ginclub import permissions
from ginclub.errors import Conflict, ServiceError, require_reason
from ginclub.permissions import Actor
from scoring import hooks
from scoring.models import Hand, Match
from scoring.services import ratings
from scoring.services.base import lock_match, log, where_from
from scoring.services.recompute import recompute_match
from scoring.services.summaries import write_summaries

RESULT_CHANGED = "result_changed_after_close"


def result_of(match: Match) -> dict[str, Any]:
    """The match's result as the standings read it."""
    return {
        "state": match.state,
        "winner": match.winner or None,
        "games_won": {"A": match.games_won_a, "B": match.games_won_b},
        "points": {"A": match.points_a, "B": match.points_b},
    }


def decision_of(match: Match) -> dict[str, Any]:
    """The result with who set it over the hands, why and when (for the ledger)."""
    return {
        **result_of(match),
        "decided_by": match.decided_by or None,
        "reason": match.decision_reason,
        "decided_at": match.decided_at.isoformat() if match.decided_at else None,
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


def recompute(match: Match, actor: Actor, *, action: str, hand: Hand, reason: str = "", games=None):
    """Recompute `match` after `action` on `hand` (inside the caller's transaction, the
    match locked), ask the result guards when its result moved, and log what they say.
    `games`: as recompute_match takes them (the caller read them under the lock).

    Raises the recompute's Conflicts and whatever a guard refuses with.
    """
    before = result_of(match)
    recompute_match(match, actor, games)
    # Translators: the apps above put this in their sentences ("Correct hand 3 of game 1 ...").
    what = pgettext("in a sentence", "hand %(number)s of game %(game)s") % {
        "number": hand.number,
        "game": hand.game.number,
    }
    return moved(match, actor, before, action=action, what=what, hand=hand, reason=reason)


def log_decision(match, actor, before, after, *, action, hand=None, reason="") -> None:
    """A ledger row when `action` (a hand's confirmation, correction or void, a rules
    change) decided the match, changed its winner, or left it undecided again: every
    decision is a row of its own, whatever made it (an organiser's or the time
    policy's decision writes its own `match_decided` row, decide_match)."""
    if before["winner"] == after["winner"]:
        return
    log(
        match,
        "match_decided" if after["winner"] else "match_undecided",
        actor,
        hand=hand,
        reason=reason,
        before={**before, "decided_by": match.decided_by or None},
        after={**after, "decided_by": match.decided_by or None, "action": action},
    )


def moved(
    match, actor, before, *, action, what, hand=None, reason="", decision=False
) -> ResultReport:
    """After `match`'s result may have moved from `before`: queue the ratings, ask the
    result guards and log what they say, and tell the result listeners (on commit).
    `decision`: the caller set or withdrew the result over the hands and logged it."""
    report = ResultReport(before, result_of(match))
    if not report.changed:
        return report
    if not decision:
        log_decision(match, actor, report.before, report.after, action=action, hand=hand,
                     reason=reason)  # fmt: skip
    if ratings.counts(report.before) or ratings.counts(report.after):
        # A rated result moved (a match ended, or a finished one was corrected): the
        # club's ratings are rebuilt in the background once this commits.
        ratings.queue_ratings(match.club_id)
    change = hooks.ResultChange(
        match_id=match.pk,
        action=action,
        hand=what,
        before=report.before,
        after=report.after,
    )
    report.consequences = hooks.guard_result_change(change)
    hooks.result_changed(change)  # the listeners hear of it once it commits
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


# --------------------------------------------------------------- decisions over the hands


def decide_match(
    *,
    match_id: int,
    actor: Actor,
    winner: str,
    games: tuple[int, int],
    points: tuple[int, int],
    by: str,
    reason: str,
    action: str = "match_decided",
) -> Match:
    """Set the match's result over its hands (`by`: Match.DecidedBy, an organiser's
    result or the time policy's): the winner, games and points stand, the match is
    stopped (no more hands), and every reader of results (records, ratings, standings,
    ladders) counts it. A match that its hands already decided is refused, unless the
    decision is a match loss penalty (which may follow an infraction found afterwards).

    Raises Forbidden, ServiceError (`reason_required`, `invalid`), Conflict (`match_over`).
    """
    require_reason(reason, _("Say why the result is set."))
    if winner not in ("A", "B") or by not in Match.DecidedBy.values:
        raise ServiceError(
            "invalid",
            _("The winner is seat A or B: a match cannot end drawn."),
            fields={"winner": _("A or B")},
        )
    with transaction.atomic():
        match = lock_match(match_id)
        permissions.require_manage_match(actor, match)
        if match.decided and not match.overruled and by != Match.DecidedBy.PENALTY:
            raise Conflict(
                "match_over",
                _("%(winner)s has already won this match at the table.")
                % {"winner": match.player(match.winner).name},
            )
        before, logged = result_of(match), decision_of(match)
        match.winner, match.decided_by = winner, by
        match.games_won_a, match.games_won_b = games
        match.points_a, match.points_b = points
        match.decision_reason, match.decided_at = reason.strip(), timezone.now()
        match.state = Match.State.CLOSED
        match.save()
        write_summaries([match.pk])
        after = {**decision_of(match), **where_from(actor)}
        log(match, action, actor, reason=reason.strip(), before=logged, after=after)
        moved(
            match, actor, before, action=action, what=_("the result"), reason=reason,
            decision=True,
        )  # fmt: skip
    return match


def withdraw_decision(*, match_id: int, actor: Actor, reason: str) -> Match:
    """Take back a result set over the hands: the hands decide again (the match goes on
    unless they finished it).

    Raises Forbidden, ServiceError (`reason_required`), Conflict (`not_decided`)."""
    require_reason(reason, _("Say why the result is withdrawn."))
    with transaction.atomic():
        match = lock_match(match_id)
        permissions.require_manage_match(actor, match)
        if not match.overruled:
            raise Conflict("not_decided", _("This match has no result set by hand."))
        before, logged = result_of(match), decision_of(match)
        match.decided_by, match.decision_reason, match.decided_at = "", "", None
        match.state = Match.State.IN_PROGRESS
        recompute_match(match, actor)  # the hands' result, and the seat summaries
        log(
            match,
            "decision_withdrawn",
            actor,
            reason=reason.strip(),
            before=logged,
            after=decision_of(match),
        )
        moved(
            match, actor, before, action="decision_withdrawn", what=_("the result"),
            decision=True,
        )  # fmt: skip
    return match
