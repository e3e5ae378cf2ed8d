"""A tournament's bracket as the public page, the projector and the print show it (reads).

Single elimination is one bracket from round 1; a Swiss then top cut has its bracket
after the Swiss rounds (round `rounds + 1` on). The chart is drawn by
tournaments.pairing.bracket from the seeds (the roster fixed when the bracket's first
round was drafted, shown once it is published) and the pairings of the bracket rounds
published so far. Results of the rounds the organiser hides (`hidden_after`, as on the
public pairings page) leave their boxes without a winner or games.

Three queries: the registrations' names, the bracket rounds, their pairings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from scoring.models import Match
from tournaments.models import Pairing, Round, Tournament
from tournaments.pairing.bracket import Box, Played, Slot, fill_bracket, round_name
from tournaments.selectors.events import field_size
from tournaments.selectors.standings import PAIRING_FIELDS, decided_winner

BRACKET_FORMATS = (Tournament.Format.ELIMINATION, Tournament.Format.SWISS_CUT)


# The pure chart (tournaments.pairing.bracket) names rounds and what a box waits for in
# fixed English; they are put in the language of the page that shows the chart, when it
# is rendered (lazily: a print renders in the event's language, tournaments.views.outputs).
_FIXED_WORDS = {
    # Translators: the last round of a bracket.
    "Final": gettext_lazy("Final"),
    "Semi-finals": gettext_lazy("Semi-finals"),
    "Quarter-finals": gettext_lazy("Quarter-finals"),
    # Translators: a bracket round with 16 players left (in Italian: ottavi di finale).
    "Round of 16": gettext_lazy("Round of 16"),
    # Translators: a bracket round with 32 players left (in Italian: sedicesimi di finale).
    "Round of 32": gettext_lazy("Round of 32"),
    # Translators: a bracket slot with no opponent (a bye).
    "bye": gettext_lazy("bye"),
}
_NUMBERED_WORDS = {  # said when rendered (_numbered_words)
    # Translators: a bracket round with that many players left: "Round of 64".
    "Round of": gettext_noop("Round of %(number)s"),
    # Translators: a bracket slot waiting for its seeded player: "seed 3".
    "seed": gettext_noop("seed %(number)s"),
    # Translators: a bracket slot waiting for the winner of a table: "winner of table 3".
    "winner of table": gettext_noop("winner of table %(number)s"),
    # Translators: a bracket slot waiting for the winner of a bracket match not yet paired.
    "winner of match": gettext_noop("winner of match %(number)s"),
}
_NUMBERED = re.compile(r"(Round of|seed|winner of table|winner of match) (\d+)")


def chart_words(english: str) -> str:
    """A label of the pure chart, said in the language active when it is rendered
    (unknown text as it is)."""
    if english in _FIXED_WORDS:
        return _FIXED_WORDS[english]
    numbered = _NUMBERED.fullmatch(english)
    if numbered is None:
        return english
    return _numbered_words(numbered[1], int(numbered[2]))


def _say_numbered(kind: str, number: int) -> str:
    return gettext(_NUMBERED_WORDS[kind]) % {"number": number}


_numbered_words = lazy(_say_numbered, str)


def has_bracket(tournament: Tournament) -> bool:
    return tournament.format in BRACKET_FORMATS


def first_bracket_round(tournament: Tournament) -> int:
    """The tournament round number of the bracket's first round."""
    return tournament.rounds + 1 if tournament.format == Tournament.Format.SWISS_CUT else 1


@dataclass(frozen=True)
class SlotView:
    name: str
    waiting: str
    seed: int | None
    won: bool
    lost: bool
    games: int | None
    bye: bool
    registration: int | None


@dataclass(frozen=True)
class BoxView:
    number: int | None
    table: int | None
    pairing: int | None  # links to the public match summary when it has a table
    top: SlotView
    bottom: SlotView
    state: str  # "bye", "waiting", "playing", "finished"
    # Who decided a finished match over the hands (Match.DecidedBy's words), else "": a
    # no-show's or time's 0–0 would otherwise read as a win from nothing.
    decided_by: str = ""

    @property
    def slots(self) -> tuple[SlotView, SlotView]:
        return (self.top, self.bottom)


