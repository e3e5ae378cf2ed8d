"""Season ladder benchmark for the club's-memory issue (issue 12).

The club of bench_player (200 players, 20,000 finished matches over two years, built in
bulk by its builder), of which the 2,000 most recent become the tables of ten one-day
tournaments (registrations, five closed rounds each, a pairing per match: bulk too).
A season covering all two years counts every match: 2,000 tournament tables and 18,000
club nights. Timed: the ladder selector (its query count too), the ladder page through
Django's handler (an organiser logged in) and the API's ladder.

The ladder reads no hand rows, so by default the matches are built without hands
(--hands 0), which takes seconds instead of minutes; --hands 50 builds bench_player's
million hand rows too.

Run: .venv/bin/python benchmarks/bench_season.py [--players 200] [--matches 20000]
       [--hands 0] [--repeat 15]
It builds a throwaway SQLite database in a temporary directory; nothing else is touched.
"""

from __future__ import annotations

import argparse
import datetime as dt
import tempfile
from pathlib import Path

from bench_player import build, timed  # benchmarks/ is on sys.path when run as a script
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument("--hands", type=int, default=0)
    parser.add_argument("--tables", type=int, default=2_000, help="matches in tournaments")
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp) / "bench.sqlite3")
        from django.contrib.auth import get_user_model
        from django.test import Client

        from ginclub.permissions import Actor
        from tournaments import ladders
        from tournaments.services.seasons import create_season

        people = build(args.players, args.matches, args.hands)
        make_tournaments(people, args.tables)
        organiser = get_user_model().objects.get(username="organiser")
        today = dt.date.today()
        season = create_season(
            club=people[0].club,
            actor=Actor(user=organiser),
            name="Two years",
            starts_on=today - dt.timedelta(days=800),
            ends_on=today,
            min_matches=150,
        )
        view = ladders.ladder(season)
        ranked = len(view.ranked)
        print(
            f"season: {view.tournament_matches} tournament matches, "
            f"{view.club_night_matches} club nights, {len(view.rows)} players "
            f"({ranked} ranked from {season.min_matches} matches)"
        )
        ms, queries = timed(lambda: ladders.ladder(season), args.repeat)
        print(f"  ladder selector {ms:.1f} ms median, {queries} queries (goal 100 ms)")
        client = Client()
        client.force_login(organiser)
        page = f"/clubs/{season.club.slug}/seasons/{season.slug}/"
        ms, queries = timed(lambda: client.get(page), args.repeat)
        size = len(client.get(page).content) / 1024
        print(f"  ladder page {ms:.1f} ms median, {queries} queries, {size:.0f} KB of HTML")
        api = f"/api/clubs/{season.club.slug}/seasons/{season.slug}/ladder/"
        ms, queries = timed(lambda: client.get(api), args.repeat)
        print(f"  API {ms:.1f} ms median, {queries} queries")


if __name__ == "__main__":
    main()
