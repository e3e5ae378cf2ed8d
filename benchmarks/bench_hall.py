"""A busy day, end to end: gunicorn (3 workers, debug off) under locust
(benchmarks/load_hall.py) on 127.0.0.1, then the database is checked.

    .venv/bin/python benchmarks/bench_hall.py --tables 64 --seconds 90
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ginclub_hall \\
        .venv/bin/python benchmarks/bench_hall.py --tables 128
    DATABASE_URL=... .venv/bin/python benchmarks/bench_hall.py --redis redis://127.0.0.1:6379/0

Builds a fresh database (an SQLite file in a temporary directory, or the PostgreSQL
database named in DATABASE_URL, dropped and created again), migrates, registers
2 x TABLES players in a tournament, publishes round 1 (TABLES matches), gives every
player the same PIN, collects static files, starts gunicorn on a free port and runs
locust headless. Prints requests/s and p50/p95/p99 per request type for the steady
state (locust's statistics and the poll counts are reset once every phone is seated,
so the seating burst is not in them; the slowest seating is printed apart), then checks that
the hands in the database are exactly the submits that succeeded (none lost, none
doubled), matched by idempotency key, plus those stored whose answer never came back (a
submit still running when the load stops is stored all the same; they are counted and
printed), and that the ledger verifies. With --redis (or REDIS_URL) the app server's
shared cache is that Redis, as for several app servers (docs/operations.md), under a
prefix of this run's own that is deleted at the end. Stops what it started. Needs `pip install
'.[bench]'` (locust). Not run by `make bench` (it takes minutes): `make bench-hall`.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from front import free_port  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PIN = "2468"
GOALS = {"poll": 150, "submit": 250}  # p95, milliseconds


def fresh_postgres(url: str) -> None:
    import psycopg
    from dj_database_url import parse

    db = parse(url)
    name = db["NAME"]
    admin = (
        f"host={db['HOST'] or '127.0.0.1'} port={db['PORT'] or 5432} "
        f"user={db['USER']} dbname=postgres"
        + (f" password={db['PASSWORD']}" if db["PASSWORD"] else "")
    )
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def build_hall(tables: int, plan_path: Path) -> None:
    """Migrate, then a club, an organiser, a tournament of 2 x tables players, round 1
    published; every player's PIN is PIN."""
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from ginclub.permissions import table_token
    from scoring.models import Club, Player
    from scoring.services import Actor
    from tournaments import services
    from tournaments.models import Tournament

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)
    organiser = User.objects.create_user("organiser", password="bench-organiser-pw")
    club = Club.objects.create(name="Hall Club", slug="hall")
    club.organisers.add(organiser)
    actor = Actor(user=organiser)
    tournament = services.create_tournament(
        club=club, actor=actor, name="Busy Day", date=datetime.date.today(), round_minutes=50
    )
    for n in range(1, 2 * tables + 1):
        services.add_registration(tournament_id=tournament.pk, actor=actor, name=f"Player {n:03d}")
    one = Player.objects.filter(club=club).first()
    one.set_pin(PIN)
    Player.objects.filter(club=club).update(pin_hash=one.pin_hash)
    rnd = services.draft_round(tournament_id=tournament.pk, actor=actor)
    services.publish_round(round_id=rnd.pk, actor=actor)
    client = Client()
    client.force_login(organiser)
    slug = Tournament.objects.get(pk=tournament.pk).slug
    plan = {
        "pin": PIN,
        "organiser_session": client.cookies["sessionid"].value,
        "dashboard": reverse("tournaments:dashboard-tables", args=[slug]) + "?round=1",
        "projector": reverse("tournaments:projector-board", args=[slug]),
        "tables": [],
    }
    for pairing in rnd.pairings.select_related("match", "player_a", "player_b").order_by("table"):
        if pairing.match is None:
            continue
        m = pairing.match
        plan["tables"].append(
            {
                "link": reverse("scoring:table", args=[table_token(m)]),
                "match": reverse("scoring:match", args=[m.pk]),
                "seat": reverse("scoring:seat", args=[m.pk]),
                "scoreboard": reverse("scoring:scoreboard", args=[m.pk]),
                "submit": reverse("scoring:submit", args=[m.pk]),
                "player_a": m.player_a_id,
                "player_b": m.player_b_id,
            }
        )
    plan_path.write_text(json.dumps(plan))
    connection.close()


def check_database(counts: dict) -> list[str]:
    from django.db import connection

    from ginclub import ledger
    from scoring.models import Entry, Hand

    hands = Hand.objects.count()
    stored = set(Entry.objects.values_list("idempotency_key", flat=True))
    answered = set(counts["submit_keys"])
    unanswered = set(counts["unanswered_keys"])
    landed = unanswered & stored  # stored, though their answer never reached the phone
    problems = []
    if lost := answered - stored:
        problems.append(f"{len(lost)} submits answered 200 are not in the database")
    if hands != len(answered) + len(landed):
        problems.append(
            f"{hands} hands in the database, {len(answered)} submits succeeded and "
            f"{len(landed)} stored without an answer"
        )
    breaks = ledger.verify()
    problems += [f"ledger: {b}" for b in breaks]
    print(
        f"database: {hands} hands, {Entry.objects.count()} entries, ledger breaks: "
        f"{len(breaks)}; submits without an answer (the load stopped or the client gave up): "
        f"{len(unanswered)}, {len(landed)} of them stored"
    )
    connection.close()
    return problems


