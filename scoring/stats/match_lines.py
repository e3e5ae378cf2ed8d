"""A player's matches from their side: the list of matches, head-to-head lines against
each opponent, and finished matches won and lost month by month. One query for the list,
one for the other two, whatever the player's history."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Case, F, Q, QuerySet, When
from django.utils import timezone

from scoring.models import Game, Hand, Match, Player

DONE = Match.OVER


def _own(player_id: int, a_value, b_value, prefix: str = ""):
    """An expression: `a_value` where the player sits at A, else `b_value`."""
    return Case(When(**{f"{prefix}player_a_id": player_id}, then=a_value), default=b_value)


def matches_of(player: Player, hidden: frozenset[int] = frozenset()) -> QuerySet[Match]:
    """The player's matches, less those whose results the viewer may not see yet."""
    matches = Match.objects.filter(Q(player_a=player) | Q(player_b=player))
    return matches.exclude(pk__in=hidden) if hidden else matches


def games_of(player: Player, hidden: frozenset[int] = frozenset()) -> QuerySet[Game]:
    # Through the match ids (a subquery): the database starts from the player's matches
    # (indexed by player) rather than from every game or hand of the club.
    return Game.objects.filter(match_id__in=matches_of(player, hidden).values("pk"))


def hands_of(player: Player, hidden: frozenset[int] = frozenset()) -> QuerySet[Hand]:
    """The player's confirmed hands (the page reads their seat summaries instead)."""
    return Hand.objects.filter(
        state=Hand.State.CONFIRMED, game_id__in=games_of(player, hidden).values("pk")
    )


@dataclass(frozen=True)
class MatchLine:
    """One match from the player's side."""

    match: Match
    opponent: Player
    result: str  # "won", "lost", "in progress", "hidden"
    games: tuple[int, int]
    points: tuple[int, int]
    place: str = ""
    rating_change: float | None = None  # the player's, when the match was rated


def match_lines(
    player: Player,
    hidden: frozenset[int] = frozenset(),
    limit: int | None = None,
    *,
    unseen: frozenset[int] = frozenset(),
) -> list[MatchLine]:
    """The player's matches, newest first, all or the latest `limit` (one query); results
    held back from the viewer (`hidden`) are shown as such, matches it may not know of
    (`unseen`) not at all."""
    matches = (
        matches_of(player, unseen)
        .select_related("player_a", "player_b")
        .order_by("-created_at", "-pk")
    )[:limit]
    lines = []
    for match in matches:
        seat = "A" if match.player_a_id == player.pk else "B"
        games = (match.games_won_a, match.games_won_b)
        points = (match.points_a, match.points_b)
        if seat == "B":
            games, points = games[::-1], points[::-1]
        if match.pk in hidden:
            result, games, points = "hidden", (0, 0), (0, 0)
        elif match.state in DONE and match.winner:
            result = "won" if match.winner == seat else "lost"
        else:
            result = match.get_state_display()
        opponent = match.player_b if seat == "A" else match.player_a
        lines.append(MatchLine(match, opponent, result, games, points))
    return lines


@dataclass(frozen=True)
class HeadToHead:
    opponent_id: int
    opponent: str
    played: int
    won: int
    lost: int
    games_for: int
    games_against: int
    points_for: int
    points_against: int


@dataclass(frozen=True)
class MonthResults:
    month: date
    won: int
    lost: int


def finished_rows(player: Player, hidden: frozenset[int] = frozenset()) -> list[tuple]:
    """(opponent id, opponent name, won, lost, games for, games against, points for,
    points against, started) of the player's finished matches from their side, ordered
    by the opponent's name by the database (its collation): one query that serves both
    `head_to_head` and `results_by_month` (a few hundred rows, summed here)."""
    pid = player.pk
    rows = (
        matches_of(player, hidden)
        .filter(state__in=DONE)
        .annotate(opponent_name=_own(pid, F("player_b__name"), F("player_a__name")))
        .order_by("opponent_name", "pk")
        .values_list(
            "player_a_id", "player_b_id", "opponent_name", "winner", "games_won_a",
            "games_won_b", "points_a", "points_b", "created_at",
        )
    )  # fmt: skip
    found = []
    for a, b, name, winner, games_a, games_b, points_a, points_b, started in rows:
        if a == pid:
            found.append((b, name, winner == "A", winner == "B", games_a, games_b,
                          points_a, points_b, started))  # fmt: skip
        else:
            found.append((a, name, winner == "B", winner == "A", games_b, games_a,
                          points_b, points_a, started))  # fmt: skip
    return found


def head_to_head(
    player: Player, hidden: frozenset[int] = frozenset(), rows: list | None = None
) -> list[HeadToHead]:
    """The player's finished matches against each opponent, most played first, then by
    name (from `finished_rows`, read here if not given)."""
    lines: dict[int, list] = {}
    for opponent, name, won, lost, *scores, _ in (
        finished_rows(player, hidden) if rows is None else rows
    ):
        line = lines.setdefault(opponent, [opponent, name, 0, 0, 0, 0, 0, 0, 0])
        line[2] += 1
        line[3] += won
        line[4] += lost
        for index, value in enumerate(scores, start=5):
            line[index] += value
    # Stable: opponents with as many matches stay in the database's name order.
    ordered = sorted(lines.values(), key=lambda line: -line[2])
    return [HeadToHead(*line) for line in ordered]


def results_by_month(
    player: Player, hidden: frozenset[int] = frozenset(), rows: list | None = None
) -> list[MonthResults]:
    """Finished matches won and lost in each month the player played (the month a
    match was started, in the site's time zone), from `finished_rows`."""
    months: dict[date, list[int]] = {}
    for _, _, won, lost, *_, started in finished_rows(player, hidden) if rows is None else rows:
        month = timezone.localtime(started).date().replace(day=1)
        counts = months.setdefault(month, [0, 0])
        counts[0] += won
        counts[1] += lost
    return [MonthResults(month, won, lost) for month, (won, lost) in sorted(months.items())]


def day_of(moment) -> date:
    return moment.date() if hasattr(moment, "date") else moment
