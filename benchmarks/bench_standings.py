"""Standings benchmark for the tournaments issue.

A 256-player, 8-round Swiss (tournament profile: best of five games to 250) with every
hand recorded: rounds are drafted, published and closed through the tournament services
(Swiss pairing from the standings, 128 matches a round started by scoring.services);
the hands of each match are generated and bulk-inserted (about 40,000 rows), scored by
the rules engine, because entering them one by one through the service would take hours
and is not what is measured. Then the standings selector is timed (organiser and public
view), with its query count, and the dashboard of the last round.

Run: .venv/bin/python benchmarks/bench_standings.py [--players 256] [--rounds 8]
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


def game_hands(rng: random.Random, winner: str, profile) -> list[tuple[str | None, int]]:
    """Hands of one game that `winner` wins: knocks, undercuts, gins and dead hands."""
    from scoring.rules import score_game

    hands: list[tuple[str | None, int]] = []
    while True:
        roll = rng.random()
        if roll < 0.05:
            hand = (None, 0)
        else:
            seat = winner if roll < 0.65 else ("B" if winner == "A" else "A")
            hand = (seat, rng.choice([5, 12, 18, 25, 31, 40, 52]))
        trial = score_game([*hands, hand], profile)
        if trial.finished and trial.winner != winner:
            continue  # keep the game for the chosen winner
        hands.append(hand)
        if trial.finished:
            return hands


def play_round_fast(rnd, rng: random.Random) -> int:
    """Fill every match of a published round with generated hands; returns hands made."""
    from scoring.models import Game, Hand, Match
    from scoring.rules import RuleProfile, score_game, score_match

    made = 0
    for pairing in rnd.pairings.exclude(match=None).select_related("match"):
        match = pairing.match
        profile = RuleProfile.from_dict(match.rules)
        winner = rng.choice("AB")
        loser = "B" if winner == "A" else "A"
        # the winner takes the last game; the games before it come in any order
        order = [winner] * (profile.games_to_win - 1) + [loser] * rng.randint(
            0, profile.games_to_win - 1
        )
        rng.shuffle(order)
        order.append(winner)
        match.games.all().delete()
        results, hand_rows = [], []
        for number, game_winner in enumerate(order, start=1):
            hands = game_hands(rng, game_winner, profile)
            result = score_game(hands, profile)
            results.append(result)
            game = Game.objects.create(
                match=match,
                number=number,
                first_dealer="A",
                state="finished",
                winner=result.winner,
                hand_points_a=result.hand_points["A"],
                hand_points_b=result.hand_points["B"],
                total_a=result.totals["A"],
                total_b=result.totals["B"],
                breakdown=result.as_dict(),
                explanation=result.explanation,
            )
            for index, (seat, points) in enumerate(hands, start=1):
                hand_rows.append(
                    Hand(
                        game=game,
                        number=index,
                        dealer="AB"[index % 2],
                        outcome="dead" if seat is None else "knock",
                        knocker=seat or "",
                        knocker_deadwood=None if seat is None else 2,
                        defender_deadwood=None if seat is None else 2 + points,
                        points=points,
                        winner=seat or "",
                        state="confirmed",
                    )
                )
        Hand.objects.bulk_create(hand_rows, batch_size=2000)
        made += len(hand_rows)
        summary = score_match(results, profile)
        Match.objects.filter(pk=match.pk).update(
            state="finished",
            winner=summary.winner,
            games_won_a=summary.games_won["A"],
            games_won_b=summary.games_won["B"],
            points_a=summary.totals["A"],
            points_b=summary.totals["B"],
        )
    return made


def timed(func, repeat: int) -> list[float]:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        runs.append((time.perf_counter() - start) * 1000)
    return runs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp) / "bench.sqlite3")
        run(args)


def run(args) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring.models import Club, Hand
    from scoring.services import Actor
    from tournaments import selectors, services
    from tournaments.serializers import DashboardOutputSerializer

    rng = random.Random(2026)
    user = get_user_model().objects.create_user("bench", password="x" * 12)
    club = Club.objects.create(name="Bench Club", slug="bench")
    club.organisers.add(user)
    actor = Actor(user=user)
    event = services.create_tournament(
        club=club,
        actor=actor,
        name="Bench Open",
        date=dt.date(2026, 11, 28),
        rounds=args.rounds,
        hide_standings_during_round=True,
    )
    names = "\n".join(f"Player {n:03d}" for n in range(1, args.players + 1))
    services.import_registrations(tournament_id=event.pk, actor=actor, content="name\n" + names)
    build = time.perf_counter()
    hands = 0
    for _ in range(args.rounds):
        rnd = services.draft_round(tournament_id=event.pk, actor=actor)
        services.publish_round(round_id=rnd.pk, actor=actor)
        hands += play_round_fast(rnd, rng)
        services.close_round(round_id=rnd.pk, actor=actor)
    print(
        f"built {args.players} players x {args.rounds} rounds, {hands} hands "
        f"({Hand.objects.count()} rows) in {time.perf_counter() - build:.0f} s"
    )
    event.refresh_from_db()
    for label, public in (("organiser", False), ("public", True)):
        with CaptureQueriesContext(connection) as queries:
            view = selectors.standings(event, public=public)
        runs = timed(lambda p=public: selectors.standings(event, public=p), args.repeat)
        print(
            f"standings ({label}): {len(view.rows)} rows, {len(queries)} queries, "
            f"median {statistics.median(runs):.1f} ms, max {max(runs):.1f} ms"
        )
    public_page(event, args.repeat)
    last = selectors.current_round(event)
    with CaptureQueriesContext(connection) as queries:
        _answer = DashboardOutputSerializer(selectors.dashboard(last)).data
    runs = timed(lambda: DashboardOutputSerializer(selectors.dashboard(last)).data, args.repeat)
    print(
        f"dashboard of round {last.number}: {len(queries)} queries, "
        f"median {statistics.median(runs):.1f} ms"
    )


def public_page(event, repeat: int) -> None:
    """The public standings page as a visitor's phone gets it: the whole request through
    Django's handler (middleware, selector, template), no network."""
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    client = Client()
    url = reverse("tournaments:public-standings", args=[event.slug])
    queries = []  # counted by a wrapper: each request resets Django's own query log

    def count(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        response = client.get(url)
    assert response.status_code == 200, response.status_code
    runs = timed(lambda: client.get(url), repeat)
    print(
        f"public standings page: {len(response.content) // 1024} KB HTML, "
        f"{len(queries)} queries, median {statistics.median(runs):.1f} ms, "
        f"max {max(runs):.1f} ms (goal 150 ms)"
    )


if __name__ == "__main__":
    main()
