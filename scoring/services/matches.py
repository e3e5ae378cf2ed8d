"""Starting a match and moving it between states (closed, reopened, stopped, resumed),
each move by an organiser with one ledger row."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from ginclub import permissions
from ginclub.errors import Conflict, Forbidden, ServiceError, require_reason
from scoring.models import Club, Match, Player
from scoring.rules import make_profile
from scoring.services.base import (
    Actor,
    lock_match,
    log,
    log_each,
    user_of,
)
from scoring.services.recompute import start_games


def start_match(
    *,
    club: Club,
    player_a: Player,
    player_b: Player,
    actor: Actor,
    profile: str = "standard",
    overrides: dict | None = None,
    agreement: str = Match.Agreement.CONFIRM,
    first_dealer: str = "A",
) -> Match:
    """Start a match between two of the club's players.

    Raises ServiceError (`invalid`, `bad_option`) or Forbidden.
    """
    (match,) = start_matches(
        club=club,
        pairs=[(player_a, player_b)],
        actor=actor,
        profile=profile,
        overrides=overrides,
        agreement=agreement,
        first_dealer=first_dealer,
    )
    return match


def start_matches(
    *,
    club: Club,
    pairs: Sequence[tuple[Player, Player]],
    actor: Actor,
    profile: str = "standard",
    overrides: dict | None = None,
    agreement: str = Match.Agreement.CONFIRM,
    first_dealer: str = "A",
) -> list[Match]:
    """start_match for each pair (a round's tables) in one transaction, the matches, their
    games and their ledger rows written in bulk: the same few queries for one table or a
    thousand. Returns the matches in the order of `pairs`; starts none if one is refused.

    Raises ServiceError (`invalid`, `bad_option`) or Forbidden.
    """
    if not permissions.may_start_matches(actor, club, pairs):
        a, b = next(p for p in pairs if not permissions.may_start_match(actor, club, *p))
        permissions.refuse_auditor(actor, club)
        raise Forbidden(
            "not_allowed",
            _(
                "Only %(a)s, %(b)s and the organisers and scorekeepers of %(club)s may "
                "start a match between them."
            )
            % {"a": a.name, "b": b.name, "club": club.name},
        )
    for a, b in pairs:
        check_players(club, a, b)
    if agreement not in Match.Agreement.values:
        raise ServiceError(
            "invalid",
            _("agreement must be one of %(values)s")
            % {"values": ", ".join(Match.Agreement.values)},
        )
    if first_dealer not in ("A", "B"):
        raise ServiceError("invalid", _("first dealer must be seat A or B"))
    rules = make_profile(profile, overrides or {}).as_dict()
    new = [
        Match(
            club=club,
            player_a=a,
            player_b=b,
            rules=rules,
            agreement=agreement,
            first_dealer=first_dealer,
            created_by=user_of(actor),
        )
        for a, b in pairs
    ]
    with transaction.atomic():
        matches = Match.objects.bulk_create(new)
        start_games(matches)
        started = {"rules": rules, "agreement": agreement}
        log_each(
            matches,
            "match_started",
            actor,
            [{"after": {"player_a": a.name, "player_b": b.name, **started}} for a, b in pairs],
        )
    return matches


def check_players(club: Club, a: Player, b: Player) -> None:
    if a.pk == b.pk:
        raise ServiceError("invalid", _("a match needs two different players"))
    for player in (a, b):
        if player.club_id != club.pk:
            raise ServiceError(
                "invalid",
                _("%(name)s is not a player of %(club)s")
                % {"name": player.name, "club": club.name},
            )


def close_match(*, match_id: int, actor: Actor, reason: str = "") -> Match:
    """Close a finished match. Raises Forbidden, Conflict (`not_finished`)."""
    return _change_match_state(
        match_id=match_id,
        actor=actor,
        reason=reason,
        action="match_closed",
        allowed=lambda m: m.state == Match.State.FINISHED,
        refusal=Conflict("not_finished", _("Only a finished match can be closed.")),
        state=lambda m: Match.State.CLOSED,
    )


def reopen_match(*, match_id: int, actor: Actor, reason: str) -> Match:
    """Reopen a closed match: a decided one is finished again, one stopped undecided goes
    on. A reason is required. Raises Forbidden, ServiceError, Conflict (`not_closed`)."""
    require_reason(reason, _("Say why the match is reopened."))
    return _change_match_state(
        match_id=match_id,
        actor=actor,
        reason=reason,
        action="match_reopened",
        allowed=lambda m: m.state == Match.State.CLOSED,
        refusal=Conflict("not_closed", _("The match is not closed.")),
        state=lambda m: Match.State.FINISHED if m.winner else Match.State.IN_PROGRESS,
    )


def _change_match_state(
    *,
    match_id: int,
    actor: Actor,
    reason: str,
    action: str,
    allowed: Callable[[Match], bool],
    refusal: Conflict,
    state: Callable[[Match], str],
) -> Match:
    """The organiser's match transitions: lock, check who and whether, move, one ledger row."""
    with transaction.atomic():
        match = lock_match(match_id)
        permissions.require_manage_match(actor, match)
        if not allowed(match):
            raise refusal
        _set_match_state(match, state(match), actor, action, reason)
    return match


def _set_match_state(match: Match, state: str, actor: Actor, action: str, reason: str) -> None:
    before = {"state": match.state}
    match.state = state
    match.save(update_fields=["state", "updated_at"])
    log(
        match,
        action,
        actor,
        reason=reason,
        before=before,
        after={"state": state},
    )


def stop_match(*, match_id: int, actor: Actor, reason: str) -> Match:
    """Close an unfinished match because an organiser decided it (time called, a result
    recorded by hand): no more hands can be entered. A reason is required.

    Raises Forbidden, ServiceError (`reason_required`), Conflict (`not_in_progress`).
    """
    require_reason(reason, _("Say why the match is stopped."))
    return _change_match_state(
        match_id=match_id,
        actor=actor,
        reason=reason,
        action="match_stopped",
        allowed=lambda m: m.state == Match.State.IN_PROGRESS,
        refusal=Conflict("not_in_progress", _("Only a match in progress can be stopped.")),
        state=lambda m: Match.State.CLOSED,
    )


def resume_match(*, match_id: int, actor: Actor, reason: str) -> Match:
    """Let a stopped (closed, undecided) match go on. Raises Forbidden, ServiceError
    (`reason_required`), Conflict (`not_stopped`)."""
    require_reason(reason, _("Say why the match is resumed."))
    return _change_match_state(
        match_id=match_id,
        actor=actor,
        reason=reason,
        action="match_resumed",
        allowed=lambda m: m.state == Match.State.CLOSED and not m.winner,
        refusal=Conflict("not_stopped", _("Only a stopped, undecided match can be resumed.")),
        state=lambda m: Match.State.IN_PROGRESS,
    )


def revoke_table_links(*, match_id: int, actor: Actor) -> Match:
    """Withdraw every table link of the match printed or shown so far, and every browser's
    access and seat that came from one: the match's link generation moves on, and links
    and grants carry the generation they were made at. New links work at once. The
    players' own logins and the organisers are untouched. Raises Forbidden."""
    with transaction.atomic():
        match = lock_match(match_id)
        if not permissions.may_revoke_table_links(actor, match):
            permissions.refuse_auditor(actor, match.club)
            raise Forbidden(
                "not_allowed",
                _("Only the organisers and scorekeepers of %(club)s withdraw table links.")
                % {"club": match.club.name},
            )
        before = match.link_generation
        match.link_generation = before + 1
        match.save(update_fields=["link_generation", "updated_at"])
        log(
            match,
            "table_links_revoked",
            actor,
            before={"link_generation": before},
            after={"link_generation": match.link_generation},
        )
    return match
