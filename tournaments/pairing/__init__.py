"""Pure pairing and standings maths for tournaments: no Django, no models.

Plain values in, plain values out. See each module for the terms it uses:
``swiss`` (score groups, pull-ups, byes), ``first_round`` (round 1 at random or by
seed), ``round_robin``, ``elimination`` (seeds,
bracket order) and ``standings`` (tie-breaks).
"""

from __future__ import annotations

from tournaments.pairing import elimination as _elimination
from tournaments.pairing import first_round as _first_round
from tournaments.pairing import round_robin as _round_robin
from tournaments.pairing import swiss as _swiss
from tournaments.pairing.elimination import (
    bracket_order,
    bracket_size,
    elimination_round,
    next_elimination_round,
)
from tournaments.pairing.errors import PairingError
from tournaments.pairing.first_round import drawn_order, first_round
from tournaments.pairing.round_robin import round_robin
from tournaments.pairing.standings import (
    DEFAULT_TIEBREAKS,
    FIGURE_NAMES,
    FIGURES,
    RATIO_PLACES,
    RATIOS,
    TIEBREAKS,
    MatchRecord,
    Standing,
    compute_standings,
)
from tournaments.pairing.standings_words import PenaltyNote, explain_standings
from tournaments.pairing.swiss import SwissPairing, pair_swiss, swiss_round
from tournaments.pairing.values import Entrant, Pair
from tournaments.pairing.words import Phrase, Worded, gettext_noop, read_back

# Every English template of a Pair's reason (stored as text with the pairing), so a
# stored reason can be read back into its phrase and worded for the reader.
PAIR_REASONS = (
    *_swiss.REASONS,
    *_round_robin.REASONS,
    *_elimination.REASONS,
    *_first_round.REASONS,
)
PAIR_REASON_PARTS = _first_round.PLACES

__all__ = [
    "DEFAULT_TIEBREAKS",
    "FIGURES",
    "FIGURE_NAMES",
    "RATIOS",
    "RATIO_PLACES",
    "TIEBREAKS",
    "Worded",
    "Entrant",
    "MatchRecord",
    "Pair",
    "PAIR_REASONS",
    "PAIR_REASON_PARTS",
    "PairingError",
    "Phrase",
    "Standing",
    "SwissPairing",
    "bracket_order",
    "bracket_size",
    "compute_standings",
    "drawn_order",
    "elimination_round",
    "explain_standings",
    "PenaltyNote",
    "first_round",
    "gettext_noop",
    "next_elimination_round",
    "pair_swiss",
    "read_back",
    "round_robin",
    "swiss_round",
]
