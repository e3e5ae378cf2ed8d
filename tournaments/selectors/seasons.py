"""Reads for seasons: which seasons an actor sees, and a season's ladder.

The ladder is the tournament standings maths (tournaments.pairing.compute_standings and
explain_standings) run over the season's counted matches, with players for ids instead
of registrations: match wins, then the season's tie-breaks, each line saying why it
stands there.

Reuse: computing a ladder reads every counted match (20,000 rows for a busy club's two
years) and runs the maths over them, some 300 ms. So the ladder is kept under its
version, a digest of everything it is computed from (the season's settings, the names,
and of the counted tables and club nights their number, ids and latest change: a match
is saved, its updated_at moved, by every change of its result, whoever sets it; a round
closes with closed_at), read in one query with
the names. The ladder of that version comes from this process's cache, else from the
snapshot stored by the background refresh (tournaments.services.season_ladders), else it
is computed here (and the pages queue a refresh: season_ladders.ladder_of). Queries: 2
when cached, 3 from the snapshot, 4 when computed, whatever the number of matches.

What counts (see tournaments.models.Season):
    a tournament   of the club, its date in the season's dates (all of them, or the
                   chosen ones): the decided tables of its closed rounds, as its own
                   standings count them (the match's result, whoever decided it: its
                   hands, an organiser, the time policy). A round in play counts when it
                   closes. A tournament that hides its last rounds from the public
                   counts once it is finished, so a public ladder gives nothing away.
                   Byes are no match played and do not count.
    a club night   when the season counts them: a finished (or closed) club match with
                   a winner, played in no tournament, started on a day in the dates
                   (the site's time zone).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import CharField, Count, Func, Max, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Cast, Coalesce
from django.utils import timezone
from django.utils.translation import gettext_noop

from ginclub import permissions
from ginclub.inputs import DATE_MAX, DATE_MIN
from ginclub.permissions import Actor
from scoring.models import Club, Match, Player
from tournaments.models import Pairing, Round, Season, SeasonLadder, Tournament
from tournaments.pairing import (
    DEFAULT_TIEBREAKS,
    MatchRecord,
    Standing,
    compute_standings,
    explain_standings,
)
from tournaments.pairing.words import Phrase, Worded
from tournaments.translated import worded


def seasons_of(club: Club, actor: Actor) -> QuerySet[Season]:
    """The club's seasons `actor` may open (permissions.visible_seasons)."""
    return permissions.visible_seasons(actor, club).select_related("club")


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


@dataclass
class LadderView:
    season: Season
    rows: list[LadderRow]
    tiebreaks: tuple[str, ...]
    events: list[CountedEvent] = field(default_factory=list)
    tournament_matches: int = 0
    club_night_matches: int = 0
    version: str = ""  # a digest of what the rows were computed from (see the docstring)
    computed_here: bool = False  # neither cached nor stored: worth storing (season_ladders)
    # The last stored ladder shown while the refresh brings it up to date (stale_ok):
    # when it was computed; None when the rows are of the current version.
    stale_since: dt.datetime | None = None

    @property
    def ranked(self) -> list[LadderRow]:
        return [row for row in self.rows if row.ranked]

    @property
    def unranked(self) -> list[LadderRow]:
        return [row for row in self.rows if not row.ranked]


@dataclass(frozen=True)
class Computed:
    """What the maths gives for one version: the rows and what they were counted from."""

    rows: list[LadderRow]
    tournament_matches: int
    club_night_matches: int

    def as_data(self) -> dict[str, Any]:
        """Plain JSON for the stored snapshot (floats survive JSON exactly; words as their
        English templates and values, worded for each reader)."""
        rows = [
            {
                **dataclasses.asdict(row),
                "standing": dataclasses.asdict(row.standing),
                "head_to_head": _words_data(row.head_to_head),
                "why": _words_data(row.why),
            }
            for row in self.rows
        ]
        return {"rows": rows, "tables": self.tournament_matches, "nights": self.club_night_matches}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Computed:
        rows = [
            LadderRow(
                **{
                    **row,
                    "standing": Standing(**row["standing"]),
                    "head_to_head": _words_of(row["head_to_head"]),
                    "why": _words_of(row["why"]),
                }
            )
            for row in data["rows"]
        ]
        return cls(rows, data["tables"], data["nights"])


def _words_data(text: str) -> Any:
    return {"phrase": text.phrase.as_data()} if isinstance(text, Worded) else text


def _words_of(data: Any) -> str:
    return Worded(Phrase.from_data(data["phrase"])) if isinstance(data, dict) else data


