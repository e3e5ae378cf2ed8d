"""The login form refuses before hashing (per address, per username, per trusted
device, counted atomically), runs a bounded number of password checks at once, and a
browser that logged in before still logs in while its venue's address is limited."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
from pathlib import Path
from unittest import mock

import pytest
from django.apps import apps
from django.contrib.auth.hashers import MD5PasswordHasher
from django.db import connection, connections
from django.test import Client

from ginclub import login_limits
from ginclub.errors import Throttled
from tests.factories import UserFactory
from tests.threads import run_together

ROOT = Path(__file__).resolve().parents[2]
VENUE = "198.51.100.7"
GOOD = "correct-horse-battery"


@pytest.fixture
def hashes(monkeypatch, organiser):
    """Every password hash computed (the suite's hasher), known user or not."""
    calls: list[str] = []
    encode = MD5PasswordHasher.encode

    def counting(self, password, salt):
        calls.append(password)
        return encode(self, password, salt)

    monkeypatch.setattr(MD5PasswordHasher, "encode", counting)
    return calls


def login(client, username, password=GOOD, ip=VENUE):
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def trusted_phone(username="organiser"):
    """A browser that logged in as `username` and out again, keeping its trust cookie."""
    phone = Client()
    assert login(phone, username).status_code == 302
    trust = phone.cookies[login_limits.TRUST_COOKIE].value
    phone.logout()  # which forgets every cookie
    phone.cookies[login_limits.TRUST_COOKIE] = trust
    return phone


def login_and_close(username):
    """A wrong login from a thread of its own, which then closes its connection."""
    try:
        login(Client(), username, "x")
    finally:
        connections.close_all()


def refused_code(response):
    return response.status_code, response.content.split(b'data-code="')[1].split(b'"')[0]


@pytest.fixture
def organiser(db):
    return UserFactory(username="organiser")


@pytest.mark.django_db
def test_an_address_guessing_new_names_is_refused_before_any_password_is_hashed(
    client, hashes, organiser
):
    for n in range(login_limits.ADDRESS_LIMIT):
        assert login(client, f"guess{n}", "x").status_code == 200
    assert len(hashes) == login_limits.ADDRESS_LIMIT
    refused = login(client, "guess-more", "x")
    assert refused_code(refused) == (429, b"login_throttled")
    assert b"wait a minute" in refused.content
    assert refused["Retry-After"] == str(login_limits.LOGIN_WINDOW)
    assert len(hashes) == login_limits.ADDRESS_LIMIT  # refused before hashing
    assert login(Client(), "organiser", ip="203.0.113.9").status_code == 302  # elsewhere


@pytest.mark.django_db
def test_a_username_guessed_from_many_addresses_is_refused_before_hashing(hashes, organiser):
    for n in range(login_limits.USERNAME_LIMIT):
        login(Client(), "organiser", "wrong", ip=f"203.0.113.{n}")
    before = len(hashes)
    refused = login(Client(), "Organiser", "wrong", ip="203.0.113.200")
    assert refused_code(refused) == (429, b"login_throttled")
    assert len(hashes) == before


@pytest.mark.django_db
def test_a_good_login_is_not_counted_against_the_address(organiser):
    for _ in range(login_limits.ADDRESS_LIMIT + 5):
        assert login(Client(), "organiser").status_code == 302


@pytest.mark.django_db(transaction=True)
def test_sixty_wrong_logins_at_once_from_one_address_hash_exactly_the_limit(hashes, settings):
    settings.LOGIN_SLOT_WAIT = 60  # all wait their turn: the count alone decides
    hashes.clear()
    results = run_together(12, lambda i: [login(Client(), f"g{i}-{n}", "x") for n in range(5)])
    statuses = sorted(r.status_code for batch in results for r in batch)
    assert statuses.count(200) == login_limits.ADDRESS_LIMIT
    assert statuses.count(429) == 60 - login_limits.ADDRESS_LIMIT
    assert len(hashes) == login_limits.ADDRESS_LIMIT


@pytest.mark.django_db
def test_a_trusted_device_logs_in_while_its_address_and_name_are_limited(organiser, hashes):
    phone = trusted_phone()
    for n in range(login_limits.ADDRESS_LIMIT):
        login(Client(), f"guess{n}", "x")
    for n in range(login_limits.USERNAME_LIMIT):
        login(Client(), "organiser", "wrong", ip=f"203.0.113.{n % 4}")  # and axes' lock
    assert refused_code(login(Client(), "organiser"))[0] == 429  # a stranger's browser
    response = login(phone, "organiser")
    assert response.status_code == 302 and "_auth_user_id" in phone.session


@pytest.mark.django_db
def test_a_trusted_device_survives_axes_lock_on_its_name_and_address(organiser):
    phone = trusted_phone()
    for _ in range(6):  # django-axes locks (organiser, venue) after 5
        login(Client(), "organiser", "wrong")
    assert login(Client(), "organiser").status_code != 302
    assert login(phone, "organiser").status_code == 302


@pytest.mark.django_db
def test_axes_lock_is_a_refusal_that_says_when_to_try_again(organiser, settings):
    """Every 429 carries Retry-After: axes' lock of a name on an address too, in the
    site's words (its own answer was bare English text without one)."""
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(Client(), "organiser", "wrong")
    locked = login(Client(), "organiser")
    assert refused_code(locked) == (429, b"login_locked")
    assert locked["Retry-After"] == str(int(settings.AXES_COOLOFF_TIME * 3600)) == "900"
    assert b"try again in 15 minutes" in locked.content
    italian = Client(HTTP_ACCEPT_LANGUAGE="it")
    locked = login(italian, "organiser")
    assert refused_code(locked) == (429, b"login_locked")
    assert b"Troppe password sbagliate per questo nome da questa rete; riprova tra 15 minuti" in (
        locked.content
    )
    assert locked["Retry-After"] == "900"


@pytest.mark.django_db
def test_a_trusted_device_has_a_small_limit_of_its_own(organiser, hashes):
    phone = trusted_phone()
    for _ in range(login_limits.DEVICE_LIMIT):
        assert login(phone, "organiser", "wrong").status_code == 200
    before = len(hashes)
    assert refused_code(login(phone, "organiser", "wrong")) == (429, b"login_throttled")
    assert len(hashes) == before


@pytest.mark.django_db
def test_the_trust_cookie_counts_only_for_the_name_it_was_given_to(organiser, hashes):
    UserFactory(username="treasurer")
    phone = trusted_phone()
    for n in range(login_limits.USERNAME_LIMIT):  # both names at their limit
        login(Client(), "organiser", "wrong", ip=f"203.0.113.{n}")
        login(Client(), "treasurer", "wrong", ip=f"203.0.114.{n}")
    assert refused_code(login(phone, "treasurer")) == (429, b"login_throttled")
    phone.cookies[login_limits.TRUST_COOKIE] = "forged:value"
    assert refused_code(login(phone, "organiser")) == (429, b"login_throttled")


@pytest.mark.django_db(transaction=True)
def test_password_checks_run_one_at_a_time_and_none_queues_past_the_wait(settings):
    """Two logins held inside their password check: with one slot, the second waits for
    the first; with no wait left, a third is told the server is busy, unhashed."""
    UserFactory(username="organiser")
    settings.LOGIN_CHECK_SLOTS = 1
    settings.LOGIN_SLOT_WAIT = 60  # generous: the test releases the first itself
    inside = threading.Semaphore(0)
    release = threading.Event()
    running, most = [0], [0]
    lock = threading.Lock()
    encode = MD5PasswordHasher.encode

    def held(self, password, salt):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        inside.release()
        assert release.wait(timeout=60)
        with lock:
            running[0] -= 1
        return encode(self, password, salt)

    with mock.patch.object(MD5PasswordHasher, "encode", held):
        first = threading.Thread(target=login_and_close, args=("guess1",))
        second = threading.Thread(target=login_and_close, args=("guess2",))
        first.start()
        assert inside.acquire(timeout=60)  # the first holds the only slot
        second.start()  # waits for it, never hashing meanwhile
        settings.LOGIN_SLOT_WAIT = 0
        busy = login(Client(), "guess3", "x")
        assert refused_code(busy) == (503, b"login_busy")
        assert b"busy checking other logins" in busy.content
        assert running[0] == 1
        release.set()
        first.join(timeout=60)
        second.join(timeout=60)
    assert most[0] == 1 and running[0] == 0


@pytest.mark.django_db
def test_a_flood_of_made_up_names_from_the_venue_leaves_the_organiser_a_way_in(organiser, hashes):
    """Issue 24: the venue's address spent on made-up names; the organiser, on a browser
    that never logged in (no trust cookie), still has their password checked."""
    stranger = Client()
    for n in range(login_limits.ADDRESS_LIMIT):
        login(stranger, f"made-up-{n}", "x")
    assert refused_code(login(stranger, "made-up-more", "x")) == (429, b"login_throttled")
    browser = Client()
    assert login(browser, "organiser").status_code == 302
    assert "_auth_user_id" in browser.session


@pytest.mark.django_db
def test_wrong_passwords_for_real_names_from_one_address_have_a_budget_of_their_own(
    hashes, monkeypatch
):
    """Real names from one address: a budget apart from the made-up names', so neither
    kind of flood spends the other's, and guessing real names stays bounded."""
    monkeypatch.setattr(login_limits, "ADDRESS_KNOWN_LIMIT", 4)
    for name in ("ada", "bea", "cy", "dee", "eve"):
        UserFactory(username=name)
    for name in ("ada", "bea", "cy", "dee"):
        assert login(Client(), name, "wrong").status_code == 200
    before = len(hashes)
    assert refused_code(login(Client(), "eve", "wrong")) == (429, b"login_throttled")
    assert refused_code(login(Client(), "eve", GOOD)) == (429, b"login_throttled")
    assert len(hashes) == before  # refused before hashing
    assert login(Client(), "made-up", "x").status_code == 200  # the other budget


@pytest.mark.django_db
def test_a_made_up_name_costs_a_hash_like_a_real_one_within_the_limits(organiser, hashes):
    """No name is refused sooner or more cheaply for not existing, until its address has
    spent its budget: the time a refusal takes does not tell which names are real."""
    login(Client(), "organiser", "wrong")
    login(Client(), "nobody-by-this-name", "wrong")
    assert hashes == ["wrong", "wrong"]


@pytest.mark.django_db
def test_an_address_limit_slides_with_the_clock_instead_of_resetting_each_minute(
    login_clock, hashes
):
    stranger = Client()
    for n in range(login_limits.ADDRESS_LIMIT):
        login(stranger, f"guess{n}", "x")
    login_clock.now += login_limits.LOGIN_WINDOW  # the next minute's first second
    assert refused_code(login(stranger, "guess-on", "x"))[0] == 429
    login_clock.now += login_limits.LOGIN_WINDOW / 2  # half of those are a minute old
    for n in range(login_limits.ADDRESS_LIMIT // 2):
        assert login(stranger, f"later{n}", "x").status_code == 200
    assert refused_code(login(stranger, "later-more", "x"))[0] == 429
    login_clock.now += 2 * login_limits.LOGIN_WINDOW
    assert login(stranger, "much-later", "x").status_code == 200


@pytest.mark.django_db
def test_counts_no_limit_reads_any_more_are_pruned_as_logins_arrive(login_clock):
    counts = apps.get_model(login_limits.COUNT_MODEL)
    login(Client(), "guess", "x")
    assert counts.objects.count() == 3  # the address, its share of the name, the name
    login_clock.now += login_limits.LOGIN_WINDOW
    login(Client(), "guess", "x")
    assert counts.objects.count() == 6  # the last minute still counts, in part
    login_clock.now += login_limits.LOGIN_WINDOW
    login(Client(), "guess", "x")
    assert counts.objects.count() == 6


@pytest.mark.django_db(transaction=True)
def test_two_app_servers_count_the_same_attempts(organiser, login_clock):
    """The counters are shared by every process on the database, as by several app
    servers: attempts admitted in another process count against this one's address."""
    db = connection.settings_dict
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "ginclub.settings"}
    if connection.vendor == "postgresql":
        env["DATABASE_URL"] = (
            f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        )
    else:
        env.pop("DATABASE_URL", None)
        env["SQLITE_PATH"] = str(db["NAME"])
    script = (
        "import django; django.setup()\n"
        "from ginclub import login_limits\n"
        f"login_limits.clock = lambda: {login_clock.now!r}\n"
        f"for n in range({login_limits.ADDRESS_LIMIT}):\n"
        f"    login_limits.admit(username=f'other-{{n}}', ip={VENUE!r})\n"
    )
    other = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert other.returncode == 0, other.stderr
    with pytest.raises(Throttled):
        login_limits.admit(username="guess", ip=VENUE)
    login_limits.admit(username="guess", ip="203.0.113.9")  # another address is not held


@pytest.fixture
def every_slot_taken(settings):
    """Another login holds the one check slot (as a flood's would)."""
    settings.LOGIN_CHECK_SLOTS = 1
    held = login_limits._slot_files()
    for handle in held:
        assert login_limits._take(handle)
    yield
    for handle in held:
        handle.close()


def wsgi_call(gate, method="POST", path="/accounts/login/", **extra):
    answer = {}

    def start_response(status, headers):
        answer["status"], answer["headers"] = status, dict(headers)

    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.url_scheme": "http",
        **extra,
    }
    body = b"".join(gate(environ, start_response))
    return answer.get("status"), answer.get("headers", {}), body


