"""Hooks through which apps built on scoring add to its pages and services, so scoring
imports none of them (dependencies run one way: tournaments → scoring → ginclub).

    match clock     a match played in a tournament round shows the round's clock on the
                    table's scoreboard. The tournaments app registers a function that
                    answers, for a match, the clock of its round (or None), and the
                    relations that let the match's own query read it (one query a poll).
    result guard    a change to a match's result (a correction, a void, any hand action
                    that moves the games won, points or winner) may matter beyond the
                    match: in a closed tournament round it moves standings other rounds
                    were paired from. After the services recompute a match, and before
                    they commit, they hand the result before and after to every guard;
                    a guard refuses (raises a ginclub.errors refusal, and the whole change
                    is rolled back) or returns a plain, JSON-ready description of what the
                    change does where it looks (None: nothing). The services write each
                    description to the match's ledger and return it to the caller, so a
                    preview shows it too.
    result lock     organisers' corrections and voids first take whatever lock the app
                    above needs to read its own state steadily (the tournament's row),
                    before scoring locks the match, in the order its own services lock.
    play gate       whether a new hand may start at a match's table. After time is called
                    in a tournament round, each table finishes the hand in play and no
                    new hand may start (docs/rules.md §13). The tournaments app answers,
                    for a match id, a PlayNote: may a new hand start, and the words the
                    phones show (and a refused hand's message). submit_hand asks before
                    it records a new hand, inside its transaction.
    match decision  how a match was decided above scoring (the time policy, an
                    organiser's result with its reason), for the players' phones.
    player events   the events a player played in, with their record in each, and the
                    matches whose results a viewer may not see yet, for the player's page
                    (scoring.stats). The tournaments app answers in a few queries.
    match places    where a match is played, in words ("Demo Open · round 2, table 3"),
                    for lists of matches (the home page). The tournaments app answers for
                    many match ids in one query.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

MatchClock = Callable[[Any], Any]
_match_clocks: list[MatchClock] = []
_clock_relations: list[str] = []


def register_match_clock(find: MatchClock, related: tuple[str, ...] = ()) -> None:
    """`find(match)` returns an object with `ends_at`, `time_called` and `seconds_left`
    (and, optionally, `table`: a plain value that changes when the table's own time
    does), or None when the match is not played against a clock. It is given a match id,
    or a Match.

    `related`: the relations of Match (select_related paths) `find` reads the clock
    from; a Match read with them (`match_clock_related`) lets `find` answer without a
    query of its own (the scoreboard poll's saving)."""
    if find not in _match_clocks:
        _match_clocks.append(find)
    _clock_relations.extend(path for path in related if path not in _clock_relations)


def match_clock_related() -> tuple[str, ...]:
    """What to select_related on a Match query so `match_clock` needs no query."""
    return tuple(_clock_relations)


def match_clock(match: Any) -> Any:
    """The clock a match is played against (None: none); `match` is a Match or its id."""
    for find in _match_clocks:
        found = find(match)
        if found is not None:
            return found
    return None


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


MatchPlaces = Callable[[list[int]], dict[int, str]]
_match_places: list[MatchPlaces] = []


def register_match_places(find: MatchPlaces) -> None:
    """`find(match_ids)` returns {match id: where it is played} for those it knows."""
    if find not in _match_places:
        _match_places.append(find)


def match_places(match_ids: list[int]) -> dict[int, str]:
    places: dict[int, str] = {}
    for find in _match_places:
        places.update(find(list(match_ids)))
    return places


@dataclass(frozen=True)
class PlayNote:
    """What the app above says about play at a match's table: `may_start` a new hand or
    not, and `words` for the phones ("Time was called at 15:40: ..."), which are also the
    refusal's message when a new hand may not start."""

    may_start: bool
    words: str


PlayGate = Callable[[int], "PlayNote | None"]
_play_gates: list[PlayGate] = []


def register_play_gate(gate: PlayGate) -> None:
    """`gate(match_id)` returns a PlayNote, or None when it has nothing to say."""
    if gate not in _play_gates:
        _play_gates.append(gate)


def play_note(match_id: int) -> PlayNote | None:
    """The first note that stops play, else the first that says anything (or None)."""
    notes = [note for gate in _play_gates if (note := gate(match_id)) is not None]
    return next((n for n in notes if not n.may_start), notes[0] if notes else None)


@dataclass(frozen=True)
class PlayerEvent:
    """An event a player played in, for their page (player events hook): its name, date
    and state in words, where to read it (a path), the player's record there (byes
    apart), and the player's matches in it."""

    name: str
    date: Any
    state: str
    path: str
    won: int
    lost: int
    drawn: int
    byes: int
    undecided: int
    match_ids: tuple[int, ...]
    # False while the event hides its latest results from this viewer (the organiser's
    # hiding options): the record is then not shown.
    record_shown: bool = True


@dataclass(frozen=True)
class PlayerEvents:
    """What the apps above scoring say of a player's history, for one viewer: the events
    it may open. (Which matches and results the viewer may see is ginclub.permissions'.)"""

    events: tuple[PlayerEvent, ...] = ()


PlayerEventsFinder = Callable[[int, Any], PlayerEvents]
_player_events: list[PlayerEventsFinder] = []


def register_player_events(find: PlayerEventsFinder) -> None:
    """`find(player_id, actor)` returns the PlayerEvents `actor` may see, in a fixed
    number of queries whatever the player's history."""
    if find not in _player_events:
        _player_events.append(find)


def player_events(player_id: int, actor: Any) -> PlayerEvents:
    events: list[PlayerEvent] = []
    for find in _player_events:
        events.extend(find(player_id, actor).events)
    return PlayerEvents(tuple(events))
