"""CSV exports: the standings, and every hand of the event (reads, one query each)."""

from __future__ import annotations

import csv
import io

from scoring.models import Hand
from tournaments.models import Tournament
from tournaments.selectors import StandingsView

STANDINGS_COLUMNS = [
    "rank",
    "player",
    "withdrawn",
    "matches",
    "match_wins",
    "games_won",
    "games_played",
    "game_win_pct",
    "opponents_match_win_pct",
    "margin",
    "points",
    "head_to_head",
]
HAND_COLUMNS = [
    "round",
    "table",
    "player_a",
    "player_b",
    "game",
    "hand",
    "dealer",
    "outcome",
    "knocker",
    "knocker_deadwood",
    "defender_deadwood",
    "points",
    "winner",
    "state",
    "version",
]


def standings_csv(view: StandingsView) -> str:
    """The standings as CSV, every tie-break value included (as the view shows them)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(STANDINGS_COLUMNS)
    for row in view.rows:
        s = row.standing
        writer.writerow(
            [
                s.rank,
                safe(row.name),
                "yes" if row.withdrawn else "",
                s.matches,
                s.match_wins,
                s.games_won,
                s.games_played,
                f"{s.game_win_pct:.4f}",
                f"{s.opponents_match_win_pct:.4f}",
                s.margin,
                s.points,
                safe(row.head_to_head),
            ]
        )
    return out.getvalue()


def hands_csv(tournament: Tournament) -> str:
    """Every hand of every match of the event, voided ones included (state says so),
    ordered by round, table, game and hand; seats are shown by player name."""
    rows = (
        Hand.objects.filter(game__match__pairing__round__tournament=tournament)
        .order_by(
            "game__match__pairing__round__number",
            "game__match__pairing__table",
            "game__number",
            "number",
        )
        .values_list(
            "game__match__pairing__round__number",
            "game__match__pairing__table",
            "game__match__player_a__name",
            "game__match__player_b__name",
            "game__number",
            "number",
            "dealer",
            "outcome",
            "knocker",
            "knocker_deadwood",
            "defender_deadwood",
            "points",
            "winner",
            "state",
            "version",
        )
    )
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HAND_COLUMNS)
    for (
        rnd,
        table,
        a,
        b,
        game,
        number,
        dealer,
        outcome,
        knocker,
        kd,
        dd,
        points,
        winner,
        state,
        version,
    ) in rows.iterator(chunk_size=2000):
        seats = {"A": safe(a), "B": safe(b)}
        writer.writerow(
            [
                rnd,
                table,
                seats["A"],
                seats["B"],
                game,
                number,
                seats[dealer],
                outcome,
                seats.get(knocker, ""),
                _blank(kd),
                _blank(dd),
                points,
                seats.get(winner, ""),
                state,
                version,
            ]
        )
    return out.getvalue()


def _blank(value) -> object:
    return "" if value is None else value


def safe(text: str) -> str:
    """A name a spreadsheet would read as a formula is quoted (CSV injection)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text
