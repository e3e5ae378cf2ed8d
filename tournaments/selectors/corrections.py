"""Results changed after a round closed, as the standings pages list them (reads).

Terms:
    change notice  one applied change to a result of a closed round: the match's ledger
                   row (`result_changed_after_close`) that scoring writes once
                   tournaments.services.corrections' guard has allowed and described the
                   change: the table, the players, the hand, and the match's result
                   before and after.
One query, whatever the number of changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext, pgettext

from scoring.models import LedgerRow
from scoring.services.results import RESULT_CHANGED
from tournaments.models import Tournament


@dataclass(frozen=True)
class ResultChangeNotice:
    """One applied change to a result of a closed round (from the match's ledger row
    written by tournaments.services.corrections' guard)."""

    round: int
    table: int | None
    players: dict[str, str]
    hand: str
    action: str
    before: dict[str, Any]
    after: dict[str, Any]
    resolved: bool
    at: datetime
    match_id: int | None

    @property
    def what(self) -> str:
        # What became of a hand ("Table 2, Ada v Ben: game 1 hand 3 corrected on ...").
        return {
            # Translators: of a hand ("mano", feminine), after its name.
            "hand_corrected": pgettext("hand", "corrected"),
            "hand_voided": pgettext("hand", "voided"),
            "hand_confirmed": pgettext("hand", "confirmed"),
            "hand_withdrawn": pgettext("hand", "withdrawn"),
        }.get(self.action, pgettext("hand", "changed"))

    def result_text(self, result: dict[str, Any]) -> str:
        return result_text(result, self.players) if result else "?"

    @property
    def before_text(self) -> str:
        return self.result_text(self.before)

    @property
    def after_text(self) -> str:
        return self.result_text(self.after)

    @property
    def title(self) -> str:
        return gettext("%(a)s v %(b)s") % {"a": self.players["A"], "b": self.players["B"]}


def results_changed(
    tournament: Tournament, *, through_round: int | None = None, limit: int = 20
) -> list[ResultChangeNotice]:
    """The latest changes to results of closed rounds, newest first, in one query.
    `through_round` leaves out rounds after it (what the public may not see yet)."""
    rows = (
        LedgerRow.objects.filter(
            action=RESULT_CHANGED, match__pairing__round__tournament=tournament
        )
        .order_by("-id")
        .values("match_id", "created_at", "before", "after")[:limit]
    )
    notices = []
    for row in rows:
        after = row["after"] or {}
        if through_round is not None and after.get("round", 0) > through_round:
            continue
        notices.append(
            ResultChangeNotice(
                round=after.get("round", 0),
                table=after.get("table"),
                players=after.get("players", {"A": "?", "B": "?"}),
                hand=after.get("hand", ""),
                action=after.get("action", ""),
                before=(row["before"] or {}).get("result", {}),
                after=after.get("result", {}),
                resolved=bool(after.get("resolved")),
                at=row["created_at"],
                match_id=row["match_id"],
            )
        )
    return notices


def result_text(result: dict[str, Any], names: dict[str, str]) -> str:
    """A match's result in words with the players' names ("Ada won, Ada 3–1 Ben (420–310
    points)"), for the corrections page and the audit."""
    values = {
        "a": names["A"],
        "b": names["B"],
        "games_a": result["games_won"]["A"],
        "games_b": result["games_won"]["B"],
        "points_a": result["points"]["A"],
        "points_b": result["points"]["B"],
    }
    if result.get("winner"):
        return gettext(
            "%(winner)s won, %(a)s %(games_a)s–%(games_b)s %(b)s (%(points_a)s–%(points_b)s points)"
        ) % {**values, "winner": names.get(result["winner"], "?")}
    return (
        gettext("undecided, %(a)s %(games_a)s–%(games_b)s %(b)s (%(points_a)s–%(points_b)s points)")
        % values
    )
