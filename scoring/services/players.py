"""Players and their table PINs, and the limits on guessing them.

A PIN is 4 to 8 digits, so the limits, not the hash, protect it (see Player.set_pin).
Wrong PINs are counted three ways, all checked BEFORE the PIN is hashed:

    this device   PIN_FAILURE_LIMIT (5) wrong PINs for a player from one browser session
                  lock that player on that phone for PIN_LOCKOUT (5 minutes). The player's
                  own phone, which has not been failing, still sits down.
    the player    PLAYER_FAILURE_LIMIT (20) wrong PINs for a player within PLAYER_WINDOW
                  (an hour), from any number of phones, lock the player everywhere until
                  the hour has moved on or an organiser lifts it (`unlock_pin`). A guesser
                  gets at most 20 of 10,000 four-digit PINs an hour, not the whole space.
    the address   NETWORK_FAILURE_LIMIT (100) wrong PINs within the hour from one IP
                  address, for any players: high, because forty players share a venue's
                  one Wi-Fi address, but it stops one machine from sweeping the club.

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

from django.db import connection, transaction
from django.utils import timezone

from ginclub import permissions
from ginclub.errors import Forbidden, ServiceError, Throttled
from scoring import ledger
from scoring.models import Club, Match, PinFailure, Player
from scoring.services.base import Actor

PIN_FAILURE_LIMIT = 5
PIN_LOCKOUT = timedelta(minutes=5)
PLAYER_FAILURE_LIMIT = 20
PLAYER_WINDOW = timedelta(hours=1)
NETWORK_FAILURE_LIMIT = 100
NETWORK_WINDOW = timedelta(hours=1)


def device_key(actor: Actor) -> str:
    """Which device a PIN attempt comes from: the browser session, else (an API client
    without one) its address and user agent."""
    if actor.browser:
        return actor.browser
    raw = f"{actor.ip or ''}|{actor.device}"
    return "anon-" + hashlib.sha256(raw.encode()).hexdigest()[:27]


def _minutes(delta: timedelta) -> str:
    minutes = max(1, math.ceil(delta.total_seconds() / 60))
    return "1 minute" if minutes == 1 else f"{minutes} minutes"


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
            f"Too many wrong PINs for {player.name} from this phone; try again in "
            f"{_minutes(until - now)}, or ask an organiser.",
        )
    until = _unlocks_at([t for t, _d in times], PLAYER_FAILURE_LIMIT, PLAYER_WINDOW)
    if until is not None:
        return Throttled(
            "pin_locked",
            f"Too many wrong PINs for {player.name} in the last hour; try again in "
            f"{_minutes(until - now)}, or ask an organiser to lift the lock.",
        )
    if ip:
        network = PinFailure.objects.filter(ip=ip, created_at__gte=now - NETWORK_WINDOW)
        network_times = list(network.order_by("created_at").values_list("created_at", flat=True))
        until = _unlocks_at(network_times, NETWORK_FAILURE_LIMIT, NETWORK_WINDOW)
        if until is not None:
            return Throttled(
                "pin_locked",
                f"Too many wrong PINs from this network; try again in "
                f"{_minutes(until - now)}, or ask an organiser.",
            )
    return None


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
    if player_left < phone_left:
        if player_left <= 0:
            return (
                f"Wrong PIN for {player.name}. That was the last try this hour: an organiser "
                "can lift the lock."
            )
        tries = "1 try" if player_left == 1 else f"{player_left} tries"
        return f"Wrong PIN for {player.name}: {tries} left this hour, from any phone."
    if phone_left <= 0:
        return (
            f"Wrong PIN for {player.name}. That was the last try: this phone must wait "
            f"{_minutes(PIN_LOCKOUT)} (or ask an organiser)."
        )
    tries = "1 try" if phone_left == 1 else f"{phone_left} tries"
    return f"Wrong PIN for {player.name}: {tries} left on this phone."


def verify_pin(
    *, match: Match, player: Player, pin: str, device: str = "", ip: str | None = None
) -> None:
    """Check a player's table PIN, within the limits above (`device` is `device_key`).

    Raises Forbidden (`not_in_match`, `no_pin`, `wrong_pin`) or Throttled (`pin_locked`).
    """
    if match.seat_of(player) is None:
        raise Forbidden("not_in_match", f"{player.name} does not play in this match.")
    refusal: ServiceError | None = None
    with transaction.atomic():
        _lock_address(ip)
        locked = Player.objects.select_for_update().get(pk=player.pk)
        refusal = _lock_refusal(locked, device, ip)  # before any hashing
        if refusal is None and not locked.pin_hash:
            refusal = Forbidden("no_pin", f"{player.name} has no PIN yet; an organiser sets one.")
        elif refusal is None and not locked.check_pin(pin):
            PinFailure.objects.create(player=locked, match=match, device=device, ip=ip)
            refusal = Forbidden("wrong_pin", _wrong_pin_message(locked, device))
        elif refusal is None:
            PinFailure.objects.filter(player=locked, device=device).delete()
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
            f"Choose {match.player_a.name} or {match.player_b.name}: only they play in this match.",
            fields={"player": "not in this match"},
        )
    verify_pin(match=match, player=player, pin=pin or "", device=device_key(actor), ip=actor.ip)
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
        raise Forbidden("not_allowed", f"Only the organisers of {player.club.name} lift PIN locks.")
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        cleared, _ = PinFailure.objects.filter(player=locked).delete()
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


def set_pin(*, player: Player, pin: str, actor: Actor) -> None:
    """Set a player's table PIN (4 to 8 digits). Raises Forbidden, ServiceError."""
    if not permissions.may_set_pin(actor, player):
        raise Forbidden(
            "not_allowed",
            f"Only {player.name} and the organisers of {player.club.name} set this PIN.",
        )
    _check_pin(pin)
    player.set_pin(pin)
    player.save(update_fields=["pin_hash"])


def _check_pin(pin: str) -> None:
    if not (pin.isdigit() and 4 <= len(pin) <= 8):
        raise ServiceError("invalid", "A PIN is 4 to 8 digits.", fields={"pin": "4 to 8 digits"})


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
    """Register a player in a club. Raises Forbidden, ServiceError (`duplicate_player`)."""
    permissions.require_organiser(actor, club, "add players")
    name = " ".join(name.split())
    if not name or len(name) > 120:
        raise ServiceError(
            "invalid", "A player needs a name of 1 to 120 characters.", fields={"name": "required"}
        )
    if club.players.filter(name__iexact=name).exists():
        raise ServiceError(
            "duplicate_player",
            f"{club.name} already has a player called {name}.",
            fields={"name": "taken"},
        )
    player = Player(club=club, name=name, email=email, member_id=member_id, user=user)
    if pin:
        _check_pin(pin)
        player.set_pin(pin)
    player.save()
    return player
