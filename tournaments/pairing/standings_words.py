"""Why each standings line sits where it does, in words (issue 9: every number explains
itself).

Each line is compared with its neighbours: the line above and the line below. What
separates two neighbours is the first criterion of the standings order on which they
differ (match wins, then the tie-breaks in the tournament's order; see
:mod:`tournaments.pairing.standings`), and the sentence names it with both values:
"Ahead of Ben on game-win %: 7 of 11 against 6 of 11." Players equal on everything share
a rank and are said to be level. A penalty that decided a game or a match counted in a
line (docs/rules.md §18) is said after that, for both players of the match (`PenaltyNote`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.pairing.standings import Standing, reach_value
from tournaments.pairing.words import (
    Number,
    Phrase,
    Worded,
    english_number,
    gettext_noop,
    sentence,
)

# The criteria's names inside a sentence ("ahead of Ben on game-win %: ...").
CRITERIA = {
    "reached": gettext_noop("the knockout"),
    "match_wins": gettext_noop("match wins"),
    "head_to_head": gettext_noop("head-to-head"),
    "game_win_pct": gettext_noop("game-win %"),
    "opponents_match_win_pct": gettext_noop("opponents' match-win %"),
    "margin": gettext_noop("margin"),
    "points": gettext_noop("points"),
}


# A game or match loss penalty in a line's counted match, said from each side.
PENALISED = {
    "game_loss": gettext_noop("lost a game to %(name)s in round %(round)s by a game loss penalty"),
    "match_loss": gettext_noop("lost to %(name)s in round %(round)s by a match loss penalty"),
}
AWARDED = {
    "game_loss": gettext_noop(
        "won a game against %(name)s in round %(round)s by a game loss penalty against them"
    ),
    "match_loss": gettext_noop(
        "beat %(name)s in round %(round)s by a match loss penalty against them"
    ),
}


@dataclass(frozen=True, order=True)
class PenaltyNote:
    """A standing game or match loss penalty in a counted match: `round`, `kind`
    ("game_loss" or "match_loss"), the standing id it is against, and the opponent's."""

    round: int
    kind: str
    penalised: int
    opponent: int


def penalty_phrases(
    notes: Sequence[PenaltyNote], names: Mapping[int, str]
) -> dict[int, list[Phrase]]:
    """Standing id -> the phrases its penalty notes add to its why (both sides)."""
    said: dict[int, list[Phrase]] = {}
    for note in sorted(notes):
        for who, other, words in (
            (note.penalised, note.opponent, PENALISED),
            (note.opponent, note.penalised, AWARDED),
        ):
            params = {"name": names.get(other, f"#{other}"), "round": note.round}
            said.setdefault(who, []).append(Phrase(words[note.kind], params))
    return said


def explain_standings(
    lines: Sequence[Standing],
    names: Mapping[int, str],
    tiebreaks: Sequence[str],
    penalties: Sequence[PenaltyNote] = (),
) -> dict[int, Worded]:
    """Standing id -> why that line is where it is: who it is level with (a shared
    rank), and what puts it behind the line above its group and ahead of the one below.
    Each text is English and carries its phrase (tournaments.pairing.words) for the
    reader's language."""
    groups: list[list[Standing]] = []
    for line in lines:
        if groups and groups[-1][0].rank == line.rank:
            groups[-1].append(line)
        else:
            groups.append([line])
    why, penalised = {}, penalty_phrases(penalties, names)
    for g, group in enumerate(groups):
        for line in group:
            parts = []
            if len(group) > 1:
                parts.append(_level(line, group, names))
            if g > 0:
                parts.append(_against(line, groups[g - 1][-1], names, tiebreaks, above=False))
            if g + 1 < len(groups):
                parts.append(_against(line, groups[g + 1][0], names, tiebreaks, above=True))
            if not parts:
                parts.append(Phrase(gettext_noop("the only player in the standings")))
            why[line.id] = sentence(*parts, *penalised.get(line.id, ()))
    return why


