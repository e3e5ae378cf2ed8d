"""What one request of each kind a hall sends costs the server, in CPU: the inputs of the
capacity model in docs/capacity.md.

    .venv/bin/python benchmarks/bench_capacity.py --tables 256          # SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ginclub_capacity \\
        .venv/bin/python benchmarks/bench_capacity.py --tables 1024

Builds a hall as benchmarks/bench_hall.py does (a fresh SQLite file in a temporary
directory, or the PostgreSQL database of DATABASE_URL dropped and created again; 2 x
TABLES players imported, round 1 published, every player's PIN the same), then plays
--sample tables through Django's test client, in this process, debug off, each phone a
client of its own with its own cookies, as load_hall.py's phones do:

- seat: the table link, the match page and the PIN form (the three requests one phone
  makes to sit down, counted together);
- poll 304: the scoreboard asked with the ETag it last had (nothing moved);
- poll 200: the scoreboard after the table's hand moved;
- submit: seat A enters a hand (quick mode);
- confirm: seat B confirms it;
- dashboard: the organiser's dashboard tables of the whole round, after a hand moved (as
  in a busy hall, where nearly every 5-second poll finds a change), and unchanged (304);
- projector: the projector's board after a hand moved, and unchanged (304).

For each kind, the median and p90 over the sample of: the application's CPU time (this
process's time.process_time: Django, the templates, the database driver; with SQLite
also the database's work) and, on PostgreSQL, the database server's CPU time for the
same request (the connection's backend process, read from /proc; Linux ticks of 10 ms,
so a median of many requests), the wall time, and the queries. Wall time on a shared
machine includes waiting for a core; the CPU times do not.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from django_env import setup_django  # benchmarks/ is on sys.path when run as a script

PIN = "2468"
CONFIRM = re.compile(
    r'action="([^"]*/hands/(\d+)/confirm/)"[^>]*>.*?name="version" value="(\d+)"', re.S
)
NEXT = re.compile(r'data-game="(\d+)" data-next-hand="(\d+)"')
TICK = os.sysconf("SC_CLK_TCK")


def build(tables: int):
    """A club, its organiser, a tournament of 2 x tables players (imported from CSV),
    round 1 published; every player's PIN is PIN."""
    from django.contrib.auth import get_user_model

    from scoring.models import Club, Player
    from scoring.services import Actor
    from tournaments import services
    from tournaments.services.registration import MAX_ROWS

    organiser = get_user_model().objects.create_user("organiser")  # no password: none is hashed
    club = Club.objects.create(name="Hall Club", slug="hall")
    club.organisers.add(organiser)
    actor = Actor(user=organiser)
    event = services.create_tournament(
        club=club, actor=actor, name="Busy Day", date=dt.date.today(), round_minutes=50
    )
    players = 2 * tables
    for start in range(1, players + 1, MAX_ROWS):
        names = "".join(
            f"Player {n:04d}\n" for n in range(start, min(start + MAX_ROWS, players + 1))
        )
        services.import_registrations(tournament_id=event.pk, actor=actor, content="name\n" + names)
    one = Player.objects.filter(club=club).first()
    one.set_pin(PIN)
    Player.objects.filter(club=club).update(pin_hash=one.pin_hash)
    rnd = services.draft_round(tournament_id=event.pk, actor=actor)
    services.publish_round(round_id=rnd.pk, actor=actor)
    return organiser, event, rnd


