"""Who may see a match and who a request acts for.

A table link carries a signed, expiring token for one match. Opening it lets that
browser see the match; choosing "I am <player>" and giving that player's PIN makes the
browser act for that seat until the session ends. Logged-in players act for their own
seat, organisers for their club, admins everywhere. Anonymous visitors see nothing private.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.http import HttpRequest

from ginclub.errors import Forbidden
from scoring.models import Match, Player
from scoring.services import Actor

TABLE_SALT = "ginclub.table"
TABLE_TOKEN_MAX_AGE = getattr(settings, "TABLE_TOKEN_MAX_AGE", 60 * 60 * 24)


def table_token(match: Match) -> str:
    return signing.TimestampSigner(salt=TABLE_SALT).sign(str(match.pk))


def match_id_from_token(token: str, max_age: int = TABLE_TOKEN_MAX_AGE) -> int:
    """Raises Forbidden (`bad_token`, `expired_token`)."""
    signer = signing.TimestampSigner(salt=TABLE_SALT)
    try:
        return int(signer.unsign(token, max_age=max_age))
    except signing.SignatureExpired:
        raise Forbidden(
            "expired_token", "This table link has expired; ask the organiser for a new one."
        ) from None
    except (signing.BadSignature, ValueError):
        raise Forbidden("bad_token", "This table link is not valid.") from None


def grant_table(request: HttpRequest, match_id: int) -> None:
    tables = set(request.session.get("tables", []))
    tables.add(match_id)
    request.session["tables"] = sorted(tables)


def claim_seat(request: HttpRequest, match: Match, player: Player) -> None:
    """Remember, for this browser, that it acts for `player` at `match` (PIN checked)."""
    seats = dict(request.session.get("seats", {}))
    seats[str(match.pk)] = player.pk
    request.session["seats"] = seats
    grant_table(request, match.pk)


def release_seat(request: HttpRequest, match: Match) -> None:
    seats = dict(request.session.get("seats", {}))
    seats.pop(str(match.pk), None)
    request.session["seats"] = seats


def is_staff_for(user, match: Match) -> bool:
    if not user.is_authenticated:
        return False
    return user.is_superuser or match.club.organisers.filter(pk=user.pk).exists()


def can_view(request: HttpRequest, match: Match) -> bool:
    user = request.user
    if match.pk in request.session.get("tables", []):
        return True
    if not user.is_authenticated:
        return False
    if is_staff_for(user, match):
        return True
    return user.pk in (match.player_a.user_id, match.player_b.user_id)


def seated_player(request: HttpRequest, match: Match) -> Player | None:
    """The player this browser acts for at `match`, if any."""
    player_id = request.session.get("seats", {}).get(str(match.pk))
    if player_id in (match.player_a_id, match.player_b_id):
        return match.player_a if player_id == match.player_a_id else match.player_b
    user = request.user
    if user.is_authenticated:
        for player in (match.player_a, match.player_b):
            if player.user_id == user.pk:
                return player
    return None


def actor_for(request: HttpRequest, match: Match, player: Player | None = None) -> Actor:
    """The Actor a request acts as: an explicit (PIN-checked) player, the seated player,
    or the user alone (an organiser or admin)."""
    return Actor(
        user=request.user,
        player=player or seated_player(request, match),
        device=request.headers.get("User-Agent", "")[:200],
        ip=request.META.get("REMOTE_ADDR"),
    )


def require_view(request: HttpRequest, match: Match) -> None:
    if not can_view(request, match):
        raise Forbidden("not_allowed", "Open this match from its table link or log in.")
