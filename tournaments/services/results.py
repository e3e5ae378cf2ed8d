"""A running round: the clock, time called, organiser results and closing (services;
see the package).

Time called (docs/rules.md §13; the states are tournaments.selectors.play's): each table
finishes the hand in play and no new hand may start (scoring asks through its play gate);
then apply_time_policy gives each unfinished match to the player with more games won, else to
the leader in the current game (on its standing, scoring.selectors.current_standing), else
to the leader on match points (a level table waits for the organiser). An organiser may
extend one table's time (minutes, or more hands) and undo a mistaken call. An organiser
may also decide any table by hand, with a reason. Either way the result is set on the
match (scoring.services.decide_match: its winner, games and points, who set it and
why), where every reader finds it, and the match is stopped. There are no drawn
matches: the standings maths counts only
decided ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ginclub import checkpoints
from ginclub.errors import Conflict, ServiceError, require_reason
from ginclub.permissions import Actor
from scoring import services as scoring
from scoring.models import Match
from scoring.selectors import current_standing
from scoring.services.ratings import queue_ratings
from tournaments.models import Pairing, Round, Tournament
from tournaments.pairing import Phrase, Worded
from tournaments.selectors import play
from tournaments.selectors.tables import TableState, tables
from tournaments.services.base import (
    lock_pairing,
    lock_round,
    log,
    planned_rounds,
    require_state,
)
from tournaments.services.rounds import active_registrations
from tournaments.translated import (
    FINISHING,
    HAND_DISPUTED,
    HAND_NOT_CONFIRMED,
    LED_CURRENT_GAME,
    LED_GAME,
    LED_ON_GAMES,
    LED_ON_POINTS,
    LEVEL,
    PLAYING_ON,
    TABLE_WAITING,
)

# --------------------------------------------------------------------------- clock


def start_round_timer(*, round_id: int, actor: Actor, minutes: int | None = None) -> Round:
    """Start (or restart) the round clock: it ends `minutes` (default: the tournament's
    round length) from now. Once time is called the clock is over: only undo_time_call
    gives it back (a restart would lift the call and leave the time policy's results).
    Raises Forbidden, ServiceError (`invalid`), Conflict (`not_published`,
    `time_already_called`)."""
    with transaction.atomic():
        tournament, rnd = lock_round(round_id, actor)
        require_state(rnd, Round.State.PUBLISHED)
        if rnd.time_called:
            raise Conflict(
                "time_already_called",
                _(
                    "Time was called in round %(number)s at %(time)s: the clock is over. To "
                    "play on, undo the call (with a reason) first."
                )
                % {"number": rnd.number, "time": play.clock_time(play.called_at(rnd))},
            )
        minutes = tournament.round_minutes if minutes is None else minutes
        if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= 600:
            raise ServiceError(
                "invalid",
                _("A round lasts 1 to 600 minutes."),
                fields={"minutes": _("%(low)s to %(high)s") % {"low": 1, "high": 600}},
            )
        now = timezone.now()
        rnd.started_at, rnd.ends_at = now, now + timedelta(minutes=minutes)
        rnd.time_called, rnd.time_called_at = False, None
        rnd.save(update_fields=["started_at", "ends_at", "time_called", "time_called_at"])
        log(
            tournament,
            "round_timer_started",
            actor,
            after={"round": rnd.number, "minutes": minutes, "ends_at": rnd.ends_at.isoformat()},
        )
    return rnd


def call_time(*, round_id: int, actor: Actor) -> Round:
    """Time is called: each table finishes the hand in play (the first hand it enters
    from now on), then no new hand may start and apply_time_policy decides the unfinished
    matches. The clock shows time called; its planned end is kept, so undo_time_call
    gives it back. Raises Forbidden, Conflict (`not_published`, `time_already_called`)."""
    with transaction.atomic():
        tournament, rnd = lock_round(round_id, actor)
        require_state(rnd, Round.State.PUBLISHED)
        if rnd.time_called:
            raise Conflict(
                "time_already_called",
                _("Time was already called in round %(number)s, at %(time)s.")
                % {"number": rnd.number, "time": play.clock_time(play.called_at(rnd))},
            )
        rnd.time_called, rnd.time_called_at = True, timezone.now()
        rnd.save(update_fields=["time_called", "time_called_at"])
        log(
            tournament,
            "time_called",
            actor,
            after={"round": rnd.number, "at": rnd.time_called_at.isoformat()},
        )
    return rnd


def undo_time_call(*, round_id: int, actor: Actor, reason: str) -> Round:
    """A mistaken call is taken back: the round plays on with its clock as it was,
    tables the time policy decided since are undecided again (their matches resume),
    extra hands given to tables go (extra minutes stay); an organiser's own results stay.

    Raises Forbidden, ServiceError (`reason_required`), Conflict (`not_published`,
    `time_not_called`)."""
    require_reason(reason, _("Say why the call is undone."))
    with transaction.atomic():
        tournament, rnd = lock_round(round_id, actor)
        require_state(rnd, Round.State.PUBLISHED)
        if not rnd.time_called:
            raise Conflict(
                "time_not_called",
                _("Time has not been called in round %(number)s.") % {"number": rnd.number},
            )
        called = play.called_at(rnd)
        undecided = []
        for pairing in rnd.pairings.filter(match__decided_by=Match.DecidedBy.TIME):
            scoring.withdraw_decision(match_id=pairing.match_id, actor=actor, reason=reason)
            undecided.append(pairing.table)
        rnd.pairings.filter(extra_hands__gt=0).update(extra_hands=0)
        rnd.time_called, rnd.time_called_at = False, None
        rnd.save(update_fields=["time_called", "time_called_at"])
        log(
            tournament,
            "time_call_undone",
            actor,
            reason=reason,
            before={"round": rnd.number, "at": called.isoformat() if called else None},
            after={"undecided_tables": undecided},
        )
    return rnd


def extend_table(
    *,
    pairing_id: int,
    actor: Actor,
    minutes: int | None = None,
    hands: int | None = None,
    reason: str = "",
) -> Pairing:
    """Give one table more time (a table that started late, a long deal): `minutes` more
    from the later of now and the table's current end (its extension, else the call,
    else the round's end), or `hands` more hands after the hand in play. Either, not both.

    Raises Forbidden, ServiceError (`invalid`), Conflict (`not_published`, `bye`,
    `resolved`, `match_over`)."""
    if (minutes is None) == (hands is None):
        raise ServiceError(
            "invalid",
            _("Give the table either more minutes or more hands."),
            fields={
                "minutes": _("%(low)s to %(high)s") % {"low": 1, "high": 120},
                "hands": _("%(low)s to %(high)s") % {"low": 1, "high": 9},
            },
        )
    _check_whole("minutes", minutes, 1, 120)
    _check_whole("hands", hands, 1, 9)
    with transaction.atomic():
        tournament, pairing = lock_pairing(pairing_id, actor)
        rnd = pairing.round
        require_state(rnd, Round.State.PUBLISHED)
        _require_playing(pairing)
        before = {"plays_until": _iso(pairing.plays_until), "extra_hands": pairing.extra_hands}
        if minutes is not None:
            now = timezone.now()
            current = pairing.plays_until or play.called_at(rnd) or rnd.ends_at or now
            pairing.plays_until = max(now, current) + timedelta(minutes=minutes)
        else:
            pairing.extra_hands += hands
        pairing.save(update_fields=["plays_until", "extra_hands"])
        log(
            tournament,
            "table_extended",
            actor,
            reason=reason.strip(),
            before={"table": pairing.table, **before},
            after={
                "table": pairing.table,
                "plays_until": _iso(pairing.plays_until),
                "extra_hands": pairing.extra_hands,
            },
        )
    return pairing


def _require_playing(pairing: Pairing) -> None:
    names = (
        _("%(a)s and %(b)s")
        % {"a": pairing.player_a.player.name, "b": pairing.player_b.player.name}
        if pairing.player_b
        else ""
    )
    if pairing.is_bye:
        raise Conflict("bye", _("A bye has no table to give more time."))
    if pairing.resolved:
        raise Conflict(
            "resolved",
            _("Table %(table)s (%(names)s) already has a result; withdraw it first.")
            % {"table": pairing.table, "names": names},
        )
    if pairing.match.state != Match.State.IN_PROGRESS:
        raise Conflict(
            "match_over",
            _("The match of %(names)s is over; it needs no more time.") % {"names": names},
        )


WHOLE = {
    "minutes": gettext_lazy("Minutes: a whole number from %(low)s to %(high)s."),
    "hands": gettext_lazy("Hands: a whole number from %(low)s to %(high)s."),
}
RESULT_LABELS = {
    "games_a": gettext_lazy("games a"),
    "games_b": gettext_lazy("games b"),
    "points_a": gettext_lazy("points a"),
    "points_b": gettext_lazy("points b"),
}


def _check_whole(name: str, value: int | None, low: int, high: int) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ServiceError(
            "invalid",
            WHOLE[name] % {"low": low, "high": high},
            fields={name: _("%(low)s to %(high)s") % {"low": low, "high": high}},
        )


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None


def revoke_round_links(*, round_id: int, actor: Actor) -> int:
    """Withdraw every table link of the round's matches (a QR code photographed and
    passed round, a phone left at a table): old links and the phones seated through them
    stop working; new cards or codes work at once. Returns how many tables. Raises
    Forbidden, Conflict (`not_published`)."""
    with transaction.atomic():
        tournament, rnd = lock_round(round_id, actor)
        require_state(rnd, Round.State.PUBLISHED)
        match_ids = list(
            rnd.pairings.exclude(match=None).order_by("table").values_list("match_id", flat=True)
        )
        for match_id in match_ids:
            scoring.revoke_table_links(match_id=match_id, actor=actor)
        log(
            tournament,
            "table_links_revoked",
            actor,
            after={"round": rnd.number, "tables": len(match_ids)},
        )
    return len(match_ids)


@dataclass
class TimeReport:
    """What apply_time_policy did: pairings it decided, and tables it left (and why)."""

    settled: list[Pairing] = field(default_factory=list)
    waiting: list[tuple[Pairing, str]] = field(default_factory=list)

    def ledger_values(self) -> dict:
        """What the ledger row keeps of it (the API's shape is
        tournaments.serializers.TimePolicyOutputSerializer)."""
        return {
            "settled": [
                {
                    "pairing": p.pk,
                    "table": p.table,
                    "winner": p.match.winner,
                    "reason": p.match.decision_reason,
                }
                for p in self.settled
            ],
            "waiting": [
                {"pairing": p.pk, "table": p.table, "reason": why} for p, why in self.waiting
            ],
        }


def apply_time_policy(
    *, round_id: int, actor: Actor, pairing_ids: list[int] | None = None
) -> TimeReport:
    """After time is called, decide the unfinished matches: to the player with more games
    won, else to the leader in the current game, else to the leader on match points.

    The whole round (`pairing_ids` None) decides only the tables whose time is up (the
    hand in play entered, tournaments.selectors.play): a table still finishing it, or
    playing on extra minutes, waits. Named tables (`pairing_ids`) are decided whatever their play:
    the organiser says they are done (no hand was in play). Either way a table with a
    pending or disputed hand waits for it, and a table level on all three waits for an
    organiser's result. Decided matches are stopped (no more hands).

    Raises Forbidden, Conflict (`not_published`, `time_not_called`)."""
    with transaction.atomic():
        tournament, rnd = lock_round(round_id, actor)
        require_state(rnd, Round.State.PUBLISHED)
        if not rnd.time_called:
            raise Conflict("time_not_called", _("Call time before applying the time policy."))
        report = TimeReport()
        for row in tables(rnd):
            pairing = row.pairing
            if row.state in (TableState.FINISHED, TableState.BYE) or (
                pairing_ids is not None and pairing.pk not in pairing_ids
            ):
                continue
            current = current_standing(pairing.match)
            why = _still_open(row, current, named=pairing_ids is not None)
            if why:
                waiting = Phrase(TABLE_WAITING, {"table": pairing.table, "why": why})
                report.waiting.append((pairing, Worded(waiting)))
                continue
            winner, reason = _time_decision(pairing, row.current_game, current)
            _decide(pairing, winner, reason, actor, current, by=Match.DecidedBy.TIME)
            report.settled.append(pairing)
        log(
            tournament,
            "time_policy_applied",
            actor,
            after={"round": rnd.number, **report.ledger_values()},
        )
    return report


def _still_open(row, current: dict[str, int], *, named: bool) -> Phrase | None:
    """Why the policy leaves a table open (None: it decides it); `current`: the current
    game's standing."""
    names = {"a": row.pairing.player_a.player.name, "b": row.pairing.player_b.player.name}
    if row.disputed or row.pending:
        return Phrase(HAND_DISPUTED if row.disputed else HAND_NOT_CONFIRMED)
    if not named and row.play.state == play.LAST_HAND:
        return Phrase(FINISHING, names)
    if not named and row.play.state == play.EXTENDED:
        return Phrase(PLAYING_ON, {**names, "time": play.clock_time(row.play.cutoff)})
    if _time_decision(row.pairing, row.current_game, current) is None:
        return Phrase(LEVEL)
    return None


