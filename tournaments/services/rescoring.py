"""Changing the rules of a running tournament: preview, then apply (services).

The rule profile is frozen when round 1 is published. Each match keeps the rules it is
played under (`Match.rules`); `Tournament.rules` is what the tables of rounds not yet
published will get. A change applies to the whole event or *from round N on*:

    re-scored rounds   the published or closed rounds from N on: every hand of their
                       matches is scored again by the engine under the new rules
                       (card-entry hands from their stored cards, quick-entry hands
                       from their outcome and deadwoods, see scoring.services.rescoring),
                       then games, matches and standings are recomputed;
    kept rounds        the rounds before N: their matches keep the rules they were
                       played under, untouched;
    future rounds      N may also be the next round to be published (drafted or not
                       yet drafted): nothing is re-scored and its tables start under
                       the new rules.

Follow-on settings are checked against what was played: a bye counts `bye_games` games
won, never more than the games a match plays to. A bye already given in a re-scored
round that would count more is refused, naming it; byes of kept rounds stay as given,
and `bye_games` is lowered to the new `games_to_win` for the byes still to come.

The preview runs exactly the same code inside a transaction that is rolled back, so it
shows what apply would do, or the error apply would give. A change is refused when it
would leave a match of a closed round unfinished, or change an elimination winner after
the next round was drafted. Apply is one transaction: nothing is saved unless all of it
is (a background worker may call it with a `progress` callback).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ginclub.errors import Conflict, ServiceError, require_reason
from ginclub.permissions import Actor
from scoring import services as scoring
from scoring.rules import RuleProfile, RulesError, make_profile
from tournaments.models import Pairing, Round, Tournament
from tournaments.selectors.standings import standings, standings_moves
from tournaments.services.base import lock_tournament, log
from tournaments.translated import error_text

Progress = Callable[[int, int], None]


@dataclass
class RulesChange:
    """What a rules change changes: options, the rounds it re-scores (from `from_round`
    on) and keeps, follow-on settings, and per match its hands, games, result; and
    every standings line that moves."""

    rules_before: dict[str, Any]
    rules_after: dict[str, Any]
    from_round: int = 1
    rounds_rescored: list[int] = field(default_factory=list)
    rounds_kept: list[int] = field(default_factory=list)
    settings: dict[str, list] = field(default_factory=dict)
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
    def whole_event(self) -> bool:
        return self.from_round == 1

    @property
    def rescored_text(self) -> str:
        return spell_rounds(self.rounds_rescored)

    @property
    def kept_text(self) -> str:
        return spell_rounds(self.rounds_kept)

    @property
    def hands_changed(self) -> int:
        return sum(len(m["hands"]) for m in self.matches)

    @property
    def games_changed(self) -> int:
        return sum(len(m["games"]) for m in self.matches)

    @property
    def results_changed(self) -> int:
        return sum(1 for m in self.matches if m["before"] != m["after"])

    def job_result(self) -> dict[str, Any]:
        """The figures a rules change's job keeps as its result (JSON); the API's shape of
        a preview is tournaments.serializers.RulesChangeOutputSerializer."""
        return {
            "applied": self.applied,
            "from_round": self.from_round,
            "rounds_rescored": self.rounds_rescored,
            "rounds_kept": self.rounds_kept,
            "options": self.options,
            "settings": self.settings,
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
    *,
    tournament_id: int,
    actor: Actor,
    profile: str,
    overrides: dict[str, Any] | None = None,
    from_round: int | None = None,
    progress: Progress | None = None,
) -> RulesChange:
    """What changing the rules to `profile` + `overrides` from round `from_round` on
    (None: the whole event) would change; writes nothing.

    Raises Forbidden, ServiceError (`bad_option`, `no_change`, `invalid`: not a round
    number), Conflict (`not_frozen`, `bad_round`: after the next round to be published,
    `bye_over_games`, `rescore_impossible`, `would_reopen`, `bracket_changed`, and the
    recompute conflicts `hands_after_game_end`, `game_reopened`, `hands_after_match_end`).
    """
    asked = _Asked(profile, overrides or {}, from_round, "preview of a rules change")
    try:
        with transaction.atomic():
            raise _Rollback(_change(tournament_id, actor, asked, progress))
    except _Rollback as done:
        return done.change


def apply_rules_change(
    *,
    tournament_id: int,
    actor: Actor,
    profile: str,
    overrides: dict[str, Any] | None = None,
    from_round: int | None = None,
    reason: str,
    progress: Progress | None = None,
) -> RulesChange:
    """Change the rules from round `from_round` on (None: the whole event) and recompute
    the hands, games and matches of the rounds re-scored, and the standings, in one
    transaction, with one ledger row for the tournament (and one per match re-scored).
    `progress(done, total)` is called before the first match and after each one.

    Raises what preview_rules_change raises, ServiceError (`reason_required`), and
    whatever `progress` raises (then nothing is saved).
    """
    require_reason(reason, _("Say why the rules change."))
    asked = _Asked(profile, overrides or {}, from_round, reason)
    with transaction.atomic():
        change = _change(tournament_id, actor, asked, progress)
        change.applied = True
        event = Tournament.objects.get(pk=tournament_id)
        before = {"rules": change.rules_before}
        after = {
            "rules": change.rules_after,
            "profile": profile,
            "overrides": asked.overrides,
            "from_round": change.from_round,
            "rounds_rescored": change.rounds_rescored,
            "rounds_kept": change.rounds_kept,
            "hands_changed": change.hands_changed,
            "results_changed": change.results_changed,
        }
        for key, (old, new) in change.settings.items():
            before[key], after[key] = old, new
        log(event, "rules_changed", actor, reason=reason, before=before, after=after)
    return change


@dataclass(frozen=True)
class _Asked:
    profile: str
    overrides: dict[str, Any]
    from_round: int | None
    reason: str


def _change(
    tournament_id: int, actor: Actor, asked: _Asked, progress: Progress | None
) -> RulesChange:
    tournament = lock_tournament(tournament_id, actor)
    if not tournament.frozen:
        raise Conflict(
            "not_frozen",
            _(
                "The rules are not frozen yet: change the profile and options in the "
                "tournament's settings."
            ),
        )
    first, played = _first_round(tournament, asked.from_round)
    rules = _new_rules(asked.profile, asked.overrides)
    pairings = _rescored_pairings(tournament, first)
    _check_byes(pairings, rules, first)
    change = RulesChange(
        rules_before=tournament.rules,
        rules_after=rules.as_dict(),
        from_round=first,
        rounds_rescored=sorted({p.round.number for p in pairings if p.match_id}),
        rounds_kept=[n for n in played if n < first],
        settings=_follow_on(tournament, rules),
    )
    matches = [p for p in pairings if p.match_id]
    if change.rules_after == tournament.rules and all(
        p.match.rules == change.rules_after for p in matches
    ):
        raise ServiceError("no_change", _("These are the rules already in force."))
    before = standings(tournament)
    last_round = tournament.round_set.order_by("-number").values_list("number", flat=True)[0]
    _rescore(change, matches, actor, asked.reason, last_round, progress)
    tournament.profile, tournament.overrides = asked.profile, asked.overrides
    tournament.rules = change.rules_after
    tournament.bye_games = min(tournament.bye_games, rules.games_to_win)
    tournament.save(update_fields=["profile", "overrides", "rules", "bye_games"])
    change.standings = standings_moves(before, standings(tournament))
    return change


def _first_round(tournament: Tournament, from_round: int | None) -> tuple[int, list[int]]:
    """The first round the change applies to, and the rounds published so far.

    The latest possible first round is the next one to be published: a later one would
    leave that round's tables starting under rules the change is meant to replace.
    """
    played, _upcoming = change_rounds(tournament)
    if from_round is None:
        return 1, played
    upcoming = played[-1] + 1
    if isinstance(from_round, bool) or not isinstance(from_round, int) or from_round < 1:
        raise ServiceError(
            "invalid",
            _("Round %(number)s is not a round: rounds are numbered from 1.")
            % {"number": from_round},
            fields={"from_round": _("a round number from 1")},
        )
    if from_round > upcoming:
        raise Conflict(
            "bad_round",
            _(
                "The change cannot start at round %(number)s: round %(upcoming)s is the next "
                "round to be published and would be played under the new rules too. Choose a "
                "round from 1 to %(upcoming)s."
            )
            % {"number": from_round, "upcoming": upcoming},
            fields={"from_round": _("from 1 to %(last)s") % {"last": upcoming}},
        )
    if from_round == upcoming and tournament.state == Tournament.State.FINISHED:
        raise Conflict(
            "bad_round",
            _(
                "The tournament is finished: there is no round %(upcoming)s to play. Choose a "
                "round from 1 to %(last)s."
            )
            % {"upcoming": upcoming, "last": upcoming - 1},
            fields={"from_round": _("from 1 to %(last)s") % {"last": upcoming - 1}},
        )
    return from_round, played


def _new_rules(profile: str, overrides: dict[str, Any]) -> RuleProfile:
    try:
        return make_profile(profile, overrides)
    except RulesError as error:
        message = error_text(error)
        raise ServiceError(
            "bad_option", message, fields={error.field or "overrides": message}
        ) from None


def _rescored_pairings(tournament: Tournament, first: int) -> list[Pairing]:
    """The pairings of the published rounds from `first` on: tables and byes."""
    return list(
        Pairing.objects.filter(round__tournament=tournament, round__number__gte=first)
        .exclude(round__state=Round.State.DRAFT)
        .select_related("round", "match", "player_a__player", "player_b__player")
        .order_by("round__number", "position")
    )


def _check_byes(pairings: list[Pairing], rules: RuleProfile, first: int) -> None:
    """A bye given in a re-scored round must not count more games than a match is now
    played to (docs/rules.md, byes); byes of kept rounds stay as they were given."""
    over = [p for p in pairings if p.is_bye and p.bye_games > rules.games_to_win]
    if not over:
        return
    named = ", ".join(
        _("%(name)s's bye in round %(round)s (%(games)s games won)")
        % {"name": p.player_a.player.name, "round": p.round.number, "games": p.bye_games}
        for p in over
    )
    after = max(p.round.number for p in over) + 1
    raise Conflict(
        "bye_over_games",
        ngettext(
            "Under these rules a match is won with %(count)s game(s), but byes already given "
            "would count more: %(byes)s. Change the rules from round %(after)s on (those byes "
            "stay as given), or keep games_to_win at %(most)s or more.",
            "Under these rules a match is won with %(count)s game(s), but byes already given "
            "would count more: %(byes)s. Change the rules from round %(after)s on (those byes "
            "stay as given), or keep games_to_win at %(most)s or more.",
            rules.games_to_win,
        )
        % {
            "count": rules.games_to_win,
            "byes": named,
            "after": after,
            "most": max(p.bye_games for p in over),
        },
        fields={
            "from_round": _("from round %(number)s") % {"number": after},
            "games_to_win": _("below a bye's games"),
        },
    )


def _follow_on(tournament: Tournament, rules: RuleProfile) -> dict[str, list]:
    """Settings that follow the rules: a bye never counts more games than a match's."""
    bye_games = min(tournament.bye_games, rules.games_to_win)
    if bye_games == tournament.bye_games:
        return {}
    return {"bye_games": [tournament.bye_games, bye_games]}


