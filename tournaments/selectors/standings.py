"""The standings: each player's line (rank, figures, head-to-head, why it is where it
is), in 3 queries whatever the number of players, rounds or hands. They are computed by
tournaments.pairing.compute_standings from one record per decided pairing (see
tournaments.models: a finished match, a bye, or a resolved result).

Terms:
    pairing row      a pairing of a published or closed round, as plain values
                     (PAIRING_FIELDS; its result: RESULT_FIELDS).
    record           a decided pairing's result as tournaments.pairing counts it
                     (record_of); an undecided pairing has none.
    version          a digest of what the lines are computed from (standings_version):
                     the lines are cached by it, and a hand in play leaves it be.
    standing values  a line's rank and figures, as a correction's or a rules change's
                     preview compares two standings (standings_moves).

Hiding (for the public only; organisers always see everything):
    hide_standings_during_round  while a round is published and not closed, the public
                                 sees the standings after the last closed round.
    hide_last_rounds = N         until the tournament is finished, the public sees at
                                 most the standings after round (planned rounds − N).
    public = False               the public sees nothing (registered players still see
                                 pairings and standings, hidden as for the public).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.core.cache import caches
from django.db.models import Exists, OuterRef
from django.utils.translation import get_language, gettext, gettext_noop, ngettext

from scoring.models import Match, Penalty
from tournaments import translated
from tournaments.formats import planned_rounds
from tournaments.models import Pairing, Round, Tournament
from tournaments.pairing import (
    DEFAULT_TIEBREAKS,
    FIGURE_NAMES,
    MatchRecord,
    PenaltyNote,
    Standing,
    bracket_size,
    compute_standings,
    explain_standings,
)
from tournaments.pairing.words import worded

# ------------------------------------------------------------- the reader's words


def in_reader_language(value: Any) -> Any:
    """`value` in the active language if it carries a phrase (a standings line's why,
    its head-to-head); anything else as it is (tournaments.translated)."""
    return translated.worded(value)


# ---------------------------------------------------------------------- standings

# A table's result, as record_of reads it: its match's (whoever decided it: the hands,
# an organiser, the time policy); a bye's own games and points.
RESULT_FIELDS = (
    "bye_games",
    "bye_points",
    "match__state",
    "match__winner",
    "match__games_won_a",
    "match__games_won_b",
    "match__points_a",
    "match__points_b",
)
PAIRING_FIELDS = (
    "id",
    "match_id",
    "round__number",
    "round__stage",
    "player_a_id",
    "player_b_id",
    *RESULT_FIELDS,
)
DONE = Match.OVER


def pairing_rows(tournament: Tournament, *, through_round: int | None = None) -> list[dict]:
    """Every pairing of the published and closed rounds, as plain values (one query)."""
    rows = Pairing.objects.filter(
        round__tournament=tournament, round__state__in=[Round.State.PUBLISHED, Round.State.CLOSED]
    )
    if through_round is not None:
        rows = rows.filter(round__number__lte=through_round)
    # whether a game or match loss penalty stands in the match (penalty_notes reads which)
    penalised = Penalty.objects.filter(
        match=OuterRef("match_id"), kind__in=Penalty.CHANGES_RESULT, reversed_at=None
    )
    rows = rows.annotate(penalised=Exists(penalised))
    return list(rows.order_by("round__number", "position").values(*PAIRING_FIELDS, "penalised"))


def decided_winner(row: dict) -> str | None:
    """ "A" or "B" once the pairing is decided (a bye is won by A), else None."""
    if row["player_b_id"] is None:
        return "A"
    if row["match__state"] in DONE:
        return row["match__winner"] or None
    return None


def record_of(row: dict) -> MatchRecord | None:
    """The standings record of a pairing row, or None while it is undecided."""
    seat = decided_winner(row)
    if seat is None:
        return None
    a, b = row["player_a_id"], row["player_b_id"]
    if b is None:
        games, points = (row["bye_games"], 0), (row["bye_points"], 0)
    else:
        games = (row["match__games_won_a"], row["match__games_won_b"])
        points = (row["match__points_a"], row["match__points_b"])
    return MatchRecord(
        a=a,
        b=b,
        winner=a if seat == "A" else b,
        games_a=games[0],
        games_b=games[1],
        points_a=points[0],
        points_b=points[1],
    )


@dataclass(frozen=True)
class StandingRow:
    standing: Standing
    name: str
    player_id: int
    withdrawn: bool
    late: bool
    head_to_head: str
    why: str = ""  # why this line is where it is (pairing.standings_words)

    @property
    def registration_id(self) -> int:
        return self.standing.id


@dataclass
class StandingsView:
    tournament: Tournament
    rows: list[StandingRow]
    tiebreaks: tuple[str, ...]
    through_round: int | None
    rounds_played: int
    hidden: bool = False
    note: str = ""
    rounds_closed: int = 0  # the last closed round counted
    version: str = ""  # a digest of what the lines were computed from (standings_version)

    @property
    def caption(self) -> str:
        """Which rounds these standings follow, in words: "After round 2, with the
        tables of round 3 finished so far"."""
        in_play = self.rounds_played > self.rounds_closed and (
            self.through_round is None or self.through_round >= self.rounds_played
        )
        if in_play and self.rounds_closed:
            return gettext(
                "After round %(closed)s, with the tables of round %(played)s finished so far."
            ) % {"closed": self.rounds_closed, "played": self.rounds_played}
        if in_play:
            return gettext("Round %(played)s in play: the tables finished so far.") % {
                "played": self.rounds_played
            }
        if self.rounds_closed:
            return gettext("After round %(closed)s.") % {"closed": self.rounds_closed}
        return ""


