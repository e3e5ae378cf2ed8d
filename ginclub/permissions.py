"""Who acts, and what they may do: the one place that answers "may this actor do X to Y".

An `Actor` is built from any request by `actor_of`: the logged-in user (session or API
token), the tables this browser opened through a signed table link, and the seat it
acts for at each of them (chosen with the player's PIN). Services receive the actor and
ask the `may_*` questions below (or the `require_*` forms, which raise Forbidden or
NotFound with a message that names the player or the club); pages and the API ask the
same questions to decide what to show.

Terms:
    admin        a superuser: may do everything.
    organiser    a user in a club's organisers: manages its players, matches and
                 tournaments.
    seated       the browser chose "I am <player>" at a table and gave that player's
                 PIN, or the logged-in user is that player.
    table link   a signed, expiring link to one match (`table_token`): opening it lets
                 that browser see the match, nothing more.

This module is the shared core under both apps: it reads the objects it is given (a
match's club and players, a tournament's club and public flag, a club's organisers)
and imports neither app.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core import signing
from django.http import HttpRequest

from ginclub.errors import Forbidden, NotFound

TABLE_SALT = "ginclub.table"
TABLE_TOKEN_MAX_AGE = getattr(settings, "TABLE_TOKEN_MAX_AGE", 60 * 60 * 24)


@dataclass(frozen=True)
class Actor:
    """Who makes a request: a logged-in user, and/or the player (seat) it acts for."""

    user: Any = None
    player: Any = None
    device: str = ""
    ip: str | None = None
    tables: frozenset[int] = frozenset()
    seats: dict[int, int] = field(default_factory=dict, compare=False, hash=False)

    @property
    def label(self) -> str:
        if self.player is not None:
            return f"player {self.player.name}"
        if self.is_authenticated:
            return f"user {self.user.get_username()}"
        return "anonymous"

    @property
    def is_authenticated(self) -> bool:
        return bool(self.user is not None and self.user.is_authenticated)

    def is_admin(self) -> bool:
        return self.is_authenticated and self.user.is_superuser

    def organises(self, club) -> bool:
        return organises(self, club)

    def acting_as(self, player) -> Actor:
        """The same request acting for `player` (whose PIN the caller has checked)."""
        return Actor(self.user, player, self.device, self.ip, self.tables, self.seats)


# ------------------------------------------------------------------ from a request


def actor_of(request: HttpRequest, match=None) -> Actor:
    """The actor a request stands for; at `match`, with the seat this browser holds."""
    session = getattr(request, "session", None) or {}
    seats = {int(m): int(p) for m, p in dict(session.get("seats", {})).items()}
    actor = Actor(
        user=getattr(request, "user", None),
        device=request.headers.get("User-Agent", "")[:200],
        ip=request.META.get("REMOTE_ADDR"),
        tables=frozenset(int(t) for t in session.get("tables", [])),
        seats=seats,
    )
    if match is None:
        return actor
    return actor.acting_as(seated_player(actor, match))


def actor_at_club(request: HttpRequest, club) -> Actor:
    """The actor a request stands for at `club`: also the member the user plays as there."""
    actor = actor_of(request)
    return actor.acting_as(club_player(actor, club))


def table_token(match) -> str:
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
    """This browser opened the match's table link: it may see the match."""
    tables = set(request.session.get("tables", []))
    tables.add(match_id)
    request.session["tables"] = sorted(tables)


def claim_seat(request: HttpRequest, match, player) -> None:
    """This browser acts for `player` at `match` from now on (the caller checked the PIN)."""
    seats = dict(request.session.get("seats", {}))
    seats[str(match.pk)] = player.pk
    request.session["seats"] = seats
    grant_table(request, match.pk)


def release_seat(request: HttpRequest, match) -> None:
    seats = dict(request.session.get("seats", {}))
    seats.pop(str(match.pk), None)
    request.session["seats"] = seats


# --------------------------------------------------------------------- questions


def organises(actor: Actor, club) -> bool:
    if actor.is_admin():
        return True
    return actor.is_authenticated and club.organisers.filter(pk=actor.user.pk).exists()


