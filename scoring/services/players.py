"""Players and their table PINs. Wrong PINs are counted per player and table, never
per IP address: forty players share the venue's one Wi-Fi address."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from ginclub import permissions
from ginclub.errors import Forbidden, ServiceError, Throttled
from scoring.models import Club, Match, PinFailure, Player
from scoring.services.base import Actor

PIN_FAILURE_LIMIT = 5
PIN_LOCKOUT = timedelta(minutes=5)


def verify_pin(*, match: Match, player: Player, pin: str) -> None:
    """Check a player's table PIN. Failures are counted per player and match (never per
    IP: a club shares one address) and lock that player out at that table for a while.

    Raises Forbidden (`not_in_match`, `no_pin`, `wrong_pin`) or Throttled (`pin_locked`).
    """
    if match.seat_of(player) is None:
        raise Forbidden("not_in_match", f"{player.name} does not play in this match.")
    since = timezone.now() - PIN_LOCKOUT
    failures = PinFailure.objects.filter(player=player, match=match, created_at__gte=since)
    if failures.count() >= PIN_FAILURE_LIMIT:
        raise Throttled(
            "pin_locked",
            f"Too many wrong PINs for {player.name}; try again in "
            f"{int(PIN_LOCKOUT.total_seconds() // 60)} minutes or ask an organiser.",
        )
    if not player.pin_hash:
        raise Forbidden("no_pin", f"{player.name} has no PIN yet; an organiser sets one.")
    if not player.check_pin(pin):
        PinFailure.objects.create(player=player, match=match)
        raise Forbidden("wrong_pin", f"Wrong PIN for {player.name}.")
    failures.delete()


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
    verify_pin(match=match, player=player, pin=pin or "")
    return actor.acting_as(player)


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
