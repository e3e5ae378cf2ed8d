"""Two app servers, one PostgreSQL: the races the thread tests run inside one process,
run across two gunicorn processes on different ports, as a scaled-out venue would.

The servers share nothing but the database, so this holds only if the services' locks
and unique constraints (not anything in a process's memory) keep hands from being lost
or doubled. SQLite is the one-machine default, so the test runs on PostgreSQL only.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from rest_framework.authtoken.models import Token

from ginclub import ledger
from scoring import services
from scoring.models import Entry, Hand
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def two_servers():
    if connection.vendor != "postgresql":
        pytest.skip("scale-out runs against PostgreSQL (SQLite is the one-machine default)")
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        # the ledger's keys this test's process verifies with (tests/conftest.py)
        "DJANGO_LEDGER_DIR": str(settings.LEDGER_DIR),
        "DJANGO_LEDGER_KEYS": settings.LEDGER_KEYS,
    }
    ports = [free_port(), free_port()]
    servers = [
        subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "ginclub.wsgi", "--workers", "2",
             "--bind", f"127.0.0.1:{port}"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]  # fmt: skip
    try:
        for port in ports:
            wait_until_up(port)
        yield [f"http://127.0.0.1:{port}" for port in ports]
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=20)


def wait_until_up(port: int) -> None:
    deadline = time.monotonic() + 30
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