def _rescore(
    change: RulesChange,
    matches: list[Pairing],
    actor: Actor,
    reason: str,
    last_round: int,
    progress: Progress | None,
) -> None:
    total = len(matches)
    if progress is not None:
        progress(0, total)
    for done, pairing in enumerate(matches, start=1):
        where = _("Round %(round)s, table %(table)s (%(a)s v %(b)s)") % {
            "round": pairing.round.number,
            "table": pairing.table,
            "a": pairing.player_a.player.name,
            "b": pairing.player_b.player.name,
        }
        try:
            result = scoring.rescore_match(
                match_id=pairing.match_id, rules=change.rules_after, actor=actor, reason=reason
            )
        except Conflict as error:
            raise Conflict(
                error.code,
                _("%(where)s: %(problem)s") % {"where": where, "problem": error.message},
            ) from None
        _check_still_decided(pairing, result, where, last_round)
        if result.changed:
            change.matches.append(_match_change(pairing, result))
        if progress is not None:
            progress(done, total)


def _match_change(pairing: Pairing, result) -> dict[str, Any]:
    return {
        "pairing": pairing.pk,
        "round": pairing.round.number,
        "table": pairing.table,
        "match": pairing.match_id,
        "players": {"A": pairing.player_a.player.name, "B": pairing.player_b.player.name},
        "hands": result.hands,
        "games": result.games,
        "before": result.before,
        "after": result.after,
    }