def django_app(environ, start_response):
    start_response("200 OK", [])
    return [b"django"]


@pytest.mark.django_db
def test_a_login_sent_while_every_slot_is_taken_is_refused_before_django(every_slot_taken):
    status, headers, body = wsgi_call(login_limits.BusyGate(django_app))
    assert status.startswith("503")
    assert headers["Retry-After"] == str(login_limits.BUSY_RETRY_AFTER)
    assert b'data-code="login_busy"' in body and b"busy checking other logins" in body
    assert b'href="/accounts/login/"' in body
    italian = wsgi_call(login_limits.BusyGate(django_app), HTTP_ACCEPT_LANGUAGE="it")[2]
    assert b'lang="it"' in italian and b"busy checking" not in italian


@pytest.mark.django_db
def test_the_busy_gate_lets_through_what_is_not_a_login_sent_while_busy(every_slot_taken, settings):
    gate = login_limits.BusyGate(django_app)
    assert wsgi_call(gate, method="GET")[2] == b"django"  # the form itself
    assert wsgi_call(gate, path="/api/matches/")[2] == b"django"
    settings.LOGIN_SLOT_WAIT = 5  # logins may wait for a slot: the view decides
    assert wsgi_call(gate)[2] == b"django"


@pytest.mark.django_db
def test_a_login_sent_while_a_slot_is_free_reaches_django():
    assert wsgi_call(login_limits.BusyGate(django_app))[2] == b"django"


