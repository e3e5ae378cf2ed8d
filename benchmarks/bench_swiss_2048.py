"""A national Swiss end to end (issue 26): 2,048 players registered, then rounds drafted,
published, decided and closed through the tournament services, each step timed.

    .venv/bin/python benchmarks/bench_swiss_2048.py                 # SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ginclub_2048 \\
        .venv/bin/python benchmarks/bench_swiss_2048.py [--players 2048] [--rounds 3]

Builds a fresh database (an SQLite file in a temporary directory, or the PostgreSQL
database named in DATABASE_URL, dropped and created again) and migrates it. The steps,
each one service call as the organiser's page makes it, unless said otherwise:

- register: the players arrive as CSV files (import_registrations: new club players,
  IMPORT_CHUNK rows a transaction; a file holds at most MAX_ROWS, 2,000, players);
- draft: the round's pairings (round 1 at random; later rounds Swiss from the standings:
  reading the rounds so far, the standings maths, the pairing, the pairings written);
- publish: every table's match started, the bye recorded;
- results: every table decided by the organiser (record_result, one call a table; in a
  real event the tables' phones enter the hands instead), the stronger player (lower
  number) winning 65% of tables, so later rounds have real score groups;
- close: the round checked finished and closed.

Prints each step's wall time (and the process's CPU time: the database server's work
is in the difference, as is any other process's on a shared machine), its query count
and its slowest query.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_hall import fresh_postgres  # benchmarks/ is on sys.path when run as a script
from django_env import setup_django


def timed(label: str, work: Callable[[], Any]) -> Any:
    """Run `work`, print its wall and CPU time, its query count and its slowest query;
    return its result."""
    from django.db import connection

    queries: list[tuple[float, str]] = []

    def count(execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            queries.append((time.perf_counter() - start, sql))

    wall, cpu = time.perf_counter(), time.process_time()
    with connection.execute_wrapper(count):
        result = work()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    slowest, sql = max(queries, default=(0.0, ""))
    print(
        f"  {label:<40} {wall:7.2f} s  ({cpu:6.2f} CPU)  {len(queries):6} queries, "
        f"slowest {slowest:5.2f} s: {' '.join(sql.split())[:50]}",
        flush=True,
    )
    return result


def build(players: int):
    from django.contrib.auth import get_user_model

    from scoring.models import Club
    from scoring.services import Actor
    from tournaments import services
    from tournaments.services.registration import MAX_ROWS

    user = get_user_model().objects.create_user("organiser")  # no password: none is hashed
    club = Club.objects.create(name="National Club", slug="national")
    club.organisers.add(user)
    actor = Actor(user=user)
    event = services.create_tournament(
        club=club, actor=actor, name="National Open", date=dt.date(2026, 12, 5), rounds=11
    )
    files = -(-players // MAX_ROWS)  # a file holds at most MAX_ROWS players
    numbers = list(range(1, players + 1))

    def register() -> int:
        accepted = 0
        for part in range(files):
            names = "\n".join(f"Player {n:04d}" for n in numbers[part::files])
            report = services.import_registrations(
                tournament_id=event.pk, actor=actor, content="name\n" + names
            )
            accepted += len(report.accepted)
        return accepted

    accepted = timed(f"register {players} players ({files} CSV files)", register)
    assert accepted == players, accepted
    return event, actor


def decide_all(rnd, actor, rng: random.Random) -> int:
    """The organiser records every table's result; returns how many."""
    from tournaments import services

    tables = list(
        rnd.pairings.exclude(match=None)
        .values_list("pk", "player_a__player__name", "player_b__player__name")
        .order_by("table")
    )
    for pk, name_a, name_b in tables:
        stronger = "A" if name_a < name_b else "B"
        winner = stronger if rng.random() < 0.65 else ("B" if stronger == "A" else "A")
        services.record_result(
            pairing_id=pk,
            actor=actor,
            winner=winner,
            reason="benchmark",
            games_a=3 if winner == "A" else 1,
            games_b=3 if winner == "B" else 1,
            points_a=600 if winner == "A" else 300,
            points_b=600 if winner == "B" else 300,
        )
    return len(tables)


def play_round(event, actor, rng: random.Random) -> None:
    from tournaments import services

    rnd = timed("draft", lambda: services.draft_round(tournament_id=event.pk, actor=actor))
    timed("publish", lambda: services.publish_round(round_id=rnd.pk, actor=actor))
    count = rnd.pairings.exclude(match=None).count()
    timed(f"results ({count} record_result calls)", lambda: decide_all(rnd, actor, rng))
    timed("close", lambda: services.close_round(round_id=rnd.pk, actor=actor))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL")
    with tempfile.TemporaryDirectory() as tmp:
        if url:
            fresh_postgres(url)
        setup_django(Path(tmp) / "bench.sqlite3", database_url=url)
        from django.db import connection

        where = f"PostgreSQL {connection.settings_dict['NAME']}" if url else "SQLite file"
        print(f"Swiss of {args.players} players, {args.rounds} rounds, {where}:")
        event, actor = build(args.players)
        rng = random.Random(2026)
        for number in range(1, args.rounds + 1):
            print(f" round {number}:")
            play_round(event, actor, rng)


if __name__ == "__main__":
    main()
