"""Two app servers, one PostgreSQL: the races the thread tests run inside one process,
run across two gunicorn processes on different ports, as a scaled-out venue would.

The servers share nothing but the database, so this holds only if the services' locks
and unique constraints (not anything in a process's memory) keep hands from being lost
or doubled. SQLite is the one-machine default, so the test runs on PostgreSQL only.

With REDIS_URL set as well (CI's PostgreSQL leg), two more run two servers as on two
machines sharing one Redis: a result entered on one, and a rules change run by one of two
job workers, show in both servers' next polls.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection
from rest_framework.authtoken.models import Token

from benchmarks.front import free_port
from ginclub import ledger
from scoring import services
from scoring.models import Entry, Hand
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[1]


def server_env(**extra: str) -> dict[str, str]:
    """What an app server (or a worker) of this test's deployment runs with."""
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    return {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        # the ledger's keys this test's process verifies with (tests/conftest.py)
        "DJANGO_LEDGER_DIR": str(settings.LEDGER_DIR),
        "DJANGO_LEDGER_KEYS": settings.LEDGER_KEYS,
        **extra,
    }


@contextmanager
def app_servers(envs: list[dict[str, str]]) -> Iterator[list[str]]:
    """One gunicorn (two workers) per environment, each on a port of its own."""
    ports = [free_port() for _ in envs]
    servers = [
        subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "ginclub.wsgi", "--workers", "2",
             "--bind", f"127.0.0.1:{port}"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for port, env in zip(ports, envs, strict=True)
    ]  # fmt: skip
    try:
        for port in ports:
            wait_until_up(port)
        yield [f"http://127.0.0.1:{port}" for port in ports]
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=20)


@pytest.fixture
def two_servers():
    if connection.vendor != "postgresql":
        pytest.skip("scale-out runs against PostgreSQL (SQLite is the one-machine default)")
    env = server_env()
    with app_servers([env, env]) as bases:
        yield bases


def wait_until_up(port: int) -> None:
    deadline = time.monotonic() + 120  # workers load Django slowly on a busy machine
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"no server on port {port}")


@pytest.fixture
def table():
    club = ClubFactory()
    organiser = UserFactory()
    club.organisers.add(organiser)
    alice = PlayerFactory(club=club, name="Alice")
    bob = PlayerFactory(club=club, name="Bob")
    match = services.start_match(
        club=club, player_a=alice, player_b=bob, actor=services.Actor(user=organiser)
    )
    return match, Token.objects.create(user=organiser).key


def post_all(bases: list[str], token: str, path: str, bodies: list[dict]) -> list[tuple]:
    """Every body posted at the same instant, alternating between the servers."""
    barrier = threading.Barrier(len(bodies))
    answers: list[tuple] = [()] * len(bodies)

    def send(i: int) -> None:
        request = urllib.request.Request(
            bases[i % len(bases)] + path,
            data=json.dumps(bodies[i]).encode(),
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        )
        barrier.wait(timeout=30)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                answers[i] = (response.status, json.loads(response.read()))
        except urllib.error.HTTPError as error:
            answers[i] = (error.code, json.loads(error.read()))

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers


HAND = {"game": 1, "number": 1, "outcome": "knock", "knocker": "A", "knocker_deadwood": 4,
        "defender_deadwood": 30}  # fmt: skip


def test_one_hand_sent_from_twenty_phones_across_two_servers_is_recorded_once(two_servers, table):
    match, token = table
    bodies = [{**HAND, "idempotency_key": f"phone-{i}"} for i in range(20)]
    answers = post_all(two_servers, token, f"/api/matches/{match.pk}/hands/", bodies)
    statuses = sorted(status for status, _ in answers)
    assert statuses == [201] + [409] * 19, answers
    assert {body["error"]["code"] for status, body in answers if status == 409} == {"hand_exists"}
    assert Hand.objects.filter(game__match=match).count() == 1
    assert ledger.verify() == []