def _time_decision(
    pairing: Pairing, game: int | None, current: dict[str, int]
) -> tuple[str, str] | None:
    """The policy's winner and why, in the words the players read after "Ada wins 2–1: ".
    `current`: the current game's standing (scoring's `current_standing`: hand points in
    a game to a target, totals with boxes and earned game bonuses in a fixed-length one,
    docs/rules.md §7)."""
    m = pairing.match
    names = {"A": pairing.player_a.player.name, "B": pairing.player_b.player.name}
    if m.games_won_a != m.games_won_b:
        seat = "A" if m.games_won_a > m.games_won_b else "B"
        return seat, LED_ON_GAMES % {"name": names[seat]}
    if current["A"] != current["B"]:
        seat = "A" if current["A"] > current["B"] else "B"
        lead = f"{max(current.values())}–{min(current.values())}"
        if game:
            return seat, LED_GAME % {"name": names[seat], "game": game, "lead": lead}
        return seat, LED_CURRENT_GAME % {"name": names[seat], "lead": lead}
    if m.points_a != m.points_b:
        seat = "A" if m.points_a > m.points_b else "B"
        lead = f"{max(m.points_a, m.points_b)}–{min(m.points_a, m.points_b)}"
        return seat, LED_ON_POINTS % {"name": names[seat], "lead": lead}
    return None


