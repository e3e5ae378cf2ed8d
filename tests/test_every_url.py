"""Every route the URL resolver knows, every method it takes, as each kind of visitor.

The routes come from Django's resolver (not a hand-kept list), so a new page or API
endpoint is walked the day it is added. Each visitor walks them all against one small
club with a running tournament, sending empty bodies, and the test asserts that:

- nothing answers 5xx, whatever was sent;
- every HTML page carries a Content-Security-Policy without inline scripts, and no
  inline script or on...= handler the policy would block;
- every refusal (4xx) says what is wrong: the API as {"error": {"code", "message"}},
  pages as the refusal page or partial (or a form showing its errors);
- who gets past the door (anything but 401/403/404, or a redirect to log in) matches
  PERMISSIONS below, the one table of who may do what.

A 400 or 409 means the door opened and the request itself was refused (empty body,
wrong state): for the permission check that counts as allowed.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from ginclub.permissions import Actor, table_token
from scoring.models import TableCall
from scoring.services import record_penalty
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.tournaments import helpers
from tests.tournaments.helpers import new_event, play_hand, play_round
from tournaments import services
from tournaments.models import Job, Season

pytestmark = pytest.mark.django_db

VISITORS = (
    "anonymous",
    "seated_here",
    "seated_elsewhere",
    "player_of_another_club",
    "organiser_of_another_club",
    "organiser",
    "staff",
    "auditor",
    "site_auditor",
    "scorekeeper",
)
EVERYONE = set(VISITORS)
AUDITORS = {"auditor", "site_auditor"}
LOGGED_IN = {
    "player_of_another_club",
    "organiser_of_another_club",
    "organiser",
    "staff",
    "scorekeeper",
    *AUDITORS,
}
MANAGERS = {"organiser", "staff"}
AT_THE_TABLE = {"seated_here", *MANAGERS}
STAFF = {"staff"}

# Who gets past the door, by route name (and method where it differs). The tournament
# is private, so only its club's organisers and admins see any of it; the match is its
# round 1, table 1, seen by its table link, its players and the organisers.
PERMISSIONS: dict[str, set[str]] = {
    "home": EVERYONE,
    "healthz": EVERYONE,
    "favicon": EVERYONE,
    "login": EVERYONE,
    "logout": EVERYONE,
    "set_language": EVERYONE,
    "api-schema": EVERYONE,
    "api-docs": EVERYONE,
    # scoring pages
    "scoring:club": MANAGERS,
    "scoring:new-match": MANAGERS,
    "scoring:add-player": MANAGERS,
    "scoring:table": EVERYONE,
    "scoring:match": AT_THE_TABLE,
    "scoring:scoreboard": AT_THE_TABLE,
    "scoring:seat": AT_THE_TABLE,
    "scoring:leave-seat": AT_THE_TABLE,
    "scoring:next-table": AT_THE_TABLE,
    "scoring:hand-form": AT_THE_TABLE,
    "scoring:preview": AT_THE_TABLE,
    "scoring:hand-compare": AT_THE_TABLE,
    "scoring:submit": AT_THE_TABLE,
    "scoring:hand-action": AT_THE_TABLE,
    "scoring:correct": MANAGERS,
    "scoring:correction": MANAGERS,
    "scoring:correct-preview": MANAGERS,
    "scoring:void-preview": MANAGERS,
    "scoring:close": MANAGERS,
    "scoring:reopen": MANAGERS,
    "scoring:ledger": MANAGERS,
    "scoring:table-qr": MANAGERS,
    "scoring:revoke-links": MANAGERS,
    "scoring:penalty-record": MANAGERS,
    "scoring:penalty-preview": MANAGERS,
    "scoring:penalty-reverse": MANAGERS,
    "scoring:unlock-pin": MANAGERS,
    "scoring:lift-network-limit": MANAGERS,
    "scoring:player": MANAGERS,
    "scoring:player-chart": MANAGERS,
    "scoring:player-pages-setting": MANAGERS,
    "scoring:ratings": MANAGERS,
    # scoring API
    "api-clubs": LOGGED_IN,
    "api-club-players": MANAGERS,
    "api-lift-network-limit": MANAGERS,
    "api-matches GET": LOGGED_IN,
    "api-matches POST": LOGGED_IN,
    "api-match": AT_THE_TABLE,
    "api-preview": AT_THE_TABLE,
    "api-submit": AT_THE_TABLE,
    "api-seat": AT_THE_TABLE,
    "api-close": MANAGERS,
    "api-reopen": MANAGERS,
    "api-ledger": MANAGERS,
    "api-penalties GET": AT_THE_TABLE,
    "api-penalties POST": MANAGERS,
    "api-penalty-preview": MANAGERS,
    "api-penalty-reverse": MANAGERS,
    "api-confirm": AT_THE_TABLE,
    "api-dispute": AT_THE_TABLE,
    "api-withdraw": AT_THE_TABLE,
    "api-correct": MANAGERS,
    "api-correct-preview": MANAGERS,
    "api-void": MANAGERS,
    "api-void-preview": MANAGERS,
    "api-verify-ledger": STAFF | {"site_auditor"},
    "scoring:call": AT_THE_TABLE,
    "scoring:take-call": MANAGERS,
    "scoring:resolve-call": MANAGERS,
    "scoring:grant-scorekeeper": MANAGERS,
    "scoring:withdraw-scorekeeper": MANAGERS,
    "api-club-scorekeepers": MANAGERS,
    "api-club-scorekeeper": MANAGERS,
    "api-match-calls": AT_THE_TABLE,
    "api-take-call": MANAGERS,
    "api-resolve-call": MANAGERS,
    "scoring:grant-auditor": MANAGERS,
    "scoring:withdraw-auditor": MANAGERS,
    "api-club-auditors": MANAGERS,
    "api-club-auditor": MANAGERS,
    "api-player": MANAGERS,
    "api-club-ratings": MANAGERS,
    # the phone as an installable app (nothing in them but fixed text and the match id)
    "service-worker": EVERYONE,
    "scoring:manifest": EVERYONE,
    # tournament pages
    "tournaments:list": EVERYONE,
    "tournaments:create": LOGGED_IN - {"player_of_another_club", *AUDITORS},
    "tournaments:import": LOGGED_IN - {"player_of_another_club", *AUDITORS},
    # tournament API
    "api-tournaments GET": EVERYONE,
    "api-tournaments POST": LOGGED_IN,
    "api-import-archive": MANAGERS,
    # A club's seasons: everybody may list the public ones (here none, so an empty list);
    # the world's season is private, so the rest is for the club's organisers.
    "api-seasons GET": EVERYONE,
    "api-seasons POST": MANAGERS,
    # The world's event is a Swiss: it has no bracket, so everybody gets 404 no_bracket
    # (who may see a bracket: tests/tournaments/test_bracket_pages.py).
    "tournaments:bracket": set(),
    "tournaments:bracket-board": set(),
    "tournaments:bracket-print": set(),
    # Sign-up by players (the world's sign-ups closed with round 1): the form, the code,
    # a sign-up's page are anybody's; leaving needs the player's PIN, which no visitor
    # sends (an organiser needs none).
    "tournaments:join": EVERYONE,
    "tournaments:signup": EVERYONE,
    # a sign-up's page: the browser that made it (none of these) and who reads the
    # organisers' pages
    "tournaments:signup-status": {*MANAGERS, "scorekeeper", *AUDITORS},
    "tournaments:signup-leave": MANAGERS,
    "api-sign-up": EVERYONE,
    "api-signup-status": {*MANAGERS, "scorekeeper", *AUDITORS},
    "api-signup-leave": MANAGERS,
    "api-self-check-in": MANAGERS,
    "api-drop": MANAGERS,
}
# Every other tournament route (pages and API) is for those who see the tournament.
TOURNAMENT_DEFAULT = MANAGERS
# Reads an organiser has and an auditor has not: the forms of changes an auditor may
# not make (refused naming the role).
NOT_FOR_AUDITORS = {
    "scoring:correction",
    "tournaments:season-create",
    "tournaments:season-edit",
    "tournaments:create",
    "tournaments:import",
}
# Routes that read though they are sent by POST: none for auditors yet.
READS_SENT_BY_POST: set[str] = set()

# A scorekeeper of the club reads what its organisers read, does what a seated player
# may at every table, and of the organisers' own changes makes only these: running the
# rounds and the tables on the day ("<route> <METHOD>" where the route's other methods
# are not). Every other change of the organisers' (settings, rules, players, roles,
# seasons, imports, PIN locks) is refused at the door.
SCOREKEEPER = "scorekeeper"
SCOREKEEPER_CHANGES = {
    "scoring:new-match",
    "scoring:correct",
    "scoring:correction",
    "scoring:correct-preview",
    "scoring:void-preview",
    "scoring:close",
    "scoring:reopen",
    "scoring:revoke-links",
    "scoring:take-call",
    "scoring:resolve-call",
    "api-close",
    "api-reopen",
    "api-correct",
    "api-correct-preview",
    "api-void",
    "api-void-preview",
    "api-take-call",
    "api-resolve-call",
    "scoring:penalty-record",
    "scoring:penalty-preview",
    "scoring:penalty-reverse",
    "api-penalties POST",
    "api-penalty-preview",
    "api-penalty-reverse",
    "tournaments:draft",
    "tournaments:round-action",
    "tournaments:adjust",
    "tournaments:result",
    "tournaments:extend-table",
    "tournaments:clear-result",
    "api-rounds POST",
    "api-round DELETE",
    "api-round-swap",
    "api-round-fix",
    "api-round-publish",
    "api-round-timer",
    "api-round-call-time",
    "api-round-time-policy",
    "api-round-undo-time-call",
    "api-round-close",
    "api-result",
    "api-clear-result",
    "api-extend-table",
}
# The organisers' forms a scorekeeper may not even open (its changes are not theirs).
NOT_FOR_SCOREKEEPERS = NOT_FOR_AUDITORS - {"scoring:correction"}

# Values for the resolver's <converter:name> parts that are not ids.
ACTIONS = {
    "scoring:hand-action": ["confirm", "dispute", "withdraw", "void", "no-such-action"],
    "tournaments:registration-action": [
        "check-in",
        "undo-check-in",
        "withdraw",
        "reinstate",
        "seed",
        "pin",
        "remove",
        "no-such-action",
    ],
    # The state-changing ones last: a round closed early would change what follows.
    "tournaments:round-action": [
        "timer",
        "call-time",
        "time-policy",
        "undo-time-call",
        "revoke-links",
        "discard",
        "publish",
        "close",
        "no-such-action",
    ],
    "tournaments:adjust": ["swap", "fix", "no-such-action"],
    "tournaments:signup-action": ["approve", "refuse", "same", "new", "no-such-action"],
}
SKIPPED_PREFIXES = ("admin/", "static/")


@dataclass(frozen=True)
class Route:
    path: str  # with <converter:name> parts
    name: str
    callback: object


def walk(patterns=None, prefix: str = "", namespace: str = "") -> list[Route]:
    routes = []
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            routes += walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern):
            name = f"{namespace}{pattern.name}" if pattern.name else str(pattern.pattern)
            routes.append(Route(prefix + str(pattern.pattern), name, pattern.callback))
    return [r for r in routes if not r.path.startswith(SKIPPED_PREFIXES)]


ROUTES = walk()


def test_the_walk_finds_the_pages_and_the_api():
    names = {route.name for route in ROUTES}
    assert {"scoring:match", "api-submit", "tournaments:dashboard", "api-round-close"} <= names
    assert len(ROUTES) > 80


# ------------------------------------------------------------------------- the world


@pytest.fixture
def world():
    organiser = UserFactory(username="organiser")
    club = ClubFactory(name="Home Club", slug="home")
    club.organisers.add(organiser)
    away = ClubFactory(name="Away Club", slug="away")
    away_organiser = UserFactory(username="away-organiser")
    away.organisers.add(away_organiser)
    away_user = UserFactory(username="away-player")
    PlayerFactory(club=away, name="Quinn", user=away_user)
    staff = get_user_model().objects.create_superuser("staff", "staff@example.org", "pw")
    tournament = new_event(club, organiser, players=4, public=False)
    services.set_signups(
        tournament_id=tournament.pk,
        actor=helpers.actor(organiser),
        changes=services.SignupSettings(open=True),
    )
    walker = services.sign_up(
        tournament_id=tournament.pk, actor=helpers.actor(None), name="Walker", pin="8642"
    )
    tournament.refresh_from_db()
    rnd = play_round(tournament, organiser, play=False, close=False)
    here, elsewhere = rnd.pairings.exclude(match=None).order_by("table")[:2]
    play_hand(here.match, organiser, game=1, number=1, winner="A", kd=5, dd=10)
    warning = record_penalty(
        match_id=here.match.pk, actor=Actor(user=organiser), seat="B", kind="warning",
        infraction="slow_play", details="slow play",
    )  # fmt: skip
    job = Job.objects.create(
        kind=Job.Kind.RULES_CHANGE,
        club=club,
        tournament=tournament,
        requested_by=organiser,
        label="Rules change",
        state=Job.State.DONE,
    )
    season = Season.objects.create(
        club=club,
        name="Winter",
        slug="winter",
        starts_on=tournament.date,
        ends_on=tournament.date,
        created_by=organiser,
    )
    values = {
        "season": season.slug,
        "match_id": here.match.pk,
        "hand_id": here.match.games.get(number=1).hands.get().pk,
        "player_id": here.match.player_a_id,
        "token": table_token(here.match),
        "pairing_id": here.pk,
        "registration_id": here.player_a.pk,
        "round_id": rnd.pk,
        "number": rnd.number,
        "club": club.slug,
        "tournament": tournament.slug,
        "job_id": job.pk,
        "penalty_id": warning.pk,
        "chart": "results",
        "code": tournament.signup_code,
        "signup_id": walker.pk,
    }
    auditor = UserFactory(username="auditor")
    club.auditors.add(auditor)
    scorekeeper = UserFactory(username="scorekeeper")
    club.scorekeepers.add(scorekeeper)
    call = TableCall.objects.create(
        match=here.match, reason="ruling", player=here.match.player_a, called_at=timezone.now()
    )
    values["call_id"] = call.pk
    site_auditor = UserFactory(username="site-auditor")
    site_auditor.user_permissions.add(Permission.objects.get(codename="audit_every_club"))
    users = {
        "player_of_another_club": away_user,
        "organiser_of_another_club": away_organiser,
        "organiser": organiser,
        "staff": staff,
        "auditor": auditor,
        "site_auditor": site_auditor,
        "scorekeeper": scorekeeper,
    }
    values["user_id"] = auditor.pk
    return values, users, {"seated_here": here.match, "seated_elsewhere": elsewhere.match}


def client_for(visitor: str, users: dict, seats: dict) -> Client:
    client = Client(HTTP_USER_AGENT="url-walk")
    if visitor in users:
        client.force_login(users[visitor], backend="ginclub.sessions.ModelBackend")
    elif visitor in seats:
        match = seats[visitor]
        session = client.session
        session["table_grants"] = {str(match.pk): [time.time() + 3600, match.link_generation]}
        session["seats"] = {str(match.pk): match.player_a_id}
        session.save()
    return client


def urls_of(route: Route, values: dict) -> list[str]:
    def fill(match: re.Match) -> str:
        name = match.group(2)
        if name == "slug":
            return values[
                "club" if route.path.startswith(("clubs/", "api/clubs/")) else "tournament"
            ]
        return str(values[name])

    actions = ACTIONS.get(route.name, [None])
    urls = []
    for action in actions:
        path = route.path.replace("<str:action>", action) if action else route.path
        urls.append("/" + re.sub(r"<(?:(\w+):)?(\w+)>", fill, path))
    return urls


def methods_of(route: Route, staff: Client, url: str) -> list[str]:
    """What the route takes: an API view's declared methods; a page's Allow header when
    it refuses an odd method, else GET and POST."""
    view_class = getattr(route.callback, "cls", None) or getattr(route.callback, "view_class", None)
    if view_class is not None:
        declared = [m for m in ("get", "post", "put", "patch", "delete") if hasattr(view_class, m)]
        return [m.upper() for m in declared]
    answer = staff.generic("PROPFIND", url)
    if answer.status_code == 405:
        return [m.strip() for m in answer["Allow"].split(",") if m.strip() not in ("", "OPTIONS")]
    return ["GET", "POST"]


def send(client: Client, method: str, url: str):
    if url.startswith("/api/") and method in ("POST", "PATCH", "PUT"):
        return client.generic(method, url, data="{}", content_type="application/json")
    if method == "POST":
        return client.post(url, {})
    return client.generic(method, url)


def allowed(route: Route, method: str) -> set[str]:
    if f"{route.name} {method}" in PERMISSIONS:
        return PERMISSIONS[f"{route.name} {method}"]
    if route.name in PERMISSIONS:
        return PERMISSIONS[route.name]
    module = getattr(route.callback, "__module__", "")
    assert module.startswith("tournaments."), f"{route.name} is missing from PERMISSIONS"
    return TOURNAMENT_DEFAULT


def scorekeeper_allowed(route: Route, method: str) -> bool:
    """What any logged-in user or a seated player may do, the organisers' reads, and of
    their changes SCOREKEEPER_CHANGES."""
    table = allowed(route, method)
    if "player_of_another_club" in table or "seated_here" in table:
        return True
    if "organiser" not in table:
        return False
    if method in ("GET", "HEAD"):
        return route.name not in NOT_FOR_SCOREKEEPERS
    return route.name in SCOREKEEPER_CHANGES or f"{route.name} {method}" in SCOREKEEPER_CHANGES


def allowed_for(visitor: str, route: Route, method: str) -> bool:
    """An auditor (of the club, or of every club) reads what the organisers read, and
    no write gets through: GET/HEAD where the organiser gets in, nothing else. A
    scorekeeper: `scorekeeper_allowed`."""
    if visitor == SCOREKEEPER:
        return scorekeeper_allowed(route, method)
    if visitor not in AUDITORS or visitor in allowed(route, method):
        return visitor in allowed(route, method)
    if route.name in NOT_FOR_AUDITORS:
        return False
    if method in ("GET", "HEAD") or route.name in READS_SENT_BY_POST:
        return "organiser" in allowed(route, method) or visitor in allowed(route, method)
    return False


def refused_at_the_door(response) -> bool:
    if response.status_code in (401, 403, 404):
        return True
    return response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def auditor_refusal(url: str, response) -> list[str]:
    """Where an organiser gets through, an auditor is refused with a 403 that names the
    role (code `auditor_read_only`)."""
    body = response.content.decode("utf-8", "replace")
    if response.status_code != 403:
        return [f"an auditor refused with {response.status_code}, not 403"]
    if url.startswith("/api/"):
        if json.loads(body)["error"]["code"] != "auditor_read_only":
            return ["an auditor refused without the auditor_read_only code"]
    elif "Auditors can read but not change" not in body:
        return ["an auditor refused without naming the role"]
    return []


def says_what_is_wrong(url: str, response) -> bool:
    body = response.content.decode("utf-8", "replace")
    if url.startswith("/api/"):
        try:
            error = json.loads(body)["error"]
        except (ValueError, KeyError, TypeError):
            return False
        return bool(error.get("code")) and bool(error.get("message"))
    # A refusal, or a form sent back with its problems marked (Django's form validation).
    return any(mark in body for mark in ('class="refusal"', 'class="errorlist', "form-errors"))


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)


def inline_code(response) -> list[str]:
    """What the Content-Security-Policy would block: pages carry no inline script."""
    policy = response.get("Content-Security-Policy", "")
    script_src = next((d for d in policy.split(";") if d.strip().startswith("script-src")), "")
    body = response.content.decode("utf-8", "replace")
    found = []
    if not policy or "unsafe-inline" in script_src or "script-src" not in policy:
        found.append(f"a weak or missing Content-Security-Policy: {policy!r}")
    if INLINE_SCRIPT.search(body):
        found.append("an inline <script>")
    if INLINE_HANDLER.search(body):
        found.append("an inline on...= handler")
    return found


@pytest.mark.parametrize("visitor", VISITORS)
def test_every_route_answers_each_visitor_as_the_permission_table_says(visitor, world):
    values, users, seats = world
    staff = client_for("staff", users, seats)
    problems = []
    for route in ROUTES:
        # A fresh browser for each route: logging out or opening a table link must not
        # change who the visitor is for the routes after it.
        client = client_for(visitor, users, seats)
        for url in urls_of(route, values):
            for method in methods_of(route, staff, url):
                response = send(client, method, url)
                status = response.status_code
                where = f"{method} {url} ({route.name}) as {visitor}: {status}"
                if status >= 500:
                    problems.append(f"{where} server error")
                    continue
                if status == 200 and response.get("Content-Type", "").startswith("text/html"):
                    problems += [f"{where} {p}" for p in inline_code(response)]
                if 400 <= status < 500 and not says_what_is_wrong(url, response):
                    problems.append(f"{where} refusal without a code and message")
                if "no-such-action" in url:
                    if status not in (302, 401, 403, 404):
                        problems.append(f"{where} an unknown action is not a 404")
                    continue
                door = not refused_at_the_door(response)
                if visitor in AUDITORS and not door and "organiser" in allowed(route, method):
                    problems += [f"{where} {p}" for p in auditor_refusal(url, response)]
                if door != allowed_for(visitor, route, method):
                    verb = "let in" if door else "refused"
                    problems.append(f"{where} {verb}, against the table")
    assert problems == [], "\n".join(problems)
