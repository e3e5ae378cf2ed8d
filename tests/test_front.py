"""The front proxy the project ships (deploy/nginx.conf), run as written before the app
(benchmarks/front.py moves only its files and ports): login forms beyond its limits are
answered by nginx, in the app's own words, while the form's page and everything else
pass through (issue 24: a flood of logins must not queue ahead of the phones).

A login form is held open by sending its head with `Expect: 100-continue` and no body:
nginx answers "100 Continue" only once it has counted the request against its limits and
is reading the body for the app, so the test knows it is counted without waiting on a
clock. Every address is a loopback one (127.0.0.2 and up are this machine's too).
"""

from __future__ import annotations

import http.server
import re
import socket
import threading
import time
import urllib.request

import pytest
from django.utils import translation

from benchmarks.front import CONF, free_port, nginx, running
from ginclub import login_limits

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(nginx() is None, reason="nginx is not installed (.ci/run installs it)"),
]


def limit(zone: str) -> int:
    """The number of login forms deploy/nginx.conf lets through at once under `zone`."""
    return int(re.search(rf"^\s*limit_conn {zone} (\d+);", CONF.read_text(), re.M).group(1))


def rate() -> tuple[int, int]:
    """The login forms a second deploy/nginx.conf lets through in all, and its burst."""
    text = CONF.read_text()
    per_second = re.search(r"zone=login_rate:\S+ rate=(\d+)r/s;", text).group(1)
    burst = re.search(r"^\s*limit_req zone=login_rate burst=(\d+) nodelay;", text, re.M)
    return int(per_second), int(burst.group(1))


PER_ADDRESS, IN_ALL = limit("login_address"), limit("logins")
PER_SECOND, BURST = rate()
ADDRESSES = [f"127.0.0.{n}" for n in range(2, 30)]


@pytest.fixture
def front(live_server, tmp_path):
    upstream = live_server.url.removeprefix("http://")
    with running(upstream, free_port(), tmp_path / "front") as url:
        yield int(url.rsplit(":", 1)[1])


def send(port: int, head: str, source: str, body: bytes = b"") -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", port), 30, source_address=(source, 0))
    connection.sendall(head.encode() + b"\r\n" + body)
    return connection


def login_head(length: int, *extra: str, host: str = "127.0.0.1") -> str:
    lines = [
        "POST /accounts/login/ HTTP/1.1",
        f"Host: {host}",
        "Content-Type: application/x-www-form-urlencoded",
        f"Content-Length: {length}",
        *extra,
    ]
    return "".join(line + "\r\n" for line in lines)


def held_login(port: int, source: str) -> socket.socket:
    """A login form nginx has counted and is waiting for the body of."""
    connection = send(port, login_head(10, "Expect: 100-continue"), source)
    assert connection.recv(100).startswith(b"HTTP/1.1 100 Continue"), "nginx did not count it"
    return connection