def test_one_retried_request_across_two_servers_writes_once_and_answers_alike(two_servers, table):
    match, token = table
    bodies = [{**HAND, "idempotency_key": "the-same-key"}] * 20
    answers = post_all(two_servers, token, f"/api/matches/{match.pk}/hands/", bodies)
    assert {status for status, _ in answers} <= {200, 201}, answers
    assert len({json.dumps(body, sort_keys=True) for _, body in answers}) == 1
    assert Entry.objects.filter(match=match, idempotency_key="the-same-key").count() == 1
    assert Hand.objects.filter(game__match=match).count() == 1
    assert ledger.verify() == []


# ----------------------------------------------- the shared cache across app servers
# Two app servers as on two machines: each its own directory for files (so nothing is
# shared through one disk), one Redis and one PostgreSQL between them, and two job
# workers. What one server (or worker) changes must show in the other's next poll: no
# cached copy, in Redis or in a process, outlives what it was made from.


@pytest.fixture(scope="module")
def static_root(tmp_path_factory) -> str:
    """The pages' static files collected, as a deploy does (ginclub.readiness answers
    every page 503 until then)."""
    root = str(tmp_path_factory.mktemp("static"))
    env = {**os.environ, "DJANGO_DEBUG": "0", "DJANGO_STATIC_ROOT": root}
    collected = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert collected.returncode == 0, collected.stderr
    return root