@pytest.mark.django_db
def test_a_busy_login_is_refused_without_counting_or_writing(every_slot_taken, hashes):
    counts = apps.get_model(login_limits.COUNT_MODEL)
    busy = login(Client(), "organiser")
    assert refused_code(busy) == (503, b"login_busy")
    assert busy["Retry-After"] == str(login_limits.BUSY_RETRY_AFTER)  # as the gate says
    assert b"<h1>Back in a moment</h1>" in busy.content  # and under the gate's heading
    assert counts.objects.count() == 0 and hashes == []


def test_the_app_servers_answer_through_the_busy_gate():
    from ginclub import wsgi

    assert isinstance(wsgi.application, login_limits.BusyGate)


def trust_cookie(username="organiser") -> str:
    """The trust cookie a good login as `username` leaves (made here: while every slot is
    taken, logging in for it would be refused)."""
    return login_limits.trust_token(UserFactory.build(username=username))


@pytest.mark.django_db
def test_a_trusted_device_logs_in_while_a_flood_holds_every_check_slot(
    every_slot_taken, organiser, hashes
):
    phone = Client()
    phone.cookies[login_limits.TRUST_COOKIE] = trust_cookie()
    stranger = login(Client(), "organiser", "a-guess")
    assert refused_code(stranger) == (503, b"login_busy")
    response = login(phone, "organiser")
    assert response.status_code == 302 and "_auth_user_id" in phone.session
    assert "a-guess" not in hashes and GOOD in hashes


