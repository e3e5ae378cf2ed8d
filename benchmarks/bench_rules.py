"""Rules engine benchmark (issue 2 §5): median and p95 per operation, in µs.

    (a) best deadwood of 10 cards        `best_deadwood`, on 10,000 random 10-card hands
    (b) best discard of 11 cards         `analyse_eleven` (knock limit 10): the deadwood of
                                         all 11, of each of the 11 discards, the best, knock
                                         and gin discards, big gin; 10,000 random 11-card hands
    (c) full card-entry hand scoring     `score_cards` under the standard profile: both hands
                                         checked, the knocker's spread chosen (best net result
                                         against the defender's best reply), the defender's
                                         melds and lay-offs chosen jointly, the explanation;
                                         10,000 legal knocks
    (c') the same from card text         `parse_cards` of both hands, then (c)

Hands come from one fixed seed. Random 10-card hands are rarely legal knocks (about 1 in
250 even after the best discard of 11), so (c) plays hands out: each deal gives both
players 10 cards, they take turns drawing from the stock and throwing the card that
leaves the least deadwood, and the first whose 10 cards are down to 10 or less knocks;
a deal that reaches the last 2 stock cards is a dead hand and is skipped. Both hands are
therefore meld-rich, as at a real table. The deals are made before any timing starts,
and every call is timed on its own with perf_counter_ns (the ~0.1 µs timer cost included).
Everything runs in one process; pass --cpu N to pin it to one core.

Run: .venv/bin/python benchmarks/bench_rules.py [--hands 10000] [--seed 2] [--cpu 0]
(`make bench` runs it with the defaults.)
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scoring.rules import (  # noqa: E402
    DECK,
    analyse_eleven,
    best_deadwood,
    make_profile,
    parse_cards,
    score_cards,
)


def best_throw(eleven: list) -> tuple[int, int]:
    """(deadwood left, index) of the discard that leaves the least deadwood."""
    return min((best_deadwood(eleven[:i] + eleven[i + 1 :]), i) for i in range(11))


def play_knocks(rng: random.Random, count: int) -> tuple[list[tuple], int]:
    """`count` legal knocks (knocker's 10, defender's 10) played out by greedy self-play,
    and how many deals it took (the rest ended as dead hands)."""
    knocks, deals = [], 0
    while len(knocks) < count:
        deals += 1
        deck = rng.sample(DECK, 52)
        hands, stock = [deck[:10], deck[10:20]], deck[20:]
        turn = 0
        while len(stock) > 2:
            eleven = hands[turn] + [stock.pop()]
            deadwood, throw = best_throw(eleven)
            hands[turn] = eleven[:throw] + eleven[throw + 1 :]
            if deadwood <= 10:
                knocks.append((tuple(hands[turn]), tuple(hands[1 - turn])))
                break
            turn = 1 - turn
    return knocks, deals


def timed(call, inputs) -> list[int]:
    clock = time.perf_counter_ns
    out = []
    for item in inputs:
        start = clock()
        call(item)
        out.append(clock() - start)
    return out


def summary(name: str, samples: list[int]) -> str:
    ordered = sorted(samples)
    count = len(ordered)
    median = ordered[count // 2] / 1000
    p95 = ordered[min(count - 1, int(count * 0.95))] / 1000
    return f"{name:<34} median {median:8.2f} µs   p95 {p95:8.2f} µs   (n={count})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--cpu", type=int, default=None, help="pin to this core")
    args = parser.parse_args()
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    rng = random.Random(args.seed)
    tens = [tuple(rng.sample(DECK, 10)) for _ in range(args.hands)]
    elevens = [tuple(rng.sample(DECK, 11)) for _ in range(args.hands)]
    knocks, deals = play_knocks(rng, args.hands)
    texts = [([str(c) for c in k], [str(c) for c in d]) for k, d in knocks]
    profile = make_profile("standard")

    def score(deal):
        return score_cards(knocker=deal[0], defender=deal[1], profile=profile)

    def score_text(deal):
        return score_cards(
            knocker=parse_cards(deal[0]), defender=parse_cards(deal[1]), profile=profile
        )

    timed(best_deadwood, tens[:500])  # warm-up
    timed(score, knocks[:500])

    print(
        f"ginclub rules engine benchmark: Python {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} cores, one process, seed {args.seed}"
    )
    print(summary("(a) best deadwood, 10 cards", timed(best_deadwood, tens)))
    print(summary("(b) best discard, 11 cards", timed(lambda h: analyse_eleven(h, 10), elevens)))
    print(summary("(c) full hand score, card entry", timed(score, knocks)))
    print(summary("(c') the same from card text", timed(score_text, texts)))
    results = [score(deal) for deal in knocks]
    outcomes = Counter(r.outcome.value for r in results)
    with_layoffs = sum(1 for r in results if r.laid_off)
    print(
        f"(c) hands: {len(knocks)} legal knocks from {deals} deals; "
        + ", ".join(f"{name} {n}" for name, n in sorted(outcomes.items()))
        + f"; lay-offs in {with_layoffs}"
    )


if __name__ == "__main__":
    main()
