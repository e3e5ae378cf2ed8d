"""Why each standings line sits where it does, in words (issue 9: every number explains
itself).

Each line is compared with its neighbours: the line above and the line below. What
separates two neighbours is the first criterion of the standings order on which they
differ (match wins, then the tie-breaks in the tournament's order; see
:mod:`tournaments.pairing.standings`), and the sentence names it with both values:
"Ahead of Ben on game-win %: 7 of 11 against 6 of 11." Players equal on everything share
a rank and are said to be level.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tournaments.pairing.standings import Standing

CRITERIA = {
    "match_wins": "match wins",
    "head_to_head": "head-to-head",
    "game_win_pct": "game-win %",
    "opponents_match_win_pct": "opponents' match-win %",
    "margin": "margin",
    "points": "points",
}


def explain_standings(
    lines: Sequence[Standing], names: Mapping[int, str], tiebreaks: Sequence[str]
) -> dict[int, str]:
    """Standing id -> why that line is where it is: who it is level with (a shared
    rank), and what puts it behind the line above its group and ahead of the one below."""
    groups: list[list[Standing]] = []
    for line in lines:
        if groups and groups[-1][0].rank == line.rank:
            groups[-1].append(line)
        else:
            groups.append([line])
    why = {}
    for g, group in enumerate(groups):
        for line in group:
            parts = []
            if len(group) > 1:
                parts.append(_level(line, group, names))
            if g > 0:
                parts.append(_against(line, groups[g - 1][-1], names, tiebreaks, above=False))
            if g + 1 < len(groups):
                parts.append(_against(line, groups[g + 1][0], names, tiebreaks, above=True))
            text = "; ".join(parts) if parts else "the only player in the standings"
            why[line.id] = text[0].upper() + text[1:] + "."
    return why


def _level(line: Standing, group: Sequence[Standing], names: Mapping[int, str]) -> str:
    others = [names.get(o.id, f"#{o.id}") for o in group if o.id != line.id]
    shown = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
    return f"shares {_ordinal(line.rank)} with {shown}: level on match wins and every tie-break"


def _against(
    line: Standing, other: Standing, names: Mapping[int, str], tiebreaks, *, above: bool
) -> str:
    """`line` against `other` of the next group (`above`: line is the better of the two)."""
    who = names.get(other.id, f"#{other.id}")
    criterion = deciding(line, other, tiebreaks) if above else deciding(other, line, tiebreaks)
    assert criterion is not None, "lines of different ranks differ somewhere"
    place = "ahead of" if above else "behind"
    if criterion == "head_to_head":
        return f"{place} {who} on head-to-head: {'beat' if above else 'lost to'} {who}"
    mine, theirs = _value(line, criterion), _value(other, criterion)
    if mine == theirs:  # close ratios that round alike: one more decimal
        mine, theirs = _value(line, criterion, 1), _value(other, criterion, 1)
    return f"{place} {who} on {CRITERIA[criterion]}: {mine} against {theirs}"


def deciding(first: Standing, second: Standing, tiebreaks: Sequence[str]) -> str | None:
    """The first criterion of the standings order on which `first` (the higher line)
    and `second` differ; None when they are level on all."""
    for criterion in ("match_wins", *tiebreaks):
        if criterion == "head_to_head":
            if first.tiebreaks.get("head_to_head", 0.0) != second.tiebreaks.get(
                "head_to_head", 0.0
            ) and first.head_to_head.endswith(f"#{second.id}"):
                return criterion
            continue
        if _key(first, criterion) != _key(second, criterion):
            return criterion
    return None


def _key(line: Standing, criterion: str):
    if criterion == "match_wins":
        return line.match_wins
    return getattr(line, criterion)  # the ratios are floats of exact fractions


def _value(line: Standing, criterion: str, decimals: int = 0) -> str:
    if criterion == "match_wins":
        return str(line.match_wins)
    if criterion == "game_win_pct":
        return f"{line.games_won} of {line.games_played}"
    if criterion == "opponents_match_win_pct":
        return f"{line.opponents_match_win_pct:.{decimals}%}"
    if criterion == "margin":
        return f"{line.margin:+,}"
    return f"{line.points:,}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
