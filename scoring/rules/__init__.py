"""The gin rummy rules engine: pure Python, standard library only (docs/rules.md §1–10).
Its cards and deadwood search (cards, deadwood) are compiled by mypyc at install when they
can be (setup.py), with the same answers; they run as they are when not.

Cards and melds (cards, melds), the spread and lay-offs (spread), hand scoring (hands),
games, matches and dealing (games), rule profiles (profiles), and the one error a user
can fix (errors). `python -m scoring.rules` is its command-line tool.
"""

from scoring.rules.cards import DECK, Card, card_at, format_cards, parse_card, parse_cards
from scoring.rules.errors import RulesError
from scoring.rules.games import (
    GameResult,
    HandScore,
    HollywoodResult,
    MatchResult,
    Standing,
    forfeit_game,
    game_standing,
    next_dealer,
    score_game,
    score_hollywood,
    score_match,
)
from scoring.rules.hands import (
    HandResult,
    Outcome,
    dead_hand,
    explanation_parts,
    fill,
    score_cards,
    score_quick,
)
from scoring.rules.melds import (
    Arrangement,
    ElevenAnalysis,
    analyse_eleven,
    best_arrangement,
    best_deadwood,
    check_meld,
    meld_kind,
)
from scoring.rules.profiles import PROFILE_TITLES, PROFILES, RuleProfile, make_profile
from scoring.rules.spread import defender_reply, valid_layoffs

__all__ = [
    "DECK",
    "PROFILES",
    "PROFILE_TITLES",
    "Arrangement",
    "Card",
    "ElevenAnalysis",
    "GameResult",
    "HandResult",
    "HandScore",
    "HollywoodResult",
    "MatchResult",
    "Outcome",
    "RuleProfile",
    "RulesError",
    "Standing",
    "analyse_eleven",
    "best_arrangement",
    "forfeit_game",
    "best_deadwood",
    "card_at",
    "check_meld",
    "dead_hand",
    "defender_reply",
    "explanation_parts",
    "fill",
    "format_cards",
    "game_standing",
    "make_profile",
    "meld_kind",
    "next_dealer",
    "parse_card",
    "parse_cards",
    "score_cards",
    "score_game",
    "score_hollywood",
    "score_match",
    "score_quick",
    "valid_layoffs",
]
