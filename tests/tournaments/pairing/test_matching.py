"""The compiled matcher (rustworkx) against networkx's pure-Python blossom, which the
pairing used before: same weights, same perfect-or-not answer, same total weight."""

from __future__ import annotations

import networkx as nx
import pytest
import rustworkx as rx
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.pairing.simulate import Event
from tournaments.pairing import Entrant, pair_swiss
from tournaments.pairing.matching import (
    WEIGHT_LIMIT,
    Weights,
    all_edges,
    field_order,
    solve,
    window_edges,
)


def networkx_solve(field, edges):
    """The matching step as it was written on networkx (maxcardinality, same weights)."""
    if len(field) % 2:
        return None
    weights = Weights.for_field(field)
    graph = nx.Graph()
    graph.add_nodes_from(range(len(field)))
    for i, j in sorted(edges):
        graph.add_edge(i, j, weight=weights.base - weights.cost(field, i, j))
    found = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(found) != len(field):
        return None
    return tuple(sorted((min(i, j), max(i, j)) for i, j in found))


def total_weight(field, pairs):
    if pairs is None:
        return None
    weights = Weights.for_field(field)
    return sum(weights.base - weights.cost(field, i, j) for i, j in pairs)


@st.composite
def fields_and_edges(draw, max_players: int = 16):
    """A field in field order (random scores and histories) and a random subset of its
    pairs as the graph, so that some graphs have no perfect matching."""
    n = draw(st.integers(1, max_players))
    scores = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    met = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    opponents = {k: set() for k in range(n)}
    for (i, j), flag in zip(pairs, met, strict=True):
        if flag:
            opponents[i].add(j)
            opponents[j].add(i)
    entrants = [
        Entrant(id=k, rank=k + 1, score=scores[k], opponents=frozenset(opponents[k]))
        for k in range(n)
    ]
    kept = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    edges = {pair for pair, keep in zip(pairs, kept, strict=True) if keep}
    return field_order(entrants), edges


@settings(max_examples=400, deadline=None)
@given(fields_and_edges())
def test_the_compiled_matching_has_the_networkx_total_weight(field_and_edges):
    field, edges = field_and_edges
    pairs = solve(field, edges)
    assert total_weight(field, pairs) == total_weight(field, networkx_solve(field, edges))
    if pairs is not None:
        assert sorted(k for pair in pairs for k in pair) == list(range(len(field)))
        assert set(pairs) <= edges


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 7), st.sampled_from([2, 3, 8]))
def test_the_compiled_matching_agrees_on_simulated_events_and_every_graph(seed, rounds, window):
    # Real-looking fields of 40 players after some rounds: the window graphs and the
    # full graphs (with and without rematches) the fallbacks solve.
    event = Event(40, seed=seed)
    for _ in range(rounds):
        event.play(list(pair_swiss(event.entrants()).pairs))
    field = field_order(event.entrants())
    for edges in (
        window_edges(field, window),
        all_edges(field, rematches=False),
        all_edges(field, rematches=True),
    ):
        expected = total_weight(field, networkx_solve(field, edges))
        assert total_weight(field, solve(field, edges)) == expected


def test_the_matcher_is_exact_just_below_the_weight_limit():
    # A 4-cycle whose two perfect matchings differ by 1 in 2**121: a 64-bit or
    # floating-point matcher would not see the difference (or overflow).
    big = WEIGHT_LIMIT - 3
    graph = rx.PyGraph()
    graph.add_nodes_from(range(4))
    graph.add_edges_from([(0, 1, big), (1, 2, big + 1), (2, 3, big), (3, 0, big)])
    found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    assert {tuple(sorted(pair)) for pair in found} == {(1, 2), (0, 3)}


def test_weights_that_would_overflow_the_matcher_are_refused_not_wrapped():
    field = [Entrant(id=1, rank=1, score=10**30), Entrant(id=2, rank=2, score=0)]
    with pytest.raises(AssertionError, match="overflow"):
        Weights.for_field(field)
