"""A busy hall for locust (run by benchmarks/bench_hall.py, which builds the hall and
passes its description in HALL_PLAN).

Two phones a table: each opens the table link and the match page, seats itself with
its player's PIN and polls the scoreboard every 5 s with If-None-Match, as the browser
does. Seat A enters a hand every 60-120 s (the first at a random moment of the first
90 s); seat B confirms what A entered as soon as its scoreboard shows it. One organiser
polls the dashboard every 10 s, one projector its board every 15 s. Cookies are carried
by hand: with debug off they are Secure and the hall is plain HTTP on 127.0.0.1.

The phones are locust's FastHttpUser (geventhttpclient): the load generator shares the
two cores with the server it measures, and this client needs a fraction of the CPU of
the `requests`-based HttpUser for the same requests, so less of the server's time goes
to the benchmark itself.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import time
import uuid
from http.cookies import SimpleCookie
from urllib.parse import urlencode

from locust import FastHttpUser, constant, events, task

PLAN = json.loads(open(os.environ["HALL_PLAN"]).read())
_phones = itertools.count()
COUNTS = {"submits": 0, "confirms": 0, "polls_304": 0, "polls_200": 0, "refused": 0}
COUNTS["seat_ms_max"] = 0.0
# Submits the server answered 200, and those it never answered (the client gave up, or
# the load stopped while they were in flight): the server may still have stored these.
# The check matches both against the idempotency keys in the database.
COUNTS["submit_keys"] = []
COUNTS["unanswered_keys"] = []
IN_FLIGHT: set[str] = set()

CONFIRM = re.compile(
    r'action="([^"]*/hands/(\d+)/confirm/)"[^>]*>.*?name="version" value="(\d+)"', re.S
)
NEXT = re.compile(r'data-game="(\d+)" data-next-hand="(\d+)"')


class Browser(FastHttpUser):
    abstract = True

    def on_start(self) -> None:
        self.jar: dict[str, str] = {}
        self.etags: dict[str, str] = {}
        self.bodies: dict[str, str] = {}

    def _headers(self, extra=None) -> dict[str, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.jar.items())}
        if "csrftoken" in self.jar:
            headers["X-CSRFToken"] = self.jar["csrftoken"]
        return {**headers, **(extra or {})}

    def _keep(self, response) -> None:
        for header in response.headers.getheaders("set-cookie"):
            for name, morsel in SimpleCookie(header).items():
                self.jar[name] = morsel.value

    def get(self, url: str, name: str):
        response = self.client.get(url, headers=self._headers(), name=name, allow_redirects=False)
        self._keep(response)
        return response

    def post(self, url: str, data: dict, name: str):
        headers = self._headers(
            {"HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded"}
        )
        response = self.client.post(
            url, data=urlencode(data), headers=headers, name=name, allow_redirects=False
        )
        self._keep(response)
        return response

    def poll(self, url: str, name: str) -> str:
        """GET with If-None-Match; the body the browser would show (cached on a 304)."""
        extra = {"HX-Request": "true"}
        if url in self.etags:
            extra["If-None-Match"] = self.etags[url]
        response = self.client.get(url, headers=self._headers(extra), name=name)
        self._keep(response)
        if response.status_code == 304:
            COUNTS["polls_304"] += 1
        elif response.status_code == 200:
            COUNTS["polls_200"] += 1
            self.etags[url] = response.headers.get("ETag", "")
            self.bodies[url] = response.text
        return self.bodies.get(url, "")


class Phone(Browser):
    wait_time = constant(5)

    def on_start(self) -> None:
        super().on_start()
        n = next(_phones)
        self.table = PLAN["tables"][(n // 2) % len(PLAN["tables"])]
        self.seat = "A" if n % 2 == 0 else "B"
        self.get(self.table["link"], "table link")
        self.get(self.table["match"], "match page")
        response = self.post(
            self.table["seat"],
            {"player": self.table["player_" + self.seat.lower()], "pin": PLAN["pin"]},
            "seat",
        )
        seat_ms = response.elapsed.total_seconds() * 1000
        COUNTS["seat_ms_max"] = max(COUNTS["seat_ms_max"], seat_ms)
        self.next_submit = time.monotonic() + random.uniform(5, 90)

    @task
    def play(self) -> None:
        board = self.poll(self.table["scoreboard"], "poll scoreboard")
        if self.seat == "A" and time.monotonic() >= self.next_submit:
            self.submit(board)
        elif self.seat == "B":
            self.confirm(board)

    def submit(self, board: str) -> None:
        found = NEXT.search(board)
        if "highlight-pending" in board or "wins the match" in board:
            return  # the last hand still waits for the opponent, or the match is over
        game, number = found.groups() if found else ("1", "1")
        key = uuid.uuid4().hex
        data = {
            "game": game,
            "number": number,
            "idempotency_key": key,
            "mode": "quick",
            "outcome": "knock",
            "knocker": random.choice("AB"),
            "knocker_deadwood": random.randint(0, 10),
            "defender_deadwood": random.randint(11, 40),
        }
        IN_FLIGHT.add(key)
        response = self.post(self.table["submit"], data, "submit")
        IN_FLIGHT.discard(key)
        if response.status_code == 200:
            COUNTS["submits"] += 1
            COUNTS["submit_keys"].append(key)
            self.next_submit = time.monotonic() + random.uniform(60, 120)
        elif not response.status_code:  # no answer: a timeout or a dropped connection
            COUNTS["unanswered_keys"].append(key)
        else:
            COUNTS["refused"] += 1

    def confirm(self, board: str) -> None:
        for url, _hand, version in CONFIRM.findall(board):
            data = {"version": version, "idempotency_key": uuid.uuid4().hex}
            response = self.post(url, data, "confirm")
            if response.status_code == 200:
                COUNTS["confirms"] += 1
            else:
                COUNTS["refused"] += 1


class Organiser(Browser):
    fixed_count = 1
    wait_time = constant(5)  # as the dashboard page polls (hx-trigger "every 5s")

    def on_start(self) -> None:
        super().on_start()
        self.jar["sessionid"] = PLAN["organiser_session"]

    @task
    def dashboard(self) -> None:
        self.poll(PLAN["dashboard"], "poll dashboard")


class Projector(Browser):
    fixed_count = 1
    wait_time = constant(15)  # as the projector polls (hx-trigger "every 15s")

    @task
    def board(self) -> None:
        self.poll(PLAN["projector"], "poll projector")


@events.spawning_complete.add_listener
def _steady_state(user_count, **_kw) -> None:
    """Every phone is seated: locust resets its statistics (--reset-stats); the poll
    counts start again with them. Submits and confirms are not reset: the hands in the
    database are checked against them."""
    COUNTS["polls_304"] = COUNTS["polls_200"] = 0


@events.quitting.add_listener
def _write_counts(environment, **_kw) -> None:
    COUNTS["unanswered_keys"] += sorted(IN_FLIGHT)  # still running when the load stopped
    with open(os.environ["HALL_COUNTS"], "w") as out:
        json.dump(COUNTS, out)
