"""Tournament standings: match wins first, then the tournament's ordered tie-breaks.

Terms:

- **record**: one finished match, or a bye (``b`` None). A bye is a match won by ``a``
  with the game score and points the organiser chose; standings just count them.
  Unfinished records (``winner`` None) are ignored.
- **match-win %**: match wins / matches played, byes included.
- **tie-breaks**, applied in the configured order to players still tied on match wins
  and on every earlier tie-break:

  - ``head_to_head``: only when exactly two players are tied at that point. If they
    met, the one who won more of their matches goes first; if they did not meet, or
    split their matches, it does not separate them. Three or more tied players are
    never separated by it, even if one of them beat all the others.
  - ``game_win_pct``: games won / games played (0 when none).
  - ``opponents_match_win_pct``: the mean, over the player's real opponents (one entry
    per match; byes excluded), of each opponent's match-win %, floored at 1/3 so that
    meeting a weak player costs less. 0 for a player with no real opponent.
  - ``margin``: the sum over matches of own points minus the opponent's points.
  - ``points``: the sum of own points.

- **knockout reach**: in an event with a knockout (a bracket, or a Swiss's top cut),
  how far each player went in it comes before everything else: its winner, then the
  other finalist, then those who reached the semi-finals, and so on, then those not in
  it. Given as the size of the last knockout round the player reached (1 for its
  winner, 2 the final, 4 the semi-finals...); a player not in it has none. Players who
  reached the same round are ordered by match wins and the tie-breaks.
- **full tie**: equal on match wins and every tie-break. Fully tied players share a
  rank (competition ranking: 1, 2, 2, 4) and are listed by id.

Ratios are compared exactly (as fractions), so 2/3 and 4/6 are a tie; the Standing
shows them as floats.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import NamedTuple

from tournaments.pairing.errors import PairingError
from tournaments.pairing.words import gettext_noop

TIEBREAKS = ("head_to_head", "game_win_pct", "opponents_match_win_pct", "margin", "points")
DEFAULT_TIEBREAKS = TIEBREAKS
OMW_FLOOR = Fraction(1, 3)

# A standings line's figures, in the order every output shows them (the API's standings
# and ladder lines, the CSV exports, the previews' moves): the Standing's attribute and
# what it is, in words (the API schema's description of it). The ratios are shown to
# RATIO_PLACES decimal places.
FIGURES = (
    ("matches", "Matches played, byes included."),
    ("match_wins", "Matches won, byes included."),
    ("games_won", "Games won."),
    ("games_played", "Games played."),
    ("game_win_pct", "Games won / games played (0 when none)."),
    (
        "opponents_match_win_pct",
        "The mean of the opponents' match-win %, each floored at 1/3.",
    ),
    ("margin", "Points for minus points against."),
    ("points", "Points scored in the matches counted."),
)
FIGURE_NAMES = tuple(name for name, _label in FIGURES)
RATIOS = frozenset({"game_win_pct", "opponents_match_win_pct"})
RATIO_PLACES = 4


class MatchRecord(NamedTuple):
    """One finished match, or a bye (``b`` None, ``winner`` == ``a``).

    Immutable like the frozen dataclasses here, but a named tuple: a season's ladder
    makes 20,000 of them per request, and a frozen dataclass takes ~5 times as long to
    build (one object.__setattr__ per field)."""

    a: int
    b: int | None
    winner: int | None
    games_a: int
    games_b: int
    points_a: int
    points_b: int


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings.

    ``tiebreaks`` holds every configured tie-break's value by name; for
    ``head_to_head`` it is 1.0 when head-to-head put this player above their one tied
    rival, -1.0 when it put them below, 0.0 when it did not apply. ``head_to_head``
    says the same in words ("beat #12", "lost to #12", where 12 is a registration id).
    """

    id: int
    rank: int
    matches: int
    match_wins: int
    games_won: int
    games_played: int
    game_win_pct: float
    opponents_match_win_pct: float
    margin: int
    points: int
    head_to_head: str
    tiebreaks: dict[str, float] = field(default_factory=dict)
    # the size of the last knockout round reached (1: won it); 0: not in a knockout
    reached: int = 0

    @property
    def met_anyone(self) -> bool:
        """Whether the player has met a real opponent (a bye is none). With one, each
        opponent's match-win % counts at least OMW_FLOOR, so only a player who met no
        one has opponents' match-win % 0: shown as none, not as 0%."""
        return self.opponents_match_win_pct > 0

    def figure(self, name: str) -> int | float:
        """One of FIGURES as outputs show it (a ratio to RATIO_PLACES places)."""
        value = getattr(self, name)
        return round(value, RATIO_PLACES) if name in RATIOS else value


