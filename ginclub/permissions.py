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
    auditor      a user in a club's auditors (granted and withdrawn by its organisers),
                 or a site-wide auditor (the `scoring.audit_every_club` permission,
                 given by admins to a user or a group): reads everything of the club
                 its organisers read (private events, held-back rounds, ledgers,
                 devices, exports) and changes nothing; every change it tries is
                 refused naming the role (`auditor_read_only`). An organiser or admin
                 is not also an auditor: they may change things.
    scorekeeper  a user in a club's scorekeepers (granted and withdrawn by its
                 organisers): runs the rounds on the day, at every table of the club
                 (the clock and the time policy, drafting, publishing and closing
                 rounds, results by hand, confirming for a player who cannot,
                 corrections and voids with a reason, the calls from the tables) and
                 reads what the organisers read; changes no settings, rules, players,
                 seasons or roles (those stay `organises`).
    staff        organises or keeps score at the club (`runs_the_room`): who answers
                 the tables (may_manage_match, may_run_rounds).
    reads        organises, keeps score or audits: may read everything of the club.
    seated       the browser chose "I am <player>" at a table and gave that player's
                 PIN, or the logged-in user is that player.
    table link   a signed, expiring link to one match (`table_token`): opening it lets
                 that browser see the match, nothing more, until the link itself would
                 have expired (the grant carries the link's expiry) or an organiser
                 revokes the match's links (the match's `link_generation`, signed into
                 the link and kept in the grant, moves on: old links and grants stop).

Lists ask the same questions as querysets ("which of these may it see"): every list
of tournaments, matches, results, clubs or seasons is filtered here, next to the single
check it mirrors, so a private event or a held-back round cannot leak through a page
that forgot to ask (tests/test_visibility.py holds each check and its queryset to the
same answer; tests/test_architecture.py refuses such a filter anywhere else).

    visible      a tournament the actor may open (may_view_tournament); a match the
                 actor may know of in lists: a club match, or a table of a visible
                 tournament
    held back    a result the organiser's hiding options keep from the actor while
                 the event runs (hide_last_rounds: its last rounds until it finishes;
                 hide_standings_during_round: the round being played), as its own
                 pages keep it; never from the club's organisers and auditors
    readable     a visible match whose result is not held back

