"""The rules engine, table by table: cards, melds, knocking (Oklahoma, straight gin),
the spread and declared lay-offs, worked hands, games, matches, dealing and
profiles. No database."""

from __future__ import annotations

from dataclasses import fields as dataclass_fields

import pytest

from scoring.rules import (
    PROFILES,
    Outcome,
    RulesError,
    check_meld,
    make_profile,
    next_dealer,
    parse_card,
    parse_cards,
    score_cards,
    score_game,
    score_match,
    score_quick,
)
from scoring.rules.profiles import OPTION_TITLES, RuleProfile
from tests.scoring.rules.checks import can_lay_off


def cards(text: str):
    return parse_cards(text.split())


def quick(
    outcome: str,
    k: int | None,
    d: int,
    profile: str = "standard",
    upcard: str | None = None,
    **options,
):
    return score_quick(
        outcome=outcome,
        knocker_deadwood=k,
        defender_deadwood=d,
        profile=make_profile(profile, options),
        upcard=parse_card(upcard) if upcard else None,
    )


def by_cards(
    knocker: str,
    defender: str,
    profile: str = "standard",
    melds=None,
    laid_off: str | None = None,
    upcard: str | None = None,
    **options,
):
    return score_cards(
        knocker=cards(knocker),
        defender=cards(defender),
        profile=make_profile(profile, options),
        knocker_melds=[cards(m) for m in melds] if melds is not None else None,
        layoffs=cards(laid_off) if laid_off is not None else None,
        upcard=parse_card(upcard) if upcard else None,
    )


def rules_error(call, *args, **kwargs) -> RulesError:
    with pytest.raises(RulesError) as caught:
        call(*args, **kwargs)
    return caught.value


# --------------------------------------------------------------------------- cards


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("AS", "AS"),
        ("7H", "7H"),
        ("TD", "TD"),
        ("10D", "TD"),
        ("qc", "QC"),
        ("10d", "TD"),
        ("ks", "KS"),
        (" 9c ", "9C"),
        ("A♠", "AS"),
        ("7♥", "7H"),
        ("10♦", "TD"),
        ("j♣", "JC"),
    ],
)
def test_cards_are_read_in_every_accepted_form_and_written_canonically(text, canonical):
    assert str(parse_card(text)) == canonical


@pytest.mark.parametrize(
    ("text", "value"),
    [("AS", 1), ("2H", 2), ("9D", 9), ("TC", 10), ("JS", 10), ("QH", 10), ("KD", 10)],
)
def test_card_values_ace_one_pips_and_ten_for_faces(text, value):
    assert parse_card(text).value == value


@pytest.mark.parametrize("token", ["1S", "ZZ", "11H", "AX", "10", "S7", "7HH", "♠A"])
def test_a_bad_card_is_rejected_with_a_message_naming_the_token(token):
    error = rules_error(parse_card, token)
    assert error.code == "bad_card"
    assert error.message.startswith(f"{token} is not a card")


@pytest.mark.parametrize("token", ["", None, 7, ["AS"]])
def test_a_card_that_is_not_text_is_a_bad_card(token):
    assert rules_error(parse_card, token).code == "bad_card"


@pytest.mark.parametrize(
    ("tokens", "message"),
    [
        (["7H", "8H", "7h"], "7H appears twice"),
        (["10D", "TD"], "TD appears twice"),
    ],
)
def test_a_card_given_twice_is_named(tokens, message):
    error = rules_error(parse_cards, tokens)
    assert (error.code, error.message) == ("duplicate_card", message)


def test_a_card_given_in_both_hands_is_a_duplicate():
    error = rules_error(by_cards, "AC 2C 3C 7D 7H 7S TD JD QD 9S", "9S 5C KD 7C 8H 8C 8D 2S 3S 9H")
    assert (error.code, error.message) == ("duplicate_card", "9S appears twice")


