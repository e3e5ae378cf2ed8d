"""Players who sign themselves up, check in from their phones and drop (services).

An organiser opens a tournament's sign-ups (`set_signups`): a link, a QR code and a
short code to type lead to the sign-up form, until the closing time, or round 1 is
published, or the organiser closes them. Optional: a capacity (the others wait on the
list, first come first in) and approval (an organiser approves each sign-up).

Who is signing up (docs/organisers.md, "Sign-up by players"), never a silent duplicate:
    - the name (any case) or the email matches no club player: a new club player is
      made, with the PIN chosen on the form;
    - it matches a club player who has a PIN: the PIN typed must be that player's (it
      proves who they are; the usual wrong-PIN limits apply);
    - it matches a club player with no PIN: nobody can prove it, so the sign-up waits
      (`pending`) for an organiser to say whether it is that player (who then gets the
      PIN chosen) or someone else (who gets a new club player, under a name that tells
      them apart);
    - the name matches one club player and the email another: refused, naming both.

A sign-up that gets a place becomes a Registration; from then on the registration is
the one home of the player's state in the event: checked in, withdrawn. Dropping from
the phone is the same withdrawal as the organiser's (never paired again; results
stand). Before round 1, a place freed (a player leaves, is removed or withdraws, or the
capacity grows) goes to the first on the waiting list at once.

Check-in from the phone opens `check_in_opens` minutes before `starts_at` and closes
when round 1 is published; without a start time only the desk checks players in.

Every change is a row in the tournament's ledger. Sign-up forms are counted per address
before anything else (ginclub.login_limits.admit_signup).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from ginclub import login_limits, permissions
from ginclub.errors import Conflict, Forbidden, NotFound, ServiceError
from ginclub.inputs import name_problem, registration_details
from ginclub.permissions import Actor
from scoring import services as scoring
from scoring.models import Player
from tournaments.models import Pairing, Registration, SignUp, Tournament
from tournaments.selectors.signups import closed_reason, phone_check_in_refusal
from tournaments.services.base import log

CODE_ALPHABET = "ACDEFGHJKLMNPQRTUVWXY34679"  # no 0/O, 1/I, 2/Z, 5/S, 8/B
CODE_LENGTH = 6
MOVED_UP = "waiting_list_moved_up"


def _lock(tournament_id: int) -> Tournament:
    """The tournament, locked, whoever asks (each service asks permissions itself)."""
    tournament = (
        Tournament.objects.select_for_update()
        .select_related("club")
        .filter(pk=tournament_id)
        .first()
    )
    if tournament is None:
        raise NotFound("not_found", _("No such tournament."))
    return tournament


def _lock_signup(signup_id: int) -> tuple[Tournament, SignUp]:
    tournament_id = SignUp.objects.filter(pk=signup_id).values_list("tournament_id", flat=True)
    found = tournament_id.first()
    if found is None:
        raise NotFound("not_found", _("No such sign-up."))
    tournament = _lock(found)
    return tournament, SignUp.objects.select_related("player", "claims", "registration").get(
        pk=signup_id
    )


def _lock_registration(registration_id: int) -> tuple[Tournament, Registration]:
    found = (
        Registration.objects.filter(pk=registration_id)
        .values_list("tournament_id", flat=True)
        .first()
    )
    if found is None:
        raise NotFound("not_found", _("No such registration."))
    tournament = _lock(found)
    return tournament, Registration.objects.select_related("player").get(pk=registration_id)


# ----------------------------------------------------------------------- settings


@dataclass(frozen=True)
class SignupSettings:
    """What `set_signups` may change; None leaves a value as it is (`clear_*` clears)."""

    open: bool | None = None
    capacity: int | None = None
    clear_capacity: bool = False
    approval: bool | None = None
    closes_at: datetime | None = None
    clear_closes_at: bool = False
    starts_at: datetime | None = None
    clear_starts_at: bool = False
    check_in_opens: int | None = None
    late_entry: str | None = None


FIELDS = (
    "signup_open",
    "signup_code",
    "signup_capacity",
    "signup_approval",
    "signup_closes_at",
    "starts_at",
    "check_in_opens",
    "late_entry",
)


def _values(tournament: Tournament) -> dict[str, Any]:
    values = {key: getattr(tournament, key) for key in FIELDS}
    for key in ("signup_closes_at", "starts_at"):
        if values[key] is not None:
            values[key] = values[key].isoformat()
    return values


def set_signups(*, tournament_id: int, actor: Actor, changes: SignupSettings) -> Tournament:
    """Open or close sign-ups, set the capacity, approval, closing time, the start time
    and check-in window, the late-entry rule. Opening them the first time makes the
    short code. A larger capacity moves the waiting list up at once.

    Raises Forbidden (organisers only), ServiceError (`invalid`), Conflict (`finished`).
    """
    with transaction.atomic():
        tournament = _lock(tournament_id)
        permissions.require_manage_signups(actor, tournament)
        if tournament.state == Tournament.State.FINISHED:
            raise Conflict("finished", _("The tournament is finished."))
        before = _values(tournament)
        c = changes
        if c.capacity is not None and not 1 <= c.capacity <= 10_000:
            raise ServiceError(
                "invalid",
                _("A capacity is a whole number from 1 to 10000."),
                fields={"capacity": _("%(low)s to %(high)s") % {"low": 1, "high": 10_000}},
            )
        if c.check_in_opens is not None and not 0 <= c.check_in_opens <= 1440:
            raise ServiceError(
                "invalid",
                _("Check-in opens 0 to 1440 minutes before the start."),
                fields={"check_in_opens": _("%(low)s to %(high)s") % {"low": 0, "high": 1440}},
            )
        if c.late_entry is not None and c.late_entry not in Tournament.LateEntry.values:
            raise ServiceError(
                "invalid",
                _("A late entry's missed rounds count as %(choices)s.")
                % {"choices": " / ".join(Tournament.LateEntry.values)},
                fields={"late_entry": _("not a choice")},
            )
        if c.closes_at is not None and c.closes_at <= timezone.now():
            # a time already past would close the sign-ups as they are saved
            raise ServiceError(
                "invalid",
                _(
                    "Sign-ups cannot close at %(time)s: that time has passed. Choose a "
                    "later one, or leave it empty."
                )
                % {"time": date_format(timezone.localtime(c.closes_at), "SHORT_DATETIME_FORMAT")},
                fields={"closes_at": _("in the past")},
            )
        if c.open is not None:
            tournament.signup_open = c.open
            if c.open and not tournament.signup_code:
                tournament.signup_code = _new_code()
        if c.capacity is not None or c.clear_capacity:
            tournament.signup_capacity = None if c.clear_capacity else c.capacity
        if c.approval is not None:
            tournament.signup_approval = c.approval
        if c.closes_at is not None or c.clear_closes_at:
            tournament.signup_closes_at = None if c.clear_closes_at else c.closes_at
        if c.starts_at is not None or c.clear_starts_at:
            tournament.starts_at = None if c.clear_starts_at else c.starts_at
        if c.check_in_opens is not None:
            tournament.check_in_opens = c.check_in_opens
        if c.late_entry is not None:
            tournament.late_entry = c.late_entry
        after = _values(tournament)
        if after != before:
            tournament.save(update_fields=list(FIELDS))
            changed = sorted(k for k in FIELDS if before[k] != after[k])
            log(
                tournament,
                "signups_set",
                actor,
                before={k: before[k] for k in changed},
                after={k: after[k] for k in changed},
            )
            move_up(tournament, actor)
    return tournament


def _new_code() -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))
        if not Tournament.objects.filter(signup_code=code).exists():
            return code


# ------------------------------------------------------------------------ sign up


def sign_up(*, tournament_id: int, actor: Actor, name: str, pin: str, email: str = "") -> SignUp:
    """A player signs up (module docstring: who they are, where they land).

    Raises Throttled (`signup_throttled`, `pin_locked`), Conflict (`signups_closed`),
    ServiceError (`invalid`, `empty_name`, `bad_email`, `ambiguous_player`,
    `already_signed_up`), Forbidden (`wrong_pin`).
    """
    login_limits.admit_signup(ip=actor.ip)
    name, email = " ".join(str(name).split()), str(email).strip()
    scoring.check_pin_format(pin)
    with transaction.atomic():
        tournament = _lock(tournament_id)
        closed = closed_reason(tournament)
        if closed:
            raise Conflict("signups_closed", closed)
        name, email, _member_id = registration_details(name, email, "")
        if problem := name_problem(name):
            raise ServiceError(
                "invalid",
                _("The name %(name)s %(problem)s.") % {"name": repr(name), "problem": problem},
                fields={"name": problem},
            )
        existing = _match(tournament, name, email)
        signup = SignUp(tournament=tournament, name=name, email=email)
        if existing is not None:
            _check_not_in(tournament, existing)
            if existing.pin_hash:
                _prove(actor, existing, pin)
                signup.player = existing
            else:
                signup.claims = existing
                holder = Player()
                holder.set_pin(pin)
                signup.pin_hash = holder.pin_hash
                signup.state = SignUp.State.PENDING
        else:
            holder = Player()
            holder.set_pin(pin)
            signup.player = scoring.add_signed_up_player(
                club=tournament.club, name=name, email=email, pin_hash=holder.pin_hash
            )
        if not signup.state:
            signup.state = (
                SignUp.State.PENDING if tournament.signup_approval else SignUp.State.WAITING
            )
        signup.save()
        if signup.state == SignUp.State.WAITING:
            _place(tournament, signup)
        log(tournament, "signed_up", actor, after=_summary(signup))
    return signup


def _match(tournament: Tournament, name: str, email: str) -> Player | None:
    """The club player these details name (by name, any case, or by email), or None.
    Raises ServiceError (`ambiguous_player`) when they name two."""
    players = tournament.club.players
    by_name = players.filter(name__iexact=name).first()
    by_email = players.filter(email__iexact=email).first() if email else None
    if by_name and by_email and by_name.pk != by_email.pk:
        raise ServiceError(
            "ambiguous_player",
            _(
                "The name %(name)s is one club player's and the email %(email)s another's "
                "(%(other)s): check them, or ask an organiser."
            )
            % {"name": by_name.name, "email": email, "other": by_email.name},
            fields={"email": _("another player's")},
        )
    return by_name or by_email


def _check_not_in(tournament: Tournament, player: Player, but: SignUp | None = None) -> None:
    """Refuses a second sign-up (or registration) of `player` (`but`: this one aside)."""
    signups = tournament.signups.exclude(pk=but.pk) if but is not None else tournament.signups
    if (
        tournament.registrations.filter(player=player).exists()
        or signups.filter(player=player, state__in=SignUp.OPEN).exists()
        or signups.filter(claims=player, state=SignUp.State.PENDING).exists()
    ):
        raise ServiceError(
            "already_signed_up",
            _("%(name)s has already signed up for %(tournament)s.")
            % {"name": player.name, "tournament": tournament.name},
            fields={"name": _("already signed up")},
        )


def _prove(actor: Actor, player: Player, pin: str) -> None:
    """The signer gives the PIN of the club player their name or email matched."""
    try:
        scoring.verify_player_pin(
            player=player, pin=pin, device=scoring.device_key(actor), ip=actor.ip
        )
    except Forbidden as refusal:
        raise Forbidden(
            refusal.code,
            _(
                "%(name)s is already a player of %(club)s, with a PIN: type that PIN to sign "
                "up as them, or ask an organiser. %(detail)s"
            )
            % {"name": player.name, "club": player.club.name, "detail": refusal.message},
            fields={"pin": _("not %(name)s's PIN") % {"name": player.name}},
        ) from None


def _room(tournament: Tournament) -> bool:
    if tournament.signup_capacity is None:
        return True
    taken = tournament.registrations.filter(withdrawn=False).count()
    return taken < tournament.signup_capacity


def _place(tournament: Tournament, signup: SignUp) -> None:
    """A sign-up with its player, approved: a registration if there is room (and no one
    waiting before it), else the waiting list."""
    ahead = tournament.signups.filter(state=SignUp.State.WAITING).exclude(pk=signup.pk)
    ahead = ahead.filter(created_at__lt=signup.created_at).exists()
    if _room(tournament) and not ahead and not tournament.frozen:
        registration = Registration.objects.create(tournament=tournament, player=signup.player)
        signup.registration, signup.state = registration, SignUp.State.ENTERED
    else:
        signup.state = SignUp.State.WAITING
    signup.save(update_fields=["registration", "state", "updated_at"])


def move_up(tournament: Tournament, actor: Actor) -> list[SignUp]:
    """Give the free places to the waiting list, first come first in, while round 1 is
    not published; one ledger row per player moved up. Inside the caller's transaction
    (holding the tournament's lock). Returns those moved up."""
    moved: list[SignUp] = []
    if tournament.frozen or tournament.state == Tournament.State.FINISHED:
        return moved
    waiting = tournament.signups.filter(state=SignUp.State.WAITING).select_related("player")
    for signup in waiting.order_by("created_at", "pk"):
        if not _room(tournament):
            break
        registration = Registration.objects.create(tournament=tournament, player=signup.player)
        signup.registration, signup.state = registration, SignUp.State.ENTERED
        signup.moved_up_at = timezone.now()
        signup.save(update_fields=["registration", "state", "moved_up_at", "updated_at"])
        log(tournament, MOVED_UP, actor, after=_summary(signup))
        moved.append(signup)
    return moved


def _summary(signup: SignUp) -> dict[str, Any]:
    return {
        "signup": signup.pk,
        "name": signup.name,
        "player": signup.player.name if signup.player else None,
        "claims": signup.claims.name if signup.claims else None,
        "state": signup.state,
        "registration": signup.registration_id,
    }


def leave_signup(*, signup_id: int, actor: Actor) -> SignUp:
    """The player leaves before round 1 (their place, or the waiting list); the first
    waiting moves up. Once round 1 is published a registered player drops instead.

    Raises Forbidden, Conflict (`not_signed_up`, `drop_instead`, `already_paired`).
    """
    with transaction.atomic():
        tournament, signup = _lock_signup(signup_id)
        permissions.require_own_entry(actor, tournament, signup.player, signup.name)
        if signup.state not in SignUp.OPEN:
            raise Conflict(
                "not_signed_up",
                _("%(name)s's sign-up is %(state)s.")
                % {"name": signup.name, "state": signup.get_state_display()},
            )
        if signup.registration is not None:
            if tournament.frozen:
                raise Conflict(
                    "drop_instead",
                    _("Round 1 is published: %(name)s drops from their event page instead.")
                    % {"name": signup.name},
                )
            _check_unpaired(signup.registration)
            signup.registration.delete()
            signup.registration = None
        signup.state = SignUp.State.LEFT
        signup.save(update_fields=["registration", "state", "updated_at"])
        log(tournament, "signup_left", actor, after=_summary(signup))
        move_up(tournament, actor)
    return signup


def _check_unpaired(registration: Registration) -> None:
    if Pairing.objects.filter(player_a=registration).exists() or (
        Pairing.objects.filter(player_b=registration).exists()
    ):
        raise Conflict(
            "already_paired",
            _("%(name)s has been paired; withdraw them instead.")
            % {"name": registration.player.name},
        )


def registration_freed(
    tournament: Tournament, registration: Registration, actor: Actor, signup: SignUp | None = None
) -> None:
    """An organiser removed (`signup`: the sign-up it came from) or withdrew
    `registration` (tournaments.services.registration): a removed one's sign-up has
    left; before round 1 the place goes to the waiting list."""
    if signup is not None:
        signup.refresh_from_db()
        signup.state = SignUp.State.LEFT
        signup.save(update_fields=["state", "updated_at"])
    move_up(tournament, actor)


def approve_signup(*, signup_id: int, actor: Actor) -> SignUp:
    """An organiser approves a pending sign-up: a place, or the waiting list.
    Raises Forbidden, Conflict (`not_pending`, `unresolved`)."""
    with transaction.atomic():
        tournament, signup = _lock_signup(signup_id)
        permissions.require_manage_signups(actor, tournament)
        _require_pending(signup)
        if signup.player is None:
            raise Conflict(
                "unresolved",
                _("Say first whether %(name)s is the club's %(player)s.")
                % {"name": signup.name, "player": signup.claims.name if signup.claims else "?"},
            )
        _place(tournament, signup)
        log(tournament, "signup_approved", actor, after=_summary(signup))
    return signup


def refuse_signup(*, signup_id: int, actor: Actor, reason: str = "") -> SignUp:
    """An organiser refuses a pending or waiting sign-up.
    Raises Forbidden, Conflict (`not_pending`)."""
    with transaction.atomic():
        tournament, signup = _lock_signup(signup_id)
        permissions.require_manage_signups(actor, tournament)
        if signup.state not in (SignUp.State.PENDING, SignUp.State.WAITING):
            _require_pending(signup)
        signup.state, signup.pin_hash = SignUp.State.REFUSED, ""
        signup.save(update_fields=["state", "pin_hash", "updated_at"])
        log(tournament, "signup_refused", actor, reason=reason, after=_summary(signup))
    return signup


def resolve_signup(*, signup_id: int, actor: Actor, same: bool, name: str = "") -> SignUp:
    """An organiser says who a sign-up whose name or email matched a club player with no
    PIN is: that player (`same`: who gets the PIN chosen on the form), or someone else
    (a new club player called `name`). Resolving approves it too: a place, or the
    waiting list.

    Raises Forbidden, Conflict (`not_pending`, `nothing_to_resolve`), ServiceError
    (`invalid`, `duplicate_player`, `already_signed_up`).
    """
    with transaction.atomic():
        tournament, signup = _lock_signup(signup_id)
        permissions.require_manage_signups(actor, tournament)
        _require_pending(signup)
        if signup.player is not None or signup.claims is None:
            raise Conflict(
                "nothing_to_resolve",
                _("%(name)s's sign-up matches no club player to resolve.") % {"name": signup.name},
            )
        claimed = signup.claims
        if same:
            _check_not_in(tournament, claimed, but=signup)
            player = Player.objects.select_for_update().get(pk=claimed.pk)
            player.pin_hash = signup.pin_hash
            if signup.email and not player.email:
                player.email = signup.email
            player.save(update_fields=["pin_hash", "email"])
        else:
            player = scoring.add_signed_up_player(
                club=tournament.club,
                name=name or "",
                email="" if signup.email.lower() == claimed.email.lower() else signup.email,
                pin_hash=signup.pin_hash,
            )
        signup.player, signup.pin_hash = player, ""
        signup.save(update_fields=["player", "pin_hash", "updated_at"])
        _place(tournament, signup)
        log(
            tournament,
            "signup_resolved",
            actor,
            reason=_("the club's %(name)s") % {"name": claimed.name}
            if same
            else _("not the club's %(name)s") % {"name": claimed.name},
            after=_summary(signup),
        )
    return signup


def _require_pending(signup: SignUp) -> None:
    if signup.state != SignUp.State.PENDING:
        raise Conflict(
            "not_pending",
            _("%(name)s's sign-up is %(state)s, not awaiting the organiser.")
            % {"name": signup.name, "state": signup.get_state_display()},
        )


# --------------------------------------------------------- check in, drop, by phone


def check_in_by_phone(*, registration_id: int, actor: Actor) -> Registration:
    """The player checks in from their own event page (with their PIN), in the check-in
    window. Raises Forbidden, Conflict (`check_in_closed`, `withdrawn`)."""
    with transaction.atomic():
        tournament, registration = _lock_registration(registration_id)
        permissions.require_own_entry(
            actor, tournament, registration.player, registration.player.name
        )
        refusal = phone_check_in_refusal(tournament)
        if refusal:
            raise Conflict("check_in_closed", refusal)
        if registration.withdrawn:
            raise Conflict(
                "withdrawn", _("%(name)s has withdrawn.") % {"name": registration.player.name}
            )
        if not registration.checked_in:
            registration.checked_in = True
            registration.save(update_fields=["checked_in"])
            log(
                tournament,
                "checked_in",
                actor,
                reason="from the player's phone"
                if permissions.speaks_for(actor, registration.player)
                else "on the player's page, by an organiser",
                after={"registration": registration.pk, "player": registration.player.name},
            )
    return registration


def drop(*, registration_id: int, actor: Actor) -> Registration:
    """The player drops after the current round, from their own event page (with their
    PIN): the organiser's withdrawal, the same flag: never paired again, results stand,
    the table they sit at now plays on. Before round 1 their place goes to the waiting
    list. The player's own step: an organiser withdraws a player with a reason
    (withdraw_registration). Raises Forbidden, Conflict (`already_withdrawn`, `finished`,
    `withdraw_instead`)."""
    with transaction.atomic():
        tournament, registration = _lock_registration(registration_id)
        permissions.require_own_entry(
            actor, tournament, registration.player, registration.player.name
        )
        if not permissions.speaks_for(actor, registration.player):
            raise Conflict(
                "withdraw_instead",
                _(
                    "Dropping is %(name)s's own step, with their PIN. An organiser withdraws "
                    "%(name)s on the Players page, saying why."
                )
                % {"name": registration.player.name},
            )
        if tournament.state == Tournament.State.FINISHED:
            raise Conflict("finished", _("The tournament is finished."))
        if registration.withdrawn:
            raise Conflict(
                "already_withdrawn",
                _("%(name)s has already withdrawn.") % {"name": registration.player.name},
            )
        registration.withdrawn = True
        registration.save(update_fields=["withdrawn"])
        log(
            tournament,
            "player_dropped",
            actor,
            reason="dropped after the current round, from the player's phone",
            after={"registration": registration.pk, "player": registration.player.name},
        )
        move_up(tournament, actor)
    return registration
