"""Swiss pairing as a maximum-weight matching."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.values import Entrant, Pair


def swiss_round(entrants: Sequence[Entrant]) -> list[Pair]:
    """One Swiss round."""
    raise NotImplementedError