# -------------------------------------------------------------------------- melds


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("AS 2S 3S", "run"),
        ("7H 7D 7C", "set"),
        ("7H 7D 7C 7S", "set"),
        ("TS JS QS KS", "run"),
        ("3D 4D 5D 6D 7D 8D", "run"),
    ],
)
def test_a_valid_meld_reports_its_kind(text, kind):
    assert check_meld(cards(text)) == kind


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("QS KS AS", "QS KS AS is not a run: aces are low"),
        ("KS AS 2S", "KS AS 2S is not a run: aces are low"),
        ("JH QH KH AH", "JH QH KH AH is not a run: aces are low"),
        ("7H 7D", "7H 7D is not a meld: a meld needs 3 or more cards"),
        (
            "5S 6S 8S",
            "5S 6S 8S is not a meld: a set is 3 or 4 cards of one rank, a run 3 or more "
            "cards in sequence in one suit",
        ),
        (
            "AS 5S KS",
            "AS 5S KS is not a meld: a set is 3 or 4 cards of one rank, a run 3 or more "
            "cards in sequence in one suit",
        ),
        (
            "5S 6H 7S",
            "5S 6H 7S is not a meld: a set is 3 or 4 cards of one rank, a run 3 or more "
            "cards in sequence in one suit",
        ),
    ],
)
def test_an_invalid_meld_says_why(text, message):
    error = rules_error(check_meld, cards(text))
    assert (error.code, error.message) == ("invalid_meld", message)


def test_a_meld_with_a_card_twice_names_the_card():
    error = rules_error(check_meld, [parse_card(t) for t in ["7H", "7D", "7H"]])
    assert (error.code, error.message) == ("duplicate_card", "7H appears twice in a meld")


# ------------------------------------------------------------------ knock legality

KNOCKER_12 = "AC 2C 3C 7D 7H 7S 2D 4H 5S AH"  # deadwood 12
DEFENDER = "9H 9C 5D 4S 6D 6H KH QH 3H 3D"


def test_an_illegal_knock_names_the_deadwood_and_the_knock_limit():
    error = rules_error(by_cards, KNOCKER_12, DEFENDER)
    assert (error.code, error.message) == (
        "illegal_knock",
        "deadwood 12 is over the knock limit 10",
    )
    error = rules_error(quick, "knock", 12, 30)
    assert (error.code, error.message) == (
        "illegal_knock",
        "deadwood 12 is over the knock limit 10",
    )


def test_a_higher_knock_limit_makes_the_same_knock_legal():
    assert by_cards(KNOCKER_12, DEFENDER, knock_limit=12).knocker_deadwood == 12


@pytest.mark.parametrize(
    ("upcard", "k", "legal"),
    [
        ("5D", 5, True),
        ("5D", 6, False),
        ("KH", 10, True),
        ("TC", 10, True),
        ("2S", 2, True),
        ("2S", 3, False),
        ("9H", 9, True),
        ("9H", 10, False),
        ("AC", 1, False),
        ("AC", 0, True),
    ],
)
def test_oklahoma_knock_limit_is_the_upcard_value_and_an_ace_means_gin_only(upcard, k, legal):
    if legal:
        assert quick("knock", k, 40, "oklahoma", upcard).winner == "knocker"
    else:
        error = rules_error(quick, "knock", k, 40, "oklahoma", upcard)
        assert error.code == "illegal_knock"
        assert error.message.startswith(f"deadwood {k} is over the knock limit")


def test_oklahoma_ace_upcard_message_says_only_gin_ends_the_hand():
    error = rules_error(quick, "knock", 1, 40, "oklahoma", "AD")
    assert error.message == "deadwood 1 is over the knock limit 0 (only gin ends this hand)"


def test_oklahoma_needs_the_upcard():
    assert rules_error(quick, "knock", 3, 40, "oklahoma").code == "missing_upcard"


@pytest.mark.parametrize(
    ("outcome", "k", "d", "upcard", "double", "points"),
    [
        ("knock", 3, 20, "5S", True, 34),
        ("knock", 3, 20, "5H", True, 17),
        ("knock", 3, 20, "5S", False, 17),
        ("knock", 5, 2, "5S", True, 56),  # undercut (25 + 3) doubled
        ("gin", 0, 20, "AS", True, 90),  # (25 + 20) doubled
        ("big_gin", 0, 20, "KS", True, 102),  # (31 + 20) doubled
    ],
)
def test_oklahoma_spade_upcard_doubles_the_hand_when_the_option_is_on(
    outcome, k, d, upcard, double, points
):
    result = quick(outcome, k, d, "oklahoma", upcard, oklahoma_spade_double=double)
    assert result.points == points


def test_oklahoma_spade_double_is_explained():
    result = quick("knock", 3, 20, "oklahoma", "5S", oklahoma_spade_double=True)
    assert result.explanation == "Knock: 20 − 3 = 17, × 2 (spade upcard) = 34"


