"""Players and their table PINs, and the limits on guessing them.

A PIN is 4 to 8 digits, so the limits, not the hash, protect it (see Player.set_pin).
Wrong PINs are counted three ways, all checked BEFORE the PIN is hashed:

    this device   PIN_FAILURE_LIMIT (5) wrong PINs for a player from one browser session
                  lock that player on that phone for PIN_LOCKOUT (5 minutes). The player's
                  own phone, which has not been failing, still sits down.
    the player    PLAYER_FAILURE_LIMIT (20) wrong PINs for a player within PLAYER_WINDOW
                  (an hour), from any number of phones, lock the player on every phone
                  that never gave the player's right PIN, until the hour has moved on or
                  an organiser lifts it (`unlock_pin`). A guesser gets at most 20 of
                  10,000 four-digit PINs an hour, not the whole space; a stranger who
                  trips it cannot lock the player out of the phones they sat at before
                  (PinDevice), which keep only their own per-phone limit. A phone is
                  known for KNOWN_DEVICE_FOR (30 days) after it last gave the right
                  PIN: a lost or lent phone does not stay exempt for ever. Phones past
                  that are deleted whenever a phone gives a right PIN, the one moment
                  such rows are made, so the table holds only the last month's.
    the address   NETWORK_FAILURE_LIMIT (100) wrong PINs within the hour from one IP
                  address, for any players, hold the phones that failed from it until
                  the hour has moved on or an organiser lifts it (`lift_network_limit`).
                  Only those phones: forty players share a venue's one Wi-Fi address,
                  and a player whose phone never failed there is never refused by it.
                  It stops one browser sweeping the club; a sweeper that starts a new
                  session per guess still meets the per-player ceiling.

Counting is atomic: the check, the PIN comparison and the new failure row happen in one
transaction holding the player's row lock and a lock on the address (on SQLite the
IMMEDIATE transaction is the lock), so thirty wrong PINs sent at once, for one player or
for many from one address, are checked exactly up to the limit.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email, validate_ipv46_address
from django.db import connection, transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ginclub import ledger, permissions
from ginclub.errors import Forbidden, ServiceError, Throttled
from ginclub.inputs import name_problem
from scoring.models import Club, Match, PinDevice, PinFailure, Player
from scoring.services.base import Actor

PIN_FAILURE_LIMIT = 5
PIN_LOCKOUT = timedelta(minutes=5)
PLAYER_FAILURE_LIMIT = 20
PLAYER_WINDOW = timedelta(hours=1)
NETWORK_FAILURE_LIMIT = 100
NETWORK_WINDOW = timedelta(hours=1)
KNOWN_DEVICE_FOR = timedelta(days=30)
_PRUNE_LOCK = int.from_bytes(hashlib.sha256(b"pin-device-prune").digest()[:8], "big", signed=True)


def device_key(actor: Actor) -> str:
    """Which device a PIN attempt comes from: the browser session, else (an API client
    without one) its address and user agent."""
    if actor.browser:
        return actor.browser
    raw = f"{actor.ip or ''}|{actor.device}"
    return "anon-" + hashlib.sha256(raw.encode()).hexdigest()[:27]


def _minutes(delta: timedelta) -> str:
    minutes = max(1, math.ceil(delta.total_seconds() / 60))
    return ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}


def _unlocks_at(times: list[datetime], limit: int, window: timedelta) -> datetime | None:
    """When a sliding-window lock lifts: None if fewer than `limit` failures (oldest first)."""
    if len(times) < limit:
        return None
    return times[len(times) - limit] + window


def _lock_refusal(player: Player, device: str, ip: str | None) -> Throttled | None:
    now = timezone.now()
    mine = PinFailure.objects.filter(player=player, created_at__gte=now - PLAYER_WINDOW)
    times = list(mine.order_by("created_at").values_list("created_at", "device"))
    device_times = [t for t, d in times if d == device and t >= now - PIN_LOCKOUT]
    until = _unlocks_at(device_times, PIN_FAILURE_LIMIT, PIN_LOCKOUT)
    if until is not None:
        return Throttled(
            "pin_locked",
            _(
                "Too many wrong PINs for %(name)s from this phone; try again in %(minutes)s, "
                "or ask an organiser."
            )
            % {"name": player.name, "minutes": _minutes(until - now)},
            retry_after=(until - now).total_seconds(),
        )
    until = _unlocks_at([t for t, _d in times], PLAYER_FAILURE_LIMIT, PLAYER_WINDOW)
    if until is not None and not _known(player, device):
        return Throttled(
            "pin_locked",
            _(
                "Too many wrong PINs for %(name)s in the last hour; try again in "
                "%(minutes)s, or ask an organiser to lift the lock."
            )
            % {"name": player.name, "minutes": _minutes(until - now)},
            retry_after=(until - now).total_seconds(),
        )
    if ip and _network_limited(ip, device, now):
        return Throttled(
            "pin_locked",
            _(
                "Too many wrong PINs from this network, this phone's among them; this "
                "phone may try again in %(minutes)s, or ask an organiser to lift the "
                "network limit."
            )
            % {"minutes": _minutes(NETWORK_WINDOW)},
            retry_after=NETWORK_WINDOW.total_seconds(),
        )
    return None


def _network_limited(ip: str, device: str, now: datetime) -> bool:
    """Whether `device` is held by its address's limit: the address has reached it AND
    this device is among those that failed from it. A phone that never failed there
    (a player with the right PIN at the same venue) is never held."""
    network = PinFailure.objects.filter(ip=ip, created_at__gte=now - NETWORK_WINDOW)
    if network.count() < NETWORK_FAILURE_LIMIT:
        return False
    return network.filter(device=device).exists()


def _known(player: Player, device: str) -> bool:
    """Whether `device` gave `player`'s right PIN within KNOWN_DEVICE_FOR: the player's
    own phone."""
    since = timezone.now() - KNOWN_DEVICE_FOR
    known = PinDevice.objects.filter(player=player, device=device, last_used__gte=since)
    return bool(device) and known.exists()


def _remember_device(player: Player, device: str) -> None:
    """`device` gave `player`'s right PIN just now; forget every phone, anyone's, that has
    not for KNOWN_DEVICE_FOR. One pruner at a time on PostgreSQL (the others skip it), so
    two deletes never wait on each other's rows."""
    PinDevice.objects.update_or_create(player=player, device=device)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [_PRUNE_LOCK])
            if not cursor.fetchone()[0]:
                return
    PinDevice.objects.filter(last_used__lt=timezone.now() - KNOWN_DEVICE_FOR).delete()


