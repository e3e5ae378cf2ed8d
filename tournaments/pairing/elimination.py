"""Single-elimination brackets."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.values import Pair


def bracket_size(n: int) -> int:
    """The smallest power of two that holds ``n`` players."""
    raise NotImplementedError


def elimination_round(seeds: Sequence[int]) -> list[Pair]:
    """The first round of a seeded bracket; ``seeds[0]`` is seed 1."""
    raise NotImplementedError


def next_elimination_round(winners: Sequence[int]) -> list[Pair]:
    """The next round from the previous round's winners, in bracket order."""
    raise NotImplementedError
