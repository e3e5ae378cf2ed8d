"""schemathesis fuzzes every operation of the committed openapi.yaml against the app.

Each operation runs in-process through the WSGI application (no server), twice per
generated case: as the club's organiser (API token) and as a player seated at one of the
round's tables (a session that opened the table link and took a seat, with its CSRF
token). Path parameters point at the world's real match, hand, round, pairing,
registration, club and tournament most of the time, so operations are exercised rather
than answered 404. Every case is rolled back, so each one meets the same world.

The checks: no 5xx, only documented status codes, the documented content type, and a body
that fits the documented schema. A failure here is an API bug (or a schema that lies),
never something to relax.

schemathesis expands its operations only in a single process (not under xdist), so
`make test` splits them in two shards run side by side: FUZZ_SHARD=1/2 and 2/2 each take
every other operation of the sorted list, with test databases of their own.
"""

from __future__ import annotations

import itertools
import os
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path

import pytest
import schemathesis
import yaml
from django.conf import settings as django_settings
from django.core import signals
from django.db import close_old_connections, transaction
from django.middleware.csrf import _get_new_csrf_string
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from ginclub.permissions import Actor
from ginclub.wsgi import application
from scoring import services as scoring
from scoring.hand_input import HandInput
from scoring.models import Hand
from tests.factories import PIN, ClubFactory, UserFactory
from tests.tournaments.helpers import new_event, play_hand, play_round
from tournaments.models import Job, Season

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "openapi.yaml"
METHODS = {"get", "put", "post", "patch", "delete"}


def _operations_in_the_yaml() -> list[str]:
    document = yaml.safe_load(SCHEMA_PATH.read_text(encoding="utf-8"))
    return sorted(
        f"{method.upper()} {path}"
        for path, item in document["paths"].items()
        for method in item
        if method in METHODS
    )


def _shard() -> tuple[int, int]:
    """(k, n) from FUZZ_SHARD=k/n; (1, 1) without it."""
    value = os.environ.get("FUZZ_SHARD", "1/1")
    k, _, n = value.partition("/")
    if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise pytest.UsageError(f"FUZZ_SHARD={value!r}: expected k/n with 1 <= k <= n, as 1/2")
    return int(k), int(n)


SHARD, SHARDS = _shard()
# This shard's operations: every n-th of the sorted list, starting at the k-th.
OURS = frozenset(_operations_in_the_yaml()[SHARD - 1 :: SHARDS])


def _ours(context) -> bool:
    return f"{context.operation.method.upper()} {context.operation.path}" in OURS


schema = schemathesis.openapi.from_path(SCHEMA_PATH).include(func=_ours)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """Shards run side by side, each with test databases of its own."""
    if SHARDS == 1:
        return
    for database in django_settings.DATABASES.values():
        test = database.setdefault("TEST", {})
        name = test.get("NAME") or f"test_{database['NAME']}"
        test["NAME"] = f"{name}_fuzz{SHARD}"


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
_turns = itertools.count()

# operation -> identity -> status codes seen (a summary for the last test of the file)
SEEN: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))


@dataclass
class World:
    club_slug: str
    tournament_slug: str
    match_id: int
    hand_id: int
    round_id: int
    pairing_id: int
    registration_id: int
    other_registration_id: int
    job_id: int
    penalty_id: int
    season_slug: str
    players: tuple[int, int]
    seated_player: int
    hand_version: int
    identities: dict[str, dict]

    def ids(self, path: str) -> dict[str, object]:
        slug = self.club_slug if path.startswith("/api/clubs/") else self.tournament_slug
        return {
            "match_id": self.match_id,
            "hand_id": self.hand_id,
            "round_id": self.round_id,
            "pairing_id": self.pairing_id,
            "registration_id": self.registration_id,
            "job_id": self.job_id,
            "penalty_id": self.penalty_id,
            "season": self.season_slug,
            "slug": slug,
        }

    def body_values(self, path: str) -> dict[str, object]:
        """Real values for the body keys that name something of the world."""
        tournament_side = path.startswith(("/api/rounds/", "/api/tournaments/"))
        a, b = (
            (self.registration_id, self.other_registration_id) if tournament_side else self.players
        )
        return {
            "club": self.club_slug,
            "player_a": a,
            "player_b": b,
            "first": self.registration_id,
            "second": self.other_registration_id,
            "player": self.seated_player,
            "pin": PIN,
            "version": self.hand_version,
            "pairing_ids": [self.pairing_id],
            "profile": "standard",
            "overrides": {"game_target": 50},
        }


