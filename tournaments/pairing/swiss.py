"""Swiss pairing, one round at a time, solved over the whole field at once.

Terms:

- **score group**: the entrants with the same score (match wins; a bye counts as a
  win). Score group 2 is everyone on two wins.
- **pull-up**: a pair whose players come from different score groups; the lower one
  is pulled up to the higher group ("pull-up from score group 1 to 2").
- **rematch**: a pair who have met before. None is made while any rematch-free pairing
  of the round exists; when none exists, the fewest possible are made.
- **bye**: in an odd field one player sits out and scores a win. It goes to the
  lowest-ranked player who has not had one; if taking that player out leaves no
  rematch-free pairing of the rest, to the next-lowest player without one, and so on;
  if none of them works, to the lowest-ranked without one anyway (bye fairness comes
  before avoiding rematches). Nobody gets a second bye while someone has had none, and
  likewise later: the bye goes to the players with the fewest byes so far.

How the rest are paired (costs, the window graph and its fallbacks) is described in
:mod:`tournaments.pairing.matching`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.pairing.errors import PairingError
from tournaments.pairing.matching import (
    WINDOW,
    Matching,
    field_order,
    have_met,
    rematch_free,
    with_rematches,
)
from tournaments.pairing.values import Entrant, Pair
from tournaments.pairing.words import Worded, gettext_noop, worded

# Why each pair was made (Pair.reason): English templates, worded where they are shown.
BYE_LOWEST = gettext_noop("bye: lowest-ranked without one")
BYE_NEXT = gettext_noop("bye: lowest-ranked without one whose bye leaves a rematch-free pairing")
BYE_EVERYONE_HAD_ONE = gettext_noop(
    "bye: lowest-ranked with the fewest byes (everyone has had one)"
)
SCORE_GROUP = gettext_noop("score group %(score)s")
PULL_UP = gettext_noop("pull-up from score group %(lower)s to %(higher)s")
SCORE_GROUP_REMATCH = gettext_noop(
    "score group %(score)s (rematch: no rematch-free pairing exists)"
)
PULL_UP_REMATCH = gettext_noop(
    "pull-up from score group %(lower)s to %(higher)s (rematch: no rematch-free pairing exists)"
)
REASONS = (
    BYE_LOWEST,
    BYE_NEXT,
    BYE_EVERYONE_HAD_ONE,
    SCORE_GROUP,
    PULL_UP,
    SCORE_GROUP_REMATCH,
    PULL_UP_REMATCH,
)


@dataclass(frozen=True)
class SwissPairing:
    """A Swiss round and how it was found.

    ``graph`` names the graph the matching was solved on (see
    :mod:`tournaments.pairing.matching`); ``rematches`` counts the pairs who have met.
    """

    pairs: tuple[Pair, ...]
    graph: str
    rematches: int


def swiss_round(entrants: Sequence[Entrant]) -> list[Pair]:
    """One Swiss round: pairs best table first, then the bye if the field is odd.

    Raises PairingError ``too_few_players`` or ``duplicate_player``.
    """
    return list(pair_swiss(entrants).pairs)


def pair_swiss(entrants: Sequence[Entrant], *, window: int = WINDOW) -> SwissPairing:
    """:func:`swiss_round` with the details; ``window`` sizes the first graph tried."""
    _check(entrants)
    field = field_order(entrants)
    if len(field) % 2 == 0:
        return _result(field, rematch_free(field, window) or with_rematches(field))
    candidates = bye_candidates(field)
    for number, bye in enumerate(candidates):
        rest = [e for e in field if e is not bye]
        matching = rematch_free(rest, window)
        if matching is not None:
            return _result(rest, matching, bye, _bye_reason(field, number))
    rest = [e for e in field if e is not candidates[0]]
    return _result(rest, with_rematches(rest), candidates[0], _bye_reason(field, 0))


def bye_candidates(field: Sequence[Entrant]) -> list[Entrant]:
    """Who may take the bye: the fewest byes so far, tried lowest-ranked first."""
    fewest = min(e.bye_count for e in field)
    return [e for e in reversed(field) if e.bye_count == fewest]


def _bye_reason(field: Sequence[Entrant], number: int) -> Worded:
    if all(e.bye_count for e in field):
        return worded(BYE_EVERYONE_HAD_ONE)
    return worded(BYE_LOWEST if number == 0 else BYE_NEXT)


def _check(entrants: Sequence[Entrant]) -> None:
    if len(entrants) < 2:
        raise PairingError(
            "too_few_players", gettext_noop("A Swiss round needs at least two players.")
        )
    seen: set[int] = set()
    for entrant in entrants:
        if entrant.id in seen:
            raise PairingError(
                "duplicate_player",
                gettext_noop("Player %(id)s is entered twice."),
                {"id": entrant.id},
            )
        seen.add(entrant.id)


def _result(
    field: Sequence[Entrant], matching: Matching, bye: Entrant | None = None, why: str = ""
) -> SwissPairing:
    pairs = [_pair(field[i], field[j]) for i, j in matching.pairs]
    rematches = sum(have_met(field[i], field[j]) for i, j in matching.pairs)
    if bye is not None:
        pairs.append(Pair(a=bye.id, b=None, reason=why))
    return SwissPairing(pairs=tuple(pairs), graph=matching.graph, rematches=rematches)


def _pair(a: Entrant, b: Entrant) -> Pair:
    rematch = have_met(a, b)
    if a.score == b.score:
        reason = worded(SCORE_GROUP_REMATCH if rematch else SCORE_GROUP, score=a.score)
    else:
        template = PULL_UP_REMATCH if rematch else PULL_UP
        reason = worded(template, lower=b.score, higher=a.score)
    return Pair(a=a.id, b=b.id, reason=reason)
