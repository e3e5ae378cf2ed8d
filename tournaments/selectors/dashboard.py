"""The organiser's view of a round: every table and its state, cheap to poll (3 queries,
4 once time is called).

Terms:
    counts       the tables by state; after time is called, the play counts: unfinished
                 tables finishing the hand in play, playing on extra time, or out of time.
    can close    the round is published and every table is finished (or a bye).
    deferred     what the dashboard never reads of a table (DASHBOARD_DEFERRED).
    facts        the poll reads the tables as plain values (PairingFacts) and the
                 Pairings of only the rows that moved (shown_pairings).
"""

from __future__ import annotations

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
    def disputes(self) -> list[TableRow]:
        return [row for row in self.tables if row.state == TableState.DISPUTED]


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