def _check_still_decided(pairing: Pairing, result, where: str, last_round: int) -> None:
    if pairing.resolved:
        return  # an organiser's result stands whatever the hands now say
    if pairing.round.state == Round.State.CLOSED and result.after["winner"] is None:
        raise Conflict(
            "would_reopen",
            _(
                "%(where)s: the match would no longer be finished under these rules, but its "
                "round is closed."
            )
            % {"where": where},
        )
    if (
        pairing.round.stage == Round.Stage.ELIMINATION
        and pairing.round.number < last_round
        and result.before["winner"] != result.after["winner"]
    ):
        raise Conflict(
            "bracket_changed",
            _(
                "%(where)s: the winner would change, but the next round of the bracket is "
                "already drafted."
            )
            % {"where": where},
        )


# ------------------------------------------------------------------------- reads


def change_rounds(tournament: Tournament) -> tuple[list[int], int | None]:
    """The published rounds, and the next round to be published (None once the event is
    finished): a rules change may start at any of them (see _first_round)."""
    played = list(
        tournament.round_set.exclude(state=Round.State.DRAFT)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if tournament.state == Tournament.State.FINISHED:
        return played, None
    return played, (played[-1] + 1 if played else 1)


def rules_by_round(tournament: Tournament) -> list[dict[str, Any]]:
    """Rounds whose tables play other rules than the tournament's (a change from a later
    round on): [{"rounds": "rounds 1–2", "options": {option: value}}], derived from the
    rules each match stores."""
    rules = tournament.rules or {}
    other: dict[str, list[int]] = {}
    options: dict[str, dict[str, Any]] = {}
    rows = (
        Pairing.objects.filter(round__tournament=tournament, match__isnull=False)
        .order_by("round__number")
        .values_list("round__number", "match__rules")
    )
    for number, played in rows:
        if played == rules:
            continue
        differ = {k: v for k, v in played.items() if k != "name" and rules.get(k) != v}
        key = repr(sorted(differ.items()))
        options[key] = differ
        if number not in other.setdefault(key, []):
            other[key].append(number)
    return [{"rounds": spell_rounds(other[key]), "options": options[key]} for key in other]


def spell_rounds(numbers: list[int]) -> str:
    """[1, 2, 3, 5] -> "rounds 1–3 and 5"; [] -> "no round"."""
    if not numbers:
        return _("no round")
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts = [f"{r[0]}–{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs]
    if len(parts) == 1:
        text = parts[0]
    else:
        # Translators: the last of a list of rounds: "1–3, 5 and 7".
        text = _("%(list)s and %(last)s") % {"list": ", ".join(parts[:-1]), "last": parts[-1]}
    return ngettext("round %(rounds)s", "rounds %(rounds)s", len(numbers)) % {"rounds": text}
