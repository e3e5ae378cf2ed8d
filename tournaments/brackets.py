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

from dataclasses import dataclass

from tournaments.models import Pairing, Round, Tournament
from tournaments.pairing.bracket import Box, Played, Slot, fill_bracket, round_name
from tournaments.selectors import PAIRING_FIELDS, decided_winner, field_size

BRACKET_FORMATS = (Tournament.Format.ELIMINATION, Tournament.Format.SWISS_CUT)


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
        .values(*PAIRING_FIELDS, "table")
    )
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
        BracketRound(start + r, round_name(r, total), [_box(box, names) for box in boxes])
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
    if row["resolved_at"] is not None:
        games = (row["result_games_a"], row["result_games_b"])
    elif row["match_id"] is not None:
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
        waiting=slot.waiting,
        seed=slot.seed,
        won=slot.won,
        lost=decided and not slot.won and not slot.bye,
        games=slot.games,
        bye=slot.bye,
        registration=slot.player,
    )


def _box(box: Box, names: dict[int, str]) -> BoxView:
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
    )
