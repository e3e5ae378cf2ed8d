"""Guards: what the apps above scoring may refuse, asked before the change commits (a
refusal is a ginclub.errors refusal, and the whole change is rolled back).

    result guard    a change to a match's result (a correction, a void, any hand action
                    that moves the games won, points or winner) may matter beyond the
                    match: in a closed tournament round it moves standings other rounds
                    were paired from. After the services recompute a match, and before
                    they commit, they hand the result before and after to every guard;
                    a guard refuses, or returns a plain, JSON-ready description of what
                    the change does where it looks (None: nothing). The services write
                    each description to the match's ledger and return it to the caller,
                    so a preview shows it too.
    result lock     organisers' corrections and voids first take whatever lock the app
                    above needs to read its own state steadily (the tournament's row),
                    before scoring locks the match, in the order its own services lock.
    play gate       whether a new hand may start at a match's table. After time is called
                    in a tournament round, each table finishes the hand in play and no
                    new hand may start (docs/rules.md §13). The tournaments app answers,
                    for a match id, a PlayNote: may a new hand start, and the words the
                    phones show (and a refused hand's message). submit_hand asks before
                    it records a new hand, inside its transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ResultChange:
    """A match's result before and after one hand action, inside its transaction.

    `before` and `after` are scoring.services.results.result_of() dicts: state, winner
    ("A", "B" or None), games_won and points per seat. `action` is the ledger action of
    the change (hand_corrected, hand_voided, hand_confirmed...), `hand` says which hand
    ("hand 3 of game 2")."""

    match_id: int
    action: str
    hand: str
    before: dict[str, Any]
    after: dict[str, Any]


ResultGuard = Callable[[ResultChange], "dict[str, Any] | None"]
ResultLock = Callable[[int], None]
_result_guards: list[ResultGuard] = []
_result_locks: list[ResultLock] = []


def register_result_guard(guard: ResultGuard) -> None:
    """`guard(change)` raises a refusal, or returns a description (or None)."""
    if guard not in _result_guards:
        _result_guards.append(guard)


def register_result_lock(lock: ResultLock) -> None:
    """`lock(match_id)` takes, inside the caller's transaction, the locks the app needs
    before a correction or void of that match."""
    if lock not in _result_locks:
        _result_locks.append(lock)


def guard_result_change(change: ResultChange) -> list[dict[str, Any]]:
    """Every guard's description of `change`; a guard's refusal propagates."""
    return [found for guard in _result_guards if (found := guard(change)) is not None]


def lock_for_result_change(match_id: int) -> None:
    for lock in _result_locks:
        lock(match_id)


@dataclass(frozen=True)
class PlayNote:
    """What the app above says about play at a match's table: `may_start` a new hand or
    not, and `words` for the phones ("Time was called at 15:40: ..."), which are also the
    refusal's message when a new hand may not start."""

    may_start: bool
    words: str


PlayGate = Callable[[Any], "PlayNote | None"]
_play_gates: list[PlayGate] = []


def register_play_gate(gate: PlayGate) -> None:
    """`gate(match)` returns a PlayNote, or None when it has nothing to say; `match` is a
    Match or its id (a Match read with `match_clock_related` lets it answer, for a table
    where time was not called, without a query of its own)."""
    if gate not in _play_gates:
        _play_gates.append(gate)


def play_note(match: Any) -> PlayNote | None:
    """The first note that stops play, else the first that says anything (or None);
    `match` is a Match or its id."""
    notes = [note for gate in _play_gates if (note := gate(match)) is not None]
    return next((n for n in notes if not n.may_start), notes[0] if notes else None)
