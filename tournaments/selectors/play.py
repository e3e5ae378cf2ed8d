"""Play after time is called (docs/rules.md §13): the hand in play, a table's extra time,
and what the phones, the dashboard and the refusals say about it (reads only).

Terms:
    call          the moment time was called in the round (Round.time_called_at).
    cutoff        when a table's own time ended: the call, or later when an organiser gave
                  the table extra minutes (Pairing.plays_until).
    hand in play  hands are entered after they are played, so the hand being played at the
                  cutoff is the first hand the table enters from then on. A table may enter
                  1 + Pairing.extra_hands hands from its cutoff ("one more hand" adds one).
                  Voided hands do not count (a withdrawn entry of the hand in play may be
                  entered again); a hand entered before the cutoff, even unconfirmed, is not
                  the hand in play; the second entry of a hand (double entry) is no new hand.
    states        "" time not called; EXTENDED the table's extra minutes still run (play
                  on); LAST_HAND the table is finishing the hand in play (hands_left more
                  may be entered); TIME_UP no new hand may start: once its hands are agreed,
                  the time policy decides the match.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.hooks import PlayNote
from scoring.models import Hand, Match
from tournaments.models import Pairing, Round

EXTENDED = "extended"
LAST_HAND = "last_hand"
TIME_UP = "time_up"


@dataclass(frozen=True)
class Play:
    """A table's play after the call. `last` is (game, hand) of the last hand entered
    from the cutoff on, if any."""

    state: str
    called_at: datetime | None = None
    cutoff: datetime | None = None
    hands_left: int = 0
    extra_hands: int = 0
    last: tuple[int, int] | None = None

    @property
    def may_start(self) -> bool:
        return self.state != TIME_UP


NOT_CALLED = Play("")


def called_at(rnd: Round) -> datetime | None:
    """When time was called (rounds called before the field existed: the clock's end)."""
    if not rnd.time_called:
        return None
    return rnd.time_called_at or rnd.ends_at or rnd.published_at


def play_of(
    rnd: Round, pairing: Pairing, entered: list[tuple[datetime, int, int]], now: datetime
) -> Play:
    """The table's play. `entered`: (created_at, game, hand) of the match's live hands
    entered from the call on (any order)."""
    called = called_at(rnd)
    if called is None or pairing.is_bye or pairing.match_id is None:
        return NOT_CALLED
    cutoff = max(called, pairing.plays_until) if pairing.plays_until else called
    if now < cutoff:
        return Play(EXTENDED, called, cutoff, extra_hands=pairing.extra_hands)
    after = sorted(row for row in entered if row[0] >= cutoff)
    allowed = 1 + pairing.extra_hands
    last = after[-1][1:] if after else None
    state = LAST_HAND if len(after) < allowed else TIME_UP
    return Play(state, called, cutoff, allowed - len(after), pairing.extra_hands, last)


def entered_from(called: datetime, match_ids: list[int]) -> dict[int, list]:
    """{match id: [(created_at, game, hand)]} of the live hands entered from `called` on,
    in one query."""
    rows = (
        Hand.objects.filter(game__match_id__in=match_ids, created_at__gte=called)
        .exclude(state=Hand.State.VOIDED)
        .values_list("game__match_id", "created_at", "game__number", "number")
    )
    found: dict[int, list] = {}
    for match_id, created, game, number in rows:
        found.setdefault(match_id, []).append((created, game, number))
    return found


def plays_of(rnd: Round, pairings: list[Pairing]) -> dict[int, Play]:
    """{pairing id: Play} for a round's tables: one query once time is called, else none."""
    called = called_at(rnd)
    if called is None:
        return {p.pk: NOT_CALLED for p in pairings}
    entered = entered_from(called, [p.match_id for p in pairings if p.match_id])
    now = timezone.now()
    return {p.pk: play_of(rnd, p, entered.get(p.match_id, []), now) for p in pairings}


# -------------------------------------------------------------------------- words


def clock_time(moment: datetime) -> str:
    return timezone.localtime(moment).strftime("%H:%M")


def _names(pairing: Pairing) -> dict[str, str]:
    return {"a": pairing.player_a.player.name, "b": pairing.player_b.player.name}


def words(play: Play, pairing: Pairing) -> str:
    """What a table's play is, in words with names, for the phones and the dashboard
    ("Time was called at 15:40: Ada and Ben finish the hand in play; no new hand.")."""
    if not play.state:
        return ""
    values = {**_names(pairing), "called": clock_time(play.called_at)}
    if play.state == EXTENDED:
        return _(
            "Time was called at %(called)s; the organiser gave %(a)s and %(b)s until "
            "%(until)s: play on, then finish the hand in play."
        ) % {**values, "until": clock_time(play.cutoff)}
    if play.state == LAST_HAND and play.extra_hands:
        return ngettext(
            "Time was called at %(called)s; the organiser gave %(a)s and %(b)s %(count)s "
            "more hand: %(left)s left to enter, then no new hand.",
            "Time was called at %(called)s; the organiser gave %(a)s and %(b)s %(count)s "
            "more hands: %(left)s left to enter, then no new hand.",
            play.extra_hands,
        ) % {**values, "count": play.extra_hands, "left": play.hands_left}
    if play.state == LAST_HAND:
        return (
            _(
                "Time was called at %(called)s: %(a)s and %(b)s finish the hand in play; no new "
                "hand after it."
            )
            % values
        )
    game, hand = play.last
    return _(
        "Time was called at %(called)s: %(a)s and %(b)s finish the hand in play; no new hand "
        "(hand %(hand)s of game %(game)s was the hand in play)."
    ) % {**values, "hand": hand, "game": game}


# ---------------------------------------------------------- scoring's hooks


def _pairing_of(match_id: int) -> Pairing | None:
    return (
        Pairing.objects.select_related("round", "match", "player_a__player", "player_b__player")
        .filter(match_id=match_id)
        .first()
    )


def play_gate(match: int | Match) -> PlayNote | None:
    """scoring.hooks' play gate: may a new hand start at this match's table, and what the
    phones say about play after the call (None before it). A Match read with its pairing
    and round (CLOCK_RELATED: a hand submission's locked match) is answered without a
    query until time is called in its round."""
    pairings = Match.pairing.related
    if isinstance(match, Match) and pairings.is_cached(match):
        cached = pairings.get_cached_value(match)
        if cached is None or not cached.round.time_called:
            return None
    match_id = match.pk if isinstance(match, Match) else match
    pairing = _pairing_of(match_id)
    if pairing is None or pairing.resolved or not pairing.round.time_called:
        return None
    if pairing.round.state != Round.State.PUBLISHED:  # a closed round's match, reopened
        return None
    rnd = pairing.round
    entered = entered_from(called_at(rnd), [match_id]).get(match_id, [])
    play = play_of(rnd, pairing, entered, timezone.now())
    return PlayNote(play.may_start, words(play, pairing)) if play.state else None
