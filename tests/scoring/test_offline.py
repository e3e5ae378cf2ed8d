"""The match page as an installable web app (issue 11): the service worker, the manifest,
and the server side of the offline queue (static/js/offline.js replays kept entries)."""

from __future__ import annotations

import json
import re
import struct

import pytest
from django.test import Client

from ginclub.permissions import table_token
from scoring.models import Entry, Hand
from scoring.views_offline import MATCH_PAGE_ASSETS
from tests.scoring.helpers import key, seated_phone

pytestmark = pytest.mark.django_db


def worker_config(client) -> dict:
    response = client.get("/sw.js")
    first_line = response.content.decode().split("\n", 1)[0]
    assert first_line.startswith("self.GINCLUB = ") and first_line.endswith(";")
    return json.loads(first_line.removeprefix("self.GINCLUB = ").removesuffix(";"))


def test_the_service_worker_is_served_from_the_root_as_javascript_never_cached_stale():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    assert 'addEventListener("fetch"' in body  # static/js/sw.js follows its first line
    config = worker_config(Client())
    assert re.fullmatch(r"[0-9a-f]{12}", config["version"])
    assert config["static"] == "/static/"


def test_the_worker_stores_every_static_file_the_match_page_loads(match, alice):
    client = seated_phone(match, alice)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    loaded = set(re.findall(r'(?:src|href)="(/static/[^"]+)"', html))
    assert loaded, html[:300]
    stored = set(worker_config(client)["assets"])
    assert loaded <= stored, sorted(loaded - stored)
    for url in stored:  # and every one of them exists
        assert client.get(url).status_code == 200, url


def test_the_worker_version_follows_the_files_it_stores(settings):
    before = worker_config(Client())["version"]
    settings.STATIC_URL = "/assets/"  # as a deploy with other file names would
    after = worker_config(Client())
    assert after["version"] != before and after["assets"][0].startswith("/assets/")


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", body[16:24])


def test_the_manifest_installs_this_table_with_192_and_512_pixel_icons(match):
    response = Client().get(f"/matches/{match.pk}/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = response.json()
    assert data["start_url"] == f"/matches/{match.pk}/" and data["display"] == "standalone"
    sizes = {}
    for icon in data["icons"]:
        body = b"".join(Client().get(icon["src"]).streaming_content)
        width, height = png_size(body)
        sizes[icon["sizes"]] = f"{width}x{height}"
    assert sizes == {"192x192": "192x192", "512x512": "512x512"}


def test_the_match_page_links_the_manifest_and_the_queue_knows_who_is_seated(match, alice):
    client = seated_phone(match, alice)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'rel="manifest" href="/matches/{match.pk}/manifest.webmanifest"' in html
    assert f'data-who="p{alice.pk}"' in html and 'data-worker="/sw.js"' in html
    assert "js/offline.js" in html and "offline.js" in " ".join(MATCH_PAGE_ASSETS)


def test_a_phone_that_is_not_seated_queues_nothing(match):
    client = Client()
    client.get(f"/t/{table_token(match)}/")
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-who=""' in html


def test_a_kept_hand_sent_twice_with_the_token_of_the_moment_lands_once(match, alice):
    """What offline.js sends: the form's fields without the form's CSRF token (it may be
    an old page's), the current token as X-CSRFToken, as an htmx request."""
    client = seated_phone(match, alice, enforce_csrf_checks=True)
    client.get(f"/matches/{match.pk}/")
    token = client.cookies["csrftoken"].value
    body = {
        "game": 1,
        "number": 1,
        "idempotency_key": key(),
        "mode": "quick",
        "outcome": "knock",
        "knocker": "A",
        "knocker_deadwood": 4,
        "defender_deadwood": 30,
    }
    headers = {"X-CSRFToken": token, "HX-Request": "true"}
    first = client.post(f"/matches/{match.pk}/hands/", body, headers=headers)
    again = client.post(f"/matches/{match.pk}/hands/", body, headers=headers)
    assert first.status_code == again.status_code == 200
    assert Hand.objects.filter(game__match=match).count() == 1
    assert Entry.objects.filter(match=match, idempotency_key=body["idempotency_key"]).count() == 1
