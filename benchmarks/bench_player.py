"""Player page benchmark for the club's-memory issue (issue 12).

A club of 200 players and 20,000 finished matches over two years, one game each, 50
confirmed hands a match (a million hand rows; one hand in ten entered by cards, with
melds and lay-offs), bulk-inserted: the page reads what the services would have
written, and entering a million hands through them is not what is measured; the seat
summaries the services keep are then rebuilt in one go (timed). Then a
player's whole page is requested through Django's handler (an organiser logged in), and
the record selector alone, with their query counts, for a player with an average history
(about 200 matches, 10,000 hands); a full ratings recompute of the club, and its rated
list.

Run: .venv/bin/python benchmarks/bench_player.py [--players 200] [--matches 20000]
       [--hands 50] [--repeat 15]
It builds a throwaway SQLite database in a temporary directory; nothing else is touched.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import tempfile
import time
from pathlib import Path

from django_env import setup_django  # benchmarks/ is on sys.path when run as a script

MELDS = [["5H", "6H", "7H"], ["3S", "3D", "3C"], ["9C", "TC", "JC", "QC"], ["KS", "KD", "KH"]]


def hand_row(rng: random.Random, game_id: int, number: int, cards: bool) -> dict:
    roll = rng.random()
    knocker = rng.choice("AB")
    other = "B" if knocker == "A" else "A"
    if roll < 0.04:
        return dict(game_id=game_id, number=number, dealer="A", outcome="dead", knocker="")
    if roll < 0.12:
        outcome, kd, dd = "gin", 0, rng.randint(5, 60)
        winner, points = knocker, dd + 25
    else:
        kd, dd = rng.randint(0, 10), rng.randint(0, 60)
        outcome = "undercut" if dd <= kd else "knock"
        winner = other if outcome == "undercut" else knocker
        points = abs(dd - kd) + (25 if outcome == "undercut" else 0)
    row = dict(
        game_id=game_id,
        number=number,
        dealer="A",
        outcome=outcome,
        knocker=knocker,
        knocker_deadwood=kd,
        defender_deadwood=dd,
        winner=winner,
        points=points,
    )
    if cards:
        row["cards"] = {
            "knocker_melds": rng.sample(MELDS, 2),
            "defender_melds": rng.sample(MELDS, 1),
            "laid_off": ["8H"] if rng.random() < 0.4 else [],
        }
    return row


def build(players: int, matches: int, hands: int, seed: int = 12) -> list:
    from django.contrib.auth import get_user_model

    from scoring.models import Club, Game, Hand, Match, Player

    rng = random.Random(seed)
    organiser = get_user_model().objects.create_user("organiser", password="x" * 12)
    club = Club.objects.create(name="Big Club", slug="big")
    club.organisers.add(organiser)
    people = Player.objects.bulk_create(
        [Player(club=club, name=f"Player {n:03d}") for n in range(players)]
    )
    start = time.perf_counter()
    for first in range(0, matches, 1000):
        batch = []
        for _ in range(min(1000, matches - first)):
            a, b = rng.sample(people, 2)
            winner = rng.choice("AB")
            batch.append(
                Match(
                    club=club,
                    player_a=a,
                    player_b=b,
                    rules={"name": "standard"},
                    first_dealer="A",
                    state="finished",
                    winner=winner,
                    games_won_a=int(winner == "A"),
                    games_won_b=int(winner == "B"),
                    points_a=rng.randint(0, 400),
                    points_b=rng.randint(0, 400),
                )
            )
        made = Match.objects.bulk_create(batch)
        games = Game.objects.bulk_create(
            [
                Game(
                    match=m,
                    number=1,
                    first_dealer="A",
                    state="finished",
                    winner=m.winner,
                    breakdown={"hands_won": {"A": rng.randint(0, 30), "B": rng.randint(0, 30)}},
                )
                for m in made
            ]
        )
        rows = [
            Hand(state="confirmed", **hand_row(rng, g.pk, n, rng.random() < 0.1))
            for g in games
            for n in range(1, hands + 1)
        ]
        Hand.objects.bulk_create(rows, batch_size=5000)
    # Spread the matches over 24 months (bulk_create stamps them all now).
    now = dt.datetime.now(dt.UTC)
    ids = list(Match.objects.values_list("pk", flat=True))
    for month in range(24):
        chunk = ids[month::24]
        Match.objects.filter(pk__in=chunk).update(created_at=now - dt.timedelta(days=30 * month))
    print(
        f"built {matches} matches, {matches * hands} hands in {time.perf_counter() - start:.0f} s"
    )
    # The bulk insert went behind the services, which keep the seat summaries behind the
    # figures: count them as `manage.py rebuild_seat_summaries` (or migration 0006) does.
    from scoring.services.summaries import rebuild_summaries

    begin, begin_cpu = time.perf_counter(), time.process_time()
    written = rebuild_summaries()
    took, cpu = time.perf_counter() - begin, time.process_time() - begin_cpu
    print(f"seat summaries: {written} rebuilt in {took:.1f} s (CPU {cpu:.1f} s)")
    return people


def timed(func, repeat: int, cold: bool = False) -> tuple[float, int]:
    """Median ms and the queries of one call; `cold` empties the cache before each call
    (the player's figures are cached until one of their matches changes). The median
    CPU time of this process (SQLite runs in it) is printed too: on a machine shared
    with other work it is the steadier figure."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times, cpu = [], []
    for _ in range(repeat):
        if cold:
            cache.clear()
        with CaptureQueriesContext(connection) as captured:
            begin, begin_cpu = time.perf_counter(), time.process_time()
            func()
            times.append((time.perf_counter() - begin) * 1000)
            cpu.append((time.process_time() - begin_cpu) * 1000)
    timed.cpu = statistics.median(cpu)
    return statistics.median(times), len(captured.captured_queries)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument("--hands", type=int, default=50)
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
        from scoring import stats
        from scoring.models import Player

        if reuse:
            people = list(Player.objects.order_by("pk"))
        else:
            people = build(args.players, args.matches, args.hands)
        organiser = get_user_model().objects.get(username="organiser")
        client = Client()
        client.force_login(organiser)
        from scoring.services.ratings import recompute_ratings

        club = people[0].club
        begin, begin_cpu = time.perf_counter(), time.process_time()
        rated = recompute_ratings(club_id=club.pk)
        took, cpu = time.perf_counter() - begin, time.process_time() - begin_cpu
        print(f"ratings: full recompute of {rated} matches in {took:.1f} s (CPU {cpu:.1f} s)")
        ms, queries = timed(lambda: client.get("/clubs/big/ratings/"), args.repeat)
        print(f"  rated list page {ms:.1f} ms median (CPU {timed.cpu:.1f}), {queries} queries")
        player = people[0]
        played = stats.matches_of(player).count()
        hands = stats.hands_of(player).count()
        actor = Actor(user=organiser)
        print(f"{player.name}: {played} matches, {hands} hands")
        page = f"/players/{player.pk}/"
        api = f"/api/players/{player.pk}/"
        size = len(client.get(page).content) / 1024
        calls = [
            ("record selector", lambda: stats.player_record(player, actor)),
            (f"whole page ({size:.0f} KB of HTML)", lambda: client.get(page)),
            ("API", lambda: client.get(api)),
        ]
        for chart in ("rating", "results", "deadwood"):
            url = f"/players/{player.pk}/charts/{chart}.svg"
            calls.append((f"chart {chart}", lambda url=url: client.get(url)))
        for name, call in calls:
            # Cold: the first request after one of the player's matches changed.
            cold_ms, cold_queries = timed(call, args.repeat, cold=True)
            cold_cpu = timed.cpu
            warm_ms, warm_queries = timed(call, args.repeat)
            print(
                f"  {name}: {warm_ms:.1f} ms median (CPU {timed.cpu:.1f}), {warm_queries} "
                f"queries; cold {cold_ms:.1f} ms (CPU {cold_cpu:.1f}), {cold_queries} queries"
            )


if __name__ == "__main__":
    main()
