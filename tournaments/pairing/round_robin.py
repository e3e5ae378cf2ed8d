"""Round robin by the circle method.

Terms:

- **circle method**: the first player stays put and the others rotate one place a
  round around a circle; players facing each other across the circle meet. Over n - 1
  rounds (n even) every pair meets exactly once.
- **bye**: an odd field gets a phantom player; whoever faces it sits out that round.
  Over n rounds every pair meets once and everyone has exactly one bye.

Pairs are given with ``a`` the player listed earlier in ``ids`` (the higher seed).
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.errors import PairingError
from tournaments.pairing.values import Pair
from tournaments.pairing.words import gettext_noop, worded

ROUND_ROBIN = gettext_noop("round robin")
BYE = gettext_noop("round robin: bye")
REASONS = (ROUND_ROBIN, BYE)


def round_robin(ids: Sequence[int]) -> list[list[Pair]]:
    """Every round of a round robin of ``ids``, in seed order.

    Raises PairingError ``too_few_players`` or ``duplicate_player``.
    """
    _check(ids)
    circle: list[int | None] = list(ids)
    if len(circle) % 2:
        circle.append(None)
    seed = {player: number for number, player in enumerate(ids)}
    rounds = []
    for _ in range(len(circle) - 1):
        rounds.append(_round(circle, seed))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def _round(circle: list[int | None], seed: dict[int, int]) -> list[Pair]:
    pairs, byes = [], []
    half = len(circle) // 2
    for x, y in zip(circle[:half], reversed(circle[half:]), strict=True):
        if x is None or y is None:
            byes.append(Pair(a=x if y is None else y, b=None, reason=worded(BYE)))
        else:
            a, b = sorted((x, y), key=seed.__getitem__)
            pairs.append(Pair(a=a, b=b, reason=worded(ROUND_ROBIN)))
    return pairs + byes


def _check(ids: Sequence[int]) -> None:
    if len(ids) < 2:
        raise PairingError(
            "too_few_players", gettext_noop("A round robin needs at least two players.")
        )
    if len(set(ids)) != len(ids):
        raise PairingError("duplicate_player", gettext_noop("A player is entered twice."))