def _in_language(row: LadderRow) -> LadderRow:
    """The row's words in the reader's language (the cache and snapshot hold phrases)."""
    return dataclasses.replace(row, why=worded(row.why), head_to_head=worded(row.head_to_head))


LADDER_CACHE_SECONDS = 3600
# Part of every version: snapshots stored before their words were phrases (issue 13) are
# not of the current version, so they are computed again rather than shown in English.
WORDS_FORMAT = "phrases"


def ladder(season: Season, *, stale_ok: bool = False) -> LadderView:
    """The season's ladder, best first: ranked players, then those with fewer than
    `min_matches` counted matches (marked, in the same order). 2 to 4 queries (see the
    module docstring).

    stale_ok: when neither this process nor the store has the current version but an
    older snapshot is stored, show that one (marked `stale_since`) rather than compute
    for some 300 ms: the refresh a result queued stores the current one within seconds.
    Readers who just changed something (organisers) ask for the exact ladder."""
    names, version, stored = ladder_inputs(season)
    events = counted_events(season)
    fresh, stale_since = False, None
    key = f"season-ladder:{season.pk}:{version}"
    computed = cache.get(key)
    if computed is None:
        computed = stored_ladder(season, version) if stored == version else None
        if computed is None and stale_ok and stored is not None:
            computed, stale_since = last_stored_ladder(season)
        if computed is None:
            computed = compute_ladder(season, events, names)
            fresh = True
        if stale_since is None:
            cache.set(key, computed, LADDER_CACHE_SECONDS)
    return LadderView(
        season,
        [_in_language(row) for row in computed.rows],
        tiebreaks_of(season),
        events,
        computed.tournament_matches,
        computed.club_night_matches,
        version,
        fresh,
        stale_since,
    )


def compute_ladder(season: Season, events: list[CountedEvent], names: dict[int, str]) -> Computed:
    """The ladder from the counted rows (1 query, 2 when club nights count)."""
    tournament_records = _tournament_records(season) if events else []
    night_records = _club_night_records(season) if season.club_nights else []
    records = tournament_records + night_records
    return Computed(_rows(season, records, names), len(tournament_records), len(night_records))


def stored_ladder(season: Season, version: str) -> Computed | None:
    """The stored snapshot of this version, if it is still there (1 query)."""
    data = (
        SeasonLadder.objects.filter(season_id=season.pk, version=version)
        .values_list("data", flat=True)
        .first()
    )
    return None if data is None else Computed.from_data(data)


def last_stored_ladder(season: Season) -> tuple[Computed | None, dt.datetime | None]:
    """The stored snapshot whatever its version, and when it was computed (1 query)."""
    row = (
        SeasonLadder.objects.filter(season_id=season.pk).values_list("data", "computed_at").first()
    )
    return (None, None) if row is None else (Computed.from_data(row[0]), row[1])


def ladder_inputs(season: Season) -> tuple[dict[int, str], str, str | None]:
    """The club's names, the ladder's version and the stored snapshot's version, in one
    query: the names' rows carry the counted tables' and club nights' summaries (and the
    snapshot's version) as subqueries the database works out once."""
    rows = list(
        Player.objects.filter(club_id=season.club_id).values_list(
            "pk",
            "name",
            _summary(_counted_tables(season), "round__tournament__club_id", *TABLE_CHANGES),
            _summary(_club_nights(season), "club_id", Max("updated_at")),
            Subquery(SeasonLadder.objects.filter(season_id=season.pk).values("version")[:1]),
        )
    )
    names = {pk: name for pk, name, *_ in rows}
    tables, nights, stored = rows[0][2:] if rows else ("", "", None)
    raw = repr(
        (
            WORDS_FORMAT,
            season.pk,
            day_bounds(season.starts_on, season.ends_on),
            str(season.events),  # the value: a model fresh from a form holds the enum
            season.club_nights,
            season.points_per_win,
            season.min_matches,
            tiebreaks_of(season),
            sorted(names.items()),
            tables,
            nights if season.club_nights else "",
        )
    )
    return names, hashlib.sha256(raw.encode()).hexdigest()[:32], stored


# What moves when a counted table changes, besides its number and ids: its match saved
# (a hand action, a result set or withdrawn), its round closed again. (A registration
# never changes its player.)
TABLE_CHANGES = (
    Max("match__updated_at"),
    Max("round__closed_at"),
)


class _Joined(Func):
    """Text values joined by commas with SQL's || (SQLite and PostgreSQL alike), flat:
    Concat nests a pair per value, deeper than SQLite's parser takes for eight."""

    arg_joiner = " || ',' || "
    template = "(%(expressions)s)"
    output_field = CharField()


