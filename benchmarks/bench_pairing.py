"""Benchmarks for the pure pairing package (tournaments/pairing), issue 4's Scale section.

1. Pairing a Swiss round of 512 players (goal: 2 s) in the middle and late part of an
   event: a simulated event is paired and played round by round (the stronger player
   wins 65% of matches, so score groups and opponent histories look real), and every
   round's pairing is timed; rounds 5 to 8 are the ones paired after 4 to 7 rounds.
   The same for 511 players, where the bye is chosen too.
   With ``--fallbacks``, also the graphs tried when the window graph has no perfect
   matching (wider window, full graph), timed on the 512-player round 8 (slow: ~30 s).
2. Standings of a 256-player, 8-round Swiss event (goal for the whole page: 100 ms),
   pure computation from match records with game scores and points.

Run: .venv/bin/python benchmarks/bench_pairing.py [--seed 2024] [--repeat 3] [--fallbacks]
The figures are the median of ``--repeat`` timings of the same input.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.pairing import (  # noqa: E402
    Entrant,
    MatchRecord,
    Pair,
    compute_standings,
    pair_swiss,
)
from tournaments.pairing.matching import (  # noqa: E402
    WIDEN,
    WINDOW,
    all_edges,
    field_order,
    solve,
    window_edges,
)


class Event:
    """Players 1..n (strength falls with the id), their scores, opponents and byes."""

    def __init__(self, n: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.scores = dict.fromkeys(range(1, n + 1), 0)
        self.met: dict[int, set[int]] = {p: set() for p in self.scores}
        self.byes = dict.fromkeys(self.scores, 0)
        self.records: list[MatchRecord] = []

    def entrants(self) -> list[Entrant]:
        order = sorted(self.scores, key=lambda p: (-self.scores[p], p))
        return [
            Entrant(p, rank, self.scores[p], frozenset(self.met[p]), self.byes[p] > 0)
            for rank, p in enumerate(order, start=1)
        ]

    def play(self, pairs: tuple[Pair, ...]) -> None:
        for pair in pairs:
            if pair.b is None:
                self.scores[pair.a] += 1
                self.byes[pair.a] += 1
                self.records.append(MatchRecord(pair.a, None, pair.a, 3, 0, 250, 0))
                continue
            self.met[pair.a].add(pair.b)
            self.met[pair.b].add(pair.a)
            winner = min(pair.a, pair.b) if self.rng.random() < 0.65 else max(pair.a, pair.b)
            self.scores[winner] += 1
            self.records.append(self._record(pair.a, pair.b, winner))

    def _record(self, a: int, b: int, winner: int) -> MatchRecord:
        lost = self.rng.choice((0, 1, 2))
        won_points, lost_points = self.rng.randint(600, 900), self.rng.randint(50, 650)
        if winner == a:
            return MatchRecord(a, b, a, 3, lost, won_points, lost_points)
        return MatchRecord(a, b, b, lost, 3, lost_points, won_points)


def median_seconds(work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_swiss(players: int, rounds: int, seed: int, repeat: int) -> None:
    event = Event(players, seed)
    print(f"Swiss pairing, {players} players (median of {repeat}):")
    for number in range(1, rounds + 1):
        entrants = event.entrants()
        seconds = median_seconds(lambda e=entrants: pair_swiss(e), repeat)
        result = pair_swiss(entrants)
        groups = len({e.score for e in entrants})
        print(
            f"  round {number}: {seconds * 1000:7.0f} ms  ({groups} score groups, "
            f"graph {result.graph}, rematches {result.rematches})"
        )
        event.play(result.pairs)


def bench_fallbacks(players: int, seed: int) -> None:
    event = Event(players, seed)
    for _ in range(7):
        event.play(pair_swiss(event.entrants()).pairs)
    field = field_order(event.entrants())
    graphs = {
        f"window of {WIDEN * WINDOW}": window_edges(field, WIDEN * WINDOW),
        "full rematch-free graph": all_edges(field, rematches=False),
    }
    for name, edges in graphs.items():
        seconds = median_seconds(lambda edges=edges: solve(field, edges), 1)
        print(f"Fallback, {players} players, round 8, {name}: {seconds:.1f} s")


def bench_standings(players: int, rounds: int, seed: int, repeat: int) -> None:
    event = Event(players, seed)
    for _ in range(rounds):
        event.play(pair_swiss(event.entrants()).pairs)
    ids = list(event.scores)
    seconds = median_seconds(lambda: compute_standings(ids, event.records), repeat)
    print(
        f"Standings, {players} players x {rounds} rounds ({len(event.records)} records): "
        f"{seconds * 1000:.1f} ms (median of {repeat})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--fallbacks", action="store_true")
    args = parser.parse_args()
    bench_swiss(512, 8, args.seed, args.repeat)
    bench_swiss(511, 8, args.seed, args.repeat)
    bench_standings(256, 8, args.seed, max(args.repeat, 5))
    if args.fallbacks:
        bench_fallbacks(512, args.seed)


if __name__ == "__main__":
    main()