@pytest.fixture
def two_servers_sharing_redis(tmp_path, request):
    if connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"):
        pytest.skip("runs against PostgreSQL and the Redis of REDIS_URL (CI's PostgreSQL leg)")
    static = request.getfixturevalue("static_root")
    prefix = f"test-scale-out-{uuid.uuid4().hex[:8]}"
    machines = [
        server_env(
            DJANGO_CACHE_KEY_PREFIX=prefix,
            DJANGO_SHARED_CACHE_DIR=str(tmp_path / f"machine-{n}" / "cache"),
            JOBS_PROGRESS_DIR=str(tmp_path / f"machine-{n}" / "progress"),
            DJANGO_TASKS_BACKEND="django_tasks_db.DatabaseBackend",
            DJANGO_STATIC_ROOT=static,
        )
        for n in (1, 2)
    ]
    workers = [
        subprocess.Popen(
            [sys.executable, "manage.py", "run_worker", "--no-reload", "--no-startup-delay"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for env in machines
    ]  # fmt: skip
    redis_client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        with app_servers(machines) as bases:
            yield bases, redis_client, prefix
    finally:
        for worker in workers:
            worker.terminate()
            worker.wait(timeout=20)
        for key in redis_client.scan_iter(match=f"{prefix}:*"):
            redis_client.delete(key)


@pytest.fixture
def hall():
    """Four players, round 1 played and closed, round 2 published and in play; the
    organiser's session (cookie) and API token, and a reference browser in this process
    (its caches its own: it renders what the database holds now)."""
    from django.test import Client

    from tests.tournaments.helpers import new_event, play_round

    club = ClubFactory()
    organiser = UserFactory()
    club.organisers.add(organiser)
    event = new_event(club, organiser, players=4, rounds=3)
    play_round(event, organiser)
    rnd = play_round(event, organiser, play=False, close=False)
    reference = Client()
    reference.force_login(organiser)
    slug = event.slug
    return {
        "event": event,
        "round": rnd,
        "session": reference.cookies["sessionid"].value,
        "token": Token.objects.create(user=organiser).key,
        "reference": reference,
        "polls": {
            "dashboard": f"/tournaments/{slug}/manage/dashboard/tables/?round={rnd.number}",
            "projector": f"/tournaments/{slug}/projector/board/",
            "standings": f"/tournaments/{slug}/standings-table/",
        },
    }


def poll(base: str, path: str, session: str, etag: str = "") -> tuple[int, str, str]:
    """(status, body, ETag) of one poll by the organiser's browser."""
    headers = {"Cookie": f"sessionid={session}"}
    if etag:
        headers["If-None-Match"] = etag
    request = urllib.request.Request(base + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read().decode(), response.headers.get("ETag", "")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), error.headers.get("ETag", "")


def api(base: str, token: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def tbodies(html: str) -> list[str]:
    """The tables' bodies as text (pairings and games, standings and their figures):
    what a result or a rules change moves, without the clock."""
    return [text(body) for body in re.findall(r"<tbody>(.*?)</tbody>", html, re.S)]


def table_row(html: str, table: int) -> str:
    found = re.search(rf'data-testid="table-{table}">(.*?)</li>', html, re.S)
    assert found, html
    return text(found.group(1))


def test_a_result_entered_on_one_server_shows_on_the_others_next_polls(
    two_servers_sharing_redis, hall
):
    bases, redis_client, prefix = two_servers_sharing_redis
    session, polls = hall["session"], hall["polls"]
    # Both servers answer every poll once (their caches, and Redis, now hold round 2 as it
    # stands), and a repeated poll is a 304 on either: the browser's copy is current.
    seen = {}
    for base in bases:
        for kind, path in polls.items():
            status, body, etag = poll(base, path, session)
            assert status == 200 and etag, (kind, status)
            seen[base, kind] = (body, etag)
    for base in bases:
        for kind, path in polls.items():
            assert poll(base, path, session, seen[base, kind][1])[0] == 304, kind
    # Both servers' entries are in the one Redis, under the deployment's prefix.
    keys = [key.decode() for key in redis_client.scan_iter(match=f"{prefix}:shared:*")]
    assert any("standings-rows:" in key for key in keys), keys
    assert any("dashboard-rows:" in key for key in keys), keys
    assert any("template.cache.standings-table" in key for key in keys), keys

    pairing = hall["round"].pairings.select_related("player_a__player").get(table=1)
    winner = pairing.player_a.player.name
    body = {"winner": "A", "reason": "score sheet", "games_a": 2, "games_b": 0}
    status, answer = api(bases[0], hall["token"], f"/api/pairings/{pairing.pk}/result/", body)
    assert status == 200, answer

    # The other server's next poll of each, from a browser holding the old copy.
    other = bases[1]
    for kind, path in polls.items():
        status, html, _ = poll(other, path, session, seen[other, kind][1])
        assert status == 200, kind
        now = hall["reference"].get(path).content.decode()
        if kind == "dashboard":
            assert table_row(html, 1) == table_row(now, 1)
            assert f"{winner} wins by the organiser's result" in table_row(html, 1)
            assert "games 2–0" in table_row(html, 1)
        else:
            assert tbodies(html) == tbodies(now), kind
            assert tbodies(html) != tbodies(seen[other, kind][0]), kind
    # and the server that entered it shows the same
    for kind, path in polls.items():
        status, html, _ = poll(bases[0], path, session, seen[bases[0], kind][1])
        assert status == 200 and tbodies(html) == tbodies(poll(other, path, session)[1]), kind


def test_a_rules_change_run_by_one_of_two_workers_moves_both_servers(
    two_servers_sharing_redis, hall
):
    """Round 1's shutouts are worth less without the box bonus: the points column of the
    standings moves on both servers once a worker has run the change."""
    bases, _, _ = two_servers_sharing_redis
    session, polls = hall["session"], hall["polls"]
    standings = {"standings": polls["standings"], "projector": polls["projector"]}
    seen = {(b, k): poll(b, p, session) for b in bases for k, p in standings.items()}
    slug = hall["event"].slug
    change = {
        "profile": "tournament",
        "overrides": {"game_target": 25, "games_to_win": 2, "box_bonus": 10},
        "reason": "club vote",
    }
    status, job = api(bases[1], hall["token"], f"/api/tournaments/{slug}/rules/apply/", change)
    assert status == 202, job
    deadline = time.monotonic() + 120  # a worker looks every second; the machine is busy
    while job["state"] not in ("done", "failed") and time.monotonic() < deadline:
        time.sleep(0.2)
        job = api(bases[0], hall["token"], f"/api/jobs/{job['id']}/")[1]
    assert job["state"] == "done", job

    for base in bases:
        for kind, path in standings.items():
            before, etag = seen[base, kind][1], seen[base, kind][2]
            status, html, _ = poll(base, path, session, etag)
            assert status == 200, (base, kind)
            now = hall["reference"].get(path).content.decode()
            assert tbodies(html) == tbodies(now), (base, kind)
            assert tbodies(html) != tbodies(before), (base, kind)
