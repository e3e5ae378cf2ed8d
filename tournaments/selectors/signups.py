"""Sign-ups as the player's page and the organiser's players page show them (reads).

Terms are tournaments.services.signups': pending, waiting, entered, left, refused. A
waiting sign-up's position is its place in the list, first come first in (1: the next
to get a place).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from tournaments.models import SignUp, Tournament


@dataclass(frozen=True)
class SignupView:
    signup: SignUp
    position: int | None  # on the waiting list (1: next), None when not waiting
    waiting: int  # how many wait
    where: str  # where the player stands, in words

    @property
    def state(self) -> str:
        return self.signup.state


def _waiting(tournament: Tournament) -> list[int]:
    rows = tournament.signups.filter(state=SignUp.State.WAITING).order_by("created_at", "pk")
    return list(rows.values_list("pk", flat=True))


def signup_view(signup: SignUp) -> SignupView:
    """Where `signup` stands, with its place on the waiting list."""
    waiting = _waiting(signup.tournament)
    position = waiting.index(signup.pk) + 1 if signup.pk in waiting else None
    return SignupView(signup, position, len(waiting), _where(signup, position, len(waiting)))


def _where(signup: SignUp, position: int | None, waiting: int) -> str:
    name, event = signup.name, signup.tournament.name
    state = signup.state
    if state == SignUp.State.ENTERED and signup.moved_up_at is not None:
        return _("You moved up from the waiting list: you have a place in %(event)s.") % {
            "event": event
        }
    if state == SignUp.State.ENTERED:
        return _("You have a place in %(event)s.") % {"event": event}
    if state == SignUp.State.WAITING:
        return _(
            "You are number %(position)s on the waiting list (%(count)s waiting). You get a "
            "place as soon as one is free, and this page says so."
        ) % {"position": position, "count": waiting}
    if state == SignUp.State.PENDING and signup.player is None and signup.claims is not None:
        return _(
            "%(club)s already has a player called %(player)s, with no PIN yet: an organiser "
            "will confirm whether that is you. This page says when."
        ) % {"club": signup.tournament.club.name, "player": signup.claims.name}
    if state == SignUp.State.PENDING:
        return _("Your sign-up awaits the organiser's approval. This page says when.")
    if state == SignUp.State.LEFT:
        return _("%(name)s left %(event)s.") % {"name": name, "event": event}
    return _("An organiser refused this sign-up for %(event)s.") % {"event": event}


@dataclass(frozen=True)
class Signups:
    """A tournament's sign-ups for its organisers."""

    tournament: Tournament
    pending: list[SignUp]
    waiting: list[SignUp]
    entered: int
    closed: str  # why sign-ups are closed ("" open)
    check_in: str  # why phones cannot check in now ("" they can)

    @property
    def path(self) -> str:
        return signup_path(self.tournament)

    @property
    def pending_views(self) -> list[SignupView]:
        return [signup_view(s) for s in self.pending]

    @property
    def waiting_views(self) -> list[SignupView]:
        return [signup_view(s) for s in self.waiting]


def signups_of(tournament: Tournament) -> Signups:
    rows = tournament.signups.select_related("player", "claims").order_by("created_at", "pk")
    return Signups(
        tournament=tournament,
        pending=list(rows.filter(state=SignUp.State.PENDING)),
        waiting=list(rows.filter(state=SignUp.State.WAITING)),
        entered=rows.filter(state=SignUp.State.ENTERED).count(),
        closed=closed_reason(tournament),
        check_in=phone_check_in_refusal(tournament),
    )


def signup_path(tournament: Tournament) -> str:
    """The sign-up form's address (its short code), "" before sign-ups were ever opened."""
    if not tournament.signup_code:
        return ""
    return reverse("tournaments:signup", args=[tournament.signup_code])


def closed_reason(tournament: Tournament, now: datetime | None = None) -> str:
    """Why sign-ups are closed now, in words ("" while they are open)."""
    now = now or timezone.now()
    if tournament.state == Tournament.State.FINISHED:
        return _("The tournament is finished.")
    if tournament.frozen:
        return _("Round 1 is published: ask an organiser for a late entry.")
    if not tournament.signup_open:
        return _("Sign-ups for %(name)s are closed.") % {"name": tournament.name}
    if tournament.signup_closes_at is not None and now >= tournament.signup_closes_at:
        return _("Sign-ups for %(name)s closed at %(time)s.") % {
            "name": tournament.name,
            # not DATETIME_FORMAT: its "10 a.m." ended the sentence "10 a.m.."
            "time": date_format(
                timezone.localtime(tournament.signup_closes_at), "SHORT_DATETIME_FORMAT"
            ),
        }
    return ""


def check_in_window(tournament: Tournament) -> tuple[datetime | None, datetime | None]:
    """When players may check in from their phones: (opens, closes at the start), or
    (None, None) when the event has no start time (the desk checks players in)."""
    if tournament.starts_at is None:
        return None, None
    return tournament.starts_at - timedelta(minutes=tournament.check_in_opens), None


def phone_check_in_refusal(tournament: Tournament, now: datetime | None = None) -> str:
    """Why a player cannot check in from their phone now ("" when they can)."""
    now = now or timezone.now()
    opens, _closes = check_in_window(tournament)
    if tournament.frozen or tournament.state != Tournament.State.SETUP:
        return _("Round 1 is published: check-in is at the organisers' desk now.")
    if opens is None:
        return _("Check-in is at the organisers' desk.")
    if now < opens:
        return _("Check-in opens at %(time)s.") % {
            "time": date_format(timezone.localtime(opens), "DATETIME_FORMAT")
        }
    return ""


def normal_code(code: str) -> str:
    """The code as typed (any case, spaces or dashes) as stored."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


@dataclass(frozen=True)
class Entries:
    """Who is in, for the dashboard: registered, checked in, dropped (withdrawn, by
    the player from their phone or by an organiser), and the sign-ups still open."""

    registered: int
    checked_in: int
    dropped: list[str]  # names, A to Z
    pending: int
    waiting: int


def entries_of(tournament: Tournament) -> Entries:
    rows = list(
        tournament.registrations.values_list("player__name", "checked_in", "withdrawn").order_by(
            "player__name"
        )
    )
    states = list(tournament.signups.values_list("state", flat=True))
    return Entries(
        registered=len(rows),
        checked_in=sum(1 for _n, checked, gone in rows if checked and not gone),
        dropped=[name for name, _c, gone in rows if gone],
        pending=states.count(SignUp.State.PENDING),
        waiting=states.count(SignUp.State.WAITING),
    )
