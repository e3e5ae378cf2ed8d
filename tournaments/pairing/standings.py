"""Tournament standings: match wins, then ordered tie-breaks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

TIEBREAKS = ("head_to_head", "game_win_pct", "opponents_match_win_pct", "margin", "points")
DEFAULT_TIEBREAKS = TIEBREAKS


@dataclass(frozen=True)
class MatchRecord:
    """One finished match, or a bye (``b`` None, ``winner`` == ``a``)."""

    a: int
    b: int | None
    winner: int | None
    games_a: int
    games_b: int
    points_a: int
    points_b: int


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings."""

    id: int
    rank: int
    matches: int
    match_wins: int
    games_won: int
    games_played: int
    game_win_pct: float
    opponents_match_win_pct: float
    margin: int
    points: int
    head_to_head: str
    tiebreaks: dict[str, float] = field(default_factory=dict)


def compute_standings(
    ids: Sequence[int],
    records: Sequence[MatchRecord],
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
) -> list[Standing]:
    """Standings of the players ``ids`` from the finished ``records``."""
    raise NotImplementedError