@dataclass
class _Tally:
    """One player's running totals while the records are read."""

    matches: int = 0
    wins: int = 0
    games_won: int = 0
    games_played: int = 0
    margin: int = 0
    points: int = 0
    opponents: list[int] = field(default_factory=list)

    def add(self, won: bool, games: int, games_against: int, points: int, against: int) -> None:
        self.matches += 1
        self.wins += won
        self.games_won += games
        self.games_played += games + games_against
        self.points += points
        self.margin += points - against

    def match_win_pct(self) -> Fraction:
        return Fraction(self.wins, self.matches) if self.matches else Fraction(0)


def compute_standings(
    ids: Sequence[int],
    records: Sequence[MatchRecord],
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    reached: Mapping[int, int] | None = None,
) -> list[Standing]:
    """Standings of the players ``ids``, best first, from ``records``; ``reached``: the
    knockout reach of those in a knockout (see the terms above).

    Records may involve players outside ``ids`` (withdrawn ones): they count for their
    opponents. Raises PairingError ``bad_tiebreak`` or ``duplicate_player``.
    """
    _check(ids, tiebreaks)
    reached = reached or {}
    finished = [r for r in records if r.winner is not None]
    tallies = _tally(finished)
    floored = {p: _floored(tally) for p, tally in tallies.items()}
    values = {p: _values(tallies.get(p, _Tally()), floored) for p in ids}
    for p in ids:
        values[p]["reached"] = reach_value(reached.get(p, 0))
    groups, duels = _order(ids, tiebreaks, values, _head_to_head_wins(finished))
    lines, place = [], 1
    for group in groups:
        lines += [
            _standing(
                p, place, tallies.get(p, _Tally()), values[p], duels, tiebreaks, reached.get(p, 0)
            )
            for p in group
        ]
        place += len(group)
    return lines


def _check(ids: Sequence[int], tiebreaks: Sequence[str]) -> None:
    for name in tiebreaks:
        if name not in TIEBREAKS:
            known = ", ".join(TIEBREAKS)
            raise PairingError(
                "bad_tiebreak",
                gettext_noop("Unknown tie-break %(name)s; known: %(known)s."),
                {"name": repr(name), "known": known},
            )
    if len(set(tiebreaks)) != len(tiebreaks):
        raise PairingError("bad_tiebreak", gettext_noop("A tie-break is listed twice."))
    if len(set(ids)) != len(ids):
        raise PairingError("duplicate_player", gettext_noop("A player is listed twice."))


def reach_value(size: int) -> Fraction:
    """A knockout reach as it orders the standings, higher first: 1/size (0: none)."""
    return Fraction(1, size) if size else Fraction(0)


def _tally(finished: Sequence[MatchRecord]) -> dict[int, _Tally]:
    tallies: defaultdict[int, _Tally] = defaultdict(_Tally)  # a _Tally made only when new
    for r in finished:
        assert r.winner in (r.a, r.b), f"the winner {r.winner} did not play {r.a} v {r.b}"
        assert r.a != r.b, f"player {r.a} cannot meet themselves"
        first = tallies[r.a]
        first.add(r.winner == r.a, r.games_a, r.games_b, r.points_a, r.points_b)
        if r.b is not None:
            first.opponents.append(r.b)
            second = tallies[r.b]
            second.add(r.winner == r.b, r.games_b, r.games_a, r.points_b, r.points_a)
            second.opponents.append(r.a)
    return dict(tallies)


def _floored(tally: _Tally) -> tuple[int, int]:
    """A player's match-win %, floored at OMW_FLOOR, as (numerator, denominator)."""
    pct = max(tally.match_win_pct(), OMW_FLOOR)
    return pct.numerator, pct.denominator