def _lock_address(ip: str | None) -> None:
    """Serialise PIN checks from one address, so the per-address count is exact even when
    wrong PINs for different players arrive at once. The player's row lock covers only
    that player. On SQLite the IMMEDIATE transaction already serialises every writer; on
    PostgreSQL a transaction-scoped advisory lock on the address does it (taken before
    the player's row, always in that order, so two checks cannot deadlock)."""
    if not ip or connection.vendor != "postgresql":
        return
    key = int.from_bytes(hashlib.sha256(f"pin-ip:{ip}".encode()).digest()[:8], "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def _wrong_pin_message(player: Player, device: str) -> str:
    """ "Wrong PIN for Ada: 2 tries left on this phone.", so a lock never comes unannounced."""
    now = timezone.now()
    mine = PinFailure.objects.filter(player=player, created_at__gte=now - PLAYER_WINDOW)
    on_this_phone = mine.filter(device=device, created_at__gte=now - PIN_LOCKOUT).count()
    phone_left = PIN_FAILURE_LIMIT - on_this_phone
    player_left = PLAYER_FAILURE_LIMIT - mine.count()
    if player_left < phone_left and not _known(player, device):
        if player_left <= 0:
            return _(
                "Wrong PIN for %(name)s. That was the last try this hour: an organiser can "
                "lift the lock."
            ) % {"name": player.name}
        return ngettext(
            "Wrong PIN for %(name)s: %(count)s try left this hour, from any phone.",
            "Wrong PIN for %(name)s: %(count)s tries left this hour, from any phone.",
            player_left,
        ) % {"name": player.name, "count": player_left}
    if phone_left <= 0:
        return _(
            "Wrong PIN for %(name)s. That was the last try: this phone must wait "
            "%(minutes)s (or ask an organiser)."
        ) % {"name": player.name, "minutes": _minutes(PIN_LOCKOUT)}
    return ngettext(
        "Wrong PIN for %(name)s: %(count)s try left on this phone.",
        "Wrong PIN for %(name)s: %(count)s tries left on this phone.",
        phone_left,
    ) % {"name": player.name, "count": phone_left}


def verify_pin(
    *, match: Match, player: Player, pin: str, device: str = "", ip: str | None = None
) -> None:
    """Check a player's table PIN, within the limits above (`device` is `device_key`).

    Raises Forbidden (`not_in_match`, `no_pin`, `wrong_pin`) or Throttled (`pin_locked`).
    """
    if match.seat_of(player) is None:
        raise Forbidden(
            "not_in_match", _("%(name)s does not play in this match.") % {"name": player.name}
        )
    _verify(player=player, pin=pin, device=device, ip=ip, match=match)


def verify_player_pin(*, player: Player, pin: str, device: str = "", ip: str | None = None) -> None:
    """Check a player's PIN away from a table (their own event page, a sign-up claiming
    their name), within the same limits and counting the same failures as at a table.

    Raises Forbidden (`no_pin`, `wrong_pin`) or Throttled (`pin_locked`).
    """
    _verify(player=player, pin=pin, device=device, ip=ip, match=None)


def _verify(*, player: Player, pin: str, device: str, ip: str | None, match: Match | None) -> None:
    refusal: ServiceError | None = None
    with transaction.atomic():
        _lock_address(ip)
        locked = Player.objects.select_for_update().get(pk=player.pk)
        refusal = _lock_refusal(locked, device, ip)  # before any hashing
        if refusal is None and not locked.pin_hash:
            refusal = Forbidden(
                "no_pin",
                _("%(name)s has no PIN yet; an organiser sets one.") % {"name": player.name},
            )
        elif refusal is None and not locked.check_pin(pin):
            PinFailure.objects.create(player=locked, match=match, device=device, ip=ip)
            refusal = Forbidden("wrong_pin", _wrong_pin_message(locked, device))
        elif refusal is None:
            PinFailure.objects.filter(player=locked, device=device).delete()
            if device:
                _remember_device(locked, device)
            if locked.pin_is_legacy:  # a slow hash from before: store the fast one
                locked.set_pin(pin)
                locked.save(update_fields=["pin_hash"])
    if refusal is not None:
        raise refusal


def acting_with_pin(actor: Actor, *, match: Match, player_id, pin: str) -> Actor:
    """`actor` acting for the player whose id and PIN the request carries: the opponent
    confirms on the enterer's phone, or a phone takes a seat. Raises Forbidden
    (`not_in_match`, `no_pin`, `wrong_pin`) or Throttled (`pin_locked`)."""
    player = None
    if isinstance(player_id, int) or str(player_id).isdigit():
        player = Player.objects.filter(pk=int(player_id)).first()
    if player is None or match.seat_of(player) is None:
        raise Forbidden(
            "not_in_match",
            _("Choose %(a)s or %(b)s: only they play in this match.")
            % {"a": match.player_a.name, "b": match.player_b.name},
            fields={"player": _("not in this match")},
        )
    verify_pin(match=match, player=player, pin=pin or "", device=device_key(actor), ip=actor.ip)
    return actor.acting_as(player)


def acting_for_player(actor: Actor, *, player: Player, pin: str) -> Actor:
    """`actor` acting for `player`, whose PIN the request carries, away from a table
    (their own event page). Raises Forbidden (`no_pin`, `wrong_pin`), Throttled
    (`pin_locked`), Forbidden (`pin_required`) for no PIN at all (not counted as a
    wrong one: it guesses nothing)."""
    if not (pin or "").strip():
        raise Forbidden(
            "pin_required",
            _("Type %(name)s's PIN to do that.") % {"name": player.name},
            fields={"pin": _("required")},
        )
    verify_player_pin(player=player, pin=pin, device=device_key(actor), ip=actor.ip)
    return actor.acting_as(player)


@dataclass(frozen=True)
class PinLock:
    """A player locked out of PIN entry now: on `devices` phones, or everywhere."""

    player: Player
    everywhere: bool
    devices: int
    until: datetime

    @property
    def minutes_left(self) -> int:
        return max(1, math.ceil((self.until - timezone.now()).total_seconds() / 60))


def pin_locks(players) -> list[PinLock]:
    """The wrong-PIN locks holding any of `players` now (one query), for organisers."""
    now = timezone.now()
    by_pk = {p.pk: p for p in players}
    rows = (
        PinFailure.objects.filter(player_id__in=list(by_pk), created_at__gte=now - PLAYER_WINDOW)
        .order_by("created_at")
        .values_list("player_id", "device", "created_at")
    )
    times: dict[int, list[datetime]] = {}
    devices: dict[tuple[int, str], list[datetime]] = {}
    for player_id, device, at in rows:
        times.setdefault(player_id, []).append(at)
        if at >= now - PIN_LOCKOUT:
            devices.setdefault((player_id, device), []).append(at)
    locks = []
    for player_id, player_times in times.items():
        until = _unlocks_at(player_times, PLAYER_FAILURE_LIMIT, PLAYER_WINDOW)
        device_untils = [
            u
            for (pid, _d), ts in devices.items()
            if pid == player_id and (u := _unlocks_at(ts, PIN_FAILURE_LIMIT, PIN_LOCKOUT))
        ]
        if until is not None or device_untils:
            locks.append(
                PinLock(
                    player=by_pk[player_id],
                    everywhere=until is not None,
                    devices=len(device_untils),
                    until=until or max(device_untils),
                )
            )
    return sorted(locks, key=lambda lock: lock.player.name.lower())


def unlock_pin(*, player: Player, actor: Actor) -> int:
    """Lift every wrong-PIN lock on `player` (all phones), with a ledger row in the
    club's chain. Returns how many failures were cleared. Raises Forbidden."""
    if not permissions.may_unlock_pin(actor, player):
        permissions.refuse_auditor(actor, player.club)
        raise Forbidden(
            "not_allowed",
            _("Only the organisers of %(club)s lift PIN locks.") % {"club": player.club.name},
        )
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        cleared, _by_model = PinFailure.objects.filter(player=locked).delete()
        ledger.append(
            chain=f"club:{locked.club_id}",
            action="pin_unlocked",
            actor=actor.label,
            user=actor.user,
            reason=f"wrong-PIN locks on {locked.name} lifted",
            before={"player": locked.pk, "failures": cleared},
            after={"player": locked.pk, "failures": 0},
        )
    return cleared


@dataclass(frozen=True)
class NetworkLimit:
    """An address that has reached NETWORK_FAILURE_LIMIT, with `failures` of them for
    `club`'s players (what its organisers can lift)."""

    club: Club
    ip: str
    failures: int


def network_limits(*, club: Club) -> list[NetworkLimit]:
    """The addresses whose wrong-PIN limit is reached now with failures for any of
    `club`'s players (for its organisers)."""
    since = timezone.now() - NETWORK_WINDOW
    recent = PinFailure.objects.filter(created_at__gte=since)
    ips = recent.filter(player__club=club, ip__isnull=False).values_list("ip", flat=True)
    limits = []
    for ip in sorted(set(ips)):
        if recent.filter(ip=ip).count() >= NETWORK_FAILURE_LIMIT:
            mine = recent.filter(ip=ip, player__club=club).count()
            limits.append(NetworkLimit(club=club, ip=ip, failures=mine))
    return limits


def lift_network_limit(*, club: Club, ip: str, actor: Actor) -> int:
    """Forget the wrong PINs from address `ip` for `club`'s players, in one action, with
    a ledger row in the club's chain. Returns how many were cleared. Raises Forbidden,
    ServiceError (`invalid`)."""
    # Translators: completes "Only the organisers of <club> may ..."
    permissions.require_organiser(actor, club, _("lift a network's PIN limit"))
    try:
        validate_ipv46_address(ip)
    except ValidationError:
        raise ServiceError(
            "invalid",
            _("%(ip)s is not a network address.") % {"ip": repr(ip)},
            fields={"ip": _("not an address")},
        ) from None
    with transaction.atomic():
        _lock_address(ip)
        cleared, _by_model = PinFailure.objects.filter(ip=ip, player__club=club).delete()
        ledger.append(
            chain=f"club:{club.pk}",
            action="pin_network_unlocked",
            actor=actor.label,
            user=actor.user,
            reason=f"wrong-PIN limit on address {ip} lifted",
            before={"ip": ip, "failures": cleared},
            after={"ip": ip, "failures": 0},
        )
    return cleared


def remember_language(*, player_ids, language: str) -> int:
    """The language these players chose at a table (a code of settings.LANGUAGES): a
    phone seated for one of them shows the table in it from then on. The phone's own
    choice (the switch, a cookie) is what chooses; nothing is asked. Returns how many
    players changed; an unknown language changes nobody."""
    if language not in dict(settings.LANGUAGES):
        return 0
    rows = Player.objects.filter(pk__in=list(player_ids)).exclude(language=language)
    return rows.update(language=language)


def set_pin(*, player: Player, pin: str, actor: Actor) -> None:
    """Set a player's table PIN (4 to 8 digits). Raises Forbidden, ServiceError."""
    if not permissions.may_set_pin(actor, player):
        permissions.refuse_auditor(actor, player.club)
        raise Forbidden(
            "not_allowed",
            _("Only %(name)s and the organisers of %(club)s set this PIN.")
            % {"name": player.name, "club": player.club.name},
        )
    _check_pin(pin)
    player.set_pin(pin)
    player.save(update_fields=["pin_hash"])


def _check_email(email: str) -> None:
    if not email:
        return
    try:
        validate_email(email)
    except ValidationError:
        raise ServiceError(
            "invalid",
            _("%(email)s is not an email address.") % {"email": repr(email)},
            fields={"email": _("not an email address")},
        ) from None


def _check_pin(pin: str) -> None:
    if not (pin.isdigit() and 4 <= len(pin) <= 8):
        raise ServiceError(
            "invalid", _("A PIN is 4 to 8 digits."), fields={"pin": _("4 to 8 digits")}
        )


def add_player(
    *,
    club: Club,
    name: str,
    actor: Actor,
    pin: str = "",
    email: str = "",
    member_id: str = "",
    user=None,
) -> Player:
    """Register a player in a club. Raises Forbidden, ServiceError (`invalid`,
    `duplicate_player`)."""
    # Translators: completes "Only the organisers of <club> may ..."
    permissions.require_organiser(actor, club, _("add players"))
    name = new_player_name(name, email)
    if club.players.filter(name__iexact=name).exists():
        raise _duplicate(club, name)
    player = Player(club=club, name=name, email=email, member_id=member_id, user=user)
    if pin:
        _check_pin(pin)
        player.set_pin(pin)
    player.save()
    return player


def add_signed_up_player(*, club: Club, name: str, email: str, pin_hash: str) -> Player:
    """A player new to `club` who signed up for one of its tournaments themselves, with
    the PIN they chose there (already hashed). The caller (tournaments.services.signups)
    has checked that the tournament takes sign-ups. Raises ServiceError (`invalid`,
    `duplicate_player`)."""
    name = new_player_name(name, email)
    if club.players.filter(name__iexact=name).exists():
        raise _duplicate(club, name)
    player = Player(club=club, name=name, email=email, pin_hash=pin_hash)
    player.save()
    return player


def new_player_name(name: str, email: str = "") -> str:
    """The name a new player is stored under (spaces folded), once it and the email are
    fit to store. Raises ServiceError (`invalid`)."""
    name = " ".join(name.split())
    if not name or len(name) > 120:
        raise ServiceError(
            "invalid",
            _("A player needs a name of 1 to 120 characters."),
            fields={"name": _("required")},
        )
    if problem := name_problem(name):
        raise ServiceError(
            "invalid",
            _("The name %(name)s %(problem)s.") % {"name": repr(name), "problem": problem},
            fields={"name": problem},
        )
    _check_email(email)
    return name


def _duplicate(club: Club, name: str) -> ServiceError:
    return ServiceError(
        "duplicate_player",
        _("%(club)s already has a player called %(name)s.") % {"club": club.name, "name": name},
        fields={"name": _("taken")},
    )


def add_players(*, club: Club, actor: Actor, players: list[Player]) -> list[Player]:
    """Register many new players in a club at once (a registration file's new names),
    checked as add_player checks one: the organiser once, each name and email, no name
    the club or the list already has (any case). Written in one insert whatever their
    number; returns them saved. Raises Forbidden, ServiceError (`invalid`,
    `duplicate_player`: the first such name)."""
    # Translators: completes "Only the organisers of <club> may ..."
    permissions.require_organiser(actor, club, _("add players"))
    if not players:
        return []
    seen: set[str] = set()
    for player in players:
        player.club = club
        player.name = new_player_name(player.name, player.email)
        if player.name.lower() in seen:
            raise _duplicate(club, player.name)
        seen.add(player.name.lower())
    names = [player.name for player in players]
    taken = (
        club.players.annotate(lowered=Lower("name"))
        .filter(Q(lowered__in=[n.lower() for n in names]) | Q(name__in=names))
        .values_list("name", flat=True)
        .order_by("name")
        .first()
    )
    if taken is not None:
        raise _duplicate(club, taken)
    return Player.objects.bulk_create(players)


def check_pin_format(pin: str) -> None:
    """Raises ServiceError (`invalid`) unless `pin` is 4 to 8 digits."""
    _check_pin(pin)