def test_oklahoma_limit_applies_to_card_entry():
    knocker = "AC 2C 3C 7D 7H 7S TD JD QD 9S"  # deadwood 9
    defender = "4C 5C KD 7C 8H 8C 8D 2S 3S 9H"
    assert by_cards(knocker, defender, "oklahoma", upcard="9D").points == 5
    assert rules_error(by_cards, knocker, defender, "oklahoma", upcard="8D").code == (
        "illegal_knock"
    )


def test_straight_gin_allows_only_gin_and_has_no_layoffs():
    error = rules_error(quick, "knock", 1, 40, "straight")
    assert error.message == "deadwood 1 is over the knock limit 0 (only gin ends this hand)"
    assert quick("gin", 0, 40, "straight").points == 65
    assert make_profile("straight").layoffs is False


# ----------------------------------------------------------------- scoring a hand


@pytest.mark.parametrize(
    ("outcome", "k", "d", "options", "expected"),
    [
        ("knock", 7, 30, {}, (Outcome.KNOCK, "knocker", 23, "Knock: 30 − 7 = 23")),
        (
            "knock",
            9,
            8,
            {},
            (Outcome.UNDERCUT, "defender", 26, "Undercut: 25 bonus + (9 − 8) = 26"),
        ),
        (
            "knock",
            6,
            6,
            {},
            (Outcome.UNDERCUT, "defender", 25, "Undercut: 25 bonus + (6 − 6) = 25"),
        ),
        (
            "knock",
            6,
            6,
            {"undercut_on_tie": False},
            (Outcome.KNOCK, "knocker", 0, "Knock: 6 − 6 = 0"),
        ),
        ("knock", 0, 15, {}, (Outcome.GIN, "knocker", 40, "Gin: 25 bonus + 15 = 40")),
        ("gin", 0, 0, {}, (Outcome.GIN, "knocker", 25, "Gin: 25 bonus + 0 = 25")),
        ("gin", None, 10, {}, (Outcome.GIN, "knocker", 35, "Gin: 25 bonus + 10 = 35")),
        ("big_gin", 0, 20, {}, (Outcome.BIG_GIN, "knocker", 51, "Big gin: 31 bonus + 20 = 51")),
        (
            "big_gin",
            0,
            20,
            {"big_gin_bonus": 50},
            (Outcome.BIG_GIN, "knocker", 70, "Big gin: 50 bonus + 20 = 70"),
        ),
        (
            "knock",
            9,
            5,
            {"undercut_bonus": 10},
            (Outcome.UNDERCUT, "defender", 14, "Undercut: 10 bonus + (9 − 5) = 14"),
        ),
    ],
)
def test_quick_entry_scores_and_explains_the_hand(outcome, k, d, options, expected):
    result = quick(outcome, k, d, **options)
    assert (result.outcome, result.winner, result.points, result.explanation) == expected


def test_a_dead_hand_scores_nothing():
    result = quick("dead", None, None)
    assert (result.outcome, result.winner, result.points) == (Outcome.DEAD, None, 0)


@pytest.mark.parametrize(
    ("outcome", "k", "d", "profile", "code"),
    [
        ("gin", 3, 10, "standard", "illegal_knock"),
        ("big_gin", 0, 10, "classic", "illegal_knock"),
        ("big_gin", 4, 10, "standard", "illegal_knock"),
        ("knock", 11, 30, "standard", "illegal_knock"),
        ("knock", -1, 30, "standard", "bad_deadwood"),
        ("knock", 5, 99, "standard", "bad_deadwood"),
        ("knock", 5.0, 30, "standard", "bad_deadwood"),
        ("knock", True, 30, "standard", "bad_deadwood"),
        ("fold", 5, 30, "standard", "bad_outcome"),
    ],
)
def test_quick_entry_refuses_what_cannot_happen(outcome, k, d, profile, code):
    assert rules_error(quick, outcome, k, d, profile).code == code


GIN_KNOCKER = "AC 2C 3C 7D 7H 7S TD JD QD KD"
GIN_DEFENDER = "9H 9C 5D 4S 5S 6H KH QH 2H 3D"


def test_gin_is_never_undercut_even_by_a_defender_with_no_deadwood():
    result = by_cards(GIN_KNOCKER, "4S 5S 6S 8H 8C 8D 9D 9S 9H 9C")
    assert (result.outcome, result.winner, result.points) == (Outcome.GIN, "knocker", 25)
    assert result.defender_deadwood == 0