def _level(line: Standing, group: Sequence[Standing], names: Mapping[int, str]) -> Phrase:
    others = [names.get(o.id, f"#{o.id}") for o in group if o.id != line.id]
    shown: str | Phrase = ", ".join(others[:3])
    if len(others) > 3:
        shown = Phrase(
            # Translators: names of players level with this one, and how many more.
            gettext_noop("%(names)s and %(count)s more"),
            {"names": shown, "count": len(others) - 3},
        )
    return Phrase(
        # Translators: "Shares 1st with Cleo: ..." in the standings' why.
        gettext_noop("shares %(rank)s with %(names)s: level on match wins and every tie-break"),
        {"rank": ordinal(line.rank), "names": shown},
    )


def _against(
    line: Standing, other: Standing, names: Mapping[int, str], tiebreaks, *, above: bool
) -> Phrase:
    """`line` against `other` of the next group (`above`: line is the better of the two)."""
    who = names.get(other.id, f"#{other.id}")
    criterion = deciding(line, other, tiebreaks) if above else deciding(other, line, tiebreaks)
    assert criterion is not None, "lines of different ranks differ somewhere"
    if criterion == "head_to_head":
        if above:
            return Phrase(
                gettext_noop("ahead of %(name)s on head-to-head: beat %(name)s"), {"name": who}
            )
        return Phrase(
            gettext_noop("behind %(name)s on head-to-head: lost to %(name)s"), {"name": who}
        )
    mine, theirs = _value(line, criterion), _value(other, criterion)
    if _english(mine) == _english(theirs):  # close ratios that round alike: one more decimal
        mine, theirs = _value(line, criterion, 1), _value(other, criterion, 1)
    params = {"name": who, "criterion": Phrase(CRITERIA[criterion]), "mine": mine, "theirs": theirs}
    if above:
        # Translators: "ahead of Ben on game-win %: 7 of 11 against 6 of 11".
        return Phrase(
            gettext_noop("ahead of %(name)s on %(criterion)s: %(mine)s against %(theirs)s"), params
        )
    return Phrase(
        gettext_noop("behind %(name)s on %(criterion)s: %(mine)s against %(theirs)s"), params
    )


def deciding(first: Standing, second: Standing, tiebreaks: Sequence[str]) -> str | None:
    """The first criterion of the standings order on which `first` (the higher line)
    and `second` differ; None when they are level on all."""
    for criterion in ("reached", "match_wins", *tiebreaks):
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
    if criterion == "reached":
        return reach_value(line.reached)
    if criterion == "match_wins":
        return line.match_wins
    return getattr(line, criterion)  # the ratios are floats of exact fractions


# How far a player went in a knockout, by the size of the last round they reached.
REACHED = {
    0: gettext_noop("not in it"),
    1: gettext_noop("won it"),
    2: gettext_noop("reached the final"),
    4: gettext_noop("reached the semi-finals"),
    8: gettext_noop("reached the quarter-finals"),
}
# Translators: how far a player went in a knockout: "reached the last 16".
REACHED_LAST = gettext_noop("reached the last %(count)s")


def _value(line: Standing, criterion: str, decimals: int = 0) -> Number | Phrase:
    if criterion == "reached":
        if line.reached in REACHED:
            return Phrase(REACHED[line.reached])
        return Phrase(REACHED_LAST, {"count": line.reached})
    if criterion == "match_wins":
        return Number(line.match_wins)
    if criterion == "game_win_pct":
        if not line.games_played:  # a match decided on time with no game finished
            return Phrase(gettext_noop("no game finished"))
        # Translators: games won of games played, "7 of 11".
        return Phrase(
            gettext_noop("%(won)s of %(played)s"),
            {"won": line.games_won, "played": line.games_played},
        )
    if criterion == "opponents_match_win_pct":
        if not line.met_anyone:  # byes only, or no match finished yet
            return Phrase(gettext_noop("no opponent met yet"))
        return Number(line.opponents_match_win_pct, percent=decimals)
    if criterion == "margin":
        return Number(line.margin, signed=True)
    return Number(line.points)


ORDINALS = {
    # Translators: a rank in the standings: 1st, 2nd, 3rd, 4th, 11th, 21st...
    "st": gettext_noop("%(n)sst"),
    "nd": gettext_noop("%(n)snd"),
    "rd": gettext_noop("%(n)srd"),
    "th": gettext_noop("%(n)sth"),
}


def _english(value: Number | Phrase) -> str:
    return value.text() if isinstance(value, Phrase) else english_number(value)


def ordinal(n: int) -> Phrase:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return Phrase(ORDINALS[suffix], {"n": n})