def _decide(
    pairing: Pairing,
    winner: str,
    reason: str,
    actor: Actor,
    current: dict[str, int],
    games=None,
    points=None,
    *,
    by: str,
) -> None:
    """Set the table's result on its match; games and points default to the match so far
    (the current game's hand points included)."""
    m = pairing.match
    games = games or (m.games_won_a, m.games_won_b)
    points = points or (m.points_a + current["A"], m.points_b + current["B"])
    pairing.match = scoring.decide_match(
        match_id=m.pk, actor=actor, winner=winner, games=games, points=points, by=by, reason=reason
    )


# ------------------------------------------------------------------------ results


def record_result(
    *,
    pairing_id: int,
    actor: Actor,
    winner: str,
    reason: str,
    games_a: int | None = None,
    games_b: int | None = None,
    points_a: int | None = None,
    points_b: int | None = None,
) -> Pairing:
    """The organiser decides a table by hand (time called, no phone at the table, a
    forfeit). Games and points default to the match so far (the current game's hand
    points included). The match is stopped. There are no drawn matches.

    Raises Forbidden, ServiceError (`reason_required`, `invalid`), Conflict
    (`not_published`, `bye`).
    """
    require_reason(reason, _("Say why the result is recorded by hand."))
    if winner not in ("A", "B"):
        raise ServiceError(
            "invalid",
            _("The winner is seat A or B: a match cannot end drawn."),
            fields={"winner": _("A or B")},
        )
    with transaction.atomic():
        tournament, pairing = lock_pairing(pairing_id, actor)
        require_state(pairing.round, Round.State.PUBLISHED)
        if pairing.is_bye:
            raise Conflict("bye", _("A bye needs no result."))
        m = pairing.match
        current = current_standing(m)
        games = (_or(games_a, m.games_won_a), _or(games_b, m.games_won_b))
        points = (
            _or(points_a, m.points_a + current["A"]),
            _or(points_b, m.points_b + current["B"]),
        )
        _check_result(games, points)
        _check_games(pairing, winner, games)
        before = _result_of(pairing)
        _decide(
            pairing, winner, reason.strip(), actor, current, games, points,
            by=Match.DecidedBy.ORGANISER,
        )  # fmt: skip
        log(
            tournament,
            "result_recorded",
            actor,
            reason=reason,
            before=before,
            after=_result_of(pairing),
        )
    return pairing