def test_big_gin_is_not_played_under_classic_rules():
    error = rules_error(by_cards, "AC 2C 3C 4C 7H 7S 7D TD JD QD KD", GIN_DEFENDER, "classic")
    assert error.code == "illegal_knock"
    assert error.message.startswith("big gin is not played under these rules")


def test_eleven_cards_that_do_not_all_meld_are_no_big_gin():
    error = rules_error(by_cards, "AC 2C 3C 4C 7H 7S 7D TD JD QD 9S", GIN_DEFENDER)
    assert error.message == "big gin means all 11 cards melded, not 9 deadwood"


# ------------------------------------------------------------------------ worked hands

SECTION_9 = "AC 2C 3C 7D 7H 7S TD JD QD 9S"


@pytest.mark.parametrize(
    ("knocker", "defender", "options", "expected"),
    [
        (
            "5H 6H 7H 9C 9D 9S JS QS KS 2D",
            "8H 9H KD KC KH 3C 4C 5C AS 7D",
            {},
            ("knock", "knocker", 6, 2, 8, {"8H", "9H"}),
        ),
        (
            SECTION_9,
            "4C 5C KD 7C 8H 8C 8D 2S 3S 4S",
            {},
            ("undercut", "defender", 34, 9, 0, {"4C", "5C", "KD", "7C"}),
        ),
        (SECTION_9, "4C 5C KD 7C 8H 8C 8D 2S 3S 4H", {}, ("undercut", "defender", 25, 9, 9, None)),
        (
            SECTION_9,
            "4C 5C KD 7C 8H 8C 8D 2S 3S 4H",
            {"undercut_on_tie": False},
            ("knock", "knocker", 0, 9, 9, None),
        ),
        (SECTION_9, "4C 5C KD 7C 8H 8C 8D 2S 3S 9H", {}, ("knock", "knocker", 5, 9, 14, None)),
        (
            SECTION_9,
            "4C 5C KD 7C 8H 8C 8D 2S 3S 9H",
            {"layoffs": False},
            ("knock", "knocker", 31, 9, 40, set()),
        ),
        (GIN_KNOCKER, GIN_DEFENDER, {}, ("gin", "knocker", 88, 0, 63, set())),
        (
            "AC 2C 3C 4C 7H 7S 7D TD JD QD KD",
            GIN_DEFENDER,
            {},
            ("big_gin", "knocker", 94, 0, 63, set()),
        ),
    ],
)
def test_rules_section_9_worked_hands(knocker, defender, options, expected):
    result = by_cards(knocker, defender, **options)
    outcome, winner, points, k, d, laid_off = expected
    assert (
        result.outcome.value,
        result.winner,
        result.points,
        result.knocker_deadwood,
        result.defender_deadwood,
    ) == (outcome, winner, points, k, d)
    if laid_off is not None:
        assert {str(c) for c in result.laid_off} == laid_off


# ------------------------------------------------ the spread and declared lay-offs

CHOICE_KNOCKER = "AS 2S 3S 4S 9H 9C 9D 2C AD 3H"
CHOICE_DEFENDER = "5S 6S KC KD KH QH JD 8D 7C 4D"


def test_without_declared_melds_the_knocker_gets_the_spread_best_for_them():
    # Showing A-2-3♠ and keeping 4♠ as deadwood (K 10) denies the lay-off of 5♠ 6♠: 50 − 10
    # beats the lowest-deadwood spread A-4♠ (K 6), which lets them go: 39 − 6.
    result = by_cards(CHOICE_KNOCKER, CHOICE_DEFENDER)
    assert (result.knocker_deadwood, result.defender_deadwood, result.points) == (10, 50, 40)
    assert result.laid_off == ()


def test_declared_knocker_melds_are_used_as_declared():
    result = by_cards(CHOICE_KNOCKER, CHOICE_DEFENDER, melds=["AS 2S 3S 4S", "9H 9C 9D"])
    assert (result.knocker_deadwood, result.defender_deadwood, result.points) == (6, 39, 33)
    assert {str(c) for c in result.laid_off} == {"5S", "6S"}
    assert [list(map(str, m)) for m in result.knocker_melds] == [
        ["AS", "2S", "3S", "4S"],
        ["9H", "9C", "9D"],
    ]


def test_declared_melds_that_leave_too_much_deadwood_are_an_illegal_knock():
    error = rules_error(by_cards, CHOICE_KNOCKER, CHOICE_DEFENDER, melds=["9H 9C 9D"])
    assert error.message == "deadwood 16 is over the knock limit 10"