def tiebreaks_of(tournament: Tournament) -> tuple[str, ...]:
    return tuple(tournament.tiebreaks or DEFAULT_TIEBREAKS)


def standings(
    tournament: Tournament,
    *,
    public: bool = False,
    through_round: int | None = None,
    replace: dict[int, dict[str, Any]] | None = None,
) -> StandingsView:
    """The standings, in 3 queries. `public` applies the hiding options; `through_round`
    asks for the standings after that round (a public request never sees past what the
    hiding options allow). `replace` maps a match id to a result (scoring's result_of)
    to count instead of the stored one: the standings as they were before a change."""
    registrations = list(
        tournament.registrations.values(
            "id", "player_id", "player__name", "withdrawn", "late", "checked_in"
        )
    )
    rounds = list(tournament.round_set.values_list("number", "state"))
    limit, note = None, ""
    if public:
        active = sum(
            1
            for r in registrations
            if not r["withdrawn"] and (r["checked_in"] or not tournament.check_in_required)
        )
        limit, note = public_limit(tournament, rounds, active)
    if through_round is not None and (limit is None or through_round < limit):
        limit = through_round
    played = max((n for n, s in rounds if s != Round.State.DRAFT), default=0)
    if public and limit == 0 and played:
        return StandingsView(tournament, [], tiebreaks_of(tournament), 0, played, True, note)
    pairings = pairing_rows(tournament, through_round=limit)
    counted = [_replaced(row, replace) for row in pairings]
    records = [r for row in counted if (r := record_of(row)) is not None]
    reached = knockout_reach(counted)
    if played and tournament.check_in_required:
        # Someone who registered but never checked in (and so never played) is no
        # standing of the event: left out once play has begun.
        seated = {row[k] for row in pairings for k in ("player_a_id", "player_b_id")}
        registrations = [r for r in registrations if r["checked_in"] or r["id"] in seated]
    closed = max(
        (n for n, s in rounds if s == Round.State.CLOSED and (limit is None or n <= limit)),
        default=0,
    )
    notes = penalty_notes(pairings)
    version = standings_version(tournament, registrations, records, notes, reached)
    return StandingsView(
        tournament,
        _cached_rows(version, tournament, registrations, records, notes, reached),
        tiebreaks_of(tournament),
        limit,
        played,
        bool(note),
        note,
        closed,
        version,
    )


STANDINGS_CACHE_SECONDS = 3600


