"""The values the pairing functions take and return.

Terms:

- **entrant**: a registered, non-withdrawn player as the pairing sees them, identified
  by their registration id.
- **rank**: position in the current standings, 1 being the best; before round 1 the
  seed order.
- **score**: match wins so far; a bye counts as a win.
- **pair**: two entrants who play each other this round, or one entrant and a bye.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Entrant:
    """One registered, non-withdrawn player, as the pairing sees them.

    ``byes`` is how many byes they have had, when known; ``had_bye`` alone is enough
    for the first-bye rule, ``byes`` keeps later byes fair in long events on odd fields.
    """

    id: int
    rank: int
    score: int
    opponents: frozenset[int] = frozenset()
    had_bye: bool = False
    byes: int = 0

    @property
    def bye_count(self) -> int:
        return max(self.byes, int(self.had_bye))


@dataclass(frozen=True)
class Pair:
    """``a`` is the higher-ranked (or seeded) player; ``b`` is None for a bye."""

    a: int
    b: int | None
    reason: str