@pytest.mark.parametrize(
    ("melds", "code", "message"),
    [
        (["QS KS AS"], "invalid_meld", "QS KS AS is not a run: aces are low"),
        (
            ["AS 2S 3S", "3S 3C 3H"],
            "invalid_meld",
            "3C is in a declared meld but not in the knocker's hand",
        ),
        (["AS 2S 3S", "2S 3S 4S"], "duplicate_card", "2S appears twice in the knocker's melds"),
    ],
)
def test_declared_melds_are_validated(melds, code, message):
    error = rules_error(by_cards, CHOICE_KNOCKER, CHOICE_DEFENDER, melds=melds)
    assert (error.code, error.message) == (code, message)


LAYOFF_KNOCKER = "5H 6H 7H 9C 9D 9S JS QS KS 2D"
LAYOFF_MELDS = ["5H 6H 7H", "9C 9D 9S", "JS QS KS"]
LAYOFF_DEFENDER = "8H 9H 3H KD KC 3C 4C 5C 4H TS"  # 54 deadwood before lay-offs


@pytest.mark.parametrize(
    ("laid_off", "d"),
    [
        ("", 54),
        ("8H", 46),
        ("8H 9H", 37),  # a chain: 8♥ then 9♥ on 5-6-7♥
        ("4H 8H 9H", 33),  # both ends
        ("3H 4H 8H 9H", 30),  # a chain at the low end too
        ("TS", 44),  # the low end of J-Q-K♠
        ("9H", 45),  # the fourth card of the 9 set
    ],
)
def test_declared_layoffs_are_used_as_declared(laid_off, d):
    result = by_cards(LAYOFF_KNOCKER, LAYOFF_DEFENDER, melds=LAYOFF_MELDS, laid_off=laid_off)
    assert result.defender_deadwood == d
    assert {str(c) for c in result.laid_off} == set(laid_off.split())
    assert can_lay_off([cards(m) for m in LAYOFF_MELDS], result.laid_off)


def test_without_declared_layoffs_the_defender_gets_the_best_ones():
    result = by_cards(LAYOFF_KNOCKER, LAYOFF_DEFENDER, melds=LAYOFF_MELDS)
    # 3♥ 4♥ 8♥ 9♥ on the heart run and T♠ on the spade run: only K♦ K♣ stay.
    assert (result.defender_deadwood, result.winner, result.points) == (20, "knocker", 18)
    assert {str(c) for c in result.laid_off} == {"3H", "4H", "8H", "9H", "TS"}


MELDS_TEXT = "(5H 6H 7H; 9C 9D 9S; JS QS KS)"


@pytest.mark.parametrize(
    ("laid_off", "message"),
    [
        ("3H", f"3H cannot be laid off on the knocker's melds {MELDS_TEXT}"),
        ("3H 8H", f"3H cannot be laid off on the knocker's melds {MELDS_TEXT}"),
        ("KD", f"KD cannot be laid off on the knocker's melds {MELDS_TEXT}"),
        ("AS", "AS is not in the defender's hand"),
    ],
)
def test_declared_layoffs_that_do_not_fit_are_refused(laid_off, message):
    error = rules_error(
        by_cards, LAYOFF_KNOCKER, LAYOFF_DEFENDER, melds=LAYOFF_MELDS, laid_off=laid_off
    )
    assert (error.code, error.message) == ("illegal_layoff", message)


def test_declared_layoffs_choose_the_spread_they_fit_when_melds_are_not_declared():
    result = by_cards(LAYOFF_KNOCKER, LAYOFF_DEFENDER, laid_off="8H 9H")
    assert result.defender_deadwood == 37
    assert {str(c) for c in result.laid_off} == {"8H", "9H"}


def test_nothing_is_laid_off_on_gin():
    error = rules_error(by_cards, GIN_KNOCKER, "9H 9C 5D 4S 5S 6H KH QH 4C 3D", laid_off="4C")
    assert (error.code, error.message) == ("illegal_layoff", "nothing is laid off on gin")


def test_declared_layoffs_are_refused_when_the_layoffs_option_is_off():
    error = rules_error(
        by_cards, LAYOFF_KNOCKER, LAYOFF_DEFENDER, melds=LAYOFF_MELDS, laid_off="8H", layoffs=False
    )
    assert (error.code, error.message) == (
        "illegal_layoff",
        "lay-offs are not played under these rules",
    )


# ----------------------------------------------------------------------------- games


def hands_of(*pairs):
    return [{"winner": winner, "points": points} for winner, points in pairs]


