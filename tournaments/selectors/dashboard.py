"""The organiser's view of a round: every table and its state, cheap to poll (3 queries,
4 once time is called).

Terms:
    counts       the tables by state; after time is called, the play counts: unfinished
                 tables finishing the hand in play, playing on extra time, or out of time.
    can close    the round is published and every table is finished (or a bye).
    deferred     what the dashboard never reads of a table (DASHBOARD_DEFERRED).
    facts        the poll reads the tables as plain values (PairingFacts) and the
                 Pairings of only the rows that moved (shown_pairings).
    hall         the dense view of a big hall: one line a table, narrowed to one state
                 (HALL_STATES; "after_time": tables still playing after time was called;
                 "calling": tables whose call for staff waits)
                 or to a search (a table number, or part of a player's name).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from tournaments.models import Pairing, Round
from tournaments.selectors.clock import Clock, clock
from tournaments.selectors.tables import TableRow, TableState, table_facts, tables


@dataclass
class Dashboard:
    round: Round
    clock: Clock
    tables: list[TableRow]

    @property
    def counts(self) -> dict[str, int]:
        counts = {
            state: 0
            for state in (
                TableState.PLAYING,
                TableState.PENDING,
                TableState.DISPUTED,
                TableState.FINISHED,
                TableState.BYE,
            )
        }
        for row in self.tables:
            counts[row.state] += 1
        return counts

    @property
    def can_close(self) -> bool:
        return self.round.state == Round.State.PUBLISHED and all(
            row.state in (TableState.FINISHED, TableState.BYE) for row in self.tables
        )

    @property
    def play_counts(self) -> dict[str, int]:
        """After time is called: unfinished tables still finishing the hand in play,
        playing on extra time, or whose time is up (the policy decides them)."""
        counts = {"last_hand": 0, "extended": 0, "time_up": 0}
        for row in self.tables:
            if row.plays_after_the_call:
                counts[row.play.state] += 1
        return counts

    @property
    def calling(self) -> int:
        """The tables whose call for staff waits (open or taken)."""
        return sum(1 for row in self.tables if row.call)

    @property
    def disputes(self) -> list[TableRow]:
        return [row for row in self.tables if row.state == TableState.DISPUTED]

    @property
    def hall_counts(self) -> dict[str, int]:
        """The tables in each of the hall view's filters (HALL_STATES)."""
        return {state: len(hall_rows(self.tables, state=state)) for state in HALL_STATES}


# The hall view's filters, in the order it lists them. A table finishing after time is
# also playing, pending or disputed: it counts in both.
AFTER_TIME = "after_time"
# A table whose call for staff waits (open or taken): in its state's filter too.
CALLING = "calling"
HALL_STATES = (
    CALLING,
    TableState.PLAYING,
    TableState.PENDING,
    TableState.DISPUTED,
    AFTER_TIME,
    TableState.FINISHED,
)


def _folded(text: str) -> str:
    """`text` without case or accents, so "nicolo" finds Niccolò."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def hall_rows(rows: list[TableRow], *, state: str = "", search: str = "") -> list[TableRow]:
    """The rows (of PairingFacts, `dashboard_facts`) in the filter `state` (one of
    HALL_STATES, or "" for every table) whose table number is `search` or whose players'
    names contain it (case and accents ignored)."""
    wanted = _folded(search.strip())
    found = []
    for row in rows:
        if state == AFTER_TIME and not row.plays_after_the_call:
            continue
        if state == CALLING and not row.call:
            continue
        if state and state not in (AFTER_TIME, CALLING) and row.state != state:
            continue
        if wanted and not _found(row.pairing, wanted):
            continue
        found.append(row)
    return found


def _found(pairing, wanted: str) -> bool:
    if wanted.isdigit() and pairing.table is not None and int(wanted) == pairing.table:
        return True
    names = (pairing.player_a_name, pairing.player_b_name or "")
    return any(wanted in _folded(name) for name in names)


# What the dashboard never shows of a table: each match's rule profile (JSON, parsed for
# every row) and the rows' creation times and PIN hashes. Leaving them out takes a
# 256-table round's `tables` from about 29 to 25 ms (fastest of 30, in-process).
# tests/tournaments/test_standings.py counts the poll's queries: a row reading one of
# them would add a query per table.
DASHBOARD_DEFERRED = (
    "match__rules",
    "match__created_at",
    "player_a__created_at",
    "player_b__created_at",
    "player_a__player__created_at",
    "player_b__player__created_at",
    "player_a__player__pin_hash",
    "player_b__player__pin_hash",
)


def dashboard(round: Round) -> Dashboard:
    """The organiser's view of a round: every table and its state, cheap to poll."""
    return Dashboard(round, clock(round), tables(round, defer=DASHBOARD_DEFERRED))


def dashboard_facts(round: Round) -> Dashboard:
    """`dashboard(round)` whose tables' pairings are PairingFacts: enough for its counts
    and for the keys of the rows the page keeps (tournaments.views.rounds.board_rows),
    which reads the Pairings of the rows that moved (`shown_pairings`)."""
    return Dashboard(round, clock(round), table_facts(round))


def shown_pairings(round: Round, ids: list[int]) -> dict[int, Pairing]:
    """{id: Pairing} of the round's pairings `ids`, with what a dashboard row shows of
    them (players, match) and nothing it does not (DASHBOARD_DEFERRED), in one query."""
    found = (
        round.pairings.filter(pk__in=ids)
        .select_related("player_a__player", "player_b__player", "match")
        .defer(*DASHBOARD_DEFERRED)
    )
    return {pairing.pk: pairing for pairing in found}
