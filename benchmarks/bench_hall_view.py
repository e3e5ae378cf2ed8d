"""The hall view's poll against the dashboard's, in-process, for a big round.

A Swiss of 2 x TABLES players, round 1 published, every table playing. Times (median of
--repeat, Django's test client, debug off, SQLite) each poll an organiser's browser
makes, in CPU time (the process's own: steady on a shared machine, where wall time is
not): the dashboard's `dashboard-tables` and the hall view's `hall-tables` (every table,
and one filter), each as a first render (no rows kept), as an unchanged poll (304), and
as the poll after one hand moved one table (that row alone rendered again; the hand
itself is not timed). Each hand moves a table of its own: TABLES >= 4 x REPEAT.

Run: .venv/bin/python benchmarks/bench_hall_view.py [--tables 256] [--repeat 15]
It builds a throwaway SQLite database in a temporary directory; nothing else is touched.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import statistics
import tempfile
import time
from pathlib import Path

from django_env import setup_django  # benchmarks/ is on sys.path when run as a script


def build(tables: int):
    from django.contrib.auth import get_user_model

    from scoring import services as scoring
    from tournaments import services

    users = get_user_model()
    admin = users.objects.create_superuser("admin", "admin@example.org", "x" * 12)
    organiser = users.objects.create_user("olga", password="x" * 12)
    actor = scoring.Actor(user=organiser)
    club = scoring.create_club(
        name="Hall", slug="hall", actor=scoring.Actor(user=admin), organisers=[organiser]
    )
    event = services.create_tournament(
        club=club, actor=actor, name="Hall", date=dt.date(2026, 11, 28), first_round="list"
    )
    for n in range(2 * tables):
        services.add_registration(tournament_id=event.pk, actor=actor, name=f"Player {n:03d}")
    rnd = services.draft_round(tournament_id=event.pk, actor=actor)
    services.publish_round(round_id=rnd.pk, actor=actor)
    return organiser, event, rnd


def timed(call, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp) / "hall.sqlite3")
        from django.core.cache import caches
        from django.test import Client

        from scoring import services as scoring
        from scoring.hand_input import HandInput

        organiser, event, rnd = build(args.tables)
        client = Client()
        client.force_login(organiser)
        base = f"/tournaments/{event.slug}/manage/dashboard/"
        pairings = list(rnd.pairings.select_related("player_a__player").order_by("table"))
        tables = itertools.count()

        def move() -> None:  # hand 1 entered at the next table (it becomes pending)
            n = next(tables)
            pairing = pairings[n]
            scoring.submit_hand(
                match_id=pairing.match_id,
                actor=scoring.Actor(player=pairing.player_a.player),
                hand=HandInput(1, 1, "knock", "A", 5, 9),
                idempotency_key=f"bench-{n}",
            )

        print(f"{args.tables} tables, median of {args.repeat} (ms of CPU)")
        print(f"{'poll':34} {'first':>7} {'304':>7} {'moved':>7}")
        for name, url in (
            ("dashboard (cards)", base + "tables/?round=1"),
            ("hall view, every table", base + "hall/tables/?round=1"),
            ("hall view, disputed", base + "hall/tables/?round=1&state=disputed"),
            ("hall view, search 'Player 12'", base + "hall/tables/?round=1&q=Player+12"),
        ):

            def first(url=url) -> None:
                caches["shared"].clear()
                assert client.get(url).status_code == 200

            etag = client.get(url)["ETag"]

            def unchanged(url=url, etag=etag) -> None:
                assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304

            def moved(url=url) -> float:
                move()
                start = time.process_time()
                assert client.get(url).status_code == 200
                return time.process_time() - start  # the poll alone, not the hand

            cold = timed(first, args.repeat)
            cached = timed(unchanged, args.repeat)
            client.get(url)  # the rows as they are, kept
            after = statistics.median(moved() for _ in range(args.repeat)) * 1000
            print(f"{name:34} {cold:7.1f} {cached:7.1f} {after:7.1f}")


if __name__ == "__main__":
    main()