This module is the shared core under both apps: it reads the objects it is given (a
match's club and players, a tournament's club and public flag, a club's organisers)
and imports neither app; its querysets name the apps' models by label.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core import signing
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _

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
    # The link generation each table was granted at (missing: 0, the first links).
    generations: dict[int, int] = field(default_factory=dict, compare=False, hash=False)
    # This browser, for counting wrong PINs: a hash of its session key ("" without one).
    browser: str = ""
    # Answers already asked of the database for this request (`organises`: a hand
    # submission asks it at the door and again under the match's lock), shared by the
    # actor's `acting_as` copies; an actor lives for one request.
    known: dict[tuple, bool] = field(default_factory=dict, compare=False, hash=False, repr=False)

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

    def audits(self, club) -> bool:
        return audits(self, club)

    def scorekeeps(self, club) -> bool:
        return scorekeeps(self, club)

    def acting_as(self, player) -> Actor:
        """The same request acting for `player` (whose PIN the caller has checked)."""
        return Actor(
            self.user,
            player,
            self.device,
            self.ip,
            self.tables,
            self.seats,
            self.generations,
            self.browser,
            self.known,
        )


# ------------------------------------------------------------------ from a request


# Where a request keeps its actor, built once: (user, session key, actor).
ACTOR_CACHE = "_ginclub_actor"


def actor_of(request: HttpRequest, match=None) -> Actor:
    """The actor a request stands for; at `match`, with the seat this browser holds.

    Built once a request (a hand submission asks from the view, the permission checks
    and the services): kept on the request, rebuilt when the user or the session
    changes (a login), and forgotten when this module changes the session's grants or
    seats (grant_table, claim_seat, release_seat)."""
    actor = _cached_actor(request)
    if match is None:
        return actor
    return actor.acting_as(seated_player(actor, match))


def _cached_actor(request: HttpRequest) -> Actor:
    base = getattr(request, "_request", request)  # DRF's Request wraps Django's
    user = getattr(request, "user", None)
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    cached = getattr(base, ACTOR_CACHE, None)
    if cached is not None and cached[0] is user and cached[1] == session_key:
        return cached[2]
    actor = build_actor(request)
    setattr(base, ACTOR_CACHE, (user, session_key, actor))
    return actor


def forget_actor(request: HttpRequest) -> None:
    """The session's grants or seats changed: the next actor_of builds a new actor."""
    base = getattr(request, "_request", request)
    base.__dict__.pop(ACTOR_CACHE, None)


def build_actor(request: HttpRequest) -> Actor:
    """The actor from the request's user and session (actor_of keeps it)."""
    session = getattr(request, "session", None) or {}
    grants = live_grants(session)
    # A seat stands only at a table whose grant is still live (a logged-in player's own
    # seat needs no grant: `seated_player`).
    seats = {int(m): int(p) for m, p in dict(session.get("seats", {})).items() if int(m) in grants}
    session_key = getattr(session, "session_key", None)
    return Actor(
        user=getattr(request, "user", None),
        device=request.headers.get("User-Agent", "")[:200],
        ip=client_ip(request),
        tables=frozenset(grants),
        seats=seats,
        generations=grants,
        browser=hashlib.sha256(session_key.encode()).hexdigest()[:32] if session_key else "",
    )


def actor_at_club(request: HttpRequest, club) -> Actor:
    """The actor a request stands for at `club`: also the member the user plays as there."""
    actor = actor_of(request)
    return actor.acting_as(club_player(actor, club))


@dataclass(frozen=True)
class TableLink:
    """What a valid table link says: the match, its link generation, when it expires."""

    match_id: int
    generation: int
    expires_at: float  # seconds since the epoch


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: REMOTE_ADDR, or behind DJANGO_TRUSTED_PROXIES proxies the
    address the outermost of ours saw, read from the right of X-Forwarded-For (what a
    client writes on the left cannot forge it). PIN limits and django-axes both use it."""
    remote = request.META.get("REMOTE_ADDR")
    proxies = settings.TRUSTED_PROXIES
    if not proxies:
        return remote
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    hops = [hop for hop in hops if hop]
    return hops[-proxies] if len(hops) >= proxies else remote


def revoked_link() -> str:
    """What a phone holding a table link an organiser revoked is told (`revoked_token`)."""
    return _("This table link was withdrawn by the organiser; ask them for the new one.")


def table_token(match) -> str:
    """The signed link to `match`'s table, valid TABLE_TOKEN_MAX_AGE from now and until
    the match's links are revoked."""
    value = f"{match.pk}.{match.link_generation}"
    return signing.TimestampSigner(salt=TABLE_SALT).sign(value)


def read_table_token(token: str, max_age: int = TABLE_TOKEN_MAX_AGE) -> TableLink:
    """Raises Forbidden (`bad_token`, `expired_token`). Whether the link was revoked
    needs the match: `grant_table` checks it."""
    signer = signing.TimestampSigner(salt=TABLE_SALT)
    try:
        value = signer.unsign(token, max_age=max_age)
        signed_at = signing.b62_decode(token.rsplit(signer.sep, 2)[1])
        match_id, _dot, generation = value.partition(".")
        # Links made before generations existed carry the match id alone: generation 0.
        return TableLink(int(match_id), int(generation or 0), signed_at + max_age)
    except signing.SignatureExpired:
        raise Forbidden(
            "expired_token", _("This table link has expired; ask the organiser for a new one.")
        ) from None
    except (signing.BadSignature, ValueError, IndexError):
        raise Forbidden("bad_token", _("This table link is not valid.")) from None


def match_id_from_token(token: str, max_age: int = TABLE_TOKEN_MAX_AGE) -> int:
    """Raises Forbidden (`bad_token`, `expired_token`)."""
    return read_table_token(token, max_age).match_id


def live_grants(session) -> dict[int, int]:
    """The tables this session may see now: {match id: link generation}. Grants are
    {match id: [expires at, generation]}; an expired one is ignored (and the seat there
    with it). Grants kept before they expired (a bare list of ids) count for nothing."""
    grants = session.get("table_grants", {}) if session else {}
    now = time.time()
    live = {}
    if isinstance(grants, dict):
        for match_id, grant in grants.items():
            try:
                expires_at, generation = float(grant[0]), int(grant[1])
                if expires_at > now:
                    live[int(match_id)] = generation
            except (TypeError, ValueError, IndexError, KeyError):
                continue
    return live


def grant_table(request: HttpRequest, match, link: TableLink | None = None) -> None:
    """This browser opened the match's table link: it may see the match until the link
    would have expired, or until the match's links are revoked. Without a link (a seat
    taken by a logged-in player) the grant lasts TABLE_TOKEN_MAX_AGE from now, or keeps
    the one this browser holds. Raises Forbidden (`revoked_token`)."""
    if link is not None and link.generation != match.link_generation:
        raise Forbidden("revoked_token", revoked_link())
    grants = {
        key: value
        for key, value in dict(request.session.get("table_grants", {})).items()
        if int(key) in live_grants(request.session)
    }
    held = grants.get(str(match.pk))
    if link is not None:
        expires_at = link.expires_at
    elif held is not None and int(held[1]) == match.link_generation:
        expires_at = float(held[0])
    else:
        expires_at = time.time() + TABLE_TOKEN_MAX_AGE
    if held is None or int(held[1]) != match.link_generation:
        # A seat taken before the links were revoked (or under a grant that lapsed) is
        # not carried to the new ones: the phone gives its PIN again.
        seats = dict(request.session.get("seats", {}))
        if seats.pop(str(match.pk), None) is not None:
            request.session["seats"] = seats
    grants[str(match.pk)] = [expires_at, match.link_generation]
    request.session["table_grants"] = grants
    request.session.pop("tables", None)  # the old form, without expiry
    forget_actor(request)


def claim_seat(request: HttpRequest, match, player) -> None:
    """This browser acts for `player` at `match` from now on (the caller checked the PIN),
    for as long as its grant of the table lasts."""
    grant_table(request, match)  # first: it drops a seat of revoked links
    seats = dict(request.session.get("seats", {}))
    seats[str(match.pk)] = player.pk
    request.session["seats"] = seats
    forget_actor(request)


def release_seat(request: HttpRequest, match) -> None:
    seats = dict(request.session.get("seats", {}))
    seats.pop(str(match.pk), None)
    request.session["seats"] = seats
    # "Not you?" here: the player this phone proved elsewhere is not carried back to
    # this table (`may_carry_seat`).
    released = [m for m in request.session.get("seats_released", []) if m != match.pk]
    request.session["seats_released"] = [*released[-49:], match.pk]
    forget_actor(request)


def may_carry_seat(request: HttpRequest, match) -> bool:
    """May the player this phone proved at another table of the same event be seated at
    `match` without their PIN again? Not where this phone said "Not you?", and not at a
    table whose links an organiser revoked: there every phone gives its PIN again."""
    if getattr(match, "link_generation", 0):
        return False
    return match.pk not in request.session.get("seats_released", [])


# --------------------------------------------------------------------- questions


def organises(actor: Actor, club) -> bool:
    """Asked once per request and club (the actor keeps the answer)."""
    if actor.is_admin():
        return True
    if not actor.is_authenticated:
        return False
    key = ("organises", club.pk, actor.user.pk)
    if key not in actor.known:
        actor.known[key] = club.organisers.filter(pk=actor.user.pk).exists()
    return actor.known[key]


def with_organiser_answer(rows: QuerySet, actor: Actor, club_path: str) -> QuerySet:
    """`rows` (matches, hands) each read with whether `actor` organises the club at
    `club_path` (the club's id field, "club_id" or "game__match__club_id"), so that
    `remember_organiser_answer` spares `organises` its query: one query where two were."""
    if not asks_organiser_answer(actor):
        return rows
    return rows.annotate(actor_organises=organiser_answer(actor.user.pk, club_path))


def asks_organiser_answer(actor: Actor) -> bool:
    """Whether `with_organiser_answer` reads anything for `actor` (an admin organises
    every club; an anonymous visitor none)."""
    return actor.is_authenticated and not actor.is_admin()


def organiser_answer(user_id: int, club_path: str) -> Exists:
    """Whether the user `user_id` organises the club at `club_path`, for a query's rows:
    `with_organiser_answer`'s annotation (`actor_organises`)."""
    organisers = _objects("scoring.Club_organisers").filter(
        club_id=OuterRef(club_path), user_id=user_id
    )
    return Exists(organisers)


def remember_organiser_answer(actor: Actor, row, club) -> None:
    """Keep the answer `with_organiser_answer` read with `row` for `organises`."""
    answer = getattr(row, "actor_organises", None)
    if answer is not None:
        actor.known[("organises", club.pk, actor.user.pk)] = bool(answer)


AUDIT_EVERY_CLUB = "scoring.audit_every_club"


def audits_every_club(actor: Actor) -> bool:
    """A site-wide auditor: the permission admins give (to the user or a group of it)."""
    return actor.is_authenticated and _every_club_grant(actor.user).exists()


def _every_club_grant(user) -> QuerySet:
    """The AUDIT_EVERY_CLUB permission where `user` holds it, itself or through a group
    (a query, so that lists ask it inside their own query, not once more)."""
    app_label, codename = AUDIT_EVERY_CLUB.split(".")
    held = Q(user=user) | Q(group__user=user)
    return _objects("auth.Permission").filter(
        held, codename=codename, content_type__app_label=app_label
    )


def audits(actor: Actor, club) -> bool:
    """Reads `club` as its organisers do and may change nothing there: one of its
    auditors, or a site-wide one, who neither organises it, nor keeps its score, nor is
    an admin."""
    if not actor.is_authenticated or runs_the_room(actor, club):
        return False
    return audits_every_club(actor) or club.auditors.filter(pk=actor.user.pk).exists()


def scorekeeps(actor: Actor, club) -> bool:
    """One of `club`'s scorekeepers (who is not also its organiser: an organiser may do
    more)."""
    return actor.is_authenticated and club.scorekeepers.filter(pk=actor.user.pk).exists()


def runs_the_room(actor: Actor, club) -> bool:
    """Staff at `club`: its organisers (and admins) and its scorekeepers."""
    return organises(actor, club) or scorekeeps(actor, club)


def require_change_at(actor: Actor, club, match=None) -> None:
    """The door of every change at `club` (or at `match`), asked before the request is
    even read: an auditor is refused, naming the role, unless seated as a player of
    `match`. Raises Forbidden (`auditor_read_only`)."""
    if match is not None and plays_in(actor, match):
        return
    refuse_auditor(actor, club)


def refuse_auditor_anywhere(actor: Actor) -> None:
    """Before a change that belongs to no club yet (a new tournament, an import): a user
    who audits clubs and organises none is refused naming the role. Raises Forbidden
    (`auditor_read_only`)."""
    if actor.is_admin() or staffed_clubs(actor).exists():
        return  # an organiser acts; a scorekeeper is refused by what it tries
    if actor.is_authenticated and read_clubs(actor).exists():
        raise Forbidden(
            "auditor_read_only",
            _(
                "Auditors can read but not change results: you audit clubs, and only "
                "their organisers create or change anything there."
            ),
        )


def reads_club(actor: Actor, club) -> bool:
    """May read everything of `club`: its organisers, scorekeepers and auditors (and
    admins)."""
    return runs_the_room(actor, club) or audits(actor, club)


def refuse_auditor(actor: Actor, club) -> None:
    """Before any change at `club`: an auditor is refused, the refusal naming the role.
    Raises Forbidden (`auditor_read_only`)."""
    if audits(actor, club):
        raise Forbidden(
            "auditor_read_only",
            _(
                "Auditors can read but not change results: as an auditor of %(club)s "
                "you may read everything of it, and only its organisers change it."
            )
            % {"club": club.name},
        )


def refuse_scorekeeper(actor: Actor, club) -> None:
    """Before a change at `club` that stays its organisers' (its players, roles, PIN
    locks), asked before the request is read: a scorekeeper is refused, the refusal
    naming the role. Raises Forbidden (`scorekeeper_not_allowed`)."""
    if scorekeeps(actor, club) and not organises(actor, club):
        raise Forbidden(
            "scorekeeper_not_allowed",
            _(
                "Scorekeepers run the rounds and the tables of %(club)s; only its "
                "organisers may %(doing)s."
            )
            % {"club": club.name, "doing": _("do that")},
        )


def seated_player(actor: Actor, match):
    """The player `actor` acts for at `match`: the seat this browser holds there, else
    the logged-in user's own seat; None for anyone else."""
    players = (match.player_a, match.player_b)
    held = actor.seats.get(match.pk) if holds_table(actor, match) else None
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


def holds_table(actor: Actor, match) -> bool:
    """This browser opened a table link of `match` that is live and not revoked."""
    return match.pk in actor.tables and actor.generations.get(match.pk, 0) == getattr(
        match, "link_generation", 0
    )


def may_view_match(actor: Actor, match) -> bool:
    """Its table link, its players, the club's organisers and admins."""
    if holds_table(actor, match) or plays_in(actor, match):
        return True
    if not actor.is_authenticated:
        return False
    if actor.user.pk in (match.player_a.user_id, match.player_b.user_id):
        return True
    return reads_club(actor, match.club)


def may_enter_hands(actor: Actor, match) -> bool:
    """Enter, confirm, dispute and withdraw hands: a seated player, or staff (for a
    player who cannot)."""
    return plays_in(actor, match) or runs_the_room(actor, match.club)


def may_manage_match(actor: Actor, match) -> bool:
    """The staff's actions at a table: correct, void, close, reopen, set its time and
    result, print its QR code (its link seats players), take and resolve its calls,
    penalties: the club's organisers and scorekeepers (and admins)."""
    return runs_the_room(actor, match.club)


def may_call_staff(actor: Actor, match) -> bool:
    """Call the organiser to the table ("Organiser, please"): its seated players, and
    staff raising a call for the table."""
    return plays_in(actor, match) or runs_the_room(actor, match.club)


def may_penalise(actor: Actor, match) -> bool:
    """Record or reverse a caution, warning, game loss or match loss against one of the
    match's players: a match-level staff action, whoever may manage the match."""
    return may_manage_match(actor, match)


def may_audit_match(actor: Actor, match) -> bool:
    """Read the match's ledger, its devices and previews: its organisers and auditors."""
    return reads_club(actor, match.club)


def may_start_match(actor: Actor, club, player_a, player_b) -> bool:
    """Staff start any match; at a club night, the club's own players theirs: a member
    starts a match only as one of its two players."""
    return may_start_matches(actor, club, [(player_a, player_b)])


def may_start_matches(actor: Actor, club, pairs) -> bool:
    """may_start_match for every pair of players, asking the database at most once.
    Staff (organisers and scorekeepers) start any: publishing a round starts its tables."""
    player = actor.player
    if player is not None and player.club_id == club.pk:
        if all(player.pk in (a.pk, b.pk) for a, b in pairs):
            return True
    return runs_the_room(actor, club)


def may_unlock_pin(actor: Actor, player) -> bool:
    """Lift a player's wrong-PIN locks: the organisers of the player's club (and admins)."""
    return organises(actor, player.club)


def may_revoke_table_links(actor: Actor, match) -> bool:
    """A lost phone on the day: staff withdraw the table's links (may_manage_match)."""
    return may_manage_match(actor, match)


def may_set_pin(actor: Actor, player) -> bool:
    return organises(actor, player.club) or (
        actor.is_authenticated and player.user_id == actor.user.pk
    )


def is_member(actor: Actor, club) -> bool:
    """The logged-in user plays at `club` (is one of its players)."""
    return actor.is_authenticated and club.players.filter(user=actor.user).exists()


def may_see_player(actor: Actor, player) -> bool:
    """A player's page (records, statistics, charts): everybody when the player's club
    made its player pages public; else the club's members and organisers (and admins)."""
    return may_see_players_of(actor, player.club)


def may_see_players_of(actor: Actor, club) -> bool:
    """`may_see_player` for every player of `club` at once (lists link names to pages)."""
    return club.player_pages_public or reads_club(actor, club) or is_member(actor, club)


def may_view_tournament(actor: Actor, tournament) -> bool:
    """A public tournament: anyone; else its club's organisers and auditors, and its
    players."""
    if tournament.public or reads_club(actor, tournament.club):
        return True
    return (
        actor.is_authenticated and tournament.registrations.filter(player__user=actor.user).exists()
    )


def may_manage_tournament(actor: Actor, tournament) -> bool:
    """Its settings, rules, players and roles: its club's organisers (and admins) only."""
    return organises(actor, tournament.club)


def may_run_rounds(actor: Actor, tournament) -> bool:
    """Run its rounds on the day (draft, adjust, publish, the clock, time called and the
    time policy, results by hand, close): its club's organisers and scorekeepers (and
    admins)."""
    return runs_the_room(actor, tournament.club)


def may_manage_signups(actor: Actor, tournament) -> bool:
    """Open and close a tournament's sign-ups, set its capacity, approval, closing time,
    check-in window and late-entry rule; approve, refuse and resolve sign-ups: the
    tournament's managers (its club's organisers, and admins)."""
    return may_manage_tournament(actor, tournament)


SIGNUPS_KEPT = 20  # sign-ups a browser remembers having made


def remember_signup(request: HttpRequest, signup) -> None:
    """This browser made `signup`: its page is this browser's to read (`may_see_signup`)."""
    made = [s for s in request.session.get("signups", []) if s != signup.pk]
    request.session["signups"] = [*made[-(SIGNUPS_KEPT - 1) :], signup.pk]


def may_see_signup(request: HttpRequest, signup) -> bool:
    """A sign-up's page (its name and where it stands) is for the browser that made it
    and those who read the tournament's organiser pages (may_audit_tournament): its
    address counts up, and anyone could read an event's sign-ups by trying numbers."""
    if signup.pk in request.session.get("signups", []):
        return True
    return may_audit_tournament(actor_of(request), signup.tournament)


def speaks_for(actor: Actor, player) -> bool:
    """The actor acts for `player`: it gave the player's PIN in this request
    (`acting_as`), or it is the logged-in user the player is."""
    if player is None:
        return False
    if actor.player is not None and actor.player.pk == player.pk:
        return True
    return actor.is_authenticated and player.user_id == actor.user.pk


def may_act_on_own_entry(actor: Actor, tournament, player) -> bool:
    """Leave a sign-up or the waiting list, check in from the phone, drop after the
    current round: the player themselves (with their PIN) or the tournament's managers."""
    return may_manage_tournament(actor, tournament) or speaks_for(actor, player)


def require_manage_signups(actor: Actor, tournament) -> None:
    if not may_manage_signups(actor, tournament):
        refuse_auditor(actor, tournament.club)
        if scorekeeps(actor, tournament.club):
            require_manage_tournament(actor, tournament)  # the refusal names the role
        raise Forbidden(
            "not_allowed",
            _("Only the organisers of %(club)s (and admins) manage the sign-ups of %(tournament)s.")
            % {"club": tournament.club.name, "tournament": tournament.name},
        )


def require_own_entry(actor: Actor, tournament, player, name: str) -> None:
    """`name`: the player's name, for the refusal."""
    if not may_act_on_own_entry(actor, tournament, player):
        refuse_auditor(actor, tournament.club)
        raise Forbidden(
            "not_allowed",
            _("Only %(name)s (with their PIN) and the organisers of %(club)s may do that.")
            % {"name": name, "club": tournament.club.name},
        )


def may_audit_tournament(actor: Actor, tournament) -> bool:
    """Read what its organisers read (dashboard, registrations, ledgers, exports, the
    audit): its club's organisers and auditors (and admins)."""
    return reads_club(actor, tournament.club)


def may_view_season(actor: Actor, season) -> bool:
    """A season's settings and ladder: anyone when it is public; else its club's members
    and organisers (and admins)."""
    return season.public or reads_club(actor, season.club) or is_member(actor, season.club)


def may_manage_season(actor: Actor, season) -> bool:
    return organises(actor, season.club)


def may_see_job(actor: Actor, job) -> bool:
    """A background job (an archive import, a rules change): its club's organisers
    (and auditors)."""
    return reads_club(actor, job.club)


def may_verify_ledgers(actor: Actor) -> bool:
    """The whole ledger, every club's: admins and site-wide auditors."""
    return actor.is_admin() or audits_every_club(actor)


def may_grant_auditors(actor: Actor, club) -> bool:
    """Make a user an auditor of `club`, or withdraw one: its organisers (and admins)."""
    return organises(actor, club)


def may_grant_scorekeepers(actor: Actor, club) -> bool:
    """Make a user a scorekeeper of `club`, or withdraw one: its organisers (and admins);
    a scorekeeper grants no roles."""
    return organises(actor, club)


def may_create_club(actor: Actor) -> bool:
    return actor.is_admin()


# ---------------------------------------------------------------- the same, raising


def require_read_club(actor: Actor, club) -> None:
    if not reads_club(actor, club):
        raise Forbidden(
            "not_allowed",
            _("Only the organisers and auditors of %(club)s may read that.") % {"club": club.name},
        )


def require_audit_match(actor: Actor, match) -> None:
    if not may_audit_match(actor, match):
        raise Forbidden(
            "not_allowed",
            _("Only the organisers and auditors of %(club)s may read that.")
            % {"club": match.club.name},
        )


def require_audit_tournament(actor: Actor, tournament) -> None:
    """A private tournament is a 404 to those who may not see it, as everywhere."""
    require_view_tournament(actor, tournament)
    if not may_audit_tournament(actor, tournament):
        raise Forbidden(
            "not_allowed",
            _(
                "Only the organisers and auditors of %(club)s (and admins) read that "
                "of %(tournament)s."
            )
            % {"club": tournament.club.name, "tournament": tournament.name},
        )


def require_view_match(actor: Actor, match) -> None:
    if may_view_match(actor, match):
        return
    if match.pk in actor.tables:  # a link of this table, since revoked
        raise Forbidden("revoked_token", revoked_link())
    raise Forbidden("not_allowed", _("Open this match from its table link, or log in."))


def require_seat_or_organiser(actor: Actor, match) -> str:
    """The acting seat ("A"/"B"), or "" for an organiser or admin; anyone else is refused."""
    if actor.player is not None:
        seat = match.seat_of(actor.player)
        if seat is None:
            raise Forbidden(
                "not_in_match",
                _("%(name)s does not play in this match.") % {"name": actor.player.name},
            )
        return seat
    if runs_the_room(actor, match.club):
        return ""
    refuse_auditor(actor, match.club)
    raise Forbidden(
        "not_allowed",
        _("Only %(a)s, %(b)s and the organisers and scorekeepers of %(club)s may do that.")
        % {"a": match.player_a.name, "b": match.player_b.name, "club": match.club.name},
    )


def require_manage_match(actor: Actor, match) -> None:
    if not may_manage_match(actor, match):
        refuse_auditor(actor, match.club)
        raise Forbidden(
            "not_allowed",
            _("Only the organisers and scorekeepers of %(club)s may do that.")
            % {"club": match.club.name},
        )


def require_penalise(actor: Actor, match) -> None:
    if not may_penalise(actor, match):
        refuse_auditor(actor, match.club)
        raise Forbidden(
            "not_allowed",
            _("Only the staff of %(club)s may record or reverse a penalty against %(a)s or %(b)s.")
            % {"club": match.club.name, "a": match.player_a.name, "b": match.player_b.name},
        )


def require_call_staff(actor: Actor, match) -> None:
    if not may_call_staff(actor, match):
        refuse_auditor(actor, match.club)
        raise Forbidden(
            "not_allowed",
            _("Only %(a)s and %(b)s, seated at this table, may call the organiser.")
            % {"a": match.player_a.name, "b": match.player_b.name},
        )


def require_run_rounds(actor: Actor, tournament) -> None:
    """The door of the round-running services: staff of the tournament's club. Raises
    Forbidden (`auditor_read_only`, `not_allowed`)."""
    if not may_run_rounds(actor, tournament):
        refuse_auditor(actor, tournament.club)
        raise Forbidden(
            "not_allowed",
            _(
                "Only the organisers and scorekeepers of %(club)s (and admins) run the "
                "rounds of %(tournament)s."
            )
            % {"club": tournament.club.name, "tournament": tournament.name},
        )


def require_scorekeeper_grant(actor: Actor, club) -> None:
    if not may_grant_scorekeepers(actor, club):
        # Translators: completes "Only the organisers of <club> may ..."
        require_organiser(actor, club, _("choose its scorekeepers"))


def require_organiser(actor: Actor, club, doing: str = "") -> None:
    """`doing` completes "Only the organisers of <club> may ...": an action in the
    infinitive ("add players"), which callers pass through gettext themselves."""
    if not organises(actor, club):
        refuse_auditor(actor, club)
        if scorekeeps(actor, club):
            # Translators: %(doing)s as below; the refusal names the role.
            message = _(
                "Scorekeepers run the rounds and the tables of %(club)s; only its "
                "organisers may %(doing)s."
            ) % {"club": club.name, "doing": doing or _("do that")}
            raise Forbidden("scorekeeper_not_allowed", message)
        if not doing:
            message = _("Only the organisers of %(club)s may do that.") % {"club": club.name}
        else:
            # Translators: %(doing)s is an action in the infinitive, e.g. "add players"
            # ("aggiungere giocatori").
            message = _("Only the organisers of %(club)s may %(doing)s.") % {
                "club": club.name,
                "doing": doing,
            }
        raise Forbidden("not_allowed", message)


def require_see_job(actor: Actor, job) -> None:
    """Anyone else is told there is no such job: nothing leaks."""
    if not may_see_job(actor, job):
        raise NotFound("not_found", _("No such job."))


def require_see_player(actor: Actor, player) -> None:
    """Anyone else is told what an unknown player's id tells: a private club's players
    stay unknown."""
    if not may_see_player(actor, player):
        raise no_player_page()


def no_player_page() -> NotFound:
    """The refusal of a player page that does not exist or that the reader may not see
    (the same words, so they give nothing away), saying who may see one."""
    return NotFound(
        "not_found",
        _(
            "No player page here that you may see. A club's player pages are for its "
            "members and organisers (log in), unless the club opens them to everybody."
        ),
    )


def require_view_tournament(actor: Actor, tournament) -> None:
    """A private tournament is a 404 to everybody else: the public learns nothing of it."""
    if not may_view_tournament(actor, tournament):
        raise NotFound("not_found", _("No such tournament."))


def require_view_season(actor: Actor, season) -> None:
    """A private season is a 404 to everybody else: the public learns nothing of it."""
    if not may_view_season(actor, season):
        raise NotFound("not_found", _("No such season."))


def require_manage_tournament(actor: Actor, tournament) -> None:
    require_view_tournament(actor, tournament)
    if not may_manage_tournament(actor, tournament):
        refuse_auditor(actor, tournament.club)
        if scorekeeps(actor, tournament.club):
            raise Forbidden(
                "scorekeeper_not_allowed",
                _(
                    "Scorekeepers run the rounds and the tables of %(tournament)s; its "
                    "settings, rules, players and roles are for the organisers of %(club)s."
                )
                % {"club": tournament.club.name, "tournament": tournament.name},
            )
        raise Forbidden(
            "not_allowed",
            _("Only the organisers of %(club)s (and admins) manage %(tournament)s.")
            % {"club": tournament.club.name, "tournament": tournament.name},
        )


# ------------------------------------------------------- which of these may it see

# What everybody may see: the reader of a public page, and of anything shown to more
# people than one event's (a season ladder counts only what this actor may see).
EVERYBODY = Actor()


def _objects(label: str):
    return apps.get_model(label).objects


def organised_clubs(actor: Actor) -> QuerySet:
    """The clubs `actor` organises (`organises` as a query; admins: all)."""
    return _clubs_of(actor, lambda user: Q(organisers=user))


def member_clubs(actor: Actor) -> QuerySet:
    """The clubs `actor` organises or plays at (`organises` or `is_member`)."""
    return _clubs_of(actor, lambda user: Q(organisers=user) | Q(players__user=user))


def read_clubs(actor: Actor) -> QuerySet:
    """The clubs `actor` may read everything of (`reads_club` as a query: organised or
    audited; admins and site-wide auditors: all)."""
    clubs = _objects("scoring.Club")
    if actor.is_admin():
        return clubs.all()
    if not actor.is_authenticated:
        return clubs.none()
    user = actor.user
    mine = clubs.filter(Q(organisers=user) | Q(scorekeepers=user) | Q(auditors=user)).values("pk")
    return clubs.filter(Q(pk__in=mine) | Exists(_every_club_grant(user)))


def audited_clubs(actor: Actor) -> QuerySet:
    """The clubs `actor` audits (`audits` as a query): read, and neither organised nor
    kept score of."""
    return read_clubs(actor).exclude(pk__in=staffed_clubs(actor).values("pk"))


def staffed_clubs(actor: Actor) -> QuerySet:
    """The clubs `actor` organises or keeps score of (`runs_the_room` as a query)."""
    return _clubs_of(actor, lambda user: Q(organisers=user) | Q(scorekeepers=user))


def known_clubs(actor: Actor) -> QuerySet:
    """The clubs `actor` organises, audits or plays at (member_clubs and read_clubs)."""
    clubs = _objects("scoring.Club")
    return clubs.filter(
        Q(pk__in=member_clubs(actor).values("pk")) | Q(pk__in=read_clubs(actor).values("pk"))
    )


def _clubs_of(actor: Actor, mine: Callable[[Any], Q]) -> QuerySet:
    """Every club for admins, none for the anonymous, else those `mine(user)` finds
    (through a subquery: a join over organisers and players would repeat clubs)."""
    clubs = _objects("scoring.Club")
    if actor.is_admin():
        return clubs.all()
    if not actor.is_authenticated:
        return clubs.none()
    return clubs.filter(pk__in=clubs.filter(mine(actor.user)).values("pk"))


def visible_tournaments(actor: Actor) -> QuerySet:
    """`may_view_tournament` as a query: public ones, their clubs' for organisers and
    auditors, the
    ones the actor plays in; admins all."""
    tournaments = _objects("tournaments.Tournament")
    if actor.is_admin():
        return tournaments.all()
    visible = Q(public=True)
    if actor.is_authenticated:
        visible |= Q(club__in=read_clubs(actor).values("pk"))
        visible |= Q(registrations__player__user=actor.user)
    return tournaments.filter(pk__in=tournaments.filter(visible).values("pk"))


def visible_seasons(actor: Actor, club) -> QuerySet:
    """`may_view_season` for the seasons of `club`, as a query."""
    seasons = _objects("tournaments.Season").filter(club=club)
    if member_clubs(actor).filter(pk=club.pk).exists() or reads_club(actor, club):
        return seasons
    return seasons.filter(public=True)


def openable_matches(actor: Actor) -> QuerySet:
    """The matches a logged-in `actor` may open (`may_view_match` less table links, which
    a browser holds one by one): admins all, organisers and auditors their clubs',
    players theirs."""
    matches = _objects("scoring.Match")
    if actor.is_admin():
        return matches.all()
    if not actor.is_authenticated:
        return matches.none()
    user = actor.user
    mine = Q(club__in=read_clubs(actor).values("pk"))
    mine |= Q(player_a__user=user) | Q(player_b__user=user)
    return matches.filter(mine)


HeldRounds = Callable[[str], Q]
_held_rounds: list[HeldRounds] = []


def register_held_rounds(find: HeldRounds) -> None:
    """`find(round_path)`: the rounds whose results are kept from the public, as a
    condition on a query reaching the round through `round_path` (the tournaments app
    registers its hiding options, which it alone knows how to count)."""
    if find not in _held_rounds:
        _held_rounds.append(find)


def held_back(actor: Actor, round_path: str) -> Q:
    """The results kept from `actor` (see the terms above), as a condition on a query
    whose rows reach the round through `round_path` ("pairing__round" from a Match,
    "round" from a Pairing). The club's organisers and auditors, and admins, see
    everything."""
    held = Q(pk__in=[])
    if actor.is_admin():
        return held
    for find in _held_rounds:
        held |= find(round_path)
    if actor.is_authenticated:
        event = f"{round_path}__tournament__club__in"
        held &= ~Q(**{event: read_clubs(actor).values("pk")})
    return held


def visible_matches(actor: Actor) -> QuerySet:
    """The matches `actor` may know of in lists (a player's page, head to head, ratings,
    statistics): club matches, and the tables of tournaments it may open. The club's own
    gate (who reads its player pages: may_see_player) is asked by the page."""
    matches = _objects("scoring.Match")
    if actor.is_admin():
        return matches.all()
    events = visible_tournaments(actor).values("pk")
    return matches.filter(Q(pairing=None) | Q(pairing__round__tournament__in=events))


def readable_results(actor: Actor) -> QuerySet:
    """The visible matches whose results `actor` may read (not held back)."""
    return visible_matches(actor).exclude(held_back(actor, "pairing__round"))
