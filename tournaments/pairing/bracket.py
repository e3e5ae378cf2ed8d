"""How a single-elimination bracket is drawn: which match feeds which, and the bracket
filled in from the pairings played so far.

Terms (see also ``elimination``: seed, bracket size, bracket order, bye):

- **bracket match**: a box of the chart, at ``(round, index)``; round 0 is the first
  round of the bracket, which has ``size / 2`` matches in bracket order; round ``r``
  has ``size >> (r + 1)``.
- **slot**: one side of a bracket match, top (0) or bottom (1). Match ``(r, i)`` is fed
  by the winner of ``(r - 1, 2i)`` into its top slot and of ``(r - 1, 2i + 1)`` into
  its bottom slot, as ``next_elimination_round`` pairs the winners.
- **bye**: a first-round match whose bottom seed is beyond the field: its top seed goes
  through without playing. It has no match number.
- **match number**: the matches that are played, numbered 1, 2, ... round by round, top
  to bottom (as Challonge numbers them), so an empty slot can say "winner of match 5"
  before that match has a table.
- **played**: a pairing of a bracket round as it was stored: two players (or one and a
  bye), a table, a winner once decided, and the games won when they may be shown.

Filling never trusts positions alone: each played pairing is placed in the bracket
match whose expected players (the seeds, then the winners feeding it) it holds, so an
organiser's swap or a walkover still lands in the right box; what no expected player
identifies goes to the first free box of its round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tournaments.pairing.elimination import bracket_order, bracket_size


@dataclass(frozen=True)
class BracketMatch:
    """A box of the chart. ``seeds`` (first round only) are seed numbers, None beyond
    the field; ``feeders`` (later rounds) are the two matches whose winners come here."""

    round: int
    index: int
    number: int | None
    seeds: tuple[int | None, int | None] = (None, None)
    feeders: tuple[tuple[int, int], tuple[int, int]] | None = None

    @property
    def bye(self) -> bool:
        return self.round == 0 and self.seeds[1] is None


def bracket_layout(field: int) -> list[list[BracketMatch]]:
    """The empty chart for ``field`` players: a list of rounds, each a list of matches.

    A field of 0 or 1 has no matches (an empty list). 5 players: a bracket of 8 whose
    first round is 1 v bye, 4 v 5 (match 1), 2 v bye, 3 v bye; then match 2 (winners
    of boxes 0 and 1), match 3 (boxes 2 and 3) and the final, match 4.
    """
    if field < 2:
        return []
    size = bracket_size(field)
    order = bracket_order(size)
    number = 0
    first = []
    for index in range(size // 2):
        top, bottom = order[2 * index], order[2 * index + 1]
        seeds = (top, bottom if bottom <= field else None)
        if seeds[1] is not None:
            number += 1
        first.append(BracketMatch(0, index, number if seeds[1] else None, seeds))
    rounds = [first]
    while len(rounds[-1]) > 1:
        r = len(rounds)
        matches = []
        for index in range(len(rounds[-1]) // 2):
            number += 1
            feeders = ((r - 1, 2 * index), (r - 1, 2 * index + 1))
            matches.append(BracketMatch(r, index, number, feeders=feeders))
        rounds.append(matches)
    return rounds


def round_name(round: int, rounds: int) -> str:
    """ "Final", "Semi-finals", "Quarter-finals", else "Round of 16" (from the end)."""
    left = rounds - round  # 1 for the final
    names = {1: "Final", 2: "Semi-finals", 3: "Quarter-finals"}
    return names.get(left, f"Round of {2**left}")


@dataclass(frozen=True)
class Played:
    """A stored pairing of a bracket round. ``b`` None: a bye (or a walkover).
    ``winner`` is ``a`` or ``b`` once decided; ``shown`` False keeps its result from
    the public (the organiser's hiding options): no winner, no games on the chart."""

    a: int
    b: int | None
    table: int | None = None
    winner: int | None = None
    games: tuple[int, int] | None = None
    ref: int | None = None
    shown: bool = True


@dataclass(frozen=True)
class Slot:
    """One side of a filled box: a player, or what the box waits for ("winner of
    table 3"). ``won`` marks the side that went through; ``games`` its games won."""

    player: int | None = None
    waiting: str = ""
    seed: int | None = None
    won: bool = False
    games: int | None = None
    bye: bool = False


@dataclass(frozen=True)
class Box:
    """A bracket match as it stands: its two slots, and the pairing played there."""

    match: BracketMatch
    top: Slot
    bottom: Slot
    played: Played | None = None

    @property
    def winner(self) -> int | None:
        """Who went through (byes included), None while undecided or hidden."""
        for slot in (self.top, self.bottom):
            if slot.won:
                return slot.player
        return None

    @property
    def label(self) -> str:
        """How a later box names this one before its winner is known: a bye, which is
        no numbered match, by its top seed (who goes through without playing)."""
        if self.played is not None and self.played.table:
            return f"winner of table {self.played.table}"
        if self.match.number is None:
            return f"seed {self.match.seeds[0]}"
        return f"winner of match {self.match.number}"


def fill_bracket(
    field: int, seeds: Sequence[int], rounds: Sequence[Sequence[Played]]
) -> list[list[Box]]:
    """The chart for ``field`` players filled in from ``seeds`` (player ids, seed 1
    first; empty until the bracket is seeded) and the pairings of each bracket round
    published so far (``rounds[0]`` the first). Later rounds' boxes say whose winner
    they wait for."""
    layout = bracket_layout(field)
    boxes: list[list[Box]] = []
    winners: dict[tuple[int, int], int | None] = {}  # the true winners, for placing
    for r, matches in enumerate(layout):
        expected = [_expected(m, seeds, winners) for m in matches]
        placed = _place(expected, rounds[r] if r < len(rounds) else ())
        row = []
        for match, want, played in zip(matches, expected, placed, strict=True):
            box = _box(match, want, played, seeds, boxes)
            winners[(r, match.index)] = _true_winner(match, want, played)
            row.append(box)
        boxes.append(row)
    return boxes


def _expected(
    match: BracketMatch, seeds: Sequence[int], winners: dict[tuple[int, int], int | None]
) -> tuple[int | None, int | None]:
    if match.feeders is None:
        return tuple(  # type: ignore[return-value]
            seeds[s - 1] if s is not None and s <= len(seeds) else None for s in match.seeds
        )
    return (winners.get(match.feeders[0]), winners.get(match.feeders[1]))


def _place(
    expected: list[tuple[int | None, int | None]], played: Sequence[Played]
) -> list[Played | None]:
    """Each box's pairing: the one holding an expected player, else the next unclaimed."""
    placed: list[Played | None] = [None] * len(expected)
    free = list(played)
    for i, want in enumerate(expected):
        for p in free:
            if {p.a, p.b} & ({want[0], want[1]} - {None}):
                placed[i] = p
                free.remove(p)
                break
    for i in range(len(placed)):
        if placed[i] is None and free and not any(expected[i]):
            placed[i] = free.pop(0)
    return placed


def _true_winner(
    match: BracketMatch, want: tuple[int | None, int | None], played: Played | None
) -> int | None:
    if played is not None:
        return played.a if played.b is None else played.winner
    if match.bye and want[0] is not None:
        return want[0]  # seeded, not yet published: the top seed goes through anyway
    return None


def _box(
    match: BracketMatch,
    want: tuple[int | None, int | None],
    played: Played | None,
    seeds: Sequence[int],
    boxes: list[list[Box]],
) -> Box:
    if played is None:
        return Box(match, *_waiting(match, want, boxes))
    a, b = played.a, played.b
    if (b is not None and b == want[0]) or a == want[1]:
        a, b = b, a  # the pairing's seats run the other way round from the chart's
    games = played.games if played.shown else None
    if games is not None and (a, b) != (played.a, played.b):
        games = (games[1], games[0])
    won = played.a if played.b is None else (played.winner if played.shown else None)
    seed = {player: n for n, player in enumerate(seeds, start=1)} if match.round == 0 else {}
    top = _slot(a, seed, won, games[0] if games else None)
    bottom = _slot(b, seed, won, games[1] if games else None)
    return Box(match, top, bottom, played)


def _slot(player: int | None, seed: dict[int, int], won: int | None, games: int | None) -> Slot:
    if player is None:
        return Slot(waiting="bye", bye=True)
    return Slot(player, seed=seed.get(player), won=won == player, games=games)


def _waiting(
    match: BracketMatch, want: tuple[int | None, int | None], boxes: list[list[Box]]
) -> tuple[Slot, Slot]:
    """The slots of a box not yet paired: the seeds, or the winners fed in (shown only
    where the feeding box shows its winner), or what they wait for."""
    if match.feeders is None:
        top = Slot(want[0], waiting=f"seed {match.seeds[0]}", seed=match.seeds[0])
        if match.bye:
            return replace(top, won=want[0] is not None), Slot(waiting="bye", bye=True)
        return top, Slot(want[1], waiting=f"seed {match.seeds[1]}", seed=match.seeds[1])
    slots = []
    for r, i in match.feeders:
        feeder = boxes[r][i]
        slots.append(Slot(feeder.winner, waiting="" if feeder.winner else feeder.label))
    return slots[0], slots[1]
