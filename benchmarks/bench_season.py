"""Season ladder benchmark for the club's-memory issue (issue 12).

The club of bench_player (200 players, 20,000 finished matches over two years, built in
bulk by its builder), of which the 2,000 most recent become the tables of ten one-day
tournaments (registrations, five closed rounds each, a pairing per match: bulk too).
A season covering all two years counts every match: 2,000 tournament tables and 18,000
club nights. Timed: the ladder selector, the ladder page through Django's handler (an
organiser logged in) and the API's ladder, each with its queries, wall and CPU time
(this process's: SQLite runs in it, and on a shared machine it is the steadier figure):

    warm      the ladder is in this process's cache under its version
    cold      this process's cache emptied before each call (a restarted worker, or
              another worker): the stored snapshot is read, its version matching
    nothing   the cache emptied and the snapshot deleted before each call: the ladder
              is computed from the rows (a reader who must see it exact, an organiser,
              after a result moved and before the background refresh has stored it)
    moved     the cache emptied and the stored snapshot made an older version before each
              call, read by someone who changed nothing (the public, stale_ok): the last
              stored ladder is shown, marked, while the refresh brings it up to date

The selector and the organiser's page and API are timed in the first three modes; the
public page and API (an anonymous reader of the public season) in all four.

The ladder reads no hand rows, so by default the matches are built without hands
(--hands 0), which takes seconds instead of minutes; --hands 50 builds bench_player's
million hand rows too.

Run: .venv/bin/python benchmarks/bench_season.py [--players 200] [--matches 20000]
       [--hands 0] [--repeat 15] [--db PATH]
It builds a throwaway SQLite database in a temporary directory (or at PATH, reused when it
exists); nothing else is touched.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import tempfile
import time
from pathlib import Path

from bench_player import build  # benchmarks/ is on sys.path when run as a script
from django_env import setup_django

EVENTS = 10
ROUNDS = 5


def make_tournaments(people: list, tables: int) -> None:
    """Turn the `tables` most recent matches into the tables of EVENTS tournaments."""
    from scoring.models import Match
    from tournaments.models import Pairing, Registration, Round, Tournament

    club = people[0].club
    matches = list(Match.objects.filter(club=club).order_by("-created_at", "-pk")[:tables])
    per_event = len(matches) // EVENTS
    for n in range(EVENTS):
        chunk = matches[n * per_event : (n + 1) * per_event]
        event = Tournament.objects.create(
            club=club,
            name=f"Open {n + 1}",
            slug=f"open-{n + 1}",
            date=chunk[0].created_at.date(),
            state=Tournament.State.FINISHED,
            rules={"name": "standard"},
        )
        regs = {
            r.player_id: r
            for r in Registration.objects.bulk_create(
                [Registration(tournament=event, player=p) for p in people]
            )
        }
        rounds = Round.objects.bulk_create(
            [
                Round(tournament=event, number=r, stage="swiss", state=Round.State.CLOSED)
                for r in range(1, ROUNDS + 1)
            ]
        )
        Pairing.objects.bulk_create(
            [
                Pairing(
                    round=rounds[i % ROUNDS],
                    table=i // ROUNDS + 1,
                    player_a=regs[m.player_a_id],
                    player_b=regs[m.player_b_id],
                    match=m,
                    position=i,
                )
                for i, m in enumerate(chunk)
            ]
        )


def timed(func, repeat: int, before=None) -> tuple[float, float, int]:
    """Median wall ms, median CPU ms, and the queries of one call; `before` runs before
    each call, untimed."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times, cpu = [], []
    for _ in range(repeat):
        if before:
            before()
        with CaptureQueriesContext(connection) as captured:
            begin, begin_cpu = time.perf_counter(), time.process_time()
            func()
            times.append((time.perf_counter() - begin) * 1000)
            cpu.append((time.process_time() - begin_cpu) * 1000)
    return statistics.median(times), statistics.median(cpu), len(captured.captured_queries)


def forget_all() -> None:
    from django.core.cache import cache

    from tournaments.models import SeasonLadder

    cache.clear()
    SeasonLadder.objects.all().delete()


def moved() -> None:
    from django.core.cache import cache

    from tournaments.models import SeasonLadder

    cache.clear()
    SeasonLadder.objects.update(version="an-older-version")


def report(name: str, call, repeat: int, *, stale_ok: bool = False) -> None:
    from django.core.cache import cache

    from tournaments.models import Season
    from tournaments.services.season_ladders import store_ladder

    figures = []
    modes = [("nothing", forget_all), ("cold", cache.clear), ("warm", None)]
    if stale_ok:
        modes.insert(1, ("moved", moved))
    for mode, before in modes:
        if mode in ("moved", "cold"):
            for season in Season.objects.all():  # what the background refresh stores
                store_ladder(season_id=season.pk)
        ms, cpu, queries = timed(call, repeat, before)
        figures.append(f"{mode} {ms:.1f} ms (CPU {cpu:.1f}), {queries} q")
    print(f"  {name}: " + "; ".join(figures))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument("--hands", type=int, default=0)
    parser.add_argument("--tables", type=int, default=2_000, help="matches in tournaments")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--db", help="keep the database here and reuse it when it exists")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.db) if args.db else Path(tmp) / "bench.sqlite3"
        reuse = path.exists()
        setup_django(path)
        from django.contrib.auth import get_user_model
        from django.test import Client

        from ginclub.permissions import Actor
        from tournaments import selectors
        from tournaments.models import Season
        from tournaments.services.seasons import create_season

        organiser_of = get_user_model().objects.get
        if reuse:
            season = Season.objects.get(slug="two-years")
            Season.objects.filter(pk=season.pk).update(public=True)
        else:
            people = build(args.players, args.matches, args.hands)
            make_tournaments(people, args.tables)
            today = dt.date.today()
            season = create_season(
                club=people[0].club,
                actor=Actor(user=organiser_of(username="organiser")),
                name="Two years",
                starts_on=today - dt.timedelta(days=800),
                ends_on=today,
                min_matches=150,
                public=True,
            )
        organiser = organiser_of(username="organiser")
        view = selectors.ladder(season)
        ranked = len(view.ranked)
        print(
            f"season: {view.tournament_matches} tournament matches, "
            f"{view.club_night_matches} club nights, {len(view.rows)} players "
            f"({ranked} ranked from {season.min_matches} matches)"
        )
        print("medians, goal 100 ms:")
        report("ladder selector", lambda: selectors.ladder(season), args.repeat)
        report(
            "ladder selector, stale_ok",
            lambda: selectors.ladder(season, stale_ok=True),
            args.repeat,
            stale_ok=True,
        )
        client, public = Client(), Client()
        client.force_login(organiser)
        page = f"/clubs/{season.club.slug}/seasons/{season.slug}/"
        size = len(client.get(page).content) / 1024
        api = f"/api/clubs/{season.club.slug}/seasons/{season.slug}/ladder/"
        report(f"organiser's page ({size:.0f} KB)", lambda: client.get(page), args.repeat)
        report("organiser's API", lambda: client.get(api), args.repeat)
        report("public page", lambda: public.get(page), args.repeat, stale_ok=True)
        report("public API", lambda: public.get(api), args.repeat, stale_ok=True)


if __name__ == "__main__":
    main()
