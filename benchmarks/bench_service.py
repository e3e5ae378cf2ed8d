"""Service benchmarks for the match ledger issue.

1. Submitting a card-entry hand through the API (validation, engine, write, ledger row):
   server time per request over 1,000 hands on SQLite (a file, WAL, as in production),
   beside a bare one-row DRF create (a club: session, user, unique check, insert) timed
   the same way in the same run, in turns with the submits, the floor any write
   request pays here.
2. The match page's total transferred weight (HTML + CSS + JS, gzip) and any
   third-party request it would make.

Run: .venv/bin/python benchmarks/bench_service.py [--hands 1000]
It builds a throwaway database in a temporary directory; nothing else is touched.
"""

from __future__ import annotations

import argparse
import gzip
import random
import re
import statistics
import tempfile
import time
from pathlib import Path

from django_env import setup_django  # benchmarks/ is on sys.path when run as a script


def random_hands(count: int, seed: int = 7):
    from scoring.rules import best_arrangement, parse_cards

    deck = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    rng = random.Random(seed)
    hands = []
    while len(hands) < count:
        cards = rng.sample(deck, 20)
        knocker, defender = cards[:10], cards[10:]
        if best_arrangement(parse_cards(knocker)).deadwood <= 10:
            hands.append((knocker, defender))
    return hands


def bench_submit_and_bare(count: int) -> tuple[list[float], list[float]]:
    """The submit's timings and the bare create's, taken in turns (one submit, one
    create) through the same test client's middleware, so that a machine slowing down
    or speeding up during the run (seen here: one box's two runs differed by half)
    weighs on both alike."""
    from django.contrib.auth import get_user_model
    from django.test import Client, override_settings

    from scoring import services
    from scoring.models import Club, Player

    user = get_user_model().objects.create_user("bench", password="x")
    club = Club.objects.create(name="Bench", slug="bench")
    club.organisers.add(user)
    a, b = Player(club=club, name="A"), Player(club=club, name="B")
    for player in (a, b):
        player.set_pin("1234")
        player.save()
    client = Client()
    client.force_login(user)
    bare_client = Client()
    bare_client.force_login(get_user_model().objects.create_user("bare", password="x"))
    submits, bares = [], []
    hands = random_hands(count)
    match = None
    number = 0
    with override_settings(ROOT_URLCONF=_urls_with_bare_create()):
        for index, (knocker, defender) in enumerate(hands):
            if match is None or number >= 25:  # a long real game; hands pile up per game
                match = services.start_match(
                    club=club,
                    player_a=a,
                    player_b=b,
                    actor=services.Actor(user=user),
                    overrides={"game_target": 10**6},
                )
                number = 0
            number += 1
            body = {
                "game": 1,
                "number": number,
                "outcome": "knock",
                "knocker": "A",
                "knocker_cards": knocker,
                "defender_cards": defender,
                "idempotency_key": f"bench-{index}",
            }
            submits.append(_timed(client, f"/api/matches/{match.pk}/hands/", body, expect=201))
            body = {"name": f"Club {index}", "slug": f"bare-{index}"}
            bares.append(_timed(bare_client, "/bench/clubs/", body, expect=201))
    return submits, bares


def _timed(client, url: str, body: dict, *, expect: int) -> float:
    started = time.perf_counter()
    response = client.post(url, body, content_type="application/json")
    elapsed = (time.perf_counter() - started) * 1000
    assert response.status_code == expect, response.content
    return elapsed


def _urls_with_bare_create():
    """The site's URLs and, beside them, a bare one-row DRF create: a ModelSerializer of
    a club (its slug's unique check) saved by an @api_view."""
    import types

    from django.conf import settings
    from django.urls import include, path
    from rest_framework import serializers, status
    from rest_framework.decorators import api_view
    from rest_framework.response import Response

    from scoring.models import Club

    class ClubIn(serializers.ModelSerializer):
        class Meta:
            model = Club
            fields = ["id", "name", "slug"]

    @api_view(["POST"])
    def create(request):
        serializer = ClubIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        serializer.save()
        return Response(serializer.data, status=status.HTTP_201_CREATED)

    urls = types.ModuleType("bench_urls")
    urls.urlpatterns = [path("bench/clubs/", create), path("", include(settings.ROOT_URLCONF))]
    return urls


def page_weight() -> tuple[int, list[str]]:
    from django.test import Client

    from ginclub.permissions import table_token
    from scoring.models import Match

    match = Match.objects.first()
    client = Client(headers={"accept-encoding": "gzip"})
    client.get(f"/t/{table_token(match)}/")
    client.post(f"/matches/{match.pk}/seat/", {"player": match.player_a_id, "pin": "1234"})
    html = client.get(f"/matches/{match.pk}/").content
    external = [u.decode() for u in re.findall(rb'(?:src|href)="(https?://[^"]+)"', html)]
    total = len(gzip.compress(html))
    for asset in re.findall(rb'(?:src|href)="(/static/[^"]+)"', html):
        body = b"".join(client.get(asset.decode()).streaming_content)
        total += len(gzip.compress(body))
    return total, external


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp) / "bench.sqlite3")
        timings, bare = bench_submit_and_bare(args.hands)
        print(f"API card-entry submit, {len(timings)} hands, SQLite file:")
        print(f"  {_figures(timings)}  (goal: median <= 15 ms)")
        print(f"Bare one-row DRF create, {len(bare)} rows, same run:")
        print(f"  {_figures(bare)}")
        ratio = statistics.median(timings) / statistics.median(bare)
        print(f"  submit median / bare create median: {ratio:.1f}x (goal: <= 2x)")
        weight, external = page_weight()
        print(
            f"Match page weight: {weight / 1024:.1f} KB gzip in total (goal <= 50 KB); "
            f"third-party requests: {len(external)}"
        )


def _figures(timings: list[float]) -> str:
    ordered = sorted(timings)
    return (
        f"median {statistics.median(timings):.2f} ms   "
        f"p95 {ordered[int(len(ordered) * 0.95)]:.2f} ms   "
        f"mean {statistics.fmean(timings):.2f} ms"
    )


if __name__ == "__main__":
    main()
