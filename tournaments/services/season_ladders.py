"""Season ladders stored for reuse (tournaments.models.SeasonLadder).

Computing a busy club's ladder takes some 300 ms (tournaments.selectors.seasons), too long
for a page. The ladder is therefore stored under its version and refreshed in the background
(django-tasks, `manage.py run_worker`) when something it counts may have moved: a match
result in the club (a result guard, tournaments.apps), a season's settings, or a reader
that found no snapshot of the current version (ladder_of). The refresh computes the
version first and stops there when the stored ladder is already current, so a burst of
queued refreshes costs one computation.
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django_tasks import task

from scoring.hooks import ResultChange
from scoring.models import Match
from tournaments.models import Season, SeasonLadder
from tournaments.selectors import seasons

logger = logging.getLogger(__name__)


def ladder_of(season: Season, *, exact: bool = True) -> seasons.LadderView:
    """seasons.ladder for the pages and the API. A ladder computed on the request (no
    current snapshot) is queued to be stored, so the other workers read it. Not `exact`
    (readers who changed nothing: the public, members), an older stored ladder may be
    shown while the refresh runs; the first such reader of a version queues one too."""
    view = seasons.ladder(season, stale_ok=not exact)
    if view.computed_here:
        queue_ladder_refresh(season_id=season.pk)
    elif view.stale_since is not None and cache.add(
        f"season-ladder-refresh:{season.pk}:{view.version}", True, REFRESH_QUEUED_SECONDS
    ):
        queue_ladder_refresh(season_id=season.pk)
    return view


# A stale reader queues a refresh once a minute at most (one queued already, by the
# result that made it stale, is nearly always on its way).
REFRESH_QUEUED_SECONDS = 60


def store_ladder(*, season_id: int) -> bool:
    """Compute the season's ladder and store it, unless the stored one is of the current
    version. Returns whether it stored. A season deleted meanwhile stores nothing."""
    season = Season.objects.filter(pk=season_id).first()
    if season is None:
        return False
    names, version, stored = seasons.ladder_inputs(season)
    if stored == version:
        return False
    computed = seasons.compute_ladder(season, seasons.counted_events(season), names)
    SeasonLadder.objects.update_or_create(
        season_id=season_id,
        defaults={"version": version, "data": computed.as_data(), "computed_at": timezone.now()},
    )
    return True


@task()
def refresh_ladders(season_ids: list[int]) -> int:
    """The django-tasks task: store_ladder for each season; how many were stored. A
    season that fails is logged and left to be computed on its next read: the club's
    other seasons are stored all the same."""
    stored = 0
    for pk in season_ids:
        try:
            with transaction.atomic():  # a failure undoes its own writes only
                stored += store_ladder(season_id=pk)
        except Exception:
            logger.exception("Season ladder %s could not be stored", pk)
    return stored


def queue_ladder_refresh(*, season_id: int | None = None, club_id: int | None = None) -> None:
    """Refresh one season's ladder, or every season of a club, in the background once the
    caller's transaction commits (at once outside one). A queue that cannot take the task
    is logged, not raised: the ladder is computed on the next read instead."""

    def enqueue() -> None:
        ids = (
            [season_id]
            if season_id is not None
            else list(Season.objects.filter(club_id=club_id).values_list("pk", flat=True))
        )
        if not ids:
            return
        try:
            refresh_ladders.enqueue(ids)
        except Exception:
            logger.exception("Season ladders %s could not be queued", ids)

    transaction.on_commit(enqueue)


def refresh_after_result(change: ResultChange) -> None:
    """A result listener (scoring.hooks.listeners), called once a change that moved a
    match's result has committed: its club's ladders are refreshed in the background.
    Ladders count decided matches only, so a hand that leaves the match undecided before
    and after (nearly every hand of a club night) queues nothing."""
    if not (_decided(change.before) or _decided(change.after)):
        return
    club_id = Match.objects.filter(pk=change.match_id).values_list("club_id", flat=True).first()
    if club_id is not None:
        queue_ladder_refresh(club_id=club_id)


def _decided(result: dict) -> bool:
    return result.get("state") in Match.OVER
