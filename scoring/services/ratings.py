"""Club ratings: every finished match of a club, in the order they were started, rated
with openskill's Plackett-Luce model (a Bayesian rating for two or more players).

Terms:
    rated match  a finished or closed match with a winner, whoever decided it (the
                 hands, an organiser, the time policy, a penalty), of a club night or a
                 tournament anybody may know of: a private tournament's tables are not
                 rated, since the rated list's readers are more than the tournament's own,
                 nor a result its event still holds back (hide_last_rounds,
                 hide_standings_during_round): a rating that moved would tell it
                 (ginclub.permissions.readable_results for a visitor; the event queues a
                 re-rating when the hold lifts). A match still in play, or stopped
                 without a winner, is not rated.
    mu, sigma    the model's estimate of a player's strength and its uncertainty; a new
                 player starts at mu 25, sigma 25/3.
    ordinal      mu - 3 sigma, what the lists show and sort by: it starts at 0 and rises as
                 a player wins and as the model grows surer of them.
    change       a player's ordinal after a match minus before it.
Ratings are derived data: `recompute_ratings` rebuilds a club's from its matches in one
transaction, whenever a finished match's result moves (queued by scoring.services.results
through `queue_ratings`, run in the background by the django-tasks task
`recompute_club_ratings`), so a corrected result re-rates every later match too.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django_tasks import task
from openskill.models import PlackettLuce

from ginclub import permissions
from ginclub.permissions import Actor
from scoring.models import Club, Match, Rating, RatingChange

DONE = Match.OVER
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RatedMatch:
    """One rated match as plain values: who won and who lost it."""

    match_id: int
    winner: int  # player ids
    loser: int


@dataclass(frozen=True)
class Rated:
    """What rating a sequence of matches gives: each player's (mu, sigma, matches), and
    each match's (match id, player id, ordinal before, ordinal after)."""

    ratings: dict[int, tuple[float, float, int]]
    changes: list[tuple[int, int, float, float]]


def rate(matches: Iterable[RatedMatch]) -> Rated:
    """Rate `matches` in order, everyone starting fresh (pure: no database)."""
    model = PlackettLuce()
    current: dict[int, Any] = {}
    played: dict[int, int] = {}
    changes = []
    for m in matches:
        winner = current.get(m.winner) or model.rating()
        loser = current.get(m.loser) or model.rating()
        [[new_winner], [new_loser]] = model.rate([[winner], [loser]])
        changes.append((m.match_id, m.winner, winner.ordinal(), new_winner.ordinal()))
        changes.append((m.match_id, m.loser, loser.ordinal(), new_loser.ordinal()))
        current[m.winner], current[m.loser] = new_winner, new_loser
        for player in (m.winner, m.loser):
            played[player] = played.get(player, 0) + 1
    ratings = {p: (r.mu, r.sigma, played[p]) for p, r in current.items()}
    return Rated(ratings, changes)


def rated_matches(club_id: int) -> list[RatedMatch]:
    rows = (
        permissions.readable_results(Actor())
        .filter(club_id=club_id, state__in=DONE)
        .exclude(winner="")
        .order_by("created_at", "pk")
        .values_list("pk", "winner", "player_a_id", "player_b_id")
    )
    return [
        RatedMatch(pk, a if winner == "A" else b, b if winner == "A" else a)
        for pk, winner, a, b in rows
    ]


def recompute_ratings(*, club_id: int) -> int:
    """Rebuild the club's ratings and every rated match's changes from its matches, in
    one transaction (the club's row locked, so two recomputes queue up). Returns how many
    matches were rated. Raises nothing a user could fix: a club that is gone rates none."""
    with transaction.atomic():
        if Club.objects.select_for_update().filter(pk=club_id).first() is None:
            return 0
        now = timezone.now()  # before reading: these ratings include what committed by now
        matches = rated_matches(club_id)
        rated = rate(matches)
        RatingChange.objects.filter(match__club_id=club_id).delete()
        Rating.objects.filter(player__club_id=club_id).delete()
        Rating.objects.bulk_create(
            Rating(player_id=p, mu=mu, sigma=sigma, ordinal=mu - 3 * sigma, matches=n,
                   computed_at=now)
            for p, (mu, sigma, n) in rated.ratings.items()
        )  # fmt: skip
        RatingChange.objects.bulk_create(
            (RatingChange(match_id=m, player_id=p, before=b, after=a)
             for m, p, b, a in rated.changes),
            batch_size=2000,
        )  # fmt: skip
    return len(matches)


def counts(result: dict[str, Any]) -> bool:
    """Whether a match with this result (scoring.services.results.result_of) is rated."""
    return result["state"] in DONE and bool(result["winner"])


@task()
def recompute_club_ratings(club_id: int, queued_at: str = "") -> int:
    """The django-tasks task: recompute_ratings for one club (`manage.py db_worker`).
    A rules change re-scores many matches at once and queues as many tasks; the first
    to run covers them all, and the rest, queued before it read the matches, stop here."""
    since = datetime.fromisoformat(queued_at) if queued_at else None
    if since and Rating.objects.filter(player__club_id=club_id, computed_at__gte=since).exists():
        return 0
    return recompute_ratings(club_id=club_id)


def queue_ratings(club_id: int) -> None:
    """Recompute the club's ratings in the background once the caller's transaction
    commits (nothing is queued if it rolls back). A queue that cannot take the task is
    logged, not raised: the hand that moved the result is already saved."""

    def enqueue() -> None:
        try:
            recompute_club_ratings.enqueue(club_id, timezone.now().isoformat())
        except Exception:
            logger.exception("Ratings of club %s could not be queued", club_id)

    transaction.on_commit(enqueue)
