"""Reads for seasons: which seasons an actor sees, and a season's ladder.

The ladder is the tournament standings maths (tournaments.pairing.compute_standings and
explain_standings) run over the season's counted matches, with players for ids instead
of registrations: match wins, then the season's tie-breaks, each line saying why it
stands there. It reads in 4 queries whatever the number of matches (the counted
tournaments, their tables, the club nights, the names), and one pass over the rows.

What counts (see tournaments.models.Season):
    a tournament   of the club, its date in the season's dates (all of them, or the
                   chosen ones): the decided tables of its closed rounds, as its own
                   standings count them (a result set by the organiser or the time
                   policy wins over the match's). A round in play counts when it
                   closes. A tournament that hides its last rounds from the public
                   counts once it is finished, so a public ladder gives nothing away.
                   Byes are no match played and do not count.
    a club night   when the season counts them: a finished (or closed) club match with
                   a winner, played in no tournament, started on a day in the dates
                   (the site's time zone).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from ginclub.permissions import Actor
from scoring.models import Club, Match, Player
from tournaments.models import Pairing, Round, Season, Tournament
from tournaments.pairing import (
    DEFAULT_TIEBREAKS,
    MatchRecord,
    Standing,
    compute_standings,
    explain_standings,
)
from tournaments.selectors import PAIRING_FIELDS, record_of


def seasons_of(club: Club, actor: Actor, *, organiser: bool, member: bool) -> QuerySet[Season]:
    """The club's seasons `actor` may open (permissions.may_view_season as a query):
    all of them for its organisers and members, the public ones for anybody else."""
    seasons = Season.objects.filter(club=club).select_related("club")
    return seasons if organiser or member else seasons.filter(public=True)


def tiebreaks_of(season: Season) -> tuple[str, ...]:
    return tuple(season.tiebreaks or DEFAULT_TIEBREAKS)


@dataclass(frozen=True)
class CountedEvent:
    id: int
    slug: str
    name: str
    date: dt.date
    public: bool
    waiting: bool  # hides its last rounds and is not finished: counts once finished

    def as_dict(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "name": self.name,
            "date": self.date,
            "counted": not self.waiting,
        }


@dataclass(frozen=True)
class LadderRow:
    standing: Standing
    name: str
    ranked: bool
    season_points: int
    head_to_head: str
    why: str

    @property
    def player_id(self) -> int:
        return self.standing.id

    def as_dict(self) -> dict[str, Any]:
        s = self.standing
        return {
            "rank": s.rank if self.ranked else None,
            "ranked": self.ranked,
            "player": s.id,
            "name": self.name,
            "season_points": self.season_points,
            "matches": s.matches,
            "match_wins": s.match_wins,
            "games_won": s.games_won,
            "games_played": s.games_played,
            "game_win_pct": round(s.game_win_pct, 4),
            "opponents_match_win_pct": round(s.opponents_match_win_pct, 4),
            "margin": s.margin,
            "points": s.points,
            "head_to_head": self.head_to_head,
            "tiebreaks": {k: round(v, 4) for k, v in s.tiebreaks.items()},
            "why": self.why,
        }


@dataclass
class LadderView:
    season: Season
    rows: list[LadderRow]
    tiebreaks: tuple[str, ...]
    events: list[CountedEvent] = field(default_factory=list)
    tournament_matches: int = 0
    club_night_matches: int = 0

    @property
    def ranked(self) -> list[LadderRow]:
        return [row for row in self.rows if row.ranked]

    @property
    def unranked(self) -> list[LadderRow]:
        return [row for row in self.rows if not row.ranked]

    def as_dict(self) -> dict[str, Any]:
        season = self.season
        return {
            "season": season.slug,
            "club": season.club.slug,
            "name": season.name,
            "starts_on": season.starts_on,
            "ends_on": season.ends_on,
            "points_per_win": season.points_per_win,
            "min_matches": season.min_matches,
            "tiebreaks": list(self.tiebreaks),
            "tournaments": [event.as_dict() for event in self.events],
            "club_nights": season.club_nights,
            "tournament_matches": self.tournament_matches,
            "club_night_matches": self.club_night_matches,
            "rows": [row.as_dict() for row in self.rows],
        }


def ladder(season: Season) -> LadderView:
    """The season's ladder, best first: ranked players, then those with fewer than
    `min_matches` counted matches (marked, in the same order). 4 queries."""
    events = counted_events(season)
    tournament_records = _tournament_records([e.id for e in events if not e.waiting])
    night_records = _club_night_records(season) if season.club_nights else []
    records = tournament_records + night_records
    names = dict(Player.objects.filter(club_id=season.club_id).values_list("pk", "name"))
    return LadderView(
        season,
        _rows(season, records, names),
        tiebreaks_of(season),
        events,
        len(tournament_records),
        len(night_records),
    )


def counted_events(season: Season) -> list[CountedEvent]:
    """The tournaments the season counts (or will, once finished), by date (1 query)."""
    events = Tournament.objects.filter(
        club_id=season.club_id, date__gte=season.starts_on, date__lte=season.ends_on
    )
    if season.events == Season.Events.CHOSEN:
        events = events.filter(seasons=season)
    return [
        CountedEvent(
            t["id"],
            t["slug"],
            t["name"],
            t["date"],
            t["public"],
            t["hide_last_rounds"] > 0 and t["state"] != Tournament.State.FINISHED,
        )
        for t in events.order_by("date", "name").values(
            "id", "slug", "name", "date", "public", "hide_last_rounds", "state"
        )
    ]


def _tournament_records(tournament_ids: list[int]) -> list[MatchRecord]:
    """The decided tables of the closed rounds of these tournaments, byes left out,
    between players (not registrations). 1 query, none without tournaments."""
    if not tournament_ids:
        return []
    rows = Pairing.objects.filter(
        round__tournament_id__in=tournament_ids,
        round__state=Round.State.CLOSED,
        player_b__isnull=False,
    ).values(*PAIRING_FIELDS, "player_a__player_id", "player_b__player_id")
    records = []
    for row in rows:
        record = record_of(row)
        if record is None:
            continue
        a, b = row["player_a__player_id"], row["player_b__player_id"]
        records.append(
            MatchRecord(
                a=a,
                b=b,
                winner=a if record.winner == record.a else b,
                games_a=record.games_a,
                games_b=record.games_b,
                points_a=record.points_a,
                points_b=record.points_b,
            )
        )
    return records


def _club_night_records(season: Season) -> list[MatchRecord]:
    """Finished club matches with a winner, in no tournament, started in the dates."""
    start, end = day_bounds(season.starts_on, season.ends_on)
    rows = (
        Match.objects.filter(
            club_id=season.club_id,
            created_at__gte=start,
            created_at__lt=end,
            state__in=(Match.State.FINISHED, Match.State.CLOSED),
            pairing__isnull=True,
        )
        .filter(~Q(winner=""))
        .values_list(
            "player_a_id",
            "player_b_id",
            "winner",
            "games_won_a",
            "games_won_b",
            "points_a",
            "points_b",
        )
    )
    return [
        MatchRecord(a, b, a if winner == "A" else b, games_a, games_b, points_a, points_b)
        for a, b, winner, games_a, games_b, points_a, points_b in rows
    ]


def day_bounds(first: dt.date, last: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """From the start of `first` to the start of the day after `last`, in the site's
    time zone: compared as they are, with no date cast of every row."""
    zone = timezone.get_current_timezone()
    start = dt.datetime.combine(first, dt.time.min, tzinfo=zone)
    end = dt.datetime.combine(last + dt.timedelta(days=1), dt.time.min, tzinfo=zone)
    return start, end


def _rows(season: Season, records: list[MatchRecord], names: dict[int, str]) -> list[LadderRow]:
    tiebreaks = tiebreaks_of(season)
    played: Counter[int] = Counter()
    for r in records:
        played[r.a] += 1
        played[r.b] += 1
    ranked = sorted(p for p, n in played.items() if n >= season.min_matches)
    lines = compute_standings(ranked, records, tiebreaks)
    why = explain_standings(lines, names, tiebreaks)
    rows = [_row(season, line, names, True, why[line.id]) for line in lines]
    others = sorted(p for p, n in played.items() if n < season.min_matches)
    if others:  # their own order by the same maths, after every ranked player
        for line in compute_standings(others, records, tiebreaks):
            note = (
                f"Not ranked yet: {line.matches} of the {season.min_matches} matches "
                "the season asks for."
            )
            rows.append(_row(season, line, names, False, note))
    return rows


def _row(season: Season, line: Standing, names: dict[int, str], ranked: bool, why: str):
    return LadderRow(
        line,
        names.get(line.id, f"#{line.id}"),
        ranked,
        line.match_wins * season.points_per_win,
        _named(line.head_to_head, names),
        why,
    )


def _named(note: str, names: dict[int, str]) -> str:
    """ "beat #12" with the player id replaced by the player's name."""
    words, sign, player = note.rpartition("#")
    if not sign or not player.isdigit() or int(player) not in names:
        return note
    return f"{words}{names[int(player)]}"