WORKED_GAME = hands_of(("A", 30), ("B", 20), ("A", 45), ("A", 30))
SHUTOUT_GAME = hands_of(("A", 60), ("A", 45))


def test_rules_section_6_worked_game():
    result = score_game(WORKED_GAME, make_profile("standard"))
    assert (result.winner, result.finished, result.totals, result.margin, result.shutout) == (
        "A",
        True,
        {"A": 280, "B": 45},
        235,
        False,
    )
    assert (result.hand_points, result.hands_won) == ({"A": 105, "B": 20}, {"A": 3, "B": 1})
    assert (result.game_bonus, result.box_bonus) == (100, {"A": 75, "B": 25})
    assert result.explanation == (
        "Game to A: 105 points + 100 game bonus + 3 boxes × 25 = 280; "
        "B: 20 points + 1 box × 25 = 45"
    )


@pytest.mark.parametrize(
    ("profile", "options", "winner_total", "shutout"),
    [
        ("standard", {}, 510, True),  # (105 + 100 + 50) × 2
        ("standard", {"shutout": "double_points"}, 360, True),  # 210 + 100 + 50
        ("standard", {"shutout": "bonus"}, 355, True),  # 105 + 100 + 50 + 100
        ("standard", {"shutout": "bonus", "shutout_bonus": 50}, 305, True),
        ("standard", {"shutout": "none"}, 255, False),  # 105 + 100 + 50
        ("classic", {}, 345, True),  # 105 + 100 + 40 + 100
    ],
)
def test_the_four_shutout_modes(profile, options, winner_total, shutout):
    result = score_game(SHUTOUT_GAME, make_profile(profile, options))
    assert (result.winner, result.totals, result.shutout, result.margin) == (
        "A",
        {"A": winner_total, "B": 0},
        shutout,
        winner_total,
    )


def test_bonuses_never_count_toward_the_target():
    # 95 + boxes would pass 100, but only hand points count: the game goes on.
    result = score_game(hands_of(("A", 50), ("A", 45)), make_profile("standard"))
    assert (result.finished, result.winner, result.totals) == (False, None, {"A": 95, "B": 0})


def test_the_game_ends_with_the_hand_that_reaches_the_target():
    profile = make_profile("standard")
    assert score_game(hands_of(("A", 50), ("B", 40), ("A", 50)), profile).finished
    error = rules_error(score_game, hands_of(("A", 100), ("B", 5)), profile)
    assert (error.code, error.message) == (
        "game_over",
        "hand 2 comes after the game ended at hand 1",
    )


def test_dead_hands_count_as_hands_but_win_no_box():
    result = score_game(
        hands_of(("A", 60), (None, 0), ("B", 10), ("A", 45)), make_profile("standard")
    )
    assert result.hands_won == {"A": 2, "B": 1}
    assert result.totals == {"A": 105 + 100 + 50, "B": 10 + 25}


def test_a_hand_won_for_0_points_still_wins_a_box():
    # With undercut_on_tie off, a tie is a knocker's win worth 0 (docs/rules.md §6).
    result = score_game(hands_of(("B", 0), ("A", 100)), make_profile("standard"))
    assert result.hands_won == {"A": 1, "B": 1}
    assert (result.totals, result.shutout) == ({"A": 225, "B": 25}, False)


@pytest.mark.parametrize(
    ("hands", "winner", "totals", "finished"),
    [
        # decided on hand points plus boxes: A 15 + 2 x 25 = 65 beats B 20 + 25 = 45
        (hands_of(("A", 10), ("B", 20), ("A", 5)), "A", {"A": 15 + 100 + 50, "B": 20 + 25}, True),
        (hands_of(("A", 10), ("B", 20)), None, {"A": 10, "B": 20}, False),
        # level at 35 with boxes, one hand each: B won the last hand anybody won
        (hands_of(("A", 10), ("B", 10), (None, 0)), "B", {"A": 35, "B": 10 + 100 + 25}, True),
        (hands_of((None, 0), (None, 0), (None, 0)), None, {"A": 0, "B": 0}, True),  # drawn
        (hands_of(("A", 150), ("B", 1), ("B", 1)), "A", {"A": 150 + 100 + 25, "B": 52}, True),
    ],
)
def test_a_game_of_a_fixed_number_of_hands_goes_to_the_highest_total_with_boxes(
    hands, winner, totals, finished
):
    result = score_game(hands, make_profile("standard", {"game_hands": 3}))
    assert (result.winner, result.totals, result.finished) == (winner, totals, finished)


