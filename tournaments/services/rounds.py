"""Rounds: draft, adjust and publish (services; see the package). The clock, results
and closing are in tournaments.services.results.

How a round is paired (tournaments.pairing does the maths):
    Swiss         round 1 as the tournament's `first_round` says: at random (a draw
                  recorded in the pairs' reasons and the ledger, so it can be redone)
                  or by seed (top half against bottom half), by club rating (the
                  same halves in rating order: rated players by their club rating,
                  then the unrated in seed order; the order used is in the ledger),
                  or in list order (paired
                  like later rounds: neighbours in seed order meet, the last gets the
                  bye). Later rounds from the
                  standings of the rounds played: score = match wins, rank =
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

import secrets
from collections import Counter, defaultdict

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ginclub.errors import Conflict, ServiceError
from ginclub.permissions import Actor
from scoring import services as scoring
from scoring.models import Match
from scoring.stats import ratings_of
from tournaments.models import Pairing, Registration, Round, Tournament
from tournaments.pairing import (
    Entrant,
    Pair,
    compute_standings,
    elimination_round,
    first_round,
    next_elimination_round,
    round_robin,
    swiss_round,
)
from tournaments.pairing.first_round import DRAW_MAX, rating_order
from tournaments.pairing.first_round import METHODS as FIRST_ROUND
from tournaments.selectors.standings import (
    PAIRING_FIELDS,
    decided_winner,
    pairing_rows,
    record_of,
    tiebreaks_of,
)
from tournaments.services.base import (
    lock_round,
    lock_tournament,
    log,
    planned_rounds,
    require_state,
    stage_of,
)
from tournaments.translated import BYE, SET_BY_ORGANISER, SET_BY_ORGANISER_BECAUSE

# -------------------------------------------------------------------------- draft


def draft_round(*, tournament_id: int, actor: Actor, draw: int | None = None) -> Round:
    """Draft the next round: pairings by the format (module docstring), each with the
    reason it was made. Nothing is played until publish_round. A random round 1 uses
    `draw` when given (to redo a recorded draw), else a new one.

    Raises Forbidden, Conflict (`finished`, `round_open`, `no_more_rounds`),
    ServiceError (`too_few_players` and the pairing package's other codes).
    """
    with transaction.atomic():
        tournament = lock_tournament(tournament_id, actor, run=True)
        if tournament.state == Tournament.State.FINISHED:
            raise Conflict("finished", _("The tournament is finished."))
        last = tournament.round_set.order_by("-number").first()
        if last is not None and last.state != Round.State.CLOSED:
            raise Conflict(
                "round_open",
                # Translators: %(state)s is the round's state ("published", "a draft").
                _(
                    "Round %(number)s is %(state)s; close it (or discard the draft) before "
                    "drafting the next one."
                )
                % {"number": last.number, "state": last.get_state_display()},
            )
        number = (last.number if last else 0) + 1
        active = active_registrations(tournament)
        if len(active) < 2:
            raise ServiceError("too_few_players", _too_few_words(tournament, len(active)))
        planned = planned_rounds(tournament, len(active)) if number > 1 else 0
        if number > 1 and number > planned:
            raise Conflict(
                "no_more_rounds",
                _("All %(count)s rounds have been played.") % {"count": planned},
            )
        stage = stage_of(tournament, number)
        drawn = _draw(tournament, number, stage, draw)
        ratings = _ratings(tournament, number, stage, active)
        pairs = _pairs(tournament, number, stage, active, drawn, ratings)  # PairingError refuses
        new = Round.objects.create(tournament=tournament, number=number, stage=stage)
        Pairing.objects.bulk_create(
            [
                Pairing(
                    round=new,
                    player_a_id=pair.a,
                    player_b_id=pair.b,
                    reason=pair.reason[:200],
                    position=index,
                )
                for index, pair in enumerate(pairs, start=1)
            ]
        )
        log(
            tournament,
            "round_drafted",
            actor,
            after={
                "round": number,
                "stage": stage,
                "pairs": [[pair.a, pair.b, pair.reason] for pair in pairs],
                **({"draw": drawn} if drawn is not None else {}),
                **({"rating_order": _rating_order(active, ratings)} if ratings is not None else {}),
            },
        )
    return new


def _ratings(
    tournament: Tournament, number: int, stage: str, active: list[Registration]
) -> dict[int, float] | None:
    """A rating round 1's club ratings by registration id (None for every other round)."""
    if number != 1 or stage != Round.Stage.SWISS:
        return None
    if tournament.first_round != Tournament.FirstRound.RATING:
        return None
    by_player = ratings_of([r.player_id for r in active])
    return {r.pk: by_player[r.player_id] for r in active if r.player_id in by_player}


def _rating_order(active: list[Registration], ratings: dict[int, float]) -> list[dict]:
    """The field in the order a rating round 1 paired it, for the ledger: anyone can
    check the pairs against the ratings of that moment."""
    names = {r.pk: r.player.name for r in active}
    return [
        {"registration": i, "player": names[i], "rating": ratings.get(i)}
        for i in rating_order([r.pk for r in active], ratings)
    ]


def _draw(tournament: Tournament, number: int, stage: str, draw: int | None) -> int | None:
    """The draw of a random Swiss round 1 (None for every other round)."""
    if number != 1 or stage != Round.Stage.SWISS:
        return None
    if tournament.first_round != Tournament.FirstRound.RANDOM:
        return None
    if draw is None:
        return secrets.randbelow(DRAW_MAX) + 1
    if not 1 <= draw <= DRAW_MAX:
        raise ServiceError(
            "invalid",
            _("A draw is a whole number from 1 to %(most)s, not %(draw)s.")
            % {"most": DRAW_MAX, "draw": draw},
            fields={"draw": _("1 to %(most)s") % {"most": DRAW_MAX}},
        )
    return draw


def _too_few_words(tournament: Tournament, count: int) -> str:
    """Why a round cannot be drafted with `count` players, and what to do about it."""
    if tournament.check_in_required:
        return ngettext(
            "%(count)s player has checked in; a round needs at least two. Check the players "
            "in on the players page (or check in everyone), or untick “Pair only "
            "players who checked in” in the settings.",
            "%(count)s players have checked in; a round needs at least two. Check the "
            "players in on the players page (or check in everyone), or untick “Pair "
            "only players who checked in” in the settings.",
            count,
        ) % {"count": count}
    return ngettext(
        "%(count)s player can be paired; a round needs at least two.",
        "%(count)s players can be paired; a round needs at least two.",
        count,
    ) % {"count": count}


def active_registrations(tournament: Tournament) -> list[Registration]:
    """Who may be paired now, in seed order (seeded first, then by registration)."""
    rows = tournament.registrations.filter(withdrawn=False).select_related("player")
    if tournament.check_in_required:
        rows = rows.filter(checked_in=True)
    return sorted(rows, key=lambda r: (r.seed is None, r.seed or 0, r.pk))


def _pairs(
    tournament: Tournament,
    number: int,
    stage: str,
    active: list[Registration],
    draw: int | None = None,
    ratings: dict[int, float] | None = None,
) -> list[Pair]:
    ids = [r.pk for r in active]
    if stage == Round.Stage.SWISS and number == 1 and tournament.first_round in FIRST_ROUND:
        return first_round(ids, method=tournament.first_round, draw=draw, ratings=ratings)
    if stage == Round.Stage.SWISS:
        return swiss_round(swiss_entrants(tournament, active))
    if stage == Round.Stage.ROUND_ROBIN:
        if number == 1:
            _set_roster(tournament, ids)
        schedule = round_robin(tournament.roster)
        if number > len(schedule):
            raise Conflict(
                "no_more_rounds",
                _("All %(count)s rounds have been played.") % {"count": len(schedule)},
            )
        return _without_withdrawn(schedule[number - 1], set(ids))
    first_cut = tournament.format == Tournament.Format.SWISS_CUT and number == (
        tournament.rounds + 1
    )
    if number == 1 or first_cut:
        seeds = _cut(tournament, active) if first_cut else ids
        _set_roster(tournament, seeds)
        return elimination_round(seeds)
    winners, tables = _winners(tournament, number - 1)
    pairs = next_elimination_round(winners, tables, number - 1)
    return _without_withdrawn(pairs, set(ids))


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
    byes: Counter[int] = Counter()  # a count: in a long event someone gets a second bye
    records = []
    for row in pairing_rows(tournament):
        if row["round__stage"] != Round.Stage.SWISS:
            continue
        a, b = row["player_a_id"], row["player_b_id"]
        if b is None:
            byes[a] += 1
        else:
            opponents[a].add(b)
            opponents[b].add(a)
        if (record := record_of(row)) is not None:
            records.append(record)
    everyone = list(tournament.registrations.values_list("id", flat=True))
    lines = {
        s.id: s for s in compute_standings(sorted(everyone), records, tiebreaks_of(tournament))
    }
    order = sorted(active, key=lambda r: (lines[r.pk].rank, r.seed is None, r.seed or 0, r.pk))
    return [
        Entrant(
            id=r.pk,
            rank=rank,
            score=lines[r.pk].match_wins,
            opponents=frozenset(opponents[r.pk]),
            had_bye=byes[r.pk] > 0,
            byes=byes[r.pk],
        )
        for rank, r in enumerate(order, start=1)
    ]


def _cut(tournament: Tournament, active: list[Registration]) -> list[int]:
    """The top cut: the best `cut_size` active players of the Swiss standings."""
    entrants = swiss_entrants(tournament, active)
    return [e.id for e in sorted(entrants, key=lambda e: e.rank)][: tournament.cut_size]


def _winners(tournament: Tournament, number: int) -> tuple[list[int], list[int | None]]:
    """Round `number`'s winners in bracket order, and the table each won at (None: a bye
    or a walkover)."""
    rows = Pairing.objects.filter(round__tournament=tournament, round__number=number)
    winners, tables = [], []
    for row in rows.order_by("position").values(*PAIRING_FIELDS, "table"):
        seat = decided_winner(row)
        assert seat is not None, "a closed elimination round has a winner at every table"
        winners.append(row["player_a_id"] if seat == "A" else row["player_b_id"])
        tables.append(row["table"])
    return winners, tables


def discard_round(*, round_id: int, actor: Actor) -> None:
    """Throw away a drafted round (to draft it again). Raises Forbidden, Conflict."""
    with transaction.atomic():
        tournament, rnd = lock_round(round_id, actor)
        require_state(rnd, Round.State.DRAFT)
        number = rnd.number
        rnd.delete()
        log(tournament, "round_discarded", actor, before={"round": number})


# --------------------------------------------------------------- organiser changes

Slot = tuple[Pairing, str]


def swap_players(
    *, round_id: int, actor: Actor, first: int, second: int, reason: str = ""
) -> Round:
    """Exchange two players' places in a drafted round (registration ids); either may
    be the one with the bye. Raises Forbidden, Conflict (`not_draft`), ServiceError
    (`invalid`, `not_in_round`)."""
    with transaction.atomic():
        tournament, rnd = lock_round(round_id, actor)
        require_state(rnd, Round.State.DRAFT)
        pairings = _draft_pairings(rnd)
        before = _layout(pairings)
        _keep_schedule(tournament, rnd, first, second)
        _swap(_slot(pairings, first), _slot(pairings, second), reason)
        log(
            tournament,
            "pairings_swapped",
            actor,
            reason=reason,
            before=before,
            after=_layout(pairings),
        )
    return rnd


def fix_pairing(
    *, round_id: int, actor: Actor, player_a: int, player_b: int | None, reason: str = ""
) -> Round:
    """Make `player_a` play `player_b` (or take the bye, when `player_b` is None) in a
    drafted round; their former opponents meet each other (or take the bye).

    Raises Forbidden, Conflict (`not_draft`, `no_bye`), ServiceError (`invalid`,
    `not_in_round`).
    """
    with transaction.atomic():
        tournament, rnd = lock_round(round_id, actor)
        require_state(rnd, Round.State.DRAFT)
        pairings = _draft_pairings(rnd)
        before = _layout(pairings)
        slot_a = _slot(pairings, player_a)
        if player_b is None:
            bye = next((p for p in pairings if p.player_b_id is None), None)
            if bye is None:
                raise Conflict(
                    "no_bye", _("This round has no bye: an even field plays at every table.")
                )
            if bye.player_a_id == player_a:
                raise ServiceError(
                    "invalid",
                    _("%(name)s already has the bye.") % {"name": bye.player_a.player.name},
                )
            _keep_schedule(tournament, rnd, player_a, bye.player_a_id)
            _swap(slot_a, (bye, "a"), reason)
        else:
            if player_b == player_a:
                raise ServiceError("invalid", _("Choose two different players."))
            slot_b = _slot(pairings, player_b)
            if slot_a[0] is slot_b[0]:
                raise ServiceError("invalid", _("These two players already play each other."))
            pairing = slot_a[0]
            if pairing.player_b_id is None:  # a has the bye: a's rival moves in beside b
                rival = (slot_b[0], "b" if slot_b[1] == "a" else "a")
                _keep_schedule(tournament, rnd, player_a, _player_at(rival))
                _swap(slot_a, rival, reason)
            else:
                rival = (pairing, "b" if slot_a[1] == "a" else "a")
                _keep_schedule(tournament, rnd, player_b, _player_at(rival))
                _swap(slot_b, rival, reason)
        log(
            tournament,
            "pairing_fixed",
            actor,
            reason=reason,
            before=before,
            after=_layout(pairings),
        )
    return rnd


def _draft_pairings(rnd: Round) -> list[Pairing]:
    return list(
        rnd.pairings.select_related("player_a__player", "player_b__player").order_by("position")
    )


def _slot(pairings: list[Pairing], registration_id: int) -> Slot:
    for pairing in pairings:
        if pairing.player_a_id == registration_id:
            return pairing, "a"
        if pairing.player_b_id == registration_id:
            return pairing, "b"
    raise ServiceError(
        "not_in_round",
        _("Registration %(id)s is not paired in this round.") % {"id": registration_id},
        fields={"player": _("not in this round")},
    )


def _swap(first: Slot, second: Slot, reason: str) -> None:
    (p1, s1), (p2, s2) = first, second
    if p1 is p2 and s1 == s2:
        raise ServiceError("invalid", _("Choose two different players."))
    r1, r2 = getattr(p1, f"player_{s1}"), getattr(p2, f"player_{s2}")
    setattr(p1, f"player_{s1}", r2)
    setattr(p2, f"player_{s2}", r1)
    # Stored in English (data); tournaments.translated words it for the reader.
    note = SET_BY_ORGANISER_BECAUSE % {"reason": reason} if reason.strip() else SET_BY_ORGANISER
    for pairing in {p1.pk: p1, p2.pk: p2}.values():
        if pairing.player_a is None and pairing.player_b is None:
            pairing.delete()  # two byes merged into one pairing
            continue
        if pairing.player_a is None:  # a bye holds its player in seat A
            pairing.player_a, pairing.player_b = pairing.player_b, None
        pairing.reason = note[:200]
        pairing.save(update_fields=["player_a", "player_b", "reason"])


def _player_at(slot: Slot) -> int:
    pairing, side = slot
    return getattr(pairing, f"player_{side}_id")


def _keep_schedule(tournament: Tournament, rnd: Round, first: int, second: int) -> None:
    """A round robin's rounds come from its roster by the circle method: in round 1 two
    players trading places trade them in the roster, so every later round follows and
    everyone still meets everyone once. A later round would make two players meet twice
    and two never: refused (`round_robin_schedule`)."""
    if rnd.stage != Round.Stage.ROUND_ROBIN:
        return
    if rnd.number != 1:
        raise Conflict(
            "round_robin_schedule",
            _(
                "Round %(number)s of a round robin follows the schedule set in round 1, so "
                "that everyone meets everyone once: a change here would have two players "
                "meet twice and two never. Withdraw a player who has left instead (their "
                "opponents have the bye)."
            )
            % {"number": rnd.number},
        )
    roster = list(tournament.roster)
    i, j = roster.index(first), roster.index(second)
    roster[i], roster[j] = second, first
    _set_roster(tournament, roster)


def _layout(pairings: list[Pairing]) -> list[list]:
    return [[p.position, p.player_a_id, p.player_b_id] for p in pairings if p.pk]


# ------------------------------------------------------------------------- publish


def publish_round(*, round_id: int, actor: Actor) -> Round:
    """Number the tables, start each table's match through scoring.services.start_matches
    (the tournament's frozen rules and agreement mode) and record the byes as won with
    the bye score. Publishing round 1 freezes the rule profile and starts the event.

    Raises Forbidden, Conflict (`not_draft`, `withdrawn_in_draft`).
    """
    with transaction.atomic():
        tournament, rnd = lock_round(round_id, actor)
        require_state(rnd, Round.State.DRAFT)
        pairings = _draft_pairings(rnd)
        gone = [
            r.player.name
            for p in pairings
            for r in (p.player_a, p.player_b)
            if r is not None and r.withdrawn
        ]
        if gone:
            raise Conflict(
                "withdrawn_in_draft",
                _(
                    "%(names)s withdrew after this round was drafted; fix the pairing or draft "
                    "the round again."
                )
                % {"names": ", ".join(gone)},
            )
        if not tournament.frozen:
            _freeze(tournament, actor)
        now = timezone.now()
        tables = [p for p in pairings if not p.is_bye]
        matches = _start_matches(tournament, tables, actor)
        for table, (pairing, match) in enumerate(zip(tables, matches, strict=True), start=1):
            pairing.table, pairing.match = table, match
        byes = [p for p in pairings if p.is_bye]
        for pairing in byes:
            pairing.bye_games, pairing.bye_points = tournament.bye_games, tournament.bye_points
            pairing.reason = pairing.reason or BYE
        # Apart: bulk_update's CPU grows with rows x fields (1,024 tables x 5 took 1.5 s).
        Pairing.objects.bulk_update(tables, ["table", "match"])
        Pairing.objects.bulk_update(byes, ["reason", "bye_games", "bye_points"])
        rnd.state, rnd.published_at = Round.State.PUBLISHED, now
        rnd.save(update_fields=["state", "published_at"])
        log(
            tournament,
            "round_published",
            actor,
            after={
                "round": rnd.number,
                "tables": len(tables),
                "byes": [p.player_a_id for p in byes],
            },
        )
    return rnd


def _freeze(tournament: Tournament, actor: Actor) -> None:
    from scoring.rules import make_profile

    tournament.rules = make_profile(tournament.profile, tournament.overrides).as_dict()
    tournament.state = Tournament.State.RUNNING
    tournament.save(update_fields=["rules", "state"])
    log(tournament, "rules_frozen", actor, after={"rules": tournament.rules})


def _start_matches(tournament: Tournament, tables: list[Pairing], actor: Actor) -> list[Match]:
    """Every table's match, in one go (scoring.services.start_matches)."""
    rules = dict(tournament.rules)
    name = rules.pop("name")
    matches = scoring.start_matches(
        club=tournament.club,
        pairs=[(p.player_a.player, p.player_b.player) for p in tables],
        actor=actor,
        profile=name,
        overrides=rules,
        agreement=tournament.agreement,
    )
    assert all(m.rules == tournament.rules for m in matches), "tables play the frozen rules"
    return matches
