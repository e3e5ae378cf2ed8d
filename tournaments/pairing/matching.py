"""Swiss pairing as a minimum-cost perfect matching, and the graphs it is solved on.

Terms:

- **field order**: the entrants sorted best first, by score (descending), then rank,
  then id. A player's **position** is their index in it; positions are what "close
  ranks" means below, so tied or missing ranks do no harm.
- **cost** of pairing two players, compared lexicographically (a higher criterion
  always outweighs every lower one summed over the whole round):

  1. a rematch (they have met before);
  2. the squared difference of their scores: pairing inside a score group costs
     nothing, a pull-up from the next group costs 1, and one pull-up across two groups
     (4) costs more than two pull-ups across one group each (1 + 1);
  3. the squared distance of their positions: inside a group the best player meets
     the nearest-ranked available player ("adjacent" pairing: 1 v 2, 3 v 4, ...), and
     when a rematch forbids that, squaring makes 1 v 3, 2 v 4 (4 + 4) beat
     1 v 4, 2 v 3 (9 + 1), so the strongest available pairing comes first. An odd
     group's leftover meets the nearest player of the next group.

  The three are folded into one integer weight per edge (``BASE - cost``), scaled so
  that the order above is exact for the field size at hand, and the pairing is a
  maximum-weight perfect matching: Edmonds' blossom algorithm, O(n^3), as compiled by
  rustworkx (the networkx algorithm in Rust; its weights are 128-bit integers).
- **window graph**: for speed, every player is joined only to the ``window`` nearest
  players above and below them in the field order whom they have not met. Adjacent
  pairing and pull-ups live inside it, so it nearly always holds a perfect matching;
  the result is then exact over that graph.
- **fallbacks**: when the window graph has no perfect matching, a window four times
  wider is tried, then the full graph of non-rematches; when that has none either, the
  full graph with rematch edges (each costing more than everything else together) is
  solved, which gives the fewest rematches possible. The full graphs have O(n^2) edges
  and take seconds for big fields where the window takes a tenth of a second (figures
  in docs/benchmarks.md), but only opponent histories that leave very few choices need
  them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import rustworkx as rx

from tournaments.pairing.values import Entrant

WINDOW = 8
"""How many unmet neighbours above and below each player the window graph joins."""

Pairs = tuple[tuple[int, int], ...]

WIDEN = 4
"""The second graph tried is a window this many times wider."""

GRAPH_WINDOW = "window"
GRAPH_WIDE_WINDOW = "wide window"
GRAPH_REMATCH_FREE = "rematch-free"
GRAPH_WITH_REMATCHES = "with rematches"

WEIGHT_LIMIT = 2**120
"""Edge weights stay below this: rustworkx keeps them and its dual variables (sums of a
few weights, doubled) in 128-bit integers. A million players with scores a thousand
apart stay below 2**117."""


@dataclass(frozen=True)
class Weights:
    """Integer scales that make the cost order of the module docstring exact."""

    score: int
    rematch: int
    base: int

    @classmethod
    def for_field(cls, field: Sequence[Entrant]) -> Weights:
        n = len(field)
        pairs = n // 2 + 1
        spread = max(e.score for e in field) - min(e.score for e in field)
        score = pairs * max(n - 1, 1) ** 2 + 1
        rematch = score * (pairs * spread**2 + 1)
        base = rematch * (pairs + 1)
        assert base < WEIGHT_LIMIT, f"{n} players' weights overflow the matcher"
        return cls(score=score, rematch=rematch, base=base)

    def cost(self, field: Sequence[Entrant], i: int, j: int) -> int:
        a, b = field[i], field[j]
        rematch = self.rematch if b.id in a.opponents or a.id in b.opponents else 0
        return rematch + self.score * (a.score - b.score) ** 2 + (i - j) ** 2


@dataclass(frozen=True)
class Matching:
    """Pairs of positions in the field order, and which graph gave them."""

    pairs: Pairs
    graph: str


def field_order(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.score, e.rank, e.id))


def have_met(a: Entrant, b: Entrant) -> bool:
    return b.id in a.opponents or a.id in b.opponents


def window_edges(field: Sequence[Entrant], window: int) -> set[tuple[int, int]]:
    """Each position joined to its ``window`` nearest unmet players on either side."""
    ids = [e.id for e in field]
    met = [e.opponents for e in field]
    edges: set[tuple[int, int]] = set()
    for i, (me, mine) in enumerate(zip(ids, met, strict=True)):
        for side in (range(i + 1, len(field)), range(i - 1, -1, -1)):
            found = 0
            for j in side:
                if ids[j] not in mine and me not in met[j]:
                    edges.add((i, j) if i < j else (j, i))
                    found += 1
                    if found == window:
                        break
    return edges


def all_edges(field: Sequence[Entrant], *, rematches: bool) -> set[tuple[int, int]]:
    n = len(field)
    return {
        (i, j)
        for i in range(n)
        for j in range(i + 1, n)
        if rematches or not have_met(field[i], field[j])
    }


def solve(field: Sequence[Entrant], edges: set[tuple[int, int]]) -> Pairs | None:
    """The minimum-cost perfect matching over ``edges``, or None if there is none."""
    if len(field) % 2:
        return None
    if not field:
        return ()
    weights = Weights.for_field(field)
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(len(field)))
    graph.add_edges_from(
        [(i, j, weights.base - weights.cost(field, i, j)) for i, j in sorted(edges)]
    )
    found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int, verify_optimum=False)
    if 2 * len(found) != len(field):
        return None
    return tuple(sorted((min(i, j), max(i, j)) for i, j in found))


def rematch_free(field: Sequence[Entrant], window: int) -> Matching | None:
    """The best rematch-free pairing on the first graph, widest last, that has one."""
    tried: set[tuple[int, int]] | None = None
    for name, edges in _graphs(field, window):
        if edges == tried:
            continue  # no new edge: it would fail again
        pairs = solve(field, edges)
        if pairs is not None:
            return Matching(pairs, name)
        tried = edges
    return None


def _graphs(field: Sequence[Entrant], window: int) -> Iterator[tuple[str, set[tuple[int, int]]]]:
    yield GRAPH_WINDOW, window_edges(field, window)
    yield GRAPH_WIDE_WINDOW, window_edges(field, WIDEN * window)
    yield GRAPH_REMATCH_FREE, all_edges(field, rematches=False)


def with_rematches(field: Sequence[Entrant]) -> Matching:
    """The best pairing allowing rematches (fewest first); always exists."""
    pairs = solve(field, all_edges(field, rematches=True))
    assert pairs is not None, "a complete graph on an even field has a perfect matching"
    return Matching(pairs, GRAPH_WITH_REMATCHES)