class Meter:
    """Each request's application CPU, database server CPU (PostgreSQL), wall time and
    queries, by kind."""

    def __init__(self) -> None:
        from django.db import connection

        self.samples: dict[str, list[tuple[float, float, float, int]]] = {}
        self.backend = None
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                self.backend = cursor.fetchone()[0]

    def _server_cpu(self) -> float:
        if self.backend is None:
            return 0.0
        fields = Path(f"/proc/{self.backend}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime

    def __call__(self, kind: str | Callable[[object], str], call: Callable[[], object]) -> object:
        """Run `call`, measured, under `kind` (or the kind it names for the result)."""
        from django.db import connection

        queries = [0]

        def count(execute, sql, params, many, context):
            queries[0] += 1
            return execute(sql, params, many, context)

        server, cpu, wall = self._server_cpu(), time.process_time(), time.perf_counter()
        with connection.execute_wrapper(count):
            result = call()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        server = self._server_cpu() - server
        kind = kind if isinstance(kind, str) else kind(result)
        self.samples.setdefault(kind, []).append((cpu, server, wall, queries[0]))
        return result

    def report(self) -> None:
        print(f"{'request':<16}{'n':>5}{'app CPU ms':>16}{'db CPU ms':>14}{'wall ms':>16}  queries")
        print(" " * 21 + "median   p90   mean    mean    median   p90")
        for kind, rows in self.samples.items():
            cpu = sorted(r[0] * 1000 for r in rows)
            server = [r[1] * 1000 for r in rows]
            wall = sorted(r[2] * 1000 for r in rows)
            queries = statistics.median(r[3] for r in rows)

            def p90(xs: list[float]) -> float:
                return xs[min(len(xs) - 1, int(0.9 * len(xs)))]

            print(
                f"{kind:<16}{len(rows):>5}{statistics.median(cpu):>9.1f}{p90(cpu):>7.1f}"
                f"{statistics.mean(cpu):>7.1f}{statistics.mean(server):>8.1f}"
                f"{statistics.median(wall):>10.1f}{p90(wall):>7.1f}{queries:>8.0f}"
            )


# The hall's traffic, per table (load_hall.py's phones, as the pages behave): two phones
# poll the scoreboard every 5 s; a hand every 90 s on average (60-120 s), entered by one
# phone and confirmed by the other, each of the two moving both phones' next poll to a
# 200; one dashboard polling every 5 s and one projector every 15 s per hall.
POLLS_PER_TABLE = 2 / 5
HANDS_PER_TABLE = 1 / 90
POLLS_200_PER_TABLE = 4 * HANDS_PER_TABLE
UTILISATION = 0.6  # of each core, so that requests seldom queue (the p95 stays low)


def model(meter: Meter, tables: int) -> None:
    """Print the CPU a hall of `tables` tables needs each second, from the means."""

    def mean(kind: str, column: int) -> float:
        return statistics.mean(r[column] for r in meter.samples[kind]) * 1000

    for column, what in ((0, "app"), (1, "database")):
        per_table = (
            (POLLS_PER_TABLE - POLLS_200_PER_TABLE) * mean("poll 304", column)
            + POLLS_200_PER_TABLE * mean("poll 200", column)
            + HANDS_PER_TABLE * (mean("submit", column) + mean("confirm", column))
        )
        hall = 1 / 5 * mean("dashboard 200", column) + 1 / 15 * mean("projector 200", column)
        total = per_table * tables + hall
        print(
            f"{what} CPU: {per_table:.2f} ms a second per table + {hall:.1f} for the "
            f"dashboard and a projector = {total / 1000:.2f} cores at {tables} tables; "
            f"at {UTILISATION:.0%} busy: {total / 1000 / UTILISATION:.2f} cores"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=256)
    parser.add_argument("--sample", type=int, default=48, help="tables played (<= tables)")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL")
    os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")
    with tempfile.TemporaryDirectory() as tmp:
        if url:
            from bench_hall import fresh_postgres

            fresh_postgres(url)
        setup_django(Path(tmp) / "capacity.sqlite3", database_url=url)
        from django.conf import settings
        from django.db import connection
        from django.test import Client
        from django.urls import reverse

        from ginclub.permissions import table_token

        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
        where = f"PostgreSQL {connection.settings_dict['NAME']}" if url else "SQLite file"
        started = time.perf_counter()
        organiser, event, rnd = build(args.tables)
        print(
            f"hall of {args.tables} tables ({where}) built in "
            f"{time.perf_counter() - started:.0f} s; {args.sample} tables played"
        )
        meter = Meter()
        hx = {"HTTP_HX_REQUEST": "true"}
        desk = Client()
        desk.get("/")  # loads the middleware (whitenoise reads every static file's headers)

        def new_client() -> Client:
            """A phone: cookies of its own, the one request handler, as in a worker."""
            phone = Client()
            phone.handler = desk.handler
            return phone

        desk.force_login(organiser)
        dashboard = reverse("tournaments:dashboard-tables", args=[event.slug]) + "?round=1"
        projector = reverse("tournaments:projector-board", args=[event.slug])
        etags: dict[tuple[int, str], str] = {}

        def poll(client: Client, url: str, kind: str):
            """A poll with the ETag this client last had, named `kind` and its status."""
            extra = dict(hx)
            if (id(client), url) in etags:
                extra["HTTP_IF_NONE_MATCH"] = etags[id(client), url]
            response = meter(lambda r: f"{kind} {r.status_code}", lambda: client.get(url, **extra))
            if response.status_code == 200:
                etags[id(client), url] = response.headers.get("ETag", "")
            return response

        # first renders, untimed, so every poll below finds what a running hall has
        desk.get(dashboard, **hx)
        new_client().get(projector, **hx)
        pairings = list(rnd.pairings.exclude(match=None).select_related("match").order_by("table"))[
            : args.sample
        ]
        phones = []
        for pairing in pairings:
            match = pairing.match
            urls = {
                "link": reverse("scoring:table", args=[table_token(match)]),
                "match": reverse("scoring:match", args=[match.pk]),
                "seat": reverse("scoring:seat", args=[match.pk]),
                "board": reverse("scoring:scoreboard", args=[match.pk]),
                "submit": reverse("scoring:submit", args=[match.pk]),
            }
            pair = []
            for seat in ("a", "b"):
                phone = new_client()

                meter("table link", lambda phone=phone, urls=urls: phone.get(urls["link"]))
                meter("match page", lambda phone=phone, urls=urls: phone.get(urls["match"]))
                seated = {"player": getattr(match, f"player_{seat}_id"), "pin": PIN}
                response = meter(
                    "seat (PIN)",
                    lambda phone=phone, urls=urls, seated=seated: phone.post(
                        urls["seat"], seated, **hx
                    ),
                )
                assert response.status_code in (200, 302), response.status_code
                pair.append(phone)
            phones.append((urls, *pair))
        projector_client = new_client()
        for urls, phone_a, phone_b in phones:
            poll(phone_a, urls["board"], "poll")  # the first: 200
            poll(phone_b, urls["board"], "poll")
            poll(phone_a, urls["board"], "poll")  # nothing moved: 304
            board = phone_a.get(urls["board"], **hx).content.decode()
            game, number = NEXT.search(board).groups() if NEXT.search(board) else ("1", "1")
            data = {
                "game": game,
                "number": number,
                "idempotency_key": uuid.uuid4().hex,
                "mode": "quick",
                "outcome": "knock",
                "knocker": "A",
                "knocker_deadwood": 3,
                "defender_deadwood": 25,
            }
            response = meter(
                "submit",
                lambda phone=phone_a, url=urls["submit"], data=data: phone.post(url, data, **hx),
            )
            assert response.status_code == 200, response.content[:300]
            poll(desk, dashboard, "dashboard")  # a hand moved: 200
            poll(desk, dashboard, "dashboard")  # unchanged: 304
            poll(projector_client, projector, "projector")
            poll(projector_client, projector, "projector")
            board = poll(phone_b, urls["board"], "poll").content.decode()
            found = CONFIRM.findall(board)
            assert found, "seat B sees no hand to confirm"
            confirm, _hand, version = found[0]
            response = meter(
                "confirm",
                lambda phone=phone_b, url=confirm, version=version: phone.post(
                    url, {"version": version, "idempotency_key": uuid.uuid4().hex}, **hx
                ),
            )
            assert response.status_code == 200, response.content[:300]
        meter.report()
        model(meter, args.tables)


if __name__ == "__main__":
    main()
