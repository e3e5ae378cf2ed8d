"""`python -m scoring.rules` end to end: real subprocesses for the commands and their
output fields, cli.main in process for the many bad-input lines (a traceback or a
dropped line fails)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import DECK, cli
from tests.scoring.rules.test_cases import CASES

REPO = Path(__file__).parents[3]
KNOCKER = "AC 2C 3C 7D 7H 7S TD JD QD 9S".split()
DEFENDER = "4C 5C KD 7C 8H 8C 8D 2S 3S 9H".split()
CARD_FIELDS = {"knocker_melds", "defender_melds", "laid_off"}
HAND_FIELDS = ["outcome", "winner", "points", "knocker_deadwood", "defender_deadwood"]
GAME_FIELDS = [
    "winner",
    "finished",
    "totals",
    "hand_points",
    "hands_won",
    "game_bonus",
    "game_bonuses",
    "box_bonus",
    "shutout",
    "margin",
    "explanation",
]


def run(*args: str, lines: list = ()) -> tuple[int, list[dict], str]:
    """Run the tool; lines are JSON-encoded unless already text. Returns (status,
    one parsed object per output line, stderr)."""
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    done = subprocess.run(
        [sys.executable, "-m", "scoring.rules", *args],
        input=text,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        encoding="utf-8",
    )
    return done.returncode, [json.loads(out) for out in done.stdout.splitlines()], done.stderr


def run_here(*args: str, lines: list = ()) -> tuple[int, list[dict]]:
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    out = io.StringIO()
    status = cli.main(list(args), stdin=io.StringIO(text), stdout=out)
    return status, [json.loads(line) for line in out.getvalue().splitlines()]


# ------------------------------------------------------------------------ deadwood


def test_deadwood_of_ten_cards_given_as_arguments():
    status, out, err = run("deadwood", *"7S 8S 9S 7H 7D KC QC 2H 3D 4C".split())
    assert (status, err) == (0, "")
    assert out == [
        {
            "cards": "7S 8S 9S 7H 7D KC QC 2H 3D 4C".split(),
            "deadwood": 43,
            "melds": [["7S", "8S", "9S"]],
            "deadwood_cards": ["2H", "3D", "4C", "7D", "7H", "QC", "KC"],
        }
    ]


def test_deadwood_reads_json_lines_on_stdin_when_no_cards_are_given():
    status, out, _ = run(
        "deadwood",
        lines=[
            {"cards": "5S 6S 7S 8S 8H 8D KD QH 2C AH".split()},
            {"cards": "KS KH QC QD JS JH TC TD 9S 9H".split()},
        ],
    )
    assert status == 0
    assert [line["deadwood"] for line in out] == [23, 98]
    assert all(list(line) == ["cards", "deadwood", "melds", "deadwood_cards"] for line in out)


def test_deadwood_of_eleven_cards_adds_best_discard_knock_discards_and_big_gin():
    hand = "AC 5H 2H 5S 6H AS 2C 4H 5C 2D 3H".split()
    status, out, _ = run("deadwood", *hand)
    assert status == 0
    (line,) = out
    assert list(line) == [
        "cards",
        "deadwood",
        "melds",
        "deadwood_cards",
        "best_discard_deadwood",
        "knock_discards",
        "big_gin",
    ]
    assert (line["deadwood"], line["best_discard_deadwood"], line["big_gin"]) == (12, 6, False)
    assert sorted(line["knock_discards"]) == ["2C", "2D", "5C", "5S", "6H"]


@pytest.mark.parametrize(
    ("args", "big_gin"),
    [
        ((), True),
        (("--profile", "classic"), False),  # big gin is not played in classic
        (("--set", "big_gin_bonus=null"), False),
    ],
)
def test_eleven_melded_cards_are_big_gin_only_where_big_gin_is_played(args, big_gin):
    hand = "AH 2H 3H 5S 6S 7S 8S 9D TD JD QD".split()
    status, out = run_here("deadwood", *args, *hand)
    assert status == 0
    assert (out[0]["deadwood"], out[0]["best_discard_deadwood"]) == (0, 0)
    assert out[0]["big_gin"] is big_gin


def test_knock_discards_follow_the_knock_limit_of_the_profile_and_the_oklahoma_upcard():
    hand = "AC 5H 2H 5S 6H AS 2C 4H 5C 2D 3H".split()
    _, out = run_here("deadwood", "--set", "knock_limit=6", *hand)
    assert out[0]["knock_discards"] == ["6H"]
    _, out = run_here(
        "deadwood",
        "--profile",
        "oklahoma",
        lines=[{"cards": hand, "upcard": "6D"}, {"cards": hand, "upcard": "AD"}, {"cards": hand}],
    )
    assert out[0]["knock_discards"] == ["6H"]
    assert out[1]["knock_discards"] == []
    assert out[2]["error"]["code"] == "missing_upcard"


# ---------------------------------------------------------------------------- hand


def test_hand_by_cards_writes_every_field_of_the_spread():
    status, out, _ = run("hand", lines=[{"knocker": KNOCKER, "defender": DEFENDER}])
    assert status == 0
    (line,) = out
    assert list(line) == HAND_FIELDS + [
        "knocker_melds",
        "defender_melds",
        "laid_off",
        "explanation",
    ]
    assert (line["outcome"], line["winner"], line["points"]) == ("knock", "knocker", 5)
    assert (line["knocker_deadwood"], line["defender_deadwood"]) == (9, 14)
    assert line["explanation"] == "Knock: 14 − 9 = 5"


def test_hand_by_quick_entry_writes_no_card_fields():
    status, out, _ = run(
        "hand",
        lines=[
            {"outcome": "knock", "knocker_deadwood": 9, "defender_deadwood": 8},
            {"outcome": "gin", "knocker_deadwood": 0, "defender_deadwood": 42},
            {"outcome": "big_gin", "knocker_deadwood": 0, "defender_deadwood": 20},
        ],
    )
    assert status == 0
    assert [list(line) for line in out] == [HAND_FIELDS + ["explanation"]] * 3
    assert [(line["outcome"], line["winner"], line["points"]) for line in out] == [
        ("undercut", "defender", 26),
        ("gin", "knocker", 67),
        ("big_gin", "knocker", 51),
    ]
    assert out[0]["explanation"] == "Undercut: 25 bonus + (9 − 8) = 26"
    assert not CARD_FIELDS & set(out[0])


def test_hand_with_declared_knocker_melds_and_an_oklahoma_upcard():
    line = {
        "knocker": KNOCKER,
        "defender": DEFENDER,
        "upcard": "9S",
        "knocker_melds": [["AC", "2C", "3C"], ["7D", "7H", "7S"], ["TD", "JD", "QD"]],
    }
    _, out = run_here(
        "hand", "--profile", "oklahoma", "--set", "oklahoma_spade_double=true", lines=[line]
    )
    assert (out[0]["winner"], out[0]["points"]) == ("knocker", 10)
    assert out[0]["explanation"] == "Knock: 14 − 9 = 5, × 2 (spade upcard) = 10"
    _, out = run_here("hand", "--profile", "oklahoma", lines=[dict(line, upcard="8S")])
    assert out[0]["error"] == {
        "code": "illegal_knock",
        "message": "deadwood 9 is over the knock limit 8",
    }


@pytest.mark.parametrize(
    ("args", "rules", "expected"),
    [
        ((), None, ("knocker", 5)),
        (("--set", "layoffs=false"), None, ("knocker", 31)),
        ((), {"layoffs": False}, ("knocker", 31)),
        (("--profile", "straight"), None, None),  # knock limit 0: the 9 is illegal
        (("--profile", "straight"), {"knock_limit": 10}, ("knocker", 31)),  # no lay-offs
    ],
)
def test_profile_set_and_a_per_line_rules_object_change_the_score(args, rules, expected):
    line = {"knocker": KNOCKER, "defender": DEFENDER}
    if rules is not None:
        line["rules"] = rules
    _, out = run_here("hand", *args, lines=[line])
    if expected is None:
        assert out[0]["error"]["code"] == "illegal_knock"
    else:
        assert (out[0]["winner"], out[0]["points"]) == expected


def test_declared_melds_and_layoffs_may_also_be_written_as_one_string_each():
    line = {
        "knocker": "5H 6H 7H 9C 9D 9S JS QS KS 2D".split(),
        "defender": "8H 9H 3H KD KC 3C 4C 5C 4H TS".split(),
        "knocker_melds": ["5H 6H 7H", ["9C", "9D", "9S"], "JS,QS,KS"],
        "layoffs": "8H 9H",
    }
    _, out = run_here("hand", lines=[line])
    assert (out[0]["defender_deadwood"], out[0]["laid_off"]) == (37, ["8H", "9H"])


def test_a_rules_object_overrides_the_command_line_for_its_line_only():
    quick = {"outcome": "knock", "knocker_deadwood": 6, "defender_deadwood": 6}
    _, out = run_here(
        "hand",
        "--set",
        "undercut_bonus=10",
        lines=[quick, dict(quick, rules={"undercut_on_tie": False}), quick],
    )
    assert [(line["winner"], line["points"]) for line in out] == [
        ("defender", 10),
        ("knocker", 0),
        ("defender", 10),
    ]


# ---------------------------------------------------------------------------- game


def test_game_writes_every_field_and_the_worked_game_of_rules_section_6():
    hands = [
        {"winner": "A", "points": 30},
        {"winner": "B", "points": 20},
        {"winner": "A", "points": 45},
        {"winner": "A", "points": 30},
    ]
    status, out, _ = run("game", lines=[{"hands": hands}, {"hands": hands[:2]}])
    assert status == 0
    assert [list(line) for line in out] == [GAME_FIELDS] * 2
    assert (out[0]["winner"], out[0]["totals"], out[0]["margin"]) == ("A", {"A": 280, "B": 45}, 235)
    assert "105 points + 100 game bonus + 3 boxes × 25" in out[0]["explanation"]
    assert (out[1]["winner"], out[1]["finished"]) == (None, False)


def test_game_under_the_classic_profile_gives_the_flat_shutout_bonus():
    hands = [{"winner": "A", "points": 60}, {"winner": "A", "points": 45}]
    _, out = run_here("game", "--profile", "classic", lines=[{"hands": hands}])
    assert (out[0]["totals"], out[0]["shutout"]) == ({"A": 345, "B": 0}, True)


# ------------------------------------------------------------------------ bad input

BAD_LINES = [
    ("hand", "not json", "bad_json"),
    ("hand", "[1, 2]", "bad_json"),
    ("hand", "1" * 5000, "bad_json"),
    ("hand", "[" * 100_000, "bad_json"),
    ("hand", {"knocker": ["ZZ"] + KNOCKER[1:], "defender": DEFENDER}, "bad_card"),
    ("hand", {"knocker": KNOCKER[:9] + ["AC"], "defender": DEFENDER}, "duplicate_card"),
    ("hand", {"knocker": KNOCKER[:9], "defender": DEFENDER}, "wrong_card_count"),
    ("hand", {"knocker": KNOCKER, "defender": DEFENDER, "knocker_melds": 5}, "invalid_meld"),
    ("hand", {"knocker": KNOCKER, "defender": DEFENDER, "knocker_melds": [5]}, "bad_card"),
    ("hand", {"knocker": KNOCKER, "defender": DEFENDER, "layoffs": 5}, "bad_card"),
    ("hand", {"knocker": KNOCKER, "defender": DEFENDER, "upcard": 7}, "bad_card"),
    (
        "hand",
        {"knocker": KNOCKER, "defender": DEFENDER, "knocker_melds": [["QD", "KD", "AD"]]},
        "invalid_meld",
    ),
    (
        "hand",
        {
            "outcome": "knock",
            "knocker_deadwood": 1,
            "defender_deadwood": 2,
            "rules": {"knock_limit": "ten"},
        },
        "bad_option",
    ),
    (
        "hand",
        {
            "outcome": "knock",
            "knocker_deadwood": 1,
            "defender_deadwood": 2,
            "rules": {"no_such_option": 1},
        },
        "bad_option",
    ),
    (
        "hand",
        {"outcome": "knock", "knocker_deadwood": 1, "defender_deadwood": 2, "rules": [1]},
        "bad_option",
    ),
    ("hand", {"outcome": "knock", "knocker_deadwood": 11, "defender_deadwood": 2}, "illegal_knock"),
    ("hand", {"outcome": "knock", "knocker_deadwood": 99, "defender_deadwood": 2}, "bad_deadwood"),
    ("hand", {"outcome": ["knock"], "knocker_deadwood": 1}, "bad_outcome"),
    ("deadwood", {"cards": "AS 2S"}, "bad_card"),
    ("deadwood", {"cards": ["AS", "2S"]}, "wrong_card_count"),
    ("deadwood", {"cards": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}, "bad_card"),
    ("game", {"hands": 3}, "bad_hand"),
    ("game", {"hands": [5]}, "bad_hand"),
    ("game", {"hands": [{"winner": "C", "points": 5}]}, "bad_hand"),
    ("game", {"hands": [{"winner": "A", "points": -5}]}, "bad_hand"),
    (
        "game",
        {"hands": [{"winner": "A", "points": 100}, {"winner": "B", "points": 5}]},
        "game_over",
    ),
]


@pytest.mark.parametrize(("command", "line", "code"), BAD_LINES)
def test_a_bad_line_gives_an_error_object_and_the_next_line_is_still_processed(command, line, code):
    good = {
        "deadwood": {"cards": KNOCKER},
        "hand": {"outcome": "knock", "knocker_deadwood": 3, "defender_deadwood": 30},
        "game": {"hands": [{"winner": "B", "points": 7}]},
    }[command]
    status, out = run_here(command, lines=[line, good])
    assert status == 0
    assert len(out) == 2
    assert set(out[0]) == {"error"} and set(out[0]["error"]) == {"code", "message"}
    assert out[0]["error"]["code"] == code
    assert "error" not in out[1]


def test_bad_lines_in_a_real_process_never_print_a_traceback():
    status, out, err = run(
        "hand",
        lines=[
            "{oops",
            {"knocker": ["7H", "7H"], "defender": []},
            {"outcome": "knock", "knocker_deadwood": 3, "defender_deadwood": 30},
        ],
    )
    assert (status, err) == (0, "")
    assert out[0]["error"]["code"] == "bad_json"
    assert out[1]["error"] == {
        "code": "duplicate_card",
        "message": "7H appears twice in the knocker's hand",
    }
    assert out[2]["points"] == 27


def test_a_stray_byte_spoils_only_its_own_line():
    done = subprocess.run(
        [sys.executable, "-m", "scoring.rules", "deadwood"],
        cwd=REPO,
        input=b'{"cards": ["\xff"]}\n' + json.dumps({"cards": KNOCKER}).encode() + b"\n",
        capture_output=True,
        timeout=60,
    )
    out = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert (done.returncode, done.stderr) == (0, b"")
    assert out[0]["error"]["code"] == "bad_card"
    assert out[1]["deadwood"] == 9


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--set", "knock_limit=eleven"), "knock_limit must be a whole number from 0 to 98"),
        (("--set", "no_such_option=1"), "unknown rule option 'no_such_option'"),
        (("--set", "shutout=triple"), "shutout must be one of"),
        (("--set", "layoffs"), "--set needs OPTION=VALUE"),
        (("--profile", "blitz"), "unknown profile 'blitz'"),
    ],
)
def test_a_bad_profile_or_set_gives_one_error_object_and_status_2(args, message):
    status, out, err = run(
        "hand", *args, lines=[{"outcome": "knock", "knocker_deadwood": 3, "defender_deadwood": 30}]
    )
    assert (status, err) == (2, "")
    assert len(out) == 1 and out[0]["error"]["code"] == "bad_option"
    assert out[0]["error"]["message"].startswith(message)


# ---------------------------------------------------------- every worked rule case


def test_every_worked_case_through_the_tool_gives_the_expected_numbers():
    """The cases of tests/data/rules_cases.jsonl (loaded by test_cases, which fails
    when the file is missing), through the command-line tool."""
    assert {c["category"] for c in CASES} >= {"deadwood", "eleven", "layoff", "score", "game"}
    deadwood = [c for c in CASES if c["category"] in ("deadwood", "eleven")]
    _, out, _ = run("deadwood", lines=[{"cards": c["input"]["hand"]} for c in deadwood])
    for case, line in zip(deadwood, out, strict=True):
        expected = case["expected"]
        assert line["deadwood"] == expected.get("deadwood", expected.get("deadwood_all11"))
        if "best_discard_deadwood" in expected:
            assert line["best_discard_deadwood"] == expected["best_discard_deadwood"]
        if "legal_knock_discards" in expected:
            assert sorted(line["knock_discards"]) == sorted(expected["legal_knock_discards"])
    hands = [c for c in CASES if c["category"] in ("layoff", "score")]
    lines = []
    for case in hands:
        data = case["input"]
        if case["category"] == "layoff":
            knocker = [card for meld in data["knocker_melds"] for card in meld]
            lines.append(
                {
                    "knocker": knocker + data["knocker_deadwood_cards"],
                    "defender": data["defender_hand"],
                    "knocker_melds": data["knocker_melds"],
                }
            )
        else:
            lines.append(
                {
                    "outcome": data["kind"],
                    "rules": data["rules"],
                    "knocker_deadwood": data["knocker_deadwood"],
                    "defender_deadwood": data["defender_deadwood"],
                }
            )
    _, out, _ = run("hand", lines=lines)
    for case, line in zip(hands, out, strict=True):
        expected = case["expected"].get("score", case["expected"])
        if "error" in expected:
            assert line["error"]["code"] == expected["error"]
        else:
            assert (line["winner"], line["points"]) == (expected["winner"], expected["points"])
    games = [c for c in CASES if c["category"] == "game"]
    _, out, _ = run("game", lines=[c["input"] for c in games])
    for case, line in zip(games, out, strict=True):
        assert {key: line[key] for key in case["expected"]} == case["expected"]


# ------------------------------------------------------------------------- fuzzing

CARD_TEXT = st.sampled_from([str(c) for c in DECK] + ["10D", "as", "7♥", "ZZ", ""])
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 120)
    | st.floats(allow_nan=False)
    | CARD_TEXT
    | st.sampled_from(["knock", "gin", "big_gin", "dead", "A", "B"]),
    lambda inner: (
        st.lists(inner, max_size=12)
        | st.dictionaries(
            st.sampled_from(["winner", "points", "knock_limit", "layoffs", "shutout"]), inner
        )
    ),
    max_leaves=25,
)
KEYS = [
    "cards",
    "knocker",
    "defender",
    "knocker_melds",
    "layoffs",
    "upcard",
    "outcome",
    "knocker_deadwood",
    "defender_deadwood",
    "rules",
    "hands",
]
LINES = st.dictionaries(st.sampled_from(KEYS), JSON | st.lists(CARD_TEXT, max_size=11))


@settings(max_examples=max(50, settings().max_examples // 4))
@given(st.sampled_from(["deadwood", "hand", "game"]), st.lists(LINES, min_size=1, max_size=4))
def test_any_json_object_gives_one_result_or_one_error_object_per_line(command, lines):
    status, out = run_here(command, lines=lines)
    assert status == 0
    assert len(out) == len(lines)
    for line in out:
        assert isinstance(line, dict)
        if "error" in line:
            assert set(line) == {"error"}
            assert isinstance(line["error"]["code"], str) and line["error"]["message"]
