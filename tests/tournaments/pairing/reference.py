"""A slow, exhaustive Swiss reference for small fields, written from the rules alone.

The objective, compared as a tuple (smaller is better): number of rematches, then the
sum of squared score differences, then the sum of squared distances in the field
order (score descending, rank, id) of the players being paired.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from tournaments.pairing import Entrant, Pair

Cost = tuple[int, int, int]


def met(a: Entrant, b: Entrant) -> bool:
    return a.id in b.opponents or b.id in a.opponents


def ordered(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.score, e.rank, e.id))


def perfect_matchings(items: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, partner in enumerate(rest):
        for tail in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, partner), *tail]


def cost(field: Sequence[Entrant], pairs: Sequence[tuple[int, int]]) -> Cost:
    """The objective of ``pairs`` (positions in ``field``, which is in field order)."""
    rematches = sum(met(field[i], field[j]) for i, j in pairs)
    scores = sum((field[i].score - field[j].score) ** 2 for i, j in pairs)
    distance = sum((i - j) ** 2 for i, j in pairs)
    return rematches, scores, distance


def best_cost(field: Sequence[Entrant]) -> Cost:
    return min(cost(field, m) for m in perfect_matchings(list(range(len(field)))))


def expected_bye(entrants: Sequence[Entrant]) -> int | None:
    """Who the rules give the bye to, or None for an even field."""
    if len(entrants) % 2 == 0:
        return None
    field = ordered(entrants)
    fewest = min(max(e.byes, e.had_bye) for e in field)
    candidates = [e for e in reversed(field) if max(e.byes, e.had_bye) == fewest]
    for candidate in candidates:
        rest = [e for e in field if e is not candidate]
        if best_cost(rest)[0] == 0:
            return candidate.id
    return candidates[0].id


def cost_of_round(entrants: Sequence[Entrant], pairs: Sequence[Pair]) -> Cost:
    """The objective of an engine's round (bye left out)."""
    bye = {p.a for p in pairs if p.b is None}
    field = ordered([e for e in entrants if e.id not in bye])
    position = {e.id: k for k, e in enumerate(field)}
    return cost(field, [(position[p.a], position[p.b]) for p in pairs if p.b is not None])
