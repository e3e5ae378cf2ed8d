"""The calls from a tournament's tables still waiting for staff ("Organiser, please"),
with where each table is: what the dashboard, the hall view and the API list.

Terms:
    waiting   a call not yet resolved: open (nobody took it yet) or taken (staff are on
              their way). scoring.services.calls writes them; this only reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from scoring.models import TableCall
from tournaments.models import Round, Tournament


@dataclass(frozen=True)
class WaitingCall:
    call: TableCall
    round: int
    table: int | None
    pairing: int
    player_a: str
    player_b: str

    @property
    def waited_seconds(self) -> int:
        """Seconds since the call until staff took it, or until now while nobody has."""
        end = self.call.taken_at or timezone.now()
        return max(0, int((end - self.call.called_at).total_seconds()))

    @property
    def minutes(self) -> int:
        return self.waited_seconds // 60


def waiting_calls(tournament: Tournament, round: Round | None = None) -> list[WaitingCall]:
    """The waiting calls of `tournament`'s tables (of `round` only, if given), oldest
    first, in one query."""
    found = TableCall.objects.filter(
        resolved_at=None, match__pairing__round__tournament=tournament
    ).select_related(
        "match__pairing__round", "match__player_a", "match__player_b", "player", "taken_by"
    )
    if round is not None:
        found = found.filter(match__pairing__round=round)
    return [
        WaitingCall(
            call,
            call.match.pairing.round.number,
            call.match.pairing.table,
            call.match.pairing.pk,
            call.match.player_a.name,
            call.match.player_b.name,
        )
        for call in found.order_by("called_at", "pk")
    ]


def calls_by_match(round: Round) -> dict[int, str]:
    """{match id: "open" or "taken"} of the round's tables with a waiting call, in one
    query (a table row's mark)."""
    found = TableCall.objects.filter(resolved_at=None, match__pairing__round=round)
    return {
        match_id: "taken" if taken_at else "open"
        for match_id, taken_at in found.values_list("match_id", "taken_at")
    }