def test_under_the_tournament_profile_a_game_runs_to_250():
    profile = make_profile("tournament")
    assert not score_game(hands_of(("A", 200), ("B", 49)), profile).finished
    assert score_game(hands_of(("A", 200), ("B", 49), ("A", 50)), profile).winner == "A"


# ---------------------------------------------------------------------- matches


def game_won_by(side: str):
    return score_game(hands_of((side, 100)), make_profile("standard"))


@pytest.mark.parametrize(
    ("winners", "games_to_win", "expected"),
    [
        ("A", 1, ("A", True, {"A": 1, "B": 0})),
        ("ABA", 3, (None, False, {"A": 2, "B": 1})),
        ("ABAA", 3, ("A", True, {"A": 3, "B": 1})),
        ("BBAAB", 3, ("B", True, {"A": 2, "B": 3})),
    ],
)
def test_a_match_is_best_of_n_games(winners, games_to_win, expected):
    games = [game_won_by(side) for side in winners]
    result = score_match(games, make_profile("standard", {"games_to_win": games_to_win}))
    assert (result.winner, result.finished, result.games_won) == expected
    per_game = 100 + 100 + 25  # hand points, game bonus, one box; doubled as a shutout
    assert result.totals == {side: 2 * per_game * winners.count(side) for side in "AB"}
    assert result.margin == abs(result.totals["A"] - result.totals["B"])


def test_no_game_is_played_after_the_match_is_decided():
    games = [game_won_by(side) for side in "AAAB"]
    error = rules_error(score_match, games, make_profile("tournament"))
    assert (error.code, error.message) == ("game_over", "game 4 comes after the match was decided")


def test_an_unfinished_game_cannot_count_in_a_match():
    unfinished = score_game(hands_of(("A", 10)), make_profile("standard"))
    assert rules_error(score_match, [unfinished], make_profile("standard")).code == "bad_hand"


# ------------------------------------------------------------------- next dealer


@pytest.mark.parametrize(
    ("mode", "dealer", "hand_winner", "expected"),
    [
        ("alternate", "A", "A", "B"),
        ("alternate", "A", "B", "B"),
        ("alternate", "B", "A", "A"),
        ("winner", "A", "B", "B"),
        ("winner", "A", "A", "A"),
        ("winner", "B", "A", "A"),
        ("loser", "A", "A", "B"),
        ("loser", "A", "B", "A"),
        ("loser", "B", "B", "A"),
        ("alternate", "A", None, "A"),
        ("winner", "B", None, "B"),
        ("loser", "A", None, "A"),
    ],
)
def test_next_dealer_by_option_and_a_dead_hand_is_redealt_by_the_same_dealer(
    mode, dealer, hand_winner, expected
):
    profile = make_profile("standard", {"next_dealer": mode})
    assert next_dealer(dealer=dealer, hand_winner=hand_winner, profile=profile) == expected


# ---------------------------------------------------------------------- profiles

SECTION_8 = {  # the profiles of docs/rules.md §10, column by column
    "standard": dict(
        knock_limit=10,
        oklahoma=False,
        gin_bonus=25,
        big_gin_bonus=31,
        undercut_bonus=25,
        undercut_on_tie=True,
        layoffs=True,
        game_target=100,
        game_bonus=100,
        box_bonus=25,
        shutout="double",
        games_to_win=1,
    ),
    "tournament": dict(
        knock_limit=10,
        oklahoma=False,
        gin_bonus=25,
        big_gin_bonus=31,
        undercut_bonus=25,
        undercut_on_tie=True,
        layoffs=True,
        game_target=250,
        game_bonus=100,
        box_bonus=25,
        shutout="double",
        games_to_win=3,
    ),
    "classic": dict(
        knock_limit=10,
        oklahoma=False,
        gin_bonus=20,
        big_gin_bonus=None,
        undercut_bonus=10,
        undercut_on_tie=True,
        layoffs=True,
        game_target=100,
        game_bonus=100,
        box_bonus=20,
        shutout="bonus",
        shutout_bonus=100,
        games_to_win=1,
    ),
    "oklahoma": dict(
        oklahoma=True,
        gin_bonus=25,
        big_gin_bonus=31,
        undercut_bonus=25,
        undercut_on_tie=True,
        layoffs=True,
        game_target=150,
        game_bonus=100,
        box_bonus=25,
        shutout="double",
        games_to_win=1,
    ),
    "straight": dict(
        knock_limit=0,
        oklahoma=False,
        gin_bonus=25,
        big_gin_bonus=31,
        undercut_bonus=25,
        undercut_on_tie=True,
        layoffs=False,
        game_target=100,
        game_bonus=100,
        box_bonus=25,
        shutout="double",
        games_to_win=1,
    ),
    "school": dict(  # the seeds' school rules: ten hands, no lay-offs
        knock_limit=10,
        oklahoma=False,
        gin_bonus=25,
        big_gin_bonus=31,
        undercut_bonus=25,
        undercut_on_tie=True,
        layoffs=False,
        game_target=100,
        game_hands=10,
        dead_hands_count=True,
        game_bonus=100,
        game_bonus_min=100,
        box_bonus=25,
        shutout="none",
        games_to_win=1,
        hollywood=False,
    ),
    "hollywood": dict(
        knock_limit=10,
        oklahoma=False,
        gin_bonus=25,
        big_gin_bonus=31,
        undercut_bonus=25,
        undercut_on_tie=True,
        layoffs=True,
        game_target=100,
        game_hands=None,
        game_bonus=100,
        game_bonus_min=None,
        box_bonus=25,
        shutout="double",
        games_to_win=3,
        hollywood=True,
    ),
}