def wait_up(url: str, seconds: float = 120) -> None:  # workers load slowly on a busy machine
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"gunicorn did not answer at {url}")


def report(stats_csv: Path) -> dict[str, dict]:
    rows = {}
    with stats_csv.open() as f:
        for row in csv.DictReader(f):
            rows[row["Name"]] = row
    print(f"{'request':<18}{'count':>8}{'fail':>6}{'req/s':>8}{'p50':>7}{'p95':>7}{'p99':>7}  (ms)")
    for name, row in rows.items():
        print(
            f"{name:<18}{row['Request Count']:>8}{row['Failure Count']:>6}"
            f"{float(row['Requests/s']):>8.1f}{row['50%']:>7}{row['95%']:>7}{row['99%']:>7}"
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=32)
    parser.add_argument("--seconds", type=int, default=90, help="load after all phones start")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--spawn-rate", type=float, default=20)
    parser.add_argument(
        "--redis",
        default=os.environ.get("REDIS_URL", ""),
        metavar="URL",
        help="the shared cache in this Redis (default: REDIS_URL; none: files)",
    )
    parser.add_argument("--port", type=int, default=0, help="gunicorn's (default: a free one)")
    args = parser.parse_args()
    if importlib.util.find_spec("locust") is None:  # before minutes of building the hall
        parser.exit(2, "locust is missing: pip install -e '.[bench]' (make bench-hall does)\n")

    work = Path(tempfile.mkdtemp(prefix="ginclub-hall-"))
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "ginclub.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "bench-hall-only-" + "x" * 40,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
    }
    if os.environ.get("DATABASE_URL"):
        fresh_postgres(os.environ["DATABASE_URL"])
        where = "PostgreSQL " + os.environ["DATABASE_URL"].rsplit("/", 1)[-1]
    else:
        env["SQLITE_PATH"] = str(work / "hall.sqlite3")
        where = "SQLite " + env["SQLITE_PATH"]
    env.pop("REDIS_URL", None)
    os.environ.pop("REDIS_URL", None)  # --redis "": files, whatever the environment says
    if args.redis:
        env["REDIS_URL"] = args.redis
        env["DJANGO_CACHE_KEY_PREFIX"] = "bench-hall-" + work.name  # nothing from a past run
        where += ", shared cache in Redis " + args.redis
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    plan = work / "plan.json"
    started = time.monotonic()
    build_hall(args.tables, plan)
    print(f"hall of {args.tables} tables built in {time.monotonic() - started:.0f} s ({where})")

    port = args.port or free_port()
    host = f"http://127.0.0.1:{port}"
    phones = 2 * args.tables
    users = phones + 2
    ramp = users / args.spawn_rate
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "ginclub.wsgi", "--bind", f"127.0.0.1:{port}",
         "--workers", str(args.workers), "--log-level", "warning"],
        cwd=ROOT, env=env, start_new_session=True,
    )  # fmt: skip
    try:
        wait_up(host + "/")
        counts_path = work / "counts.json"
        subprocess.run(
            [sys.executable, "-m", "locust", "-f", str(ROOT / "benchmarks/load_hall.py"),
             "--headless", "--host", host, "-u", str(users), "-r", str(args.spawn_rate),
             "-t", f"{int(ramp + args.seconds)}s", "--csv", str(work / "hall"),
             "--only-summary", "--loglevel", "WARNING", "--stop-timeout", "10",
             "--reset-stats"],
            cwd=ROOT, env={**env, "HALL_PLAN": str(plan), "HALL_COUNTS": str(counts_path)},
            check=False, stdout=subprocess.DEVNULL,
        )  # fmt: skip
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)

    print(
        f"\n{args.tables} tables, {phones} phones + dashboard + projector, "
        f"{int(ramp)} s spawning + {args.seconds} s, gunicorn {args.workers} workers, {where}"
    )
    rows = report(work / "hall_stats.csv")
    counts = json.loads(counts_path.read_text())
    polls = counts["polls_200"] + counts["polls_304"]
    print(
        f"submits {counts['submits']}, confirms {counts['confirms']}, refused {counts['refused']}; "
        f"polls answered 304: {counts['polls_304']} of {polls}; "
        f"slowest seating {counts['seat_ms_max']:.0f} ms"
    )
    problems = check_database(counts)
    if args.redis:
        from django.core.cache import caches

        for alias in ("shared", "jobs"):
            caches[alias].clear()  # this run's prefix only (ginclub.redis_cache)
    poll_p95 = max(float(rows[n]["95%"]) for n in rows if n.startswith("poll"))
    submit_p95 = float(rows["submit"]["95%"]) if "submit" in rows else float("nan")
    met = poll_p95 <= GOALS["poll"] and submit_p95 <= GOALS["submit"]
    print(
        f"goal (poll p95 <= {GOALS['poll']} ms, submit p95 <= {GOALS['submit']} ms): "
        f"{'met' if met else 'missed'} (poll p95 {poll_p95:.0f}, submit p95 {submit_p95:.0f})"
    )
    for problem in problems:
        print("PROBLEM:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
