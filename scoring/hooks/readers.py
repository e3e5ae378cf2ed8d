"""Readers: what the apps above scoring tell it for its pages (scoring.hooks has the
terms). They answer questions and change nothing.

    match clock     a match played in a tournament round shows the round's clock on the
                    table's scoreboard. The tournaments app registers a function that
                    answers, for a match, the clock of its round (or None), and the
                    relations that let the match's own query read it (one query a poll).
    match places    where a match is played, in words ("Demo Open · round 2, table 3"),
                    for lists of matches (the home page). The tournaments app answers for
                    many match ids in one query.
    match place     one match's place, for its own page: the words, and the page of that
                    event a viewer may open to link them to, chosen by the tournaments app
                    by the viewer's permissions (no path: no page of the event is theirs
                    to open). Both from one read.
    player events   the events a player played in, with their record in each, for the
                    player's page (scoring.stats). The tournaments app answers in a few
                    queries.
    match events    which event each match is played in, so a phone that proved a player
                    at one table of an event sits for them at their next one (issue 23).
    next table      where a player goes once their match is over: their page of the event
                    (My event) and their next match there, once it is published.
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
class MatchPlace:
    """Where one match is played (match place hook): in words ("Demo Open · round 2,
    table 3"), and the path of the event's page the viewer may open (None: none)."""

    words: str
    path: str | None = None


MatchPlaceFinder = Callable[[Any, Any], "MatchPlace | None"]
_match_place: list[MatchPlaceFinder] = []


def register_match_place(find: MatchPlaceFinder) -> None:
    """`find(match, actor)` returns the MatchPlace of `match` for `actor`, or None (a
    match played in no event)."""
    if find not in _match_place:
        _match_place.append(find)


def match_place(match: Any, actor: Any) -> MatchPlace | None:
    for find in _match_place:
        found = find(match, actor)
        if found is not None:
            return found
    return None


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


MatchEvents = Callable[[list[int]], dict[int, Any]]
_match_events: list[MatchEvents] = []


def register_match_events(find: MatchEvents) -> None:
    """`find(match_ids)` returns {match id: a key of the event it is played in} for the
    matches it knows (in one query)."""
    if find not in _match_events:
        _match_events.append(find)


def match_events(match_ids: list[int]) -> dict[int, Any]:
    """{match id: event key}; a match played in no event is missing."""
    events: dict[int, Any] = {}
    for find in _match_events:
        events.update(find(list(match_ids)))
    return events


@dataclass(frozen=True)
class NextTable:
    """Where a player goes once a match of an event is over (next table hook): the
    event's page for them (None when the public may not open it), and their next match
    in the event with its place in words ("Round 2, table 3 v Bob"), None until it is
    published."""

    event_path: str | None
    match_id: int | None = None
    words: str = ""


NextTableFinder = Callable[[int, int], "NextTable | None"]
_next_tables: list[NextTableFinder] = []


def register_next_table(find: NextTableFinder) -> None:
    """`find(match_id, player_id)` returns the player's NextTable after that match, or
    None when the match is played in no event."""
    if find not in _next_tables:
        _next_tables.append(find)


def next_table(match_id: int, player_id: int) -> NextTable | None:
    for find in _next_tables:
        found = find(match_id, player_id)
        if found is not None:
            return found
    return None