def knockout_reach(rows: list[dict]) -> dict[int, int]:
    """How far each player went in the event's knockout (a bracket, or a Swiss's top
    cut), from its pairing rows: the size of the last knockout round they were drawn in
    (the bracket that holds its pairings, byes included: 4 for the semi-finals, also when
    a pair of withdrawn players was left out), 1 for the winner of a decided final.
    Empty before the knockout starts. The standings order by it first
    (tournaments.pairing.standings)."""
    rounds: defaultdict[int, list[dict]] = defaultdict(list)
    for row in rows:
        if row["round__stage"] == Round.Stage.ELIMINATION:
            rounds[row["round__number"]].append(row)
    reached = {}
    for number in sorted(rounds):
        size = bracket_size(2 * len(rounds[number]))
        for row in rounds[number]:
            for player in (row["player_a_id"], row["player_b_id"]):
                if player is not None:
                    reached[player] = size
    if rounds and len(final := rounds[max(rounds)]) == 1:
        seat = decided_winner(final[0])
        if seat is not None and final[0]["player_b_id"] is not None:
            reached[final[0]["player_a_id" if seat == "A" else "player_b_id"]] = 1
    return reached


def penalty_notes(pairings: list[dict]) -> list[PenaltyNote]:
    """The standing game and match loss penalties of the decided (counted) matches: each
    line's why says them (docs/rules.md §18). One query, and none when no counted match
    has one (`penalised`, pairing_rows')."""
    rows = {
        p["match_id"]: p
        for p in pairings
        if p["match_id"] and p.get("penalised") and decided_winner(p)
    }
    if not rows:
        return []
    found = Penalty.objects.filter(
        match_id__in=rows, kind__in=Penalty.CHANGES_RESULT, reversed_at=None
    ).values_list("match_id", "kind", "seat")
    notes = []
    for match_id, kind, seat in found:
        row = rows[match_id]
        mine, theirs = (row["player_a_id"], row["player_b_id"])[:: 1 if seat == "A" else -1]
        notes.append(PenaltyNote(row["round__number"], kind, mine, theirs))
    return sorted(notes)


def standings_version(
    tournament: Tournament,
    registrations: list[dict],
    records: list[MatchRecord],
    notes: list[PenaltyNote] = (),
    reached: dict[int, int] | None = None,
) -> str:
    """A digest of everything the standings lines are computed from: the players (names,
    withdrawn, late), the decided results and the tie-breaks. Undecided matches, hands in
    play and the clock do not move a line, so they are not in it: while a busy hall plays
    its hands, the version stays put and the lines (and the rendered table, see
    _standings_table.html) are reused instead of computed again for every poll."""
    raw = repr(
        (
            tiebreaks_of(tournament),
            sorted(
                (r["id"], r["player_id"], r["player__name"], r["withdrawn"], r["late"])
                for r in registrations
            ),
            records,
            list(notes),
            sorted((reached or {}).items()),
        )
    )
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


def _cached_rows(
    version: str,
    tournament: Tournament,
    registrations: list[dict],
    records: list[MatchRecord],
    notes: list[PenaltyNote] = (),
    reached: dict[int, int] | None = None,
) -> list[StandingRow]:
    """The lines for `version`, computed once for the app server's workers (the shared
    cache: the key is the content, and the language, in case a line is ever worded when
    computed)."""
    key = f"standings-rows:{tournament.pk}:{get_language()}:{version}"
    rows = _ROWS_SEEN.get(key)
    if rows is None:
        shared = caches["shared"]
        rows = shared.get(key)
        if rows is None:
            rows = _rows(tournament, registrations, records, notes, reached)
            shared.set(key, rows, STANDINGS_CACHE_SECONDS)
        rows = tuple(rows)
        if len(_ROWS_SEEN) >= ROWS_SEEN_MAX:
            _ROWS_SEEN.pop(next(iter(_ROWS_SEEN)), None)  # the oldest
        _ROWS_SEEN[key] = rows
    return list(rows)


# This process's last few lines, by the same key: reading 512 lines back from the shared
# cache (unpickling their rows and reasons) was a fifth of a projector poll, every poll.
# The key is the content's digest and the lines are frozen, so a copy is never stale.
ROWS_SEEN_MAX = 32
_ROWS_SEEN: dict[str, tuple[StandingRow, ...]] = {}


def _replaced(row: dict, replace: dict[int, dict[str, Any]] | None) -> dict:
    result = replace.get(row["match_id"]) if replace else None
    if result is None:
        return row
    return {
        **row,
        "match__state": result["state"],
        "match__winner": result["winner"] or "",
        "match__games_won_a": result["games_won"]["A"],
        "match__games_won_b": result["games_won"]["B"],
        "match__points_a": result["points"]["A"],
        "match__points_b": result["points"]["B"],
    }