@pytest.mark.parametrize("name", sorted(SECTION_8))
def test_every_profile_has_the_values_of_rules_section_8(name):
    values = make_profile(name).as_dict()
    assert values["name"] == name
    assert {key: values[key] for key in SECTION_8[name]} == SECTION_8[name]


def test_the_profiles_are_exactly_those_of_rules_section_8():
    assert set(PROFILES) == set(SECTION_8)


def test_every_rule_option_has_a_title_in_words():
    options = {f.name for f in dataclass_fields(RuleProfile)}
    assert set(OPTION_TITLES) == options
    assert all("_" not in title for title in OPTION_TITLES.values())


def test_options_override_a_profile_one_by_one_and_keep_its_name():
    profile = make_profile("classic", {"big_gin_bonus": 50, "knock_limit": 7})
    assert (profile.name, profile.big_gin_bonus, profile.knock_limit, profile.gin_bonus) == (
        "classic",
        50,
        7,
        20,
    )


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        (
            "blitz",
            {},
            "unknown profile 'blitz': choose one of standard, tournament, classic, "
            "oklahoma, straight, school, hollywood",
        ),
        (
            "hollywood",
            {"game_hands": 10},
            "hollywood games are played to game_target, so game_hands must be none "
            "(not 10) when hollywood is on",
        ),
        (
            "standard",
            {"game_bonus_min": 0},
            "game_bonus_min must be a whole number from 1 to 1000000, not 0",
        ),
        (
            "standard",
            {"dead_hands_count": "no"},
            "dead_hands_count must be true or false, not 'no'",
        ),
        ("standard", {"knock_limt": 5}, "unknown rule option 'knock_limt'"),
        (
            "standard",
            {"knock_limit": "10"},
            "knock_limit must be a whole number from 0 to 98, not '10'",
        ),
        (
            "standard",
            {"knock_limit": 99},
            "knock_limit must be a whole number from 0 to 98, not 99",
        ),
        (
            "standard",
            {"gin_bonus": True},
            "gin_bonus must be a whole number from 0 to 10000, not True",
        ),
        (
            "standard",
            {"gin_bonus": None},
            "gin_bonus must be a whole number from 0 to 10000, not None",
        ),
        ("standard", {"layoffs": "yes"}, "layoffs must be true or false, not 'yes'"),
        (
            "standard",
            {"shutout": "triple"},
            "shutout must be one of double, double_points, bonus, none, not 'triple'",
        ),
        (
            "standard",
            {"next_dealer": "random"},
            "next_dealer must be one of alternate, winner, loser, not 'random'",
        ),
        ("standard", {"game_hands": 0}, "game_hands must be a whole number from 1 to 1000, not 0"),
        (
            "standard",
            {"games_to_win": 0},
            "games_to_win must be a whole number from 1 to 99, not 0",
        ),
    ],
)
def test_a_bad_option_is_refused_with_a_message_naming_it(name, options, message):
    error = rules_error(make_profile, name, options)
    assert (error.code, error.message) == ("bad_option", message)


def test_rules_that_are_not_an_object_are_a_bad_option():
    assert rules_error(make_profile, "standard", ["knock_limit"]).code == "bad_option"
