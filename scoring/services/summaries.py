"""Rebuilding seat summaries (scoring.stats.summaries) from the stored hands and games.

Every hand action keeps its match's summaries current (scoring.progress rewrites them
after each recompute); this rebuilds them all, or a club's, for data written behind the
services' back (a bulk load, a restored dump from before the summaries) or to check them.
"""

from __future__ import annotations

from django.db import transaction

from scoring.models import Match
from scoring.stats.summaries import write_summaries

CHUNK = 500  # matches a pass: a few reads and one insert each


def rebuild_summaries(*, club_id: int | None = None) -> int:
    """Rewrite the seat summaries of every match (of the club `club_id` if given), each
    pass of CHUNK matches in its own transaction with their rows locked as a hand action
    locks its match, so a hand entered meanwhile is never overwritten by a stale count.
    Returns how many summaries were written. Raises nothing a user could fix."""
    matches = Match.objects.order_by("pk")
    if club_id is not None:
        matches = matches.filter(club_id=club_id)
    ids = list(matches.values_list("pk", flat=True))
    written = 0
    for first in range(0, len(ids), CHUNK):
        chunk = ids[first : first + CHUNK]
        with transaction.atomic():
            list(Match.objects.select_for_update().filter(pk__in=chunk).values_list("pk"))
            written += write_summaries(chunk)
    return written