def _rows(
    tournament: Tournament,
    registrations: list[dict],
    records: list[MatchRecord],
    notes: list[PenaltyNote] = (),
    reached: dict[int, int] | None = None,
) -> list[StandingRow]:
    by_id = {r["id"]: r for r in registrations}
    lines = compute_standings(sorted(by_id), records, tiebreaks_of(tournament), reached)
    why = explain_standings(  # why each line is where it is
        lines,
        {i: r["player__name"] for i, r in by_id.items()},
        tiebreaks_of(tournament),
        notes,
    )
    rows = []
    for line in lines:
        reg = by_id[line.id]
        rows.append(
            StandingRow(
                line,
                reg["player__name"],
                reg["player_id"],
                reg["withdrawn"],
                reg["late"],
                _named(line.head_to_head, by_id),
                why[line.id],
            )
        )
    return rows


# The head-to-head notes of tournaments.pairing ("beat #12"), with the player's name.
HEAD_TO_HEAD = {
    "beat ": gettext_noop("beat %(name)s"),
    "lost to ": gettext_noop("lost to %(name)s"),
}


def _named(note: str, by_id: dict[int, dict]) -> str:
    """ "beat #12" with the registration id replaced by the player's name: the English
    text, carrying its phrase for the reader's language (in_reader_language)."""
    if "#" not in note:
        return note
    words, _hash, reg = note.rpartition("#")
    found = by_id.get(int(reg)) if reg.isdigit() else None
    if not found:
        return note
    if words in HEAD_TO_HEAD:
        return worded(HEAD_TO_HEAD[words], name=found["player__name"])
    return f"{words}{found['player__name']}"


def public_limit(
    tournament: Tournament, rounds: list[tuple[int, str]], active: int
) -> tuple[int | None, str]:
    """The last round whose results the public may see (None: all), and why."""
    if tournament.state == Tournament.State.FINISHED:
        return None, ""
    last_closed = max((n for n, s in rounds if s == Round.State.CLOSED), default=0)
    running = [n for n, s in rounds if s == Round.State.PUBLISHED]
    limit, note = None, ""
    if tournament.hide_standings_during_round and running:
        limit = last_closed
        note = (
            gettext("Standings after round %(closed)s; round %(running)s is being played.")
            % {"closed": last_closed, "running": running[0]}
            if last_closed
            else gettext("Round %(running)s is being played; standings follow.")
            % {"running": running[0]}
        )
    if tournament.hide_last_rounds:
        shown_until = max(planned_rounds(tournament, active) - tournament.hide_last_rounds, 0)
        reached = (
            limit
            if limit is not None
            else max((n for n, s in rounds if s != Round.State.DRAFT), default=0)
        )
        if reached > shown_until:
            limit = shown_until
            note = ngettext(
                "The last %(count)s rounds are hidden until the end: standings after round "
                "%(shown)s.",
                "The last %(count)s rounds are hidden until the end: standings after round "
                "%(shown)s.",
                tournament.hide_last_rounds,
            ) % {"count": tournament.hide_last_rounds, "shown": shown_until}
    return limit, note


# The standing values a change is judged by, in the order the previews show them: the
# rank, then the line's figures (tournaments.pairing.FIGURES).
STANDING_VALUES = ("rank", *FIGURE_NAMES)


def standing_values(standing: Standing) -> dict[str, Any]:
    """A line's rank and figures as plain values, to compare two standings (and to keep
    in a rules change's job result)."""
    return {"rank": standing.rank, **{name: standing.figure(name) for name in FIGURE_NAMES}}


def standings_moves(before: StandingsView, after: StandingsView) -> list[dict[str, Any]]:
    """Every line whose values differ between two standings (a correction's or a rules
    change's preview): [{"registration", "name", "before" (None: new), "after"}]."""
    old = {row.registration_id: standing_values(row.standing) for row in before.rows}
    moves = []
    for row in after.rows:
        now, was = standing_values(row.standing), old.get(row.registration_id)
        if was != now:
            moves.append(
                {"registration": row.registration_id, "name": row.name, "before": was, "after": now}
            )
    return moves