def seated_player(actor: Actor, match):
    """The player `actor` acts for at `match`: the seat this browser holds there, else
    the logged-in user's own seat; None for anyone else."""
    players = (match.player_a, match.player_b)
    held = actor.seats.get(match.pk)
    for player in players:
        if held == player.pk:
            return player
    if actor.is_authenticated:
        for player in players:
            if player.user_id == actor.user.pk:
                return player
    return None


def club_player(actor: Actor, club):
    """The player the logged-in user is at `club` (a member starts their own matches at
    a club night), else None."""
    if not actor.is_authenticated:
        return None
    return club.players.filter(user=actor.user).first()


def plays_in(actor: Actor, match) -> bool:
    player = actor.player
    return player is not None and player.pk in (match.player_a_id, match.player_b_id)


def may_view_match(actor: Actor, match) -> bool:
    """Its table link, its players, the club's organisers and admins."""
    if match.pk in actor.tables or plays_in(actor, match):
        return True
    if not actor.is_authenticated:
        return False
    if actor.user.pk in (match.player_a.user_id, match.player_b.user_id):
        return True
    return organises(actor, match.club)


def may_enter_hands(actor: Actor, match) -> bool:
    """Enter, confirm, dispute and withdraw hands: a seated player or an organiser."""
    return plays_in(actor, match) or organises(actor, match.club)


def may_manage_match(actor: Actor, match) -> bool:
    """Correct, void, close, reopen, read the ledger, print the table's QR code."""
    return organises(actor, match.club)


def may_start_match(actor: Actor, club) -> bool:
    """Organisers start any match; at a club night, the club's own players theirs."""
    player = actor.player
    return organises(actor, club) or (player is not None and player.club_id == club.pk)


def may_set_pin(actor: Actor, player) -> bool:
    return organises(actor, player.club) or (
        actor.is_authenticated and player.user_id == actor.user.pk
    )


def may_view_tournament(actor: Actor, tournament) -> bool:
    """A public tournament: anyone; else its club's organisers and its players."""
    if tournament.public or organises(actor, tournament.club):
        return True
    return (
        actor.is_authenticated and tournament.registrations.filter(player__user=actor.user).exists()
    )


def may_manage_tournament(actor: Actor, tournament) -> bool:
    return organises(actor, tournament.club)


def may_verify_ledgers(actor: Actor) -> bool:
    return actor.is_admin()


# ---------------------------------------------------------------- the same, raising


def require_view_match(actor: Actor, match) -> None:
    if not may_view_match(actor, match):
        raise Forbidden("not_allowed", "Open this match from its table link, or log in.")


def require_seat_or_organiser(actor: Actor, match) -> str:
    """The acting seat ("A"/"B"), or "" for an organiser or admin; anyone else is refused."""
    if actor.player is not None:
        seat = match.seat_of(actor.player)
        if seat is None:
            raise Forbidden("not_in_match", f"{actor.player.name} does not play in this match.")
        return seat
    if organises(actor, match.club):
        return ""
    raise Forbidden(
        "not_allowed",
        f"Only {match.player_a.name}, {match.player_b.name} and the organisers of "
        f"{match.club.name} may do that.",
    )


def require_manage_match(actor: Actor, match) -> None:
    if not may_manage_match(actor, match):
        raise Forbidden("not_allowed", f"Only the organisers of {match.club.name} may do that.")


def require_organiser(actor: Actor, club, doing: str = "do that") -> None:
    if not organises(actor, club):
        raise Forbidden("not_allowed", f"Only the organisers of {club.name} may {doing}.")


def require_view_tournament(actor: Actor, tournament) -> None:
    """A private tournament is a 404 to everybody else: the public learns nothing of it."""
    if not may_view_tournament(actor, tournament):
        raise NotFound("not_found", "No such tournament.")


def require_manage_tournament(actor: Actor, tournament) -> None:
    require_view_tournament(actor, tournament)
    if not may_manage_tournament(actor, tournament):
        raise Forbidden(
            "not_allowed",
            f"Only the organisers of {tournament.club.name} (and admins) manage {tournament.name}.",
        )
