"""A round's tables, as the pages, the API, the projector and the table cards read them.

Terms:
    table state  bye, playing, pending (a hand awaits its second entry), disputed or
                 finished (TableState; table_state decides it).
    table row    a pairing with its state, its hands pending and disputed, the game in
                 progress and its play once time is called (tournaments.selectors.play).
    facts        a pairing's attributes as plain values (PairingFacts), for the
                 dashboard's poll.
    seat         a player's table and opponent, listed A to Z.
    table link   the signed link that opens a match's entry page, and its QR code.
`tables` reads in 4 queries (5 once time is called; one is the tables' calls), whatever
the number of tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import segno
from django.db.models import Count
from django.urls import reverse

from ginclub.permissions import table_token
from scoring.models import Game, Hand, Match
from tournaments.models import Pairing, Round
from tournaments.selectors.calls import calls_by_match
from tournaments.selectors.clock import Clock, clock
from tournaments.selectors.play import NOT_CALLED, Play, plays_of
from tournaments.selectors.play import words as play_words


class TableState:
    BYE = "bye"
    PLAYING = "playing"
    PENDING = "pending"
    DISPUTED = "disputed"
    FINISHED = "finished"


@dataclass
class TableRow:
    pairing: Pairing | PairingFacts  # facts: selectors.dashboard_facts
    state: str
    pending: int = 0
    disputed: int = 0
    current_game: int | None = None
    current_points: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    play: Play = NOT_CALLED  # after time is called (tournaments.selectors.play)
    call: str = ""  # a waiting call from the table: "open" or "taken" (selectors.calls)

    @property
    def plays_after_the_call(self) -> bool:
        """Time was called and the table is not done: its play has words."""
        return bool(self.play.state) and self.state not in (TableState.FINISHED, TableState.BYE)

    @property
    def play_words(self) -> str:
        if not self.plays_after_the_call:
            return ""
        return play_words(self.play, self.pairing)

    @property
    def winner_name(self) -> str | None:
        p = self.pairing
        seat = p.match.winner if p.match else ""
        if not seat:
            return None
        return (p.player_a if seat == "A" else p.player_b).player.name


def table_state(pairing: Pairing, pending: int, disputed: int) -> str:
    if pairing.is_bye:
        return TableState.BYE
    m = pairing.match
    if m is not None and m.state != Match.State.IN_PROGRESS and m.winner:
        return TableState.FINISHED
    if disputed:
        return TableState.DISPUTED
    if pending:
        return TableState.PENDING
    return TableState.PLAYING


def tables(round: Round, *, defer: tuple[str, ...] = ()) -> list[TableRow]:
    """Every pairing of a round with its table state, in 3 queries (4 once time is
    called: the hands entered since, for each table's hand in play). `defer`: fields of
    the pairings and their relations the caller never reads."""
    pairings = list(
        round.pairings.select_related("player_a__player", "player_b__player", "match")
        .defer(*defer)
        .order_by("position")
    )
    return _table_rows(round, pairings)


def _table_rows(round: Round, pairings: list) -> list[TableRow]:
    """`pairings` (Pairing or PairingFacts) as TableRows: their states in 2 queries (3
    once time is called)."""
    counts: dict[tuple[int, str], int] = {}
    for row in (
        Hand.objects.filter(
            game__match__pairing__round=round, state__in=[Hand.State.PENDING, Hand.State.DISPUTED]
        )
        .values("game__match_id", "state")
        .annotate(n=Count("id"))
    ):
        counts[(row["game__match_id"], row["state"])] = row["n"]
    current = {  # the lowest game in progress (Hollywood has up to three at once)
        g["match_id"]: g
        for g in Game.objects.filter(match__pairing__round=round, state=Game.State.IN_PROGRESS)
        .order_by("-number")
        .values("match_id", "number", "hand_points_a", "hand_points_b")
    }
    plays = plays_of(round, pairings)  # a query once time is called
    calls = calls_by_match(round)
    rows = []
    for p in pairings:
        pending = counts.get((p.match_id, Hand.State.PENDING), 0)
        disputed = counts.get((p.match_id, Hand.State.DISPUTED), 0)
        row = TableRow(p, table_state(p, pending, disputed), pending, disputed, play=plays[p.pk])
        row.call = calls.get(p.match_id, "") if p.match_id else ""
        game = current.get(p.match_id)
        if game is not None and row.state != TableState.FINISHED:
            row.current_game = game["number"]
            row.current_points = {"A": game["hand_points_a"], "B": game["hand_points_b"]}
        rows.append(row)
    return rows


@dataclass(frozen=True)
class MatchFacts:
    pk: int
    state: str
    winner: str
    games_won_a: int
    games_won_b: int
    decided_by: str
    decision_reason: str
    updated_at: datetime

    overruled = property(lambda self: bool(self.decided_by))  # Match.overruled


@dataclass(frozen=True)
class PairingFacts:
    """What the dashboard's counts and its rows' keys read of a table, as plain values
    from one query: the attributes of a Pairing (and its match) that `table_state`,
    `plays_of` and tournaments.views.rounds.board_rows read. Building a 256-table round's
    pairings as model instances (six each, with their players and match) took most of a
    busy hall's dashboard poll, to render the few rows that had moved."""

    pk: int
    table: int | None
    player_a_name: str
    player_b_id: int | None
    player_b_name: str | None
    reason: str
    match_id: int | None
    plays_until: datetime | None
    extra_hands: int
    match: MatchFacts | None

    # Pairing's own definitions (models.Pairing.is_bye, .resolved).
    is_bye = property(lambda self: self.player_b_id is None)
    resolved = property(
        lambda self: self.is_bye or (self.match is not None and self.match.overruled)
    )


_PAIRING_FACTS = (
    "pk",
    "table",
    "player_a__player__name",
    "player_b_id",
    "player_b__player__name",
    "reason",
    "match_id",
    "plays_until",
    "extra_hands",
    "match__state",
    "match__winner",
    "match__games_won_a",
    "match__games_won_b",
    "match__decided_by",
    "match__decision_reason",
    "match__updated_at",
)


def table_facts(round: Round) -> list[TableRow]:
    """`tables(round)` with PairingFacts for pairings, in plain values (3 queries, 4 once
    time is called): what the dashboard's poll reads of every table."""
    pairings = []
    for values in round.pairings.order_by("position").values_list(*_PAIRING_FACTS):
        *own, match_id, plays_until, extra_hands = values[:9]
        match = MatchFacts(match_id, *values[9:]) if match_id is not None else None
        pairings.append(PairingFacts(*own, match_id, plays_until, extra_hands, match))
    return _table_rows(round, pairings)


def projector_rows(round: Round) -> list[dict[str, Any]]:
    """What the projector shows of each table (number, names, games won), as plain values
    in one query: it is polled in every hall, and the table states of `tables` are not on
    it."""
    return list(
        round.pairings.order_by("position").values(
            "table",
            "player_a__player__name",
            "player_b_id",
            "player_b__player__name",
            "match__games_won_a",
            "match__games_won_b",
        )
    )


@dataclass
class RoundView:
    """A round with its clock and its tables, as the API answers it."""

    round: Round
    clock: Clock
    tables: list[TableRow]


def round_view(round: Round) -> RoundView:
    return RoundView(round, clock(round), tables(round))


@dataclass(frozen=True)
class PlayerSeat:
    name: str
    table: int | None
    opponent: str | None  # None: a bye


def seats_by_name(rows: list[TableRow]) -> list[PlayerSeat]:
    """Every player of a round A to Z with their table and opponent, so each finds
    their seat without reading every table (as card-game events post them)."""
    seats = []
    for row in rows:
        p = row.pairing
        a = p.player_a.player.name
        b = p.player_b.player.name if p.player_b else None
        seats.append(PlayerSeat(a, p.table, b))
        if b is not None:
            seats.append(PlayerSeat(b, p.table, a))
    return sorted(seats, key=lambda seat: seat.name.casefold())


# ------------------------------------------------------------------------ table links


def table_path(match: Match) -> str:
    """The signed, expiring link that opens a match's entry page (ginclub.permissions)."""
    return reverse("scoring:table", args=[table_token(match)])


def qr_svg(url: str, *, scale: int = 4) -> str:
    """An inline SVG QR code for `url` (table cards)."""
    return segno.make(url, error="m").svg_inline(scale=scale)
