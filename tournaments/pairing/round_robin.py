"""Round robin by the circle method."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.values import Pair


def round_robin(ids: Sequence[int]) -> list[list[Pair]]:
    """Every round of a round robin; an odd field gives one bye a round."""
    raise NotImplementedError
