"""The round clock, as the pages, the phones and their polls read it.

Terms:
    clock         a round's start and end and whether time was called, read at `now`;
                  its countdown runs in the browser (static/js/clock.js). It is shown
                  (`shown`) only while its round is in play: a closed round's clock
                  has stopped, whatever time its end was set for.
    extension     a table's own extra time (Pairing.plays_until, .extra_hands), carried on
                  its match's clock so that a polled scoreboard changes when an organiser
                  gives the table more time.
    poll version  what the tournament's polled partials show, cheaply (poll_version).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from scoring.models import LedgerRow, Match, TableCall
from tournaments.models import Pairing, Round, Tournament


@dataclass(frozen=True)
class Clock:
    started_at: datetime | None
    ends_at: datetime | None
    time_called: bool
    now: datetime
    # A match's own table: its extension (plays until, extra hands), so the polled
    # scoreboard changes when an organiser gives the table more time.
    table: tuple = ()
    # False for a round not in play (a draft, or closed): its clock is not shown
    in_play: bool = True

    @property
    def shown(self) -> bool:
        """Whether the pages show the countdown, or "time called": time may be called
        on a round whose clock was never started (the dashboard said "clock not
        started" after it was)."""
        return self.in_play and (self.ends_at is not None or self.time_called)

    @property
    def running(self) -> bool:
        return self.ends_at is not None and not self.time_called

    @property
    def seconds_left(self) -> int | None:
        if self.time_called:
            return 0
        if self.ends_at is None:
            return None
        return max(0, int((self.ends_at - self.now).total_seconds()))


def clock(round: Round) -> Clock:
    in_play = round.state == Round.State.PUBLISHED
    return Clock(
        round.started_at, round.ends_at, round.time_called, timezone.now(), in_play=in_play
    )


def poll_version(tournament: Tournament, round: Round | None) -> tuple:
    """What the tournament's polled partials (dashboard tables, pairings, standings,
    projector) show, cheaply: the newest ledger row of the whole site (every change to
    a tournament, its rounds and results, and every hand of every match appends one;
    an index lookup), the tournament's own settings and the shown round's state and
    clock (whose countdown runs in the browser, static/js/clock.js), and the calls from
    its tables still waiting for staff."""
    newest = LedgerRow.objects.order_by("-id").values_list("id", flat=True).first()
    shown = None
    if round is not None:
        c = clock(round)
        shown = (
            round.pk,
            round.state,
            c.ends_at.isoformat() if c.ends_at else None,
            c.time_called,
            c.seconds_left == 0,
        )
    settings = repr([getattr(tournament, f.attname) for f in Tournament._meta.concrete_fields])
    return (newest, settings, shown, _calls_version(round))


def _calls_version(round: Round | None) -> tuple | None:
    """The round's calls from the tables still waiting: how many, and while any waits
    the current minute, so the minutes each has waited move on the dashboard between
    changes (raising, taking and resolving a call append ledger rows: `newest`)."""
    if round is None:
        return None
    waiting = TableCall.objects.filter(resolved_at=None, match__pairing__round=round).count()
    return (waiting, int(timezone.now().timestamp() // 60)) if waiting else (0, None)


# A match read with its pairing and round (hooks.match_clock_related) has its clock.
CLOCK_RELATED = ("pairing__round",)


def clock_for_match(match: int | Match) -> Clock | None:
    """The round clock of the tournament round a match is played in (for match pages),
    with the table's own extension. Asked by every scoreboard poll, whose match query
    read the pairing and round with it (CLOCK_RELATED); else five plain values in one
    query (a match has at most one pairing), not two model instances in the models'
    ordering."""
    pairings = Match.pairing.related
    if isinstance(match, Match) and pairings.is_cached(match):
        pairing = pairings.get_cached_value(match)
        if pairing is None:
            return None
        r = pairing.round
        found = [(r.started_at, r.ends_at, r.time_called, pairing.plays_until, pairing.extra_hands)]
    else:
        found = list(
            Pairing.objects.filter(match_id=match.pk if isinstance(match, Match) else match)
            .order_by()
            .values_list(
                "round__started_at",
                "round__ends_at",
                "round__time_called",
                "plays_until",
                "extra_hands",
            )[:1]
        )
    if not found:
        return None
    started_at, ends_at, time_called, plays_until, extra_hands = found[0]
    extension = (plays_until.isoformat() if plays_until else None, extra_hands)
    return Clock(started_at, ends_at, time_called, timezone.now(), extension)
