"""static/js/melds.js (the melds line under the card grid) held to the rules engine.

The phone finds melds itself so that the line works with no network; the engine stays
the authority. Here node runs melds.js on the worked hands of docs/rules.md and
tests/data/rules_cases.jsonl, then on 400 seeded random hands (0 to 11 cards, half from
the whole deck, half from ranks A to 6 where sets and runs fight over cards), and each
answer must have the engine's least deadwood and be a legal arrangement of the hand.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from scoring.rules import DECK, RulesError, best_deadwood, parse_cards
from tests.scoring.rules.checks import arrangement_problem, rank_of

ROOT = Path(__file__).resolve().parents[2]
MELDS_JS = ROOT / "static" / "js" / "melds.js"
CASES = ROOT / "tests" / "data" / "rules_cases.jsonl"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed: melds.js cannot be run outside a browser"
)

# Reads a JSON list of hands on stdin, prints melds.js's arrangement of each (null for
# a hand it refuses to search).
RUNNER = """
const melds = require(process.argv[1]);
let text = "";
process.stdin.on("data", (chunk) => { text += chunk; });
process.stdin.on("end", () => {
  process.stdout.write(JSON.stringify(JSON.parse(text).map(melds.arrange)));
});
"""

WORKED = [
    "5H 6H 7H 9C 9D 9S JS QS KS 2D",  # docs/rules.md §9: deadwood 2
    "8H 9H KD KC KH 3C 4C 5C AS 7D",
    "AC 2C 3C 7D 7H 7S TD JD QD 9S",
    "4C 5C KD 7C 8H 8C 8D 2S 3S 4S",
    "AC 2C 3C 4C 7H 7S 7D TD JD QD KD",  # big gin: 0
    "KS KH QC QD JS JH TC TD 9S 9H",  # the largest 10-card deadwood, 98
    "7S 8S 9S 7H 7D",  # the run wins: 7H + 7D = 14
    "3S 4S 5S 5H 5D",  # the set wins: 3S + 4S = 7
    "4S 5S 6S 7S 7H 7D 7C",  # four 7s and a run share 7S: 0 either way
    "QS KS AS 2S 3S",  # no K-A wrap: QS KS stay, 20
    "",
    "KD",
]


def run_melds_js(hands: list[list[str]]) -> list[dict | None]:
    done = subprocess.run(
        [NODE, "-e", RUNNER, str(MELDS_JS)],
        input=json.dumps(hands),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


def is_hand(texts: list[str]) -> bool:
    """Cards the engine reads, none twice (some cases are refusals on purpose)."""
    try:
        parse_cards(texts)
    except RulesError:
        return False
    return all(len(text) == 2 for text in texts)


def case_hands() -> list[list[str]]:
    """Every hand in the worked cases' inputs (hands, knockers, defenders)."""
    found = []

    def walk(value):
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            if 0 < len(value) <= 11 and is_hand(value):
                found.append(value)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for line in CASES.read_text(encoding="utf-8").splitlines():
        walk(json.loads(line)["input"])
    return found


def random_hands(count: int, seed: int = 11) -> list[list[str]]:
    rng = random.Random(seed)
    whole = [str(card) for card in DECK]
    dense = [card for card in whole if rank_of(card) <= 6]
    return [rng.sample(dense if i % 2 else whole, rng.randint(0, 11)) for i in range(count)]


def assert_like_the_engine(hands: list[list[str]]) -> None:
    answers = run_melds_js(hands)
    assert len(answers) == len(hands)
    for hand, answer in zip(hands, answers, strict=True):
        expected = best_deadwood(parse_cards(hand))
        assert answer["deadwood"] == expected, (hand, answer, expected)
        problem = arrangement_problem(hand, answer["melds"], answer["dead"], answer["deadwood"])
        assert problem is None, (hand, answer, problem)


def test_melds_js_finds_the_engines_deadwood_on_the_worked_hands():
    hands = [text.split() for text in WORKED] + case_hands()
    assert len(hands) > 40  # the cases file was read
    assert_like_the_engine(hands)
    # by hand: 5-6-7♥, 9♣ 9♦ 9♠ and J-Q-K♠ leave 2♦ = 2; the run 7-8-9♠ leaves 7♥ 7♦ = 14
    first, run_wins = run_melds_js([WORKED[0].split(), WORKED[6].split()])
    assert (first["deadwood"], first["dead"]) == (2, ["2D"])
    assert (run_wins["melds"], run_wins["dead"]) == ([["7S", "8S", "9S"]], ["7D", "7H"])


def test_melds_js_finds_the_engines_deadwood_on_400_random_hands():
    assert_like_the_engine(random_hands(400))


def test_melds_js_does_not_search_more_than_eleven_cards():
    """A twelfth tapped card is a slip: the page asks for one off instead of a line."""
    assert run_melds_js([[str(card) for card in DECK[:12]]]) == [None]
