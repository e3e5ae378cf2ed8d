"""Hooks through which apps built on scoring add to its pages, so scoring imports none
of them (dependencies run one way: tournaments → scoring → ginclub).

    match clock   a match played in a tournament round shows the round's clock on the
                  table's scoreboard. The tournaments app registers a function that
                  answers, for a match id, the clock of its round (or None).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

MatchClock = Callable[[int], Any]
_match_clocks: list[MatchClock] = []


def register_match_clock(find: MatchClock) -> None:
    """`find(match_id)` returns an object with `ends_at`, `time_called` and
    `seconds_left`, or None when the match is not played against a clock."""
    if find not in _match_clocks:
        _match_clocks.append(find)


def match_clock(match_id: int) -> Any:
    for find in _match_clocks:
        found = find(match_id)
        if found is not None:
            return found
    return None