def _summary(rows: QuerySet, group: str, *changes) -> Subquery:
    """'count,sum of ids,changes...' of `rows` as one text value: a row added or removed
    changes it, a row changed moves one of `changes`."""
    text = CharField()
    parts = [Count("id"), Sum("id"), *changes]
    summary = _Joined(*(Coalesce(Cast(part, text), Value("")) for part in parts))
    return Subquery(rows.order_by().values(group).annotate(summary=summary).values("summary"))


def _counted_tournaments(season: Season) -> QuerySet[Tournament]:
    # A ladder is read by more people than a tournament's own readers (the club's
    # members, or everybody): it counts only the tournaments everybody may open.
    events = permissions.visible_tournaments(permissions.EVERYBODY).filter(
        club_id=season.club_id, date__gte=season.starts_on, date__lte=season.ends_on
    )
    return events.filter(seasons=season) if season.events == Season.Events.CHOSEN else events


def _counted_tables(season: Season) -> QuerySet[Pairing]:
    """The tables of the closed rounds of the counted tournaments that are not waiting,
    byes left out (decided or not: record_of tells)."""
    waiting = Q(hide_last_rounds__gt=0) & ~Q(state=Tournament.State.FINISHED)
    return Pairing.objects.filter(
        round__tournament__in=_counted_tournaments(season).exclude(waiting).values("pk"),
        round__state=Round.State.CLOSED,
        player_b__isnull=False,
    )


def _club_nights(season: Season) -> QuerySet[Match]:
    """Finished club matches with a winner, in no tournament, started in the dates."""
    start, end = day_bounds(season.starts_on, season.ends_on)
    return Match.objects.filter(
        club_id=season.club_id,
        created_at__gte=start,
        created_at__lt=end,
        state__in=Match.OVER,
        pairing__isnull=True,
    ).filter(~Q(winner=""))


def counted_events(season: Season) -> list[CountedEvent]:
    """The tournaments the season counts (or will, once finished), by date (1 query)."""
    return [
        CountedEvent(
            t["id"],
            t["slug"],
            t["name"],
            t["date"],
            t["public"],
            t["hide_last_rounds"] > 0 and t["state"] != Tournament.State.FINISHED,
        )
        for t in _counted_tournaments(season)
        .order_by("date", "name")
        .values("id", "slug", "name", "date", "public", "hide_last_rounds", "state")
    ]


DECIDED = Match.OVER
MATCH_RESULT = (
    "match__state",
    "match__winner",
    "match__games_won_a",
    "match__games_won_b",
    "match__points_a",
    "match__points_b",
)


def _tournament_records(season: Season) -> list[MatchRecord]:
    """The decided tables of _counted_tables, between players (not registrations), as
    tournaments.selectors.standings.record_of reads them (1 query)."""
    rows = _counted_tables(season).values_list(
        "player_a__player_id", "player_b__player_id", *MATCH_RESULT
    )
    return [
        MatchRecord(a, b, a if winner == "A" else b, *result)
        for a, b, state, winner, *result in rows.order_by()
        if state in DECIDED and winner  # Match.decided
    ]


def _club_night_records(season: Season) -> list[MatchRecord]:
    """The _club_nights as records (1 query)."""
    rows = _club_nights(season).values_list(
        "player_a_id",
        "player_b_id",
        "winner",
        "games_won_a",
        "games_won_b",
        "points_a",
        "points_b",
    )
    return [
        MatchRecord(a, b, a if winner == "A" else b, games_a, games_b, points_a, points_b)
        for a, b, winner, games_a, games_b, points_a, points_b in rows.order_by()
    ]


def day_bounds(first: dt.date, last: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """From the start of `first` to the start of the day after `last`, in the site's
    time zone: compared as they are, with no date cast of every row. Clamped to the
    dates a club may store (a season stored to 9999-12-31 has no day after it)."""
    first, last = max(first, DATE_MIN), min(last, DATE_MAX)
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
            note = Worded(
                Phrase(NOT_RANKED, {"matches": line.matches, "asked": season.min_matches})
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


NOT_RANKED = gettext_noop(
    "Not ranked yet: %(matches)s of the %(asked)s matches the season asks for."
)
BEAT = gettext_noop("beat %(name)s")
LOST_TO = gettext_noop("lost to %(name)s")


def _named(note: str, names: dict[int, str]) -> str:
    """ "beat #12" with the player id replaced by the player's name."""
    words, sign, player = note.rpartition("#")
    if not sign or not player.isdigit() or int(player) not in names:
        return note
    template = {"beat ": BEAT, "lost to ": LOST_TO}.get(words)
    name = names[int(player)]
    return Worded(Phrase(template, {"name": name})) if template else f"{words}{name}"
