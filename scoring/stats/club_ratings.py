"""Club ratings as the pages read them (scoring.services.ratings computes them): the
club's rated list, a player's rating month by month, and ratings by player for seeding.
Each is one query."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from scoring.models import Club, Player, Rating, RatingChange
from scoring.stats.match_lines import day_of


@dataclass(frozen=True)
class RatingMonth:
    """The player's club rating at the end of a month they played rated matches in:
    after the last of them (`rating`), and how many they played that month."""

    month: date
    rating: float
    matches: int


def rating_rows(player: Player, hidden: frozenset[int]) -> list[tuple[int, Any, float, float]]:
    """(match id, started, before, after) of the player's rated matches, in the order
    they were rated (one query)."""
    rows = RatingChange.objects.filter(player=player).exclude(match_id__in=hidden)
    return list(
        rows.order_by("match__created_at", "match_id").values_list(
            "match_id", "match__created_at", "before", "after"
        )
    )


def rating_months(rows: list[tuple[int, Any, float, float]]) -> list[RatingMonth]:
    """The rating at the end of each month, from `rating_rows` (oldest first)."""
    months: dict[date, RatingMonth] = {}
    for _, started, _, after in rows:
        month = day_of(started).replace(day=1)
        played = months[month].matches if month in months else 0
        months[month] = RatingMonth(month, round(after, 2), played + 1)
    return list(months.values())


def rating_history(player: Player, hidden: frozenset[int] = frozenset()) -> list[RatingMonth]:
    """The player's club rating month by month (the month a rated match was started)."""
    return rating_months(rating_rows(player, hidden))


@dataclass(frozen=True)
class RankedRating:
    """A line of the club's rated list: its rank, and the Rating's own attributes."""

    rank: int
    rating: Rating

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rating, name)


def club_ratings(club: Club) -> list[RankedRating]:
    """The club's rated list, best first, with ranks (one query): ordinals equal to two
    decimals share a rank."""
    ratings = list(
        Rating.objects.filter(player__club=club).select_related("player")
        .order_by("-ordinal", "player__name")
    )  # fmt: skip
    ranked, rank, last = [], 0, None
    for position, rating in enumerate(ratings, start=1):
        shown = round(rating.ordinal, 2)
        if shown != last:
            rank, last = position, shown
        ranked.append(RankedRating(rank, rating))
    return ranked


def ratings_of(player_ids: list[int]) -> dict[int, float]:
    """The club ratings (ordinals, what the rated list ranks by) of those of these
    players who have one, by player id (one query)."""
    return dict(Rating.objects.filter(player_id__in=player_ids).values_list("player_id", "ordinal"))