def _values(tally: _Tally, floored: dict[int, tuple[int, int]]) -> dict[str, Fraction]:
    """The exact value of every tie-break except head-to-head, plus match wins."""
    played = tally.games_played
    return {
        "match_wins": Fraction(tally.wins),
        "game_win_pct": Fraction(tally.games_won, played) if played else Fraction(0),
        "opponents_match_win_pct": _mean(Counter(tally.opponents), floored),
        "margin": Fraction(tally.margin),
        "points": Fraction(tally.points),
    }


def _mean(opponents: Counter[int], floored: dict[int, tuple[int, int]]) -> Fraction:
    """The exact mean of the opponents' floored match-win %, one entry per match.

    Summed over one common denominator rather than fraction by fraction: a season's
    player meets 200 opponents whose ratios have 200 different denominators, and adding
    Fractions one at a time reduces a growing numerator at every step."""
    if not opponents:
        return Fraction(0)
    common = lcm(*{floored[o][1] for o in opponents})
    total = sum(n * floored[o][0] * (common // floored[o][1]) for o, n in opponents.items())
    return Fraction(total, common * sum(opponents.values()))


def _head_to_head_wins(finished: Sequence[MatchRecord]) -> Counter[tuple[int, int]]:
    """(winner, loser) -> how many times the winner beat the loser."""
    return Counter(  # counted from an iterable: Counter's fast path
        (r.winner, r.b if r.winner == r.a else r.a) for r in finished if r.b is not None
    )


Groups = list[list[int]]
Duels = dict[int, tuple[int, bool]]
"""Player -> (the one tied rival head-to-head separated them from, whether they won)."""


def _order(
    ids: Sequence[int],
    tiebreaks: Sequence[str],
    values: dict[int, dict[str, Fraction]],
    h2h: Counter[tuple[int, int]],
) -> tuple[Groups, Duels]:
    """Groups of fully tied players, best first; and who head-to-head put above whom."""
    groups = [
        wins
        for reach in _split(list(ids), lambda p: values[p]["reached"])
        for wins in _split(reach, lambda p: values[p]["match_wins"])
    ]
    duels: Duels = {}
    for name in tiebreaks:
        refined: Groups = []
        for group in groups:
            if name == "head_to_head":
                refined += _duel(group, h2h, duels)
            else:
                refined += _split(group, lambda p, name=name: values[p][name])
        groups = refined
    return groups, duels


def _split(players: list[int], key: Callable[[int], Fraction]) -> Groups:
    """``players`` sorted by ``key`` (highest first, then id), cut where it changes."""
    ranked = sorted(players, key=lambda p: (-key(p), p))
    groups: Groups = []
    for p in ranked:
        if groups and key(groups[-1][-1]) == key(p):
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


def _duel(group: list[int], h2h: Counter[tuple[int, int]], duels: Duels) -> Groups:
    """Split exactly two tied players by their matches against each other, if decisive."""
    if len(group) != 2:
        return [group]
    x, y = group
    if h2h[(x, y)] == h2h[(y, x)]:
        return [group]
    winner, loser = (x, y) if h2h[(x, y)] > h2h[(y, x)] else (y, x)
    duels[winner], duels[loser] = (loser, True), (winner, False)
    return [[winner], [loser]]


def _standing(
    p: int,
    rank: int,
    tally: _Tally,
    values: dict[str, Fraction],
    duels: Duels,
    tiebreaks: Sequence[str],
    reached: int = 0,
) -> Standing:
    rival, won = duels.get(p, (None, False))
    shown = {name: float(values[name]) for name in tiebreaks if name != "head_to_head"}
    shown["head_to_head"] = 0.0 if rival is None else (1.0 if won else -1.0)
    note = "" if rival is None else f"{'beat' if won else 'lost to'} #{rival}"
    return Standing(
        id=p,
        rank=rank,
        matches=tally.matches,
        match_wins=tally.wins,
        games_won=tally.games_won,
        games_played=tally.games_played,
        game_win_pct=float(values["game_win_pct"]),
        opponents_match_win_pct=float(values["opponents_match_win_pct"]),
        margin=tally.margin,
        points=tally.points,
        head_to_head=note,
        tiebreaks={name: shown[name] for name in tiebreaks},
        reached=reached,
    )
