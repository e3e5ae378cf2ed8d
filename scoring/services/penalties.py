"""Warnings and penalties (docs/rules.md §18): staff record an infraction against one
player of a match, with a penalty, and may reverse it with a reason.

Terms:
    caution, warning   a record only: no result changes; both players and the staff see it.
    game loss          the game in play ends at once, lost by the penalised player
                       (scoring.rules.games.forfeit_game). The penalty row is the fact; the
                       recompute reads it (scoring.match_rules.game_losses), so the games and
                       the match follow through the same path as a hand's change
                       (results.recompute's: ratings, result guards, `match_decided` rows),
                       and the replay reads its ledger rows (scoring.replay).
    match loss         the match's result is set over the hands (results.decide_match, by
                       `penalty`): the opponent wins; reversing it withdraws that decision.
Every record and reversal is one ledger row on the match's chain (`penalty_recorded`,
`penalty_reversed`), whose `after` the replay reads.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ginclub import permissions
from ginclub.errors import Conflict, ServiceError, require_reason
from ginclub.permissions import Actor
from scoring.match_rules import entry_game, game_result, is_hollywood, profile_of
from scoring.models import Game, Hand, Match, Penalty
from scoring.services import results
from scoring.services.base import lock_match, log, where_from
from scoring.services.recompute import recompute_match

PENALTY = Match.DecidedBy.PENALTY


def penalty_of(penalty: Penalty) -> dict[str, Any]:
    """A penalty as its ledger rows record it (the replay reads `penalty`, `kind`,
    `seat`, `game` and `active`)."""
    return {
        "penalty": penalty.pk,
        "seat": penalty.seat,
        "player": penalty.player.name,
        "kind": penalty.kind,
        "infraction": penalty.infraction,
        "details": penalty.details,
        "game": penalty.game,
        "active": penalty.active,
    }


def record_penalty(
    *, match_id: int, actor: Actor, seat: str, kind: str, infraction: str, details: str
) -> Penalty:
    """Record `kind` against the player in `seat` for `infraction` (what happened in
    `details`). A game loss ends the game in play, a match loss the match (module doc).

    Raises Forbidden, ServiceError (`details_required`, `invalid`), Conflict
    (`match_over`, `hollywood`, `hand_unsettled`, `decided_by_staff`) and what the
    result guards refuse (a closed round's result)."""
    _check_choices(seat, kind, infraction)
    if not (details or "").strip():
        raise ServiceError(
            "details_required",
            _("Say what happened: the infraction is recorded with the penalty."),
            fields={"details": "required"},
        )
    with transaction.atomic():
        match = lock_match(match_id)
        permissions.require_penalise(actor, match)
        game = _penalised_game(match, seat, kind)
        penalty = Penalty.objects.create(
            match=match, seat=seat, kind=kind, infraction=infraction,
            details=details.strip(), game=game.number if game else None,
            recorded_by=actor.user,
        )  # fmt: skip
        before = results.result_of(match)
        log(match, "penalty_recorded", actor, reason=penalty.details,
            after={**penalty_of(penalty), **where_from(actor)})  # fmt: skip
        if kind == Penalty.Kind.GAME_LOSS:
            _through_the_hands(match, actor, before, penalty, "penalty_recorded")
        elif kind == Penalty.Kind.MATCH_LOSS:
            _decide_match_loss(match, actor, penalty)
    return penalty


def reverse_penalty(*, penalty_id: int, actor: Actor, reason: str) -> Penalty:
    """Take a penalty back: the result returns to what the hands say (a game loss's game
    is in play again; a match loss's decision is withdrawn). The row stays, reversed.

    Raises Forbidden, ServiceError (`reason_required`, `not_found`), Conflict
    (`already_reversed`, and the recompute's: `game_reopened` when a later game has hands)."""
    require_reason(reason, _("Say why the penalty is reversed."))
    match_id = Penalty.objects.filter(pk=penalty_id).values_list("match_id", flat=True).first()
    if match_id is None:
        raise ServiceError("not_found", _("No such penalty."), status=404)
    with transaction.atomic():
        match = lock_match(match_id)
        permissions.require_penalise(actor, match)
        penalty = Penalty.objects.select_related("match").get(pk=penalty_id)
        if not penalty.active:
            raise Conflict(
                "already_reversed",
                _("The %(kind)s against %(name)s was already reversed.")
                % {"kind": penalty.get_kind_display(), "name": penalty.player.name},
            )
        penalty.reversed_at, penalty.reversed_by = timezone.now(), actor.user
        penalty.reversal_reason = reason.strip()
        penalty.save(update_fields=["reversed_at", "reversed_by", "reversal_reason"])
        before = results.result_of(match)
        log(match, "penalty_reversed", actor, reason=penalty.reversal_reason,
            after={**penalty_of(penalty), **where_from(actor)})  # fmt: skip
        if penalty.kind == Penalty.Kind.GAME_LOSS:
            _through_the_hands(match, actor, before, penalty, "penalty_reversed")
        elif penalty.kind == Penalty.Kind.MATCH_LOSS and match.decided_by == PENALTY:
            # (an organiser may have withdrawn the decision already: then only the record)
            results.withdraw_decision(match_id=match.pk, actor=actor, reason=reason)
    return penalty


# ------------------------------------------------------------------------- preview


@dataclass
class PenaltyPreview:
    """What recording a penalty would do to the match's result (the API's shape:
    scoring.serializers.PenaltyPreviewOutputSerializer)."""

    kind: str
    result_before: dict[str, Any]
    result_after: dict[str, Any]
    game: int | None
    explanation: str

    @property
    def result_changed(self) -> bool:
        return self.result_before != self.result_after


class _Rollback(Exception):
    def __init__(self, preview: PenaltyPreview) -> None:
        super().__init__("preview")
        self.preview = preview


def preview_penalty(*, match_id: int, actor: Actor, seat: str, kind: str) -> PenaltyPreview:
    """What record_penalty would do, run and rolled back; writes nothing. Raises what
    record_penalty raises (but never `details_required`)."""
    try:
        with transaction.atomic():
            before = results.result_of(lock_match(match_id))
            penalty = record_penalty(
                match_id=match_id, actor=actor, seat=seat, kind=kind,
                infraction=Penalty.Infraction.OTHER, details=f"(preview {uuid.uuid4().hex})",
            )  # fmt: skip
            match = Match.objects.get(pk=match_id)
            game = match.games.filter(number=penalty.game).first() if penalty.game else None
            raise _Rollback(
                PenaltyPreview(
                    kind,
                    before,
                    results.result_of(match),
                    penalty.game,
                    game.explanation if game else "",
                )
            )
    except _Rollback as done:
        return done.preview


# ------------------------------------------------------------------------- helpers


def _check_choices(seat: str, kind: str, infraction: str) -> None:
    for name, value, allowed in (
        ("seat", seat, ("A", "B")),
        ("kind", kind, Penalty.Kind.values),
        ("infraction", infraction, Penalty.Infraction.values),
    ):
        if value not in allowed:
            raise ServiceError(
                "invalid",
                _("%(field)s must be one of: %(choices)s.")
                % {"field": name, "choices": ", ".join(allowed)},
                fields={name: ", ".join(allowed)},
            )


def _penalised_game(match: Match, seat: str, kind: str) -> Game | None:
    """The game a game loss ends (the one in play); refusals name the players."""
    name = match.player(seat).name
    if kind == Penalty.Kind.MATCH_LOSS and match.overruled:
        raise Conflict(
            "decided_by_staff",
            _(
                "The result of %(a)s v %(b)s was set by the %(by)s; withdraw it before "
                "giving %(name)s a match loss."
            )
            % {
                "a": match.player_a.name,
                "b": match.player_b.name,
                "by": match.get_decided_by_display(),
                "name": name,
            },  # fmt: skip
        )
    if kind != Penalty.Kind.GAME_LOSS:
        return None
    if is_hollywood(match):
        raise Conflict(
            "hollywood",
            _("Hollywood games are scored together: give %(name)s a match loss instead.")
            % {"name": name},
        )
    game = entry_game(match)
    if game is None:
        raise Conflict(
            "match_over",
            _("%(a)s v %(b)s has no game in play: a game loss for %(name)s needs one.")
            % {"a": match.player_a.name, "b": match.player_b.name, "name": name},
        )
    unsettled = game.hands.filter(state__in=(Hand.State.PENDING, Hand.State.DISPUTED))
    if unsettled.exists():
        raise Conflict(
            "hand_unsettled",
            _("Hand %(number)s of game %(game)s is not confirmed: settle it before the game loss.")
            % {"number": unsettled.order_by("number").first().number, "game": game.number},
        )
    return game


def _through_the_hands(match: Match, actor: Actor, before, penalty: Penalty, action: str):
    """The games and the match re-derived with the game loss (or without it), through
    the path every hand's change takes (results.recompute's)."""
    recompute_match(match, actor)
    # Translators: the apps above put this in their sentences ("... the game loss of Ada").
    what = _("the %(kind)s of %(name)s") % {
        "kind": penalty.get_kind_display(),
        "name": penalty.player.name,
    }
    return results.moved(match, actor, before, action=action, what=what,
                         reason=penalty.reversal_reason or penalty.details)  # fmt: skip


def _decide_match_loss(match: Match, actor: Actor, penalty: Penalty) -> Match:
    """The opponent wins, credited with the games the match is won with; the penalised
    player keeps the games they won (one fewer at most); points: the match's so far,
    with the game in play scored as a game loss (docs/rules.md §18)."""
    loser = penalty.seat
    winner = "B" if loser == "A" else "A"
    to_win = profile_of(match).games_to_win
    games = {winner: to_win, loser: min(_games_won(match, loser), to_win - 1)}
    points = {"A": match.points_a, "B": match.points_b}
    game = entry_game(match)
    if game is not None and not is_hollywood(match):
        confirmed = list(game.hands.filter(state=Hand.State.CONFIRMED).order_by("number"))
        forfeited = game_result(match, confirmed, lost_by=loser)
        points = {side: points[side] + forfeited.totals[side] for side in points}
    # The details, as staff wrote them: the pages word the rest (scoring.words.decision_why).
    reason = penalty.details
    return results.decide_match(
        match_id=match.pk, actor=actor, winner=winner, games=(games["A"], games["B"]),
        points=(points["A"], points["B"]), by=Match.DecidedBy.PENALTY, reason=reason,
    )  # fmt: skip


def _games_won(match: Match, seat: str) -> int:
    return match.games_won_a if seat == "A" else match.games_won_b
