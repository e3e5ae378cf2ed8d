"""A player's matches from their side: the list of matches, head-to-head lines against
each opponent, and finished matches won and lost month by month. Each is one query
whatever the player's history (the database sums)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Case, Count, F, Q, QuerySet, Sum, When
from django.db.models.functions import TruncMonth

from scoring.models import Game, Hand, Match, Player

DONE = (Match.State.FINISHED, Match.State.CLOSED)


def _mine(field_name: str, player_id: int, prefix: str = "game__match__") -> Q:
    """`field_name` names the player's own seat (as A or as B)."""
    return Q(**{field_name: "A", f"{prefix}player_a_id": player_id}) | Q(
        **{field_name: "B", f"{prefix}player_b_id": player_id}
    )


def _theirs(field_name: str, player_id: int, prefix: str = "game__match__") -> Q:
    """`field_name` names the opponent's seat."""
    return Q(**{field_name: "B", f"{prefix}player_a_id": player_id}) | Q(
        **{field_name: "A", f"{prefix}player_b_id": player_id}
    )


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
    player: Player, hidden: frozenset[int] = frozenset(), limit: int | None = None
) -> list[MatchLine]:
    """The player's matches, newest first, all or the latest `limit` (one query); results
    held back from the viewer (`hidden`) are shown as such."""
    matches = (
        Match.objects.filter(Q(player_a=player) | Q(player_b=player))
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


def head_to_head(player: Player, hidden: frozenset[int] = frozenset()) -> list[HeadToHead]:
    """The player's finished matches against each opponent, summed by the database."""
    pid = player.pk
    rows = (
        matches_of(player, hidden)
        .filter(state__in=DONE)
        .annotate(
            opponent_id=_own(pid, F("player_b_id"), F("player_a_id")),
            opponent_name=_own(pid, F("player_b__name"), F("player_a__name")),
        )
        .values("opponent_id", "opponent_name")
        .annotate(
            played=Count("pk"),
            won=Count("pk", filter=_mine("winner", pid, "")),
            lost=Count("pk", filter=_theirs("winner", pid, "")),
            games_for=Sum(_own(pid, F("games_won_a"), F("games_won_b"))),
            games_against=Sum(_own(pid, F("games_won_b"), F("games_won_a"))),
            points_for=Sum(_own(pid, F("points_a"), F("points_b"))),
            points_against=Sum(_own(pid, F("points_b"), F("points_a"))),
        )
        .order_by("-played", "opponent_name")
    )
    return [
        HeadToHead(
            r["opponent_id"], r["opponent_name"], r["played"], r["won"], r["lost"],
            r["games_for"] or 0, r["games_against"] or 0, r["points_for"] or 0,
            r["points_against"] or 0,
        )
        for r in rows
    ]  # fmt: skip


@dataclass(frozen=True)
class MonthResults:
    month: date
    won: int
    lost: int


def results_by_month(player: Player, hidden: frozenset[int] = frozenset()) -> list[MonthResults]:
    """Finished matches won and lost in each month the player played (the month a
    match was started)."""
    pid = player.pk
    rows = (
        matches_of(player, hidden)
        .filter(state__in=DONE)
        .annotate(month=TruncMonth("created_at"))
        .values("month")
        .annotate(
            won=Count("pk", filter=_mine("winner", pid, "")),
            lost=Count("pk", filter=_theirs("winner", pid, "")),
        )
        .order_by("month")
    )
    return [MonthResults(day_of(r["month"]), r["won"], r["lost"]) for r in rows]


def day_of(moment) -> date:
    return moment.date() if hasattr(moment, "date") else moment
