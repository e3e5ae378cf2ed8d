"""Every worked case in tests/data/rules_cases.jsonl, one test per case id.

Where several arrangements are equally good the case lists one of them, so the tests
compare deadwood values and check that the engine's arrangement is legal, never the
arrangement card for card (tests/data/README.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.rules import (
    RulesError,
    analyse_eleven,
    best_arrangement,
    best_deadwood,
    check_meld,
    defender_reply,
    make_profile,
    meld_kind,
    parse_card,
    parse_cards,
    score_cards,
    score_game,
    score_quick,
)
from tests.scoring.rules.checks import arrangement_problem, can_lay_off, is_meld

# The cases ship with the repository: <repo>/tests/data/rules_cases.jsonl.
CASES_FILE = Path(__file__).parents[2] / "data" / "rules_cases.jsonl"
CATEGORIES = {"deadwood", "eleven", "meld", "layoff", "score", "game"}


def load_cases() -> list[dict]:
    """The cases, in file order. A missing file is an error, never an empty list: the
    parametrised tests below would otherwise be skipped and the suite pass."""
    if not CASES_FILE.is_file():
        raise FileNotFoundError(
            f"{CASES_FILE} is missing: the worked rule cases belong in tests/data/"
        )
    return [json.loads(line) for line in CASES_FILE.read_text().splitlines() if line.strip()]


CASES = load_cases()


def cases_of(category: str):
    return [pytest.param(case, id=case["id"]) for case in CASES if case["category"] == category]


def test_the_case_file_is_found_and_covers_every_category():
    assert CASES_FILE.is_file(), f"{CASES_FILE} is missing"
    assert {case["category"] for case in CASES} == CATEGORIES
    assert len({case["id"] for case in CASES}) == len(CASES) >= 42


@pytest.mark.parametrize("case", cases_of("deadwood"))
def test_deadwood_case(case):
    hand = parse_cards(case["input"]["hand"])
    expected = case["expected"]
    arrangement = best_arrangement(hand)
    assert best_deadwood(hand) == arrangement.deadwood == expected["deadwood"]
    problem = arrangement_problem(
        hand, arrangement.melds, arrangement.deadwood_cards, expected["deadwood"]
    )
    assert problem is None, problem


@pytest.mark.parametrize("case", cases_of("eleven"))
def test_eleven_card_case(case):
    hand = parse_cards(case["input"]["hand"])
    expected = case["expected"]
    analysis = analyse_eleven(hand, case["input"]["knock_limit"])
    found = {
        "deadwood_all11": analysis.deadwood_all11,
        "best_discard_deadwood": analysis.best_discard_deadwood,
        "best_discards": sorted(map(str, analysis.best_discards)),
        "legal_knock_discards": sorted(map(str, analysis.knock_discards)),
        "gin_discards": sorted(map(str, analysis.gin_discards)),
        "can_gin": analysis.can_gin,
        "big_gin": analysis.big_gin,
    }
    wanted = {
        key: sorted(value) if isinstance(value, list) else value for key, value in expected.items()
    }
    assert {key: found[key] for key in wanted} == wanted


@pytest.mark.parametrize("case", cases_of("meld"))
def test_meld_case(case):
    cards = [parse_card(text) for text in case["input"]["cards"]]
    expected = case["expected"]
    assert meld_kind(cards) == expected["kind"]
    if expected["valid"]:
        assert check_meld(cards) == expected["kind"]
    else:
        with pytest.raises(RulesError) as caught:
            check_meld(cards)
        assert caught.value.code in ("invalid_meld", "duplicate_card")


@pytest.mark.parametrize("case", cases_of("layoff"))
def test_layoff_case(case):
    data, expected = case["input"], case["expected"]
    melds = [parse_cards(meld) for meld in data["knocker_melds"]]
    knocker = [card for meld in melds for card in meld] + list(
        parse_cards(data["knocker_deadwood_cards"])
    )
    defender = parse_cards(data["defender_hand"])
    result = score_cards(
        knocker=knocker, defender=defender, knocker_melds=melds, profile=make_profile("standard")
    )
    assert result.knocker_deadwood == expected["knocker_deadwood"]
    assert result.defender_deadwood == expected["defender_deadwood"]
    assert (result.winner, result.points) == (
        expected["score"]["winner"],
        expected["score"]["points"],
    )
    assert [list(map(str, m)) for m in result.knocker_melds] == data["knocker_melds"]
    assert best_deadwood(defender) == expected["defender_deadwood_no_layoff"]
    assert can_lay_off(melds, result.laid_off), result.laid_off
    kept = [c for c in defender if c not in result.laid_off]
    problem = arrangement_problem(kept, result.defender_melds, None, expected["defender_deadwood"])
    assert problem is None, problem


@pytest.mark.parametrize("case", cases_of("layoff"))
def test_layoff_case_reply_is_the_best_joint_reply(case):
    data, expected = case["input"], case["expected"]
    melds = [parse_cards(meld) for meld in data["knocker_melds"]]
    defender = parse_cards(data["defender_hand"])
    reply = defender_reply(melds, defender, layoffs_allowed=bool(data["knocker_deadwood_cards"]))
    assert reply.deadwood == expected["defender_deadwood"]
    assert all(is_meld(meld) for meld in reply.melds)
    # The case's own listed lay-offs are legal and accepted when declared.
    declared = parse_cards(expected["laid_off"])
    if declared:
        assert (
            defender_reply(melds, defender, declared=declared).deadwood
            == (expected["defender_deadwood"])
        )


@pytest.mark.parametrize("case", cases_of("score"))
def test_score_case(case):
    data, expected = case["input"], case["expected"]
    profile = make_profile("standard", data["rules"])
    kwargs = {
        "outcome": data["kind"],
        "knocker_deadwood": data["knocker_deadwood"],
        "defender_deadwood": data["defender_deadwood"],
        "profile": profile,
    }
    if "error" in expected:
        with pytest.raises(RulesError) as caught:
            score_quick(**kwargs)
        assert caught.value.code == expected["error"]
        return
    result = score_quick(**kwargs)
    assert (result.winner, result.points) == (expected["winner"], expected["points"])


@pytest.mark.parametrize("case", cases_of("game"))
def test_game_case(case):
    data, expected = case["input"], case["expected"]
    result = score_game(data["hands"], make_profile("standard", data["rules"]))
    assert result.finished
    assert {
        "winner": result.winner,
        "totals": result.totals,
        "margin": result.margin,
        "shutout": result.shutout,
    } == expected