@pytest.fixture
def in_process():
    """Keep the test's database connection open across requests, as Django's test client
    does: the WSGI handler would close it when a request finishes."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def world(db, in_process) -> World:
    club = ClubFactory()
    organiser = UserFactory()
    club.organisers.add(organiser)
    token = Token.objects.create(user=organiser)
    tournament = new_event(club, organiser, players=4)
    rnd = play_round(tournament, organiser, play=False, close=False)
    pairing = rnd.pairings.exclude(match=None).select_related("match", "player_a").first()
    match = pairing.match
    play_hand(match, organiser, game=1, number=1)  # game 1, agreed
    seated = match.player_a
    seated.set_pin(PIN)
    seated.save(update_fields=["pin_hash"])
    # Game 2's first hand, entered by the seated player: pending the opponent's word.
    scoring.submit_hand(
        match_id=match.pk,
        actor=Actor(player=seated, tables=frozenset({match.pk}), seats={match.pk: seated.pk}),
        hand=HandInput(
            game=2, number=1, outcome="knock", knocker="A", knocker_deadwood=5, defender_deadwood=9
        ),
        idempotency_key="fuzz-world",
    )
    hand = Hand.objects.get(game__match=match, game__number=2, number=1)
    assert hand.state == Hand.State.PENDING

    # A phone that opened the table link and took seat A (as ginclub.permissions keeps it).
    session = import_module(django_settings.SESSION_ENGINE).SessionStore()  # as the site keeps them
    session["table_grants"] = {str(match.pk): [time.time() + 3600, match.link_generation]}
    session["seats"] = {str(match.pk): match.player_a_id}
    session.create()
    csrf = _get_new_csrf_string()
    job = Job.objects.create(
        kind=Job.Kind.RULES_CHANGE,
        club=club,
        tournament=tournament,
        requested_by=organiser,
        label="Rules change",
        state=Job.State.DONE,
    )
    season = Season.objects.create(
        club=club, name="Winter", slug="winter", starts_on=tournament.date, ends_on=tournament.date
    )
    warning = scoring.record_penalty(
        match_id=match.pk, actor=Actor(user=organiser), seat="B", kind="warning",
        infraction="slow_play", details="slow play",
    )  # fmt: skip
    return World(
        club_slug=club.slug,
        tournament_slug=tournament.slug,
        match_id=match.pk,
        hand_id=hand.pk,
        round_id=rnd.pk,
        pairing_id=pairing.pk,
        registration_id=pairing.player_a_id,
        other_registration_id=pairing.player_b_id,
        job_id=job.pk,
        penalty_id=warning.pk,
        season_slug=season.slug,
        players=(match.player_a_id, match.player_b_id),
        seated_player=seated.pk,
        hand_version=hand.version,
        identities={
            "organiser": {"headers": {"Authorization": f"Token {token.key}"}, "cookies": {}},
            "seated player": {
                "headers": {"X-CSRFToken": csrf},
                "cookies": {
                    django_settings.SESSION_COOKIE_NAME: session.session_key,
                    django_settings.CSRF_COOKIE_NAME: csrf,
                },
            },
        },
    )


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
    ],
)
def test_every_operation(case, world):
    # Real ids and values six times in seven; otherwise what schemathesis made up (a 404
    # path, a club that does not exist...). A counter, not `random`: Hypothesis reseeds
    # `random` identically for its explicit (coverage) examples.
    if next(_turns) % 7:
        if case.path_parameters:
            real = world.ids(case.path)
            case.path_parameters = {
                name: real.get(name, value) for name, value in case.path_parameters.items()
            }
        if isinstance(case.body, dict):
            real = world.body_values(case.path)
            case.body = {name: real.get(name, value) for name, value in case.body.items()}
    operation = f"{case.operation.method.upper()} {case.operation.path}"
    for identity, credentials in world.identities.items():
        with transaction.atomic():
            try:
                response = case.call(
                    app=application,
                    headers=credentials["headers"],
                    cookies=credentials["cookies"],
                )
                SEEN[operation][identity][response.status_code] += 1
                case.validate_response(response, checks=CHECKS, headers=credentials["headers"])
            except Exception as exc:
                exc.add_note(f"as the {identity}")
                raise
            finally:
                transaction.set_rollback(True)  # every case meets the same world


def test_every_operation_of_the_schema_is_fuzzed():
    """schema.parametrize() makes one test per operation of this shard: none is skipped."""
    collected = {
        f"{result.ok().method.upper()} {result.ok().path}" for result in schema.get_all_operations()
    }
    assert collected == OURS
    assert len(_operations_in_the_yaml()) > 40


def test_summary_of_what_the_fuzzing_saw():
    """Runs after the fuzzing (file order): every operation was called, and answered."""
    if not SEEN:
        pytest.skip("the fuzzing was not selected (-k)")
    # Under xdist schemathesis expands only the first operation: make test runs this file
    # in one process of its own, and this catches a run that did not.
    for operation in sorted(SEEN):
        line = "  ".join(
            f"{identity}: {dict(sorted(statuses.items()))}"
            for identity, statuses in SEEN[operation].items()
        )
        print(f"{operation:55} {line}")
    assert set(SEEN) == OURS
