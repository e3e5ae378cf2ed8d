"""A simulated Swiss event for the pairing tests: pairs a round, plays it, repeats."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tournaments.pairing import Entrant, Pair


@dataclass
class Event:
    """Scores, opponents and byes of players 1..n; results drawn from ``seed``.

    Player strength falls with the id, and the stronger player wins 65% of matches, so
    score groups look like a real event's rather than a coin-flip's.
    """

    n: int
    seed: int = 0
    scores: dict[int, int] = field(default_factory=dict)
    met: dict[int, set[int]] = field(default_factory=dict)
    byes: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        for p in range(1, self.n + 1):
            self.scores[p], self.met[p], self.byes[p] = 0, set(), 0

    def entrants(self) -> list[Entrant]:
        order = sorted(self.scores, key=lambda p: (-self.scores[p], p))
        return [
            Entrant(
                id=p,
                rank=rank,
                score=self.scores[p],
                opponents=frozenset(self.met[p]),
                had_bye=self.byes[p] > 0,
                byes=self.byes[p],
            )
            for rank, p in enumerate(order, start=1)
        ]

    def play(self, pairs: list[Pair]) -> None:
        for pair in pairs:
            if pair.b is None:
                self.scores[pair.a] += 1
                self.byes[pair.a] += 1
                continue
            self.met[pair.a].add(pair.b)
            self.met[pair.b].add(pair.a)
            strong, weak = sorted((pair.a, pair.b))
            self.scores[strong if self.rng.random() < 0.65 else weak] += 1
