"""The match page's weight on a phone, service worker included (issue 11: under 50 KB gzip,
no third-party request).

A seated phone's match page (a match with three hands, one pending), every file it
loads (<script src>, <link href>), the manifest it links, the service worker (/sw.js)
and every file the worker stores when it installs (the same files, and the 192 px icon
for the installed app): each body's gzip size (level 9, as whitenoise's compressed
copies), each counted once, and the total. Static files come from `collectstatic`
(hashed names), as in production.

Run: .venv/bin/python benchmarks/bench_page_weight.py
It builds a throwaway database in a temporary directory; nothing else is touched.
"""

from __future__ import annotations

import gzip
import json
import re
import tempfile
from pathlib import Path

from django_env import setup_django  # benchmarks/ is on sys.path when run as a script

GOAL = 50 * 1024


def seated_phone():
    from django.contrib.auth import get_user_model
    from django.test import Client

    from ginclub.permissions import table_token
    from scoring import services
    from scoring.hand_input import HandInput
    from scoring.models import Club, Player

    user = get_user_model().objects.create_user("weight", password="x")
    club = Club.objects.create(name="Weight", slug="weight")
    club.organisers.add(user)
    a, b = Player(club=club, name="Ada"), Player(club=club, name="Ben")
    for player in (a, b):
        player.set_pin("1234")
        player.save()
    actor = services.Actor(user=user)
    match = services.start_match(club=club, player_a=a, player_b=b, actor=actor)
    for number, (kd, dd) in enumerate(((4, 30), (2, 20), (7, 15)), start=1):
        hand = HandInput(
            game=1, number=number, outcome="knock", knocker="A",
            knocker_deadwood=kd, defender_deadwood=dd,
        )  # fmt: skip
        services.submit_hand(
            match_id=match.pk, actor=actor, hand=hand, idempotency_key=f"w{number}"
        )
    client = Client()  # raw bodies: each is gzipped here, at level 9
    client.get(f"/t/{table_token(match)}/")
    client.post(f"/matches/{match.pk}/seat/", {"player": b.pk, "pin": "1234"})
    return client, match


def body_of(client, url: str) -> bytes:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content)
    return response.content


def weigh(client, match) -> tuple[list[tuple[str, int, int]], list[str]]:
    page = f"/matches/{match.pk}/"
    html = body_of(client, page)
    assert b'id="offline-queue"' in html and b'data-who="p' in html, "not a seated phone's page"
    external = [u.decode() for u in re.findall(rb'(?:src|href)="(https?://[^"]+)"', html)]
    urls = [page]
    urls += [u.decode() for u in re.findall(rb'(?:src|href)="(/static/[^"]+)"', html)]
    urls += [u.decode() for u in re.findall(rb'rel="manifest" href="([^"]+)"', html)]
    worker = body_of(client, "/sw.js")
    config = json.loads(worker.split(b"\n", 1)[0].removeprefix(b"self.GINCLUB = ").rstrip(b";"))
    urls += ["/sw.js", *config["assets"]]
    rows, seen = [], set()
    for url in urls:
        if url in seen:
            continue
        seen.add(url)
        body = html if url == page else body_of(client, url)
        rows.append((url, len(body), len(gzip.compress(body, compresslevel=9))))
    return rows, external


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp) / "bench.sqlite3")
        client, match = seated_phone()
        rows, external = weigh(client, match)
    width = max(len(url) for url, _, _ in rows)
    print(f"{'address':<{width}}  {'bytes':>8}  {'gzip':>8}")
    for url, raw, packed in rows:
        print(f"{url:<{width}}  {raw:>8,}  {packed:>8,}")
    total = sum(packed for _, _, packed in rows)
    verdict = "met" if total <= GOAL and not external else "MISSED"
    print(
        f"Match page with its service worker: {total / 1024:.1f} KB gzip in all "
        f"(goal <= {GOAL // 1024} KB: {verdict}); third-party requests: {len(external)}"
    )


if __name__ == "__main__":
    main()
