"""Changing the rules of a running tournament: preview, then apply (services).

The rule profile is frozen when round 1 is published. Changing it afterwards re-scores
every hand of every match of the event with the engine under the new profile (card-entry
hands from their stored cards, quick-entry hands from their outcome and deadwoods, see
scoring.services.rescoring), then recomputes games, matches and standings. The preview runs
exactly the same code inside a transaction that is rolled back, so it shows what apply
would do, or the error apply would give. A change is refused when it would leave a
match of a closed round unfinished, or change an elimination winner after the next
round was drafted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from ginclub.errors import Conflict, ServiceError, require_reason
from ginclub.permissions import Actor
from scoring import services as scoring
from scoring.rules import RulesError, make_profile
from tournaments.models import Pairing, Round, Tournament
from tournaments.selectors import standings
from tournaments.services.base import lock_tournament, log

COMPARED = (
    "rank",
    "match_wins",
    "games_won",
    "games_played",
    "game_win_pct",
    "opponents_match_win_pct",
    "margin",
    "points",
)


@dataclass
class RulesChange:
    """What a rules change changes: options, and per match its hands, games, result;
    and every standings line that moves."""

    rules_before: dict[str, Any]
    rules_after: dict[str, Any]
    matches: list[dict[str, Any]] = field(default_factory=list)
    standings: list[dict[str, Any]] = field(default_factory=list)
    applied: bool = False

    @property
    def options(self) -> dict[str, list]:
        return {
            key: [self.rules_before.get(key), value]
            for key, value in self.rules_after.items()
            if key != "name" and self.rules_before.get(key) != value
        }

    @property
    def hands_changed(self) -> int:
        return sum(len(m["hands"]) for m in self.matches)

    @property
    def games_changed(self) -> int:
        return sum(len(m["games"]) for m in self.matches)

    @property
    def results_changed(self) -> int:
        return sum(1 for m in self.matches if m["before"] != m["after"])

    def as_dict(self) -> dict[str, Any]:
        return {
            "applied": self.applied,
            "options": self.options,
            "rules_before": self.rules_before,
            "rules_after": self.rules_after,
            "hands_changed": self.hands_changed,
            "games_changed": self.games_changed,
            "results_changed": self.results_changed,
            "matches": self.matches,
            "standings": self.standings,
        }


class _Rollback(Exception):
    def __init__(self, change: RulesChange) -> None:
        super().__init__("preview")
        self.change = change


def preview_rules_change(
    *, tournament_id: int, actor: Actor, profile: str, overrides: dict[str, Any] | None = None
) -> RulesChange:
    """What changing the rules to `profile` + `overrides` would change; writes nothing.

    Raises Forbidden, ServiceError (`bad_option`, `no_change`), Conflict (`not_frozen`,
    `rescore_impossible`, `would_reopen`, `bracket_changed`, and the recompute
    conflicts `hands_after_game_end`, `game_reopened`, `hands_after_match_end`).
    """
    try:
        with transaction.atomic():
            raise _Rollback(
                _change(tournament_id, actor, profile, overrides or {}, "preview of a rules change")
            )
    except _Rollback as done:
        return done.change


def apply_rules_change(
    *,
    tournament_id: int,
    actor: Actor,
    profile: str,
    overrides: dict[str, Any] | None = None,
    reason: str,
) -> RulesChange:
    """Change the rules and recompute every hand, game, match and standing, in one
    transaction, with one ledger row for the tournament (and one per match re-scored).

    Raises what preview_rules_change raises, and ServiceError (`reason_required`).
    """
    require_reason(reason, "Say why the rules change.")
    with transaction.atomic():
        change = _change(tournament_id, actor, profile, overrides or {}, reason)
        change.applied = True
        tournament = Tournament.objects.get(pk=tournament_id)
        log(
            tournament,
            "rules_changed",
            actor,
            reason=reason,
            before={"rules": change.rules_before},
            after={
                "rules": change.rules_after,
                "profile": profile,
                "overrides": overrides or {},
                "hands_changed": change.hands_changed,
                "results_changed": change.results_changed,
            },
        )
    return change


def _change(
    tournament_id: int, actor: Actor, profile: str, overrides: dict[str, Any], reason: str
) -> RulesChange:
    tournament = lock_tournament(tournament_id, actor)
    if not tournament.frozen:
        raise Conflict(
            "not_frozen",
            "The rules are not frozen yet: change the profile and "
            "options in the tournament's settings.",
        )
    new_rules = _new_rules(tournament, profile, overrides)
    change = RulesChange(rules_before=tournament.rules, rules_after=new_rules)
    before = standings(tournament)
    last_round = tournament.round_set.order_by("-number").values_list("number", flat=True)[0]
    pairings = (
        Pairing.objects.filter(round__tournament=tournament, match__isnull=False)
        .select_related("round", "player_a__player", "player_b__player")
        .order_by("round__number", "position")
    )
    for pairing in pairings:
        where = (
            f"Round {pairing.round.number}, table {pairing.table} "
            f"({pairing.player_a.player.name} v {pairing.player_b.player.name})"
        )
        try:
            result = scoring.rescore_match(
                match_id=pairing.match_id, rules=new_rules, actor=actor, reason=reason
            )
        except Conflict as error:
            raise Conflict(error.code, f"{where}: {error.message}") from None
        _check_still_decided(pairing, result, where, last_round)
        if result.changed:
            change.matches.append(
                {
                    "pairing": pairing.pk,
                    "round": pairing.round.number,
                    "table": pairing.table,
                    "match": pairing.match_id,
                    "players": {
                        "A": pairing.player_a.player.name,
                        "B": pairing.player_b.player.name,
                    },
                    "hands": result.hands,
                    "games": result.games,
                    "before": result.before,
                    "after": result.after,
                }
            )
    tournament.profile, tournament.overrides, tournament.rules = profile, overrides, new_rules
    tournament.save(update_fields=["profile", "overrides", "rules"])
    change.standings = _standings_diff(before, standings(tournament))
    return change


def _new_rules(tournament: Tournament, profile: str, overrides: dict[str, Any]) -> dict:
    try:
        rules = make_profile(profile, overrides)
    except RulesError as error:
        raise ServiceError(
            "bad_option", error.message, fields={error.field or "overrides": error.message}
        ) from None
    if tournament.bye_games > rules.games_to_win:
        raise ServiceError(
            "bad_option",
            f"A bye counts as {tournament.bye_games} games won, "
            f"more than the {rules.games_to_win} these rules play to.",
            fields={"games_to_win": "below the bye's games"},
        )
    if rules.as_dict() == tournament.rules:
        raise ServiceError("no_change", "These are the rules already in force.")
    return rules.as_dict()


def _check_still_decided(pairing: Pairing, result, where: str, last_round: int) -> None:
    if pairing.resolved:
        return  # an organiser's result stands whatever the hands now say
    if pairing.round.state == Round.State.CLOSED and result.after["winner"] is None:
        raise Conflict(
            "would_reopen",
            f"{where}: the match would no longer be finished "
            "under these rules, but its round is closed.",
        )
    if (
        pairing.round.stage == Round.Stage.ELIMINATION
        and pairing.round.number < last_round
        and result.before["winner"] != result.after["winner"]
    ):
        raise Conflict(
            "bracket_changed",
            f"{where}: the winner would change, but the next "
            "round of the bracket is already drafted.",
        )


def _standings_diff(before, after) -> list[dict[str, Any]]:
    old = {row.registration_id: row for row in before.rows}
    lines = []
    for row in after.rows:
        was = old.get(row.registration_id)
        was_values = {k: getattr(was.standing, k) for k in COMPARED} if was else None
        now_values = {k: getattr(row.standing, k) for k in COMPARED}
        if was_values != now_values:
            lines.append(
                {
                    "registration": row.registration_id,
                    "name": row.name,
                    "before": was_values,
                    "after": now_values,
                }
            )
    return lines