@dataclass(frozen=True)
class BracketRound:
    number: int  # the tournament's round number
    name: str
    boxes: list[BoxView]


@dataclass(frozen=True)
class BracketView:
    tournament: Tournament
    rounds: list[BracketRound]
    champion: str | None
    seeded: bool  # the first bracket round is published: the seeds have names

    @property
    def size(self) -> int:
        return 2 * len(self.rounds[0].boxes) if self.rounds else 0


def bracket(tournament: Tournament, *, hidden_after: int | None = None) -> BracketView:
    """The bracket as it stands. `hidden_after`: the last round whose results show."""
    start = first_bracket_round(tournament)
    names = dict(tournament.registrations.values_list("id", "player__name"))
    published = dict(
        tournament.round_set.filter(number__gte=start)
        .exclude(state=Round.State.DRAFT)
        .values_list("number", "id")
    )
    rows = list(
        Pairing.objects.filter(round_id__in=published.values())
        .order_by("round__number", "position")
        .values(*PAIRING_FIELDS, "table", "match__decided_by")
    )
    decided_by = {row["id"]: row["match__decided_by"] for row in rows}
    seeded = start in published
    seeds = list(tournament.roster) if seeded else []
    field = _field(tournament, seeds)
    rounds: list[list[Played]] = [[] for _ in published]
    for row in rows:
        index = row["round__number"] - start
        if 0 <= index < len(rounds):
            shown = hidden_after is None or row["round__number"] <= hidden_after
            rounds[index].append(_played(row, shown))
    chart = fill_bracket(field, seeds, rounds)
    total = len(chart)
    view_rounds = [
        BracketRound(
            start + r,
            chart_words(round_name(r, total)),
            [_box(box, names, decided_by) for box in boxes],
        )
        for r, boxes in enumerate(chart)
    ]
    final = chart[-1][0].winner if chart else None
    return BracketView(tournament, view_rounds, names.get(final) if final else None, seeded)


def _field(tournament: Tournament, seeds: list[int]) -> int:
    if seeds:
        return len(seeds)
    if tournament.format == Tournament.Format.SWISS_CUT:
        return min(tournament.cut_size, field_size(tournament))
    return len(tournament.roster) or field_size(tournament)


def _played(row: dict, shown: bool) -> Played:
    seat = decided_winner(row)
    winner = None if seat is None else row["player_a_id" if seat == "A" else "player_b_id"]
    if row["match_id"] is not None:
        games = (row["match__games_won_a"], row["match__games_won_b"])
    else:
        games = None
    return Played(
        a=row["player_a_id"],
        b=row["player_b_id"],
        table=row["table"],
        winner=winner,
        games=games if row["player_b_id"] is not None else None,
        ref=row["id"],
        shown=shown,
    )


def _slot(slot: Slot, names: dict[int, str], decided: bool) -> SlotView:
    return SlotView(
        name=names.get(slot.player, "") if slot.player is not None else "",
        waiting=chart_words(slot.waiting) if slot.waiting else "",
        seed=slot.seed,
        won=slot.won,
        lost=decided and not slot.won and not slot.bye,
        games=slot.games,
        bye=slot.bye,
        registration=slot.player,
    )


def _box(box: Box, names: dict[int, str], decided_by: dict[int, str]) -> BoxView:
    decided = box.winner is not None
    if box.match.bye or box.bottom.bye:
        state = "bye"
    elif box.played is None:
        state = "waiting"
    else:
        state = "finished" if decided else "playing"
    played = box.played
    return BoxView(
        number=box.match.number,
        table=played.table if played else None,
        pairing=played.ref if played and played.table else None,
        top=_slot(box.top, names, decided),
        bottom=_slot(box.bottom, names, decided),
        state=state,
        decided_by=_decided_by(decided_by.get(played.ref) if decided and played else None),
    )


def _decided_by(value: str | None) -> str:
    return Match.DecidedBy(value).label if value else ""
