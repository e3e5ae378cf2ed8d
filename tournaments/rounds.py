"""Rounds: draft, adjust, publish, time, results and close (services; see services.py).

How a round is paired (tournaments.pairing does the maths):
    Swiss         from the standings of the rounds played: score = match wins, rank =
                  standings place (seed, then registration, among equals); no rematch
                  while a rematch-free pairing exists; the bye to the lowest-ranked
                  player without one.
    round robin   the circle-method schedule of the roster fixed in round 1 (players
                  by seed, then registration); a withdrawn player's opponent gets a bye.
    elimination   round 1 (or the first round after the Swiss stage of a top cut) is
                  seeded: by seed for single elimination, by Swiss standings for the
                  cut; later rounds pair the winners in bracket order. A withdrawn
                  player's opponent goes through on a walkover (a bye).
Withdrawn players are never paired; when check-in is required, only checked-in players.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from scoring import services as scoring
from scoring.errors import Conflict, ServiceError
from scoring.models import Game, Match
from scoring.services import Actor
from tournaments.base import (
    lock_pairing,
    lock_round,
    lock_tournament,
    log,
    pairing_error,
    planned_rounds,
    stage_of,
)
from tournaments.models import Pairing, Registration, Round, Tournament
from tournaments.pairing import (
    Entrant,
    Pair,
    PairingError,
    compute_standings,
    elimination_round,
    next_elimination_round,
    round_robin,
    swiss_round,
)
from tournaments.selectors import (
    PAIRING_FIELDS,
    TableState,
    decided_winner,
    pairing_rows,
    record_of,
    tables,
    tiebreaks_of,
)

SET_BY_ORGANISER = "set by organiser"


# -------------------------------------------------------------------------- draft

def draft_round(*, tournament_id: int, actor: Actor) -> Round:
    """Draft the next round: pairings by the format (module docstring), each with the
    reason it was made. Nothing is played until publish_round.

    Raises Forbidden, Conflict (`finished`, `round_open`, `no_more_rounds`),
    ServiceError (`too_few_players` and the pairing package's other codes).
    """
    with transaction.atomic():
        tournament = lock_tournament(tournament_id, actor)
        if tournament.state == Tournament.State.FINISHED:
            raise Conflict("finished", "The tournament is finished.")
        last = tournament.round_set.order_by("-number").first()
        if last is not None and last.state != Round.State.CLOSED:
            raise Conflict("round_open", f"Round {last.number} is {last.get_state_display()}; "
                           "close it (or discard the draft) before drafting the next one.")
        number = (last.number if last else 0) + 1
        active = active_registrations(tournament)
        if len(active) < 2:
            raise ServiceError("too_few_players", f"{len(active)} player(s) can be paired; "
                               "a round needs at least two" + (
                                   " (only checked-in players are paired)."
                                   if tournament.check_in_required else "."))
        planned = planned_rounds(tournament, len(active)) if number > 1 else 0
        if number > 1 and number > planned:
            raise Conflict("no_more_rounds", f"All {planned} rounds have been played.")
        stage = stage_of(tournament, number)
        try:
            pairs = _pairs(tournament, number, stage, active)
        except PairingError as error:
            raise pairing_error(error) from None
        new = Round.objects.create(tournament=tournament, number=number, stage=stage)
        Pairing.objects.bulk_create([
            Pairing(round=new, player_a_id=pair.a, player_b_id=pair.b,
                    reason=pair.reason[:200], position=index)
            for index, pair in enumerate(pairs, start=1)])
        log(tournament, "round_drafted", actor, after={
            "round": number, "stage": stage,
            "pairs": [[pair.a, pair.b, pair.reason] for pair in pairs]})
    return new


def active_registrations(tournament: Tournament) -> list[Registration]:
    """Who may be paired now, in seed order (seeded first, then by registration)."""
    rows = tournament.registrations.filter(withdrawn=False).select_related("player")
    if tournament.check_in_required:
        rows = rows.filter(checked_in=True)
    return sorted(rows, key=lambda r: (r.seed is None, r.seed or 0, r.pk))


def _pairs(tournament: Tournament, number: int, stage: str,
           active: list[Registration]) -> list[Pair]:
    ids = [r.pk for r in active]
    if stage == Round.Stage.SWISS:
        return swiss_round(swiss_entrants(tournament, active))
    if stage == Round.Stage.ROUND_ROBIN:
        if number == 1:
            _set_roster(tournament, ids)
        schedule = round_robin(tournament.roster)
        if number > len(schedule):
            raise Conflict("no_more_rounds", f"All {len(schedule)} rounds have been played.")
        return _without_withdrawn(schedule[number - 1], set(ids))
    first_cut = tournament.format == Tournament.Format.SWISS_CUT and number == (
        tournament.rounds + 1)
    if number == 1 or first_cut:
        seeds = _cut(tournament, active) if first_cut else ids
        _set_roster(tournament, seeds)
        return elimination_round(seeds)
    return _without_withdrawn(next_elimination_round(_winners(tournament, number - 1)),
                              set(ids))


def _set_roster(tournament: Tournament, ids: list[int]) -> None:
    tournament.roster = ids
    tournament.save(update_fields=["roster"])


def _without_withdrawn(pairs: list[Pair], active: set[int]) -> list[Pair]:
    """A fixed schedule or bracket minus withdrawn players: their opponents get a bye."""
    kept = []
    for pair in pairs:
        players = [p for p in (pair.a, pair.b) if p is not None and p in active]
        if len(players) == 2 or (len(players) == 1 and pair.b is None):
            kept.append(pair)
        elif players:
            kept.append(Pair(a=players[0], b=None, reason="bye: opponent withdrew"))
    return kept


def swiss_entrants(tournament: Tournament, active: list[Registration]) -> list[Entrant]:
    """The active players as the Swiss pairing sees them, from the Swiss rounds so far."""
    opponents: dict[int, set[int]] = defaultdict(set)
    byes: set[int] = set()
    records = []
    for row in pairing_rows(tournament):
        if row["round__stage"] != Round.Stage.SWISS:
            continue
        a, b = row["player_a_id"], row["player_b_id"]
        if b is None:
            byes.add(a)
        else:
            opponents[a].add(b)
            opponents[b].add(a)
        if (record := record_of(row)) is not None:
            records.append(record)
    everyone = list(tournament.registrations.values_list("id", flat=True))
    lines = {s.id: s for s in compute_standings(sorted(everyone), records,
                                                tiebreaks_of(tournament))}
    order = sorted(active, key=lambda r: (lines[r.pk].rank, r.seed is None, r.seed or 0, r.pk))
    return [Entrant(id=r.pk, rank=rank, score=lines[r.pk].match_wins,
                    opponents=frozenset(opponents[r.pk]), had_bye=r.pk in byes)
            for rank, r in enumerate(order, start=1)]


def _cut(tournament: Tournament, active: list[Registration]) -> list[int]:
    """The top cut: the best `cut_size` active players of the Swiss standings."""
    entrants = swiss_entrants(tournament, active)
    return [e.id for e in sorted(entrants, key=lambda e: e.rank)][:tournament.cut_size]


def _winners(tournament: Tournament, number: int) -> list[int]:
    rows = Pairing.objects.filter(round__tournament=tournament, round__number=number)
    winners = []
    for row in rows.order_by("position").values(*PAIRING_FIELDS):
        seat = decided_winner(row)
        assert seat is not None, "a closed elimination round has a winner at every table"
        winners.append(row["player_a_id"] if seat == "A" else row["player_b_id"])
    return winners


def discard_round(*, round_id: int, actor: Actor) -> None:
    """Throw away a drafted round (to draft it again). Raises Forbidden, Conflict."""
    with transaction.atomic():
        tournament, rnd = lock_round(round_id, actor)
        _require_state(rnd, Round.State.DRAFT)
        number = rnd.number
        rnd.delete()
        log(tournament, "round_discarded", actor, before={"round": number})


# --------------------------------------------------------------- organiser changes

Slot = tuple[Pairing, str]


def swap_players(*, round_id: int, actor: Actor, first: int, second: int,
                 reason: str = "") -> Round:
    """Exchange two players' places in a drafted round (registration ids); either may
    be the one with the bye. Raises Forbidden, Conflict (`not_draft`), ServiceError
    (`invalid`, `not_in_round`)."""
    with transaction.atomic():
        tournament, rnd = lock_round(round_id, actor)
        _require_state(rnd, Round.State.DRAFT)
        pairings = _draft_pairings(rnd)
        before = _layout(pairings)
        _swap(_slot(pairings, first), _slot(pairings, second), reason)
        log(tournament, "pairings_swapped", actor, reason=reason, before=before,
            after=_layout(pairings))
    return rnd


def fix_pairing(*, round_id: int, actor: Actor, player_a: int, player_b: int | None,
                reason: str = "") -> Round:
    """Make `player_a` play `player_b` (or take the bye, when `player_b` is None) in a
    drafted round; their former opponents meet each other (or take the bye).

    Raises Forbidden, Conflict (`not_draft`, `no_bye`), ServiceError (`invalid`,
    `not_in_round`).
    """
    with transaction.atomic():
        tournament, rnd = lock_round(round_id, actor)
        _require_state(rnd, Round.State.DRAFT)
        pairings = _draft_pairings(rnd)
        before = _layout(pairings)
        slot_a = _slot(pairings, player_a)
        if player_b is None:
            bye = next((p for p in pairings if p.player_b_id is None), None)
            if bye is None:
                raise Conflict("no_bye", "This round has no bye: an even field plays at "
                               "every table.")
            if bye.player_a_id == player_a:
                raise ServiceError("invalid", f"{bye.player_a.player.name} already has the bye.")
            _swap(slot_a, (bye, "a"), reason)
        else:
            slot_b = _slot(pairings, player_b)
            if slot_a[0] is slot_b[0]:
                raise ServiceError("invalid", "These two players already play each other.")
            pairing = slot_a[0]
            if pairing.player_b_id is None:  # a has the bye: a's rival moves in beside b
                _swap(slot_a, (slot_b[0], "b" if slot_b[1] == "a" else "a"), reason)
            else:
                _swap(slot_b, (pairing, "b" if slot_a[1] == "a" else "a"), reason)
        log(tournament, "pairing_fixed", actor, reason=reason, before=before,
            after=_layout(pairings))
    return rnd


def _draft_pairings(rnd: Round) -> list[Pairing]:
    return list(rnd.pairings.select_related("player_a__player", "player_b__player")
                .order_by("position"))


def _slot(pairings: list[Pairing], registration_id: int) -> Slot:
    for pairing in pairings:
        if pairing.player_a_id == registration_id:
            return pairing, "a"
        if pairing.player_b_id == registration_id:
            return pairing, "b"
    raise ServiceError("not_in_round", f"Registration {registration_id} is not paired in "
                       "this round.", fields={"player": "not in this round"})


def _swap(first: Slot, second: Slot, reason: str) -> None:
    (p1, s1), (p2, s2) = first, second
    if p1 is p2 and s1 == s2:
        raise ServiceError("invalid", "Choose two different players.")
    r1, r2 = getattr(p1, f"player_{s1}"), getattr(p2, f"player_{s2}")
    setattr(p1, f"player_{s1}", r2)
    setattr(p2, f"player_{s2}", r1)
    note = f"{SET_BY_ORGANISER}: {reason}" if reason.strip() else SET_BY_ORGANISER
    for pairing in {p1.pk: p1, p2.pk: p2}.values():
        if pairing.player_a is None and pairing.player_b is None:
            pairing.delete()  # two byes merged into one pairing
            continue
        if pairing.player_a is None:  # a bye holds its player in seat A
            pairing.player_a, pairing.player_b = pairing.player_b, None
        pairing.reason = note[:200]
        pairing.save(update_fields=["player_a", "player_b", "reason"])


def _layout(pairings: list[Pairing]) -> list[list]:
    return [[p.position, p.player_a_id, p.player_b_id] for p in pairings if p.pk]


def _require_state(rnd: Round, state: str) -> None:
    if rnd.state != state:
        raise Conflict(f"not_{state}", f"Round {rnd.number} is {rnd.get_state_display()}, "
                       f"not {Round.State(state).label}.")


# ------------------------------------------------------------------------- publish

def publish_round(*, round_id: int, actor: Actor) -> Round:
    """Number the tables, start each table's match through scoring.services.start_match
    (the tournament's frozen rules and agreement mode) and record the byes as won with
    the bye score. Publishing round 1 freezes the rule profile and starts the event.

    Raises Forbidden, Conflict (`not_draft`, `withdrawn_in_draft`).
    """
    with transaction.atomic():
        tournament, rnd = lock_round(round_id, actor)
        _require_state(rnd, Round.State.DRAFT)
        pairings = _draft_pairings(rnd)
        gone = [r.player.name for p in pairings for r in (p.player_a, p.player_b)
                if r is not None and r.withdrawn]
        if gone:
            raise Conflict("withdrawn_in_draft", f"{', '.join(gone)} withdrew after this "
                           "round was drafted; fix the pairing or draft the round again.")
        if not tournament.frozen:
            _freeze(tournament, actor)
        now, table = timezone.now(), 0
        for pairing in pairings:
            if pairing.is_bye:
                _resolve(pairing, "A", (tournament.bye_games, 0), (tournament.bye_points, 0),
                         pairing.reason or "bye", now)
            else:
                table += 1
                pairing.table = table
                pairing.match = _start_match(tournament, pairing, actor)
        Pairing.objects.bulk_update(pairings, ["table", "match", *RESULT_FIELDS])
        rnd.state, rnd.published_at = Round.State.PUBLISHED, now
        rnd.save(update_fields=["state", "published_at"])
        log(tournament, "round_published", actor, after={
            "round": rnd.number, "tables": table,
            "byes": [p.player_a_id for p in pairings if p.is_bye]})
    return rnd


def _freeze(tournament: Tournament, actor: Actor) -> None:
    from scoring.rules import make_profile

    tournament.rules = make_profile(tournament.profile, tournament.overrides).as_dict()
    tournament.state = Tournament.State.RUNNING
    tournament.save(update_fields=["rules", "state"])
    log(tournament, "rules_frozen", actor, after={"rules": tournament.rules})


def _start_match(tournament: Tournament, pairing: Pairing, actor: Actor) -> Match:
    rules = dict(tournament.rules)
    name = rules.pop("name")
    match = scoring.start_match(
        club=tournament.club, player_a=pairing.player_a.player,
        player_b=pairing.player_b.player, actor=actor, profile=name, overrides=rules,
        agreement=tournament.agreement)
    assert match.rules == tournament.rules, "a table plays the tournament's frozen rules"
    return match


RESULT_FIELDS = ["result_winner", "result_reason", "result_games_a", "result_games_b",
                 "result_points_a", "result_points_b", "resolved_at"]


def _resolve(pairing: Pairing, winner: str, games: tuple[int, int],
             points: tuple[int, int], reason: str, when) -> None:
    pairing.result_winner, pairing.result_reason = winner, reason
    pairing.result_games_a, pairing.result_games_b = games
    pairing.result_points_a, pairing.result_points_b = points
    pairing.resolved_at = when


# --------------------------------------------------------------------------- clock

def start_round_timer(*, round_id: int, actor: Actor, minutes: int | None = None) -> Round:
    """Start (or restart) the round clock: it ends `minutes` (default: the tournament's
    round length) from now. Raises Forbidden, ServiceError (`invalid`), Conflict."""
    with transaction.atomic():
        tournament, rnd = lock_round(round_id, actor)
        _require_state(rnd, Round.State.PUBLISHED)
        minutes = tournament.round_minutes if minutes is None else minutes
        if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= 600:
            raise ServiceError("invalid", "A round lasts 1 to 600 minutes.",
                               fields={"minutes": "1 to 600"})
        now = timezone.now()
        rnd.started_at, rnd.ends_at = now, now + timedelta(minutes=minutes)
        rnd.time_called = False
        rnd.save(update_fields=["started_at", "ends_at", "time_called"])
        log(tournament, "round_timer_started", actor,
            after={"round": rnd.number, "minutes": minutes, "ends_at": rnd.ends_at.isoformat()})
    return rnd


def call_time(*, round_id: int, actor: Actor) -> Round:
    """Time is called: tables finish the hand they are playing, then apply_time_policy
    decides the unfinished matches. Raises Forbidden, Conflict (`not_published`,
    `time_already_called`)."""
    with transaction.atomic():
        tournament, rnd = lock_round(round_id, actor)
        _require_state(rnd, Round.State.PUBLISHED)
        if rnd.time_called:
            raise Conflict("time_already_called", f"Time was already called in round "
                           f"{rnd.number}.")
        now = timezone.now()
        rnd.time_called = True
        if rnd.ends_at is None or rnd.ends_at > now:
            rnd.ends_at = now
        rnd.save(update_fields=["time_called", "ends_at"])
        log(tournament, "time_called", actor, after={"round": rnd.number})
    return rnd


@dataclass
class TimeReport:
    """What apply_time_policy did: pairings it decided, and tables it left (and why)."""

    settled: list[Pairing] = field(default_factory=list)
    waiting: list[tuple[Pairing, str]] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"settled": [{"pairing": p.pk, "table": p.table, "winner": p.result_winner,
                             "reason": p.result_reason} for p in self.settled],
                "waiting": [{"pairing": p.pk, "table": p.table, "reason": why}
                            for p, why in self.waiting]}


def apply_time_policy(*, round_id: int, actor: Actor,
                      pairing_ids: list[int] | None = None) -> TimeReport:
    """After time is called, decide every unfinished match whose hands are all agreed
    (or only the tables `pairing_ids`, e.g. as each says its last hand is entered): to
    the player with more games won, else to the leader in the current game, else to the
    leader on match points. A table with a pending or disputed hand waits for it; a
    table level on all three waits for an organiser's result. Decided matches are
    stopped (no more hands). The service cannot know whether a table is still playing
    its last hand: apply it once the tables have entered it.

    Raises Forbidden, Conflict (`not_published`, `time_not_called`)."""
    with transaction.atomic():
        tournament, rnd = lock_round(round_id, actor)
        _require_state(rnd, Round.State.PUBLISHED)
        if not rnd.time_called:
            raise Conflict("time_not_called", "Call time before applying the time policy.")
        report, now = TimeReport(), timezone.now()
        for row in tables(rnd):
            pairing = row.pairing
            if row.state in (TableState.FINISHED, TableState.BYE) or (
                    pairing_ids is not None and pairing.pk not in pairing_ids):
                continue
            if row.pending or row.disputed:
                report.waiting.append((pairing, f"table {pairing.table}: a hand is "
                                       f"{'disputed' if row.disputed else 'not confirmed'}"))
                continue
            decision = _time_decision(pairing, row.current_points)
            if decision is None:
                report.waiting.append((pairing, f"table {pairing.table}: level on games and "
                                       "points; record the result by hand"))
                continue
            winner, reason = decision
            _decide(pairing, winner, reason, actor, now, row.current_points)
            report.settled.append(pairing)
        log(tournament, "time_policy_applied", actor, after={"round": rnd.number,
                                                             **report.as_dict()})
    return report


def _time_decision(pairing: Pairing, current: dict[str, int]) -> tuple[str, str] | None:
    m = pairing.match
    names = {"A": pairing.player_a.player.name, "B": pairing.player_b.player.name}
    if m.games_won_a != m.games_won_b:
        seat = "A" if m.games_won_a > m.games_won_b else "B"
        return seat, (f"time called: {names[seat]} won more games "
                      f"({m.games_won_a}–{m.games_won_b})")
    if current["A"] != current["B"]:
        seat = "A" if current["A"] > current["B"] else "B"
        return seat, (f"time called: games level; {names[seat]} leads the current game "
                      f"{current['A']}–{current['B']}")
    if m.points_a != m.points_b:
        seat = "A" if m.points_a > m.points_b else "B"
        return seat, (f"time called: games level; {names[seat]} leads on points "
                      f"{m.points_a}–{m.points_b}")
    return None


def _decide(pairing: Pairing, winner: str, reason: str, actor: Actor, now,
            current: dict[str, int], games=None, points=None) -> None:
    m = pairing.match
    games = games or (m.games_won_a, m.games_won_b)
    points = points or (m.points_a + current["A"], m.points_b + current["B"])
    _resolve(pairing, winner, games, points, reason, now)
    pairing.save(update_fields=RESULT_FIELDS)
    if m.state == Match.State.IN_PROGRESS:
        scoring.stop_match(match_id=m.pk, actor=actor, reason=reason)


# ------------------------------------------------------------------------ results

def record_result(*, pairing_id: int, actor: Actor, winner: str, reason: str,
                  games_a: int | None = None, games_b: int | None = None,
                  points_a: int | None = None, points_b: int | None = None) -> Pairing:
    """The organiser decides a table by hand (time called, no phone at the table, a
    forfeit). Games and points default to the match so far (the current game's hand
    points included). The match is stopped. There are no drawn matches.

    Raises Forbidden, ServiceError (`reason_required`, `invalid`), Conflict
    (`not_published`, `bye`).
    """
    if not reason.strip():
        raise ServiceError("reason_required", "Say why the result is recorded by hand.",
                           fields={"reason": "required"})
    if winner not in ("A", "B"):
        raise ServiceError("invalid", "The winner is seat A or B: a match cannot end drawn.",
                           fields={"winner": "A or B"})
    with transaction.atomic():
        tournament, pairing = lock_pairing(pairing_id, actor)
        _require_state(pairing.round, Round.State.PUBLISHED)
        if pairing.is_bye:
            raise Conflict("bye", "A bye needs no result.")
        current = _current_points(pairing.match)
        m = pairing.match
        games = (_or(games_a, m.games_won_a), _or(games_b, m.games_won_b))
        points = (_or(points_a, m.points_a + current["A"]), _or(points_b, m.points_b +
                                                                 current["B"]))
        _check_result(games, points)
        before = _result_of(pairing)
        _decide(pairing, winner, reason.strip(), actor, timezone.now(), current, games, points)
        log(tournament, "result_recorded", actor, reason=reason, before=before,
            after=_result_of(pairing))
    return pairing


def clear_result(*, pairing_id: int, actor: Actor, reason: str) -> Pairing:
    """Withdraw an organiser's (or the time policy's) result: the match goes on.
    Raises Forbidden, ServiceError (`reason_required`), Conflict (`not_published`,
    `bye`, `not_resolved`)."""
    if not reason.strip():
        raise ServiceError("reason_required", "Say why the result is withdrawn.",
                           fields={"reason": "required"})
    with transaction.atomic():
        tournament, pairing = lock_pairing(pairing_id, actor)
        _require_state(pairing.round, Round.State.PUBLISHED)
        if pairing.is_bye:
            raise Conflict("bye", "A bye's result cannot be withdrawn.")
        if not pairing.resolved:
            raise Conflict("not_resolved", "This table has no organiser's result.")
        before = _result_of(pairing)
        _resolve(pairing, "", (0, 0), (0, 0), "", None)
        pairing.save(update_fields=RESULT_FIELDS)
        m = pairing.match
        if m.state == Match.State.CLOSED and not m.winner:
            scoring.resume_match(match_id=m.pk, actor=actor, reason=reason)
        log(tournament, "result_cleared", actor, reason=reason, before=before)
    return pairing


def _or(value: int | None, default: int) -> int:
    return default if value is None else value


def _check_result(games: tuple[int, int], points: tuple[int, int]) -> None:
    for name, value, high in (("games_a", games[0], 99), ("games_b", games[1], 99),
                              ("points_a", points[0], 1_000_000),
                              ("points_b", points[1], 1_000_000)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
            raise ServiceError("invalid", f"{name.replace('_', ' ')} must be a whole number "
                               f"from 0 to {high}", fields={name: f"0 to {high}"})


def _current_points(match: Match) -> dict[str, int]:
    game = match.games.filter(state=Game.State.IN_PROGRESS).first()
    if game is None:
        return {"A": 0, "B": 0}
    return {"A": game.hand_points_a, "B": game.hand_points_b}


def _result_of(pairing: Pairing) -> dict:
    return {"table": pairing.table, "winner": pairing.result_winner or None,
            "games": [pairing.result_games_a, pairing.result_games_b],
            "points": [pairing.result_points_a, pairing.result_points_b],
            "reason": pairing.result_reason, "resolved": pairing.resolved}


# -------------------------------------------------------------------------- close

def close_round(*, round_id: int, actor: Actor) -> Round:
    """Close a round once every table is finished (or resolved). Closing the last round
    (the final, in elimination) finishes the tournament.

    Raises Forbidden, Conflict (`not_published`, `round_unfinished`).
    """
    with transaction.atomic():
        tournament, rnd = lock_round(round_id, actor)
        _require_state(rnd, Round.State.PUBLISHED)
        rows = tables(rnd)
        open_tables = [row for row in rows
                       if row.state not in (TableState.FINISHED, TableState.BYE)]
        if open_tables:
            listed = ", ".join(f"{row.pairing.table} ({row.state})" for row in open_tables)
            raise Conflict("round_unfinished", f"Tables still open: {listed}. Finish them or "
                           "record their results first.")
        rnd.state, rnd.closed_at = Round.State.CLOSED, timezone.now()
        rnd.save(update_fields=["state", "closed_at"])
        log(tournament, "round_closed", actor, after={"round": rnd.number})
        if _is_last(tournament, rnd, rows):
            tournament.state = Tournament.State.FINISHED
            tournament.save(update_fields=["state"])
            log(tournament, "tournament_finished", actor, after={"rounds": rnd.number})
    return rnd


def _is_last(tournament: Tournament, rnd: Round, rows) -> bool:
    if rnd.stage == Round.Stage.ELIMINATION:
        return len(rows) == 1
    if tournament.format == Tournament.Format.SWISS_CUT:
        return False
    active = len(active_registrations(tournament))
    return rnd.number >= planned_rounds(tournament, active)