def held_logins(port: int, count: int) -> list[socket.socket]:
    """`count` login forms held open, as many from each address as it may send."""
    return [held_login(port, ADDRESSES[n // PER_ADDRESS]) for n in range(count)]


def answer(connection: socket.socket) -> tuple[int, dict[str, str], str]:
    data = b""
    while chunk := connection.recv(65536):
        data += chunk
    connection.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode().split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (h.partition(":") for h in header_lines)}
    return int(status_line.split()[1]), headers, body.decode()


def login(port: int, source: str, *extra: str) -> tuple[int, dict[str, str], str]:
    """A whole login form (no CSRF token: the app refuses it 403, nginx's refusal is 503)."""
    body = b"username=x&password=y"
    return answer(send(port, login_head(len(body), "Connection: close", *extra), source, body))


def the_apps_words(language: str) -> tuple[str, str]:
    with translation.override(language):
        return translation.gettext("Back in a moment"), login_limits._busy().message


def test_everything_but_a_login_form_passes_through(front):
    with urllib.request.urlopen(f"http://127.0.0.1:{front}/healthz", timeout=30) as response:
        assert response.status == 200
    held = held_logins(front, PER_ADDRESS)  # as many as 127.0.0.2 may send
    page = answer(send(front, "GET /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                       "Connection: close\r\n", "127.0.0.2"))  # fmt: skip
    assert page[0] == 200 and 'name="password"' in page[2]
    for connection in held:
        connection.close()


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_login_form_beyond_its_addresss_limit_is_refused_in_the_apps_words(front, language):
    held = held_logins(front, PER_ADDRESS)

    status, headers, body = login(front, "127.0.0.2", f"Accept-Language: {language}")

    assert status == 503 and headers["retry-after"] == "2", (status, headers)
    assert headers["content-type"] == "text/html; charset=utf-8"
    title, message = the_apps_words(language)
    assert f'lang="{language}"' in body and 'data-code="login_busy"' in body
    assert title in body and message in body
    stylesheet = re.search(r'<link rel="stylesheet" href="([^"]+)">', body).group(1)
    with urllib.request.urlopen(f"http://127.0.0.1:{front}{stylesheet}", timeout=30) as css:
        assert css.status == 200 and css.headers["Content-Type"].startswith("text/css")
    assert login(front, "127.0.0.3")[0] == 403  # another address: the app's own answer
    for connection in held:
        connection.close()


def test_the_language_cookie_chooses_before_the_browser(front):
    held = held_logins(front, PER_ADDRESS)
    status, _headers, body = login(
        front, "127.0.0.2", "Accept-Language: en", "Cookie: django_language=it"
    )
    assert status == 503 and the_apps_words("it")[1] in body
    for connection in held:
        connection.close()


def test_a_browser_that_logged_in_before_is_not_held_by_its_address(front):
    held = held_logins(front, PER_ADDRESS)
    # The app judges the cookie (and would refuse a forged one); nginx only lets it by.
    assert login(front, "127.0.0.2", "Cookie: ginclub_device=signed-by-the-app")[0] == 403
    for connection in held:
        connection.close()


def test_a_browser_that_logged_in_before_is_not_held_by_the_forms_in_flight(front):
    held = held_logins(front, IN_ALL)
    other = ADDRESSES[IN_ALL]  # an address that sent none
    assert login(front, other)[0] == 503
    assert login(front, other, "Cookie: ginclub_device=signed-by-the-app")[0] == 403
    for connection in held:
        connection.close()


def test_no_more_login_forms_than_the_limit_reach_the_app_at_once(front):
    # fewer than the 3 workers docs/operations.md starts gunicorn with: a poll finds one
    assert PER_ADDRESS < IN_ALL < 3
    held = held_logins(front, IN_ALL)
    other = ADDRESSES[IN_ALL]  # an address that sent none

    assert login(front, other)[0] == 503

    held.pop().close()
    deadline = time.monotonic() + 60  # nginx frees the slot once it sees the close
    while (status := login(front, other)[0]) == 503 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert status == 403
    for connection in held:
        connection.close()


def test_a_form_sent_through_a_front_on_another_port_passes_the_apps_origin_check(front):
    # The browser's Host names the front's port, and so does its Origin: the app compares
    # the two, so the front must pass the Host on as it came, port included.
    host = f"127.0.0.1:{front}"
    page = answer(send(front, f"GET /accounts/login/ HTTP/1.1\r\nHost: {host}\r\n"
                       "Connection: close\r\n", "127.0.0.2"))  # fmt: skip
    cookie = re.search(r"csrftoken=([^;]+)", page[1]["set-cookie"]).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page[2]).group(1)
    body = f"csrfmiddlewaretoken={token}&username=nobody&password=wrong".encode()
    head = login_head(
        len(body), f"Origin: http://{host}", f"Cookie: csrftoken={cookie}", "Connection: close",
        host=host,
    )  # fmt: skip

    status, _headers, text = answer(send(front, head, "127.0.0.2", body))

    assert status == 200 and 'name="password"' in text, status  # refused by the app, not 403


def test_login_forms_one_after_another_pass_at_the_rate_and_no_faster(front):
    # Each form waits for the one before (the counts at once never hold one back), from
    # a new address each time: only the rate in all can refuse them. However long they
    # take on this machine, no more pass than the burst and the rate over that time.
    sent = 3 * (BURST + 1)
    started = time.monotonic()
    answers = [login(front, ADDRESSES[n % len(ADDRESSES)]) for n in range(sent)]
    elapsed = time.monotonic() - started

    passed = [status for status, _headers, _body in answers if status == 403]
    refused = [(status, body) for status, _headers, body in answers if status != 403]
    assert len(passed) <= BURST + 2 + PER_SECOND * elapsed, (len(passed), elapsed)
    assert all(s == 503 and 'data-code="login_busy"' in body for s, body in refused)
    assert passed, "the first forms pass"
    # A browser that logged in before is not counted: it reaches the app at once.
    assert login(front, "127.0.0.2", "Cookie: ginclub_device=signed-by-the-app")[0] == 403


class _LoginServer(http.server.BaseHTTPRequestHandler):
    """Stands for the login server: answers every request 418, so the test knows who did."""

    def do_POST(self):  # noqa: N802 (http.server's name)
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(418)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def login_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _LoginServer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_login_forms_go_to_the_login_server_and_nothing_else_does(
    live_server, login_server, tmp_path
):
    upstream = live_server.url.removeprefix("http://")
    with running(upstream, free_port(), tmp_path / "front", logins=login_server) as url:
        port = int(url.rsplit(":", 1)[1])
        assert login(port, "127.0.0.2")[0] == 418
        with urllib.request.urlopen(f"{url}/healthz", timeout=30) as response:
            assert response.status == 200


def test_without_a_login_server_the_app_servers_take_the_login_forms(live_server, tmp_path):
    upstream = live_server.url.removeprefix("http://")
    nobody = f"127.0.0.1:{free_port()}"  # the login server not running
    with running(upstream, free_port(), tmp_path / "front", logins=nobody) as url:
        port = int(url.rsplit(":", 1)[1])
        assert login(port, "127.0.0.2")[0] == 403  # the app's answer (no CSRF token)