def clear_result(*, pairing_id: int, actor: Actor, reason: str) -> Pairing:
    """Withdraw an organiser's (or the time policy's) result: the match goes on.
    Raises Forbidden, ServiceError (`reason_required`), Conflict (`not_published`,
    `bye`, `not_resolved`)."""
    require_reason(reason, _("Say why the result is withdrawn."))
    with transaction.atomic():
        tournament, pairing = lock_pairing(pairing_id, actor)
        require_state(pairing.round, Round.State.PUBLISHED)
        if pairing.is_bye:
            raise Conflict("bye", _("A bye's result cannot be withdrawn."))
        if not pairing.resolved:
            raise Conflict("not_resolved", _("This table has no organiser's result."))
        before = _result_of(pairing)
        pairing.match = scoring.withdraw_decision(
            match_id=pairing.match_id, actor=actor, reason=reason
        )
        log(tournament, "result_cleared", actor, reason=reason, before=before)
    return pairing


def _or(value: int | None, default: int) -> int:
    return default if value is None else value


def _check_result(games: tuple[int, int], points: tuple[int, int]) -> None:
    for name, value, high in (
        ("games_a", games[0], 99),
        ("games_b", games[1], 99),
        ("points_a", points[0], 1_000_000),
        ("points_b", points[1], 1_000_000),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
            raise ServiceError(
                "invalid",
                # Translators: "games a must be a whole number from 0 to 99" (seat A's games).
                _("%(field)s must be a whole number from 0 to %(high)s")
                % {"field": RESULT_LABELS[name], "high": high},
                fields={name: _("%(low)s to %(high)s") % {"low": 0, "high": high}},
            )


def _check_games(pairing: Pairing, winner: str, games: tuple[int, int]) -> None:
    """A result by hand must agree with itself: the winner has at least as many games as
    the loser (time may be called level, or with the winner ahead), the loser has not
    already won the match, and nobody has more games than the match is played to."""
    names = {"A": pairing.player_a.player.name, "B": pairing.player_b.player.name}
    won = {"A": games[0], "B": games[1]}
    loser = "B" if winner == "A" else "A"
    to_win = pairing.match.rules.get("games_to_win", 1)
    for seat in ("A", "B"):
        if won[seat] > to_win:
            raise ServiceError(
                "invalid",
                _("%(name)s cannot have won %(games)s games: the match is won with %(to_win)s.")
                % {"name": names[seat], "games": won[seat], "to_win": to_win},
                fields={
                    f"games_{seat.lower()}": _("%(low)s to %(high)s") % {"low": 0, "high": to_win}
                },
            )
    if won[loser] > won[winner]:
        raise ServiceError(
            "invalid",
            _(
                "%(winner)s cannot win the match with fewer games (%(winner_games)s) than "
                "%(loser)s (%(loser_games)s)."
            )
            % {
                "winner": names[winner],
                "winner_games": won[winner],
                "loser": names[loser],
                "loser_games": won[loser],
            },
            fields={f"games_{winner.lower()}": _("at least %(count)s") % {"count": won[loser]}},
        )
    if won[loser] >= to_win:
        raise ServiceError(
            "invalid",
            _(
                "%(loser)s has won %(games)s games, which wins the match, so %(winner)s "
                "cannot be the winner."
            )
            % {"loser": names[loser], "games": won[loser], "winner": names[winner]},
            fields={
                f"games_{loser.lower()}": _("%(low)s to %(high)s") % {"low": 0, "high": to_win - 1}
            },
        )


def _result_of(pairing: Pairing) -> dict:
    m = pairing.match
    return {
        "table": pairing.table,
        "players": {"A": pairing.player_a.player.name, "B": pairing.player_b.player.name},
        "winner": m.winner or None,
        "games": [m.games_won_a, m.games_won_b],
        "points": [m.points_a, m.points_b],
        "reason": m.decision_reason,
        "resolved": m.overruled,
    }


# -------------------------------------------------------------------------- close


def close_round(*, round_id: int, actor: Actor) -> Round:
    """Close a round once every table is finished (or resolved). Closing the last round
    (the final, in elimination) finishes the tournament.

    Raises Forbidden, Conflict (`not_published`, `round_unfinished`).
    """
    with transaction.atomic():
        tournament, rnd = lock_round(round_id, actor)
        require_state(rnd, Round.State.PUBLISHED)
        rows = tables(rnd)
        open_tables = [
            row for row in rows if row.state not in (TableState.FINISHED, TableState.BYE)
        ]
        if open_tables:
            listed = ", ".join(f"{row.pairing.table} ({row.state})" for row in open_tables)
            raise Conflict(
                "round_unfinished",
                f"Tables still open: {listed}. Finish them or record their results first.",
            )
        rnd.state, rnd.closed_at = Round.State.CLOSED, timezone.now()
        rnd.save(update_fields=["state", "closed_at"])
        log(tournament, "round_closed", actor, after={"round": rnd.number})
        transaction.on_commit(checkpoints.queue)  # the closed round's results, signed
        if _is_last(tournament, rnd, rows):
            tournament.state = Tournament.State.FINISHED
            tournament.save(update_fields=["state"])
            log(tournament, "tournament_finished", actor, after={"rounds": rnd.number})
        if tournament.holds_results:  # results it held back may now be read, so rated
            queue_ratings(tournament.club_id)
    return rnd


def _is_last(tournament: Tournament, rnd: Round, rows) -> bool:
    if rnd.stage == Round.Stage.ELIMINATION:
        return len(rows) == 1
    if tournament.format == Tournament.Format.SWISS_CUT:
        return False
    active = len(active_registrations(tournament))
    return rnd.number >= planned_rounds(tournament, active)
