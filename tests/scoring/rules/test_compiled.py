"""The compiled engine (setup.py: cards.py and deadwood.py through mypyc) against its
sources: built from them as they are now, and giving the pure-Python answers. Without a
compiled build these are skipped: the rest of the suite then tests the pure modules."""

import importlib.util
import random
from pathlib import Path

import pytest

from scoring.rules import DECK, cards, deadwood

RULES = Path(deadwood.__file__).parent
COMPILED = [module for module in (cards, deadwood) if not module.__file__.endswith(".py")]

pytestmark = pytest.mark.skipif(not COMPILED, reason="the rules engine is not compiled")


@pytest.mark.parametrize("module", COMPILED, ids=lambda module: module.__name__)
def test_the_compiled_module_is_built_from_its_source_as_it_is(module):
    source = RULES / (module.__name__.rsplit(".", 1)[1] + ".py")
    assert Path(module.__file__).stat().st_mtime >= source.stat().st_mtime, (
        f"{source.name} changed after {Path(module.__file__).name} was built: "
        "`make .venv/.installed` (or pip install -e .) compiles it again"
    )


def pure_deadwood():
    spec = importlib.util.spec_from_file_location("pure_deadwood", RULES / "deadwood.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.__file__.endswith(".py")
    return module


def test_the_compiled_search_gives_the_pure_answers():
    pure = pure_deadwood()
    assert pure.RUN_BEST == deadwood.RUN_BEST and pure.IN_RUNS == deadwood.IN_RUNS
    rng = random.Random(26)
    hands = [rng.sample(DECK, size) for size in (10, 11) for _ in range(5_000)]
    # Rich in sets: four or five ranks, all their suits.
    for _ in range(2_000):
        ranks = rng.sample(range(1, 14), rng.choice((3, 4, 5)))
        hands.append([card for card in DECK if card.rank in ranks][: rng.choice((10, 11))])
    for hand in hands:
        a, b, c, d = deadwood.suit_masks(hand)
        sets = (a & b & (c | d)) | (c & d & (a | b))
        assert deadwood.best_deadwood(hand) == pure.best_deadwood(hand), hand
        assert deadwood.best_deadwood(tuple(hand)) == pure.best_deadwood(tuple(hand)), hand
        assert deadwood.deadwood_of_masks(a, b, c, d) == pure.deadwood_of_masks(a, b, c, d)
        assert deadwood.hand_mask(hand) == pure.hand_mask(hand)
        if sets:
            assert deadwood._sets_choice(a, b, c, d, sets) == pure._sets_choice(a, b, c, d, sets)
