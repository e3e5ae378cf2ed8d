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
    (r) rlcard's best deadwood           the same 10-card hands through rlcard's gin rummy
                                         (`melding.get_best_meld_clusters`, then
                                         `utils.get_deadwood_count`, as its round scores
                                         a hand), when rlcard is installed (the `bench`
                                         extras); the answers are checked equal first
    --before REV                         the engine as it was at git revision REV, timed in
                                         the same process on the same hands, (a) and (c)
                                         taking turns hand by hand with the engine as it is

Hands come from one fixed seed. Random 10-card hands are rarely legal knocks (about 1 in
250 even after the best discard of 11), so (c) plays hands out: each deal gives both
players 10 cards, they take turns drawing from the stock and throwing the card that
leaves the least deadwood, and the first whose 10 cards are down to 10 or less knocks;
a deal that reaches the last 2 stock cards is a dead hand and is skipped. Both hands are
therefore meld-rich, as at a real table. The deals are made before any timing starts,
and every call is timed on its own with perf_counter_ns (the ~0.1 µs timer cost included).
Everything runs in one process; pass --cpu N to pin it to one core. The header says
whether the engine's deadwood search runs compiled by mypyc (setup.py) or as pure Python.

Every figure is printed per round (--rounds, 3 by default): on a machine shared with other
work the rounds show how much the load moves them. The load average is printed too.

Run: .venv/bin/python benchmarks/bench_rules.py [--hands 10000] [--seed 2] [--cpu 0]
     [--rounds 3] [--before REV]
(`make bench` runs it with the defaults; `pip install -e '.[bench]'` brings rlcard.)
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import random
import subprocess
import sys
import tempfile
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
from scoring.rules import deadwood as engine_search  # noqa: E402


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


def timed_pair(call, inputs, other_call, other_inputs) -> tuple[list[int], list[int]]:
    """Like `timed`, for two calls taking turns input by input, so that both meet the
    same moments of a busy machine."""
    clock = time.perf_counter_ns
    out, other = [], []
    for item, other_item in zip(inputs, other_inputs, strict=True):
        start = clock()
        call(item)
        middle = clock()
        other_call(other_item)
        out.append(middle - start)
        other.append(clock() - middle)
    return out, other


def summary(name: str, samples: list[int]) -> str:
    ordered = sorted(samples)
    count = len(ordered)
    median = ordered[count // 2] / 1000
    p95 = ordered[min(count - 1, int(count * 0.95))] / 1000
    return f"{name:<34} median {median:8.2f} µs   p95 {p95:8.2f} µs   (n={count})"


def load_before(revision: str):
    """The rules engine as it was at a git revision, importable beside today's: its files
    written to a temporary package whose imports name it instead of scoring.rules."""
    names = subprocess.run(
        ["git", "ls-tree", "--name-only", f"{revision}:scoring/rules"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    folder = Path(tempfile.mkdtemp(prefix="rules-before-"))
    package = folder / "rules_before"
    package.mkdir()
    for name in names:
        if name.endswith(".py"):
            text = subprocess.run(
                ["git", "show", f"{revision}:scoring/rules/{name}"],
                cwd=ROOT,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            (package / name).write_text(text.replace("scoring.rules", "rules_before"))
    sys.path.insert(0, str(folder))
    return importlib.import_module("rules_before")


def rlcard_deadwood():
    """rlcard's best deadwood of 10 cards, and how to turn our cards into its cards; None
    when rlcard is not installed."""
    try:
        from rlcard.games.base import Card as RLCard
        from rlcard.games.gin_rummy.utils import melding, utils
    except ImportError:
        return None
    theirs = {card: RLCard(suit=card.suit, rank=str(card)[0]) for card in DECK}

    def deadwood(hand: list) -> int:
        clusters = melding.get_best_meld_clusters(hand=hand)
        return utils.get_deadwood_count(hand=hand, meld_cluster=clusters[0] if clusters else [])

    return deadwood, lambda cards: [theirs[card] for card in cards]


def engine_build() -> str:
    """Whether the deadwood search (and the cards) run compiled by mypyc (setup.py)."""
    if engine_search.__file__.endswith(".py"):
        return "engine pure Python (not compiled)"
    return f"engine compiled by mypyc ({Path(engine_search.__file__).name})"


def median_us(samples: list[int]) -> float:
    return sorted(samples)[len(samples) // 2] / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--cpu", type=int, default=None, help="pin to this core")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", default=None, help="also time the engine at this git rev")
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

    before = load_before(args.before) if args.before else None
    if before is not None:
        old_profile = before.make_profile("standard")
        old_tens = [tuple(before.DECK[c.index] for c in hand) for hand in tens]
        old_knocks = [
            (tuple(before.DECK[c.index] for c in k), tuple(before.DECK[c.index] for c in d))
            for k, d in knocks
        ]

        def old_score(deal):
            return before.score_cards(knocker=deal[0], defender=deal[1], profile=old_profile)

        for deal, old_deal in zip(knocks, old_knocks, strict=True):
            assert score(deal).as_dict() == old_score(old_deal).as_dict(), deal
    rl = rlcard_deadwood()
    if rl is not None:
        rl_deadwood, to_rlcard = rl
        rl_tens = [to_rlcard(hand) for hand in tens]
        for hand, theirs in zip(tens, rl_tens, strict=True):
            assert best_deadwood(hand) == rl_deadwood(theirs), hand

    timed(best_deadwood, tens[:500])  # warm-up
    timed(score, knocks[:500])

    print(
        f"ginclub rules engine benchmark: Python {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} cores, one process, seed {args.seed}, "
        f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}, {engine_build()}"
    )
    if rl is None:
        print("(r) rlcard is not installed: pip install -e '.[bench]' to time it beside (a)")
    for round_ in range(1, args.rounds + 1):
        print(f"-- round {round_}")
        if before is not None:
            old, ours = timed_pair(before.best_deadwood, old_tens, best_deadwood, tens)
        else:
            ours = timed(best_deadwood, tens)
        print(summary("(a) best deadwood, 10 cards", ours))
        if before is not None:
            print(summary("(a) before: best deadwood", old))
        if rl is not None:
            theirs = timed(rl_deadwood, rl_tens)
            print(summary("(r) rlcard's best deadwood", theirs))
            ratio = median_us(theirs) / median_us(ours)
            print(f"    ours is {ratio:.1f}x faster than rlcard's (medians, goal 30x)")
        print(
            summary("(b) best discard, 11 cards", timed(lambda h: analyse_eleven(h, 10), elevens))
        )
        if before is not None:
            old, ours = timed_pair(old_score, old_knocks, score, knocks)
            print(summary("(c) full hand score, card entry", ours))
            print(summary("(c) before: full hand score", old))
        else:
            print(summary("(c) full hand score, card entry", timed(score, knocks)))
        print(summary("(c') the same from card text", timed(score_text, texts)))
        print(f"   load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    results = [score(deal) for deal in knocks]
    outcomes = Counter(r.outcome.value for r in results)
    with_layoffs = sum(1 for r in results if r.laid_off)
    print(
        f"(c) hands: {len(knocks)} legal knocks from {deals} deals; "
        + ", ".join(f"{name} {n}" for name, n in sorted(outcomes.items()))
        + f"; lay-offs in {with_layoffs}"
        + ("; same results as before" if before is not None else "")
    )


if __name__ == "__main__":
    main()