@pytest.mark.django_db
def test_a_trust_cookie_for_another_name_asks_for_the_floods_slots(every_slot_taken, organiser):
    phone = Client()
    phone.cookies[login_limits.TRUST_COOKIE] = trust_cookie("someone-else")
    assert refused_code(login(phone, "organiser")) == (503, b"login_busy")


@pytest.mark.django_db
def test_trusted_devices_check_one_password_at_a_time_on_their_own_slot(organiser, hashes):
    held = login_limits._slot_files(trusted=True)
    assert login_limits._take(held[0])
    try:
        phone = Client()
        phone.cookies[login_limits.TRUST_COOKIE] = trust_cookie()
        assert refused_code(login(phone, "organiser")) == (503, b"login_busy")
        assert login(Client(), "organiser").status_code == 302  # the other slots are free
    finally:
        held[0].close()


@pytest.mark.django_db
def test_the_busy_gate_lets_a_signed_trust_cookie_through_and_refuses_a_forged_one(
    every_slot_taken,
):
    gate = login_limits.BusyGate(django_app)
    signed = f"{login_limits.TRUST_COOKIE}={trust_cookie()}"
    assert wsgi_call(gate, HTTP_COOKIE=f"csrftoken=x; {signed}")[2] == b"django"
    forged = f"{login_limits.TRUST_COOKIE}=signed-by-nobody"
    assert wsgi_call(gate, HTTP_COOKIE=forged)[0].startswith("503")
