"""Service benchmarks for the match ledger issue.

1. Submitting a card-entry hand through the API (validation, engine, write, ledger row):
   server time per request over 1,000 hands on SQLite (a file, WAL, as in production),
   beside a bare one-row DRF create (a club: session, user, unique check, insert) timed
   the same way in the same run, in turns with the submits, the floor any write
   request pays here. The organiser's submit (confirmed at once, the match recomputed)
   is the figure compared with the bare create; the same hands entered by a player and
   confirmed by the opponent, as at a table, are timed in the same turns.
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


def bench_submit_and_bare(count: int) -> dict[str, list[float]]:
    """Timings, taken in turns through the same test client's middleware so that a
    machine slowing down or speeding up during the run (seen here: one box's two runs
    differed by half) weighs on all alike, for each hand:
    - `submit`: the hand entered by an organiser (confirmed at once: the match
      recomputed, its seat summaries rewritten), the figure issue 26's goal compares;
    - `bare`: the bare one-row DRF create;
    - `player_submit` and `player_confirm`: the same hand entered by the knocker's
      player, logged in, in another match, and confirmed by the opponent's player, as
      hands are recorded at a table."""
    from django.contrib.auth import get_user_model
    from django.test import Client, override_settings

    from scoring import services
    from scoring.models import Club, Player

    users = get_user_model().objects
    user = users.create_user("bench", password="x")
    club = Club.objects.create(name="Bench", slug="bench")
    club.organisers.add(user)
    a, b = Player(club=club, name="A"), Player(club=club, name="B")
    for player in (a, b):
        player.set_pin("1234")
        player.user = users.create_user(f"player-{player.name}", password="x")
        player.save()
    client, bare_client, a_client, b_client = Client(), Client(), Client(), Client()
    client.force_login(user)
    bare_client.force_login(users.create_user("bare", password="x"))
    a_client.force_login(a.user)
    b_client.force_login(b.user)
    timings: dict[str, list[float]] = {
        "submit": [],
        "bare": [],
        "player_submit": [],
        "player_confirm": [],
    }
    hands = random_hands(count)
    matches: dict[str, object] = {}
    number = 0

    def new_match():
        return services.start_match(
            club=club,
            player_a=a,
            player_b=b,
            actor=services.Actor(user=user),
            overrides={"game_target": 10**6},
        )

    with override_settings(ROOT_URLCONF=_urls_with_bare_create()):
        for index, (knocker, defender) in enumerate(hands):
            if not matches or number >= 25:  # a long real game; hands pile up per game
                matches = {"organiser": new_match(), "players": new_match()}
                number = 0
            number += 1
            body = {
                "game": 1,
                "number": number,
                "outcome": "knock",
                "knocker": "A",
                "knocker_cards": knocker,
                "defender_cards": defender,
            }
            url = f"/api/matches/{matches['organiser'].pk}/hands/"
            keyed = {**body, "idempotency_key": f"bench-{index}"}
            timings["submit"].append(_timed(client, url, keyed, expect=201)[0])
            created = {"name": f"Club {index}", "slug": f"bare-{index}"}
            timings["bare"].append(_timed(bare_client, "/bench/clubs/", created, expect=201)[0])
            url = f"/api/matches/{matches['players'].pk}/hands/"
            keyed = {**body, "idempotency_key": f"player-{index}"}
            elapsed, answer = _timed(a_client, url, keyed, expect=201)
            timings["player_submit"].append(elapsed)
            hand = answer["hand"]
            url = f"/api/hands/{hand['id']}/confirm/"
            keyed = {"version": hand["version"], "idempotency_key": f"confirm-{index}"}
            timings["player_confirm"].append(_timed(b_client, url, keyed, expect=200)[0])
    return timings


def _timed(client, url: str, body: dict, *, expect: int) -> tuple[float, dict]:
    started = time.perf_counter()
    response = client.post(url, body, content_type="application/json")
    elapsed = (time.perf_counter() - started) * 1000
    assert response.status_code == expect, response.content
    return elapsed, response.json()


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
        timings = bench_submit_and_bare(args.hands)
        submits, bare = timings["submit"], timings["bare"]
        print(f"API card-entry submit by an organiser, {len(submits)} hands, SQLite file:")
        print(f"  {_figures(submits)}  (goal: median <= 15 ms)")
        print(f"Bare one-row DRF create, {len(bare)} rows, same run:")
        print(f"  {_figures(bare)}")
        ratio = statistics.median(submits) / statistics.median(bare)
        print(f"  submit median / bare create median: {ratio:.1f}x (goal: <= 2x)")
        for name, said in [("player_submit", "submit"), ("player_confirm", "confirm")]:
            print(f"The same hands at a table, the {said} by a logged-in player, same run:")
            ratio = statistics.median(timings[name]) / statistics.median(bare)
            print(f"  {_figures(timings[name])}  ({ratio:.1f}x the bare create)")
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
