"""The match page as an installable web app that keeps working when the Wi-Fi drops.

- The service worker (static/js/sw.js, served from /sw.js so that its scope is the whole
  site): the match page network-first with the last copy as the fallback offline, and
  the page's static files. Its first line names a version made from its own source and
  the static addresses it caches (hashed ones after collectstatic), so a deploy that
  changes either installs a new worker, which drops the old caches.
- The manifest of one table: installing it from the match page opens that match.

Neither reads the database: the worker and the manifest carry no one's data (the match
page itself is still asked for with the browser's own session, and only that browser
keeps it).
"""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

# Every static file the match page loads (base.html and scoring/match.html); the worker
# stores them when it installs. A test holds this list to the page's own <script> and
# <link> addresses. Files the page gains later are cached the first time they load.
MATCH_PAGE_ASSETS = (
    "css/app.css",
    "js/htmx.min.js",
    "js/words.js",
    "js/connection.js",
    "js/refusals.js",
    "js/keep-open.js",
    "js/clock.js",
    "js/offline.js",
    "js/melds.js",
    "js/cards.js",
    "js/keyboard.js",
    "favicon.ico",
    "icons/apple-touch-icon.png",
    "icons/icon-192.png",
)
ICONS = (("icons/icon-192.png", "192x192"), ("icons/icon-512.png", "512x512"))
THEME_COLOUR = "#1f6f43"  # --accent in static/css/app.css


def _worker_source() -> str:
    with open(finders.find("js/sw.js"), encoding="utf-8") as source:
        return source.read()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, with its version and the files it caches in its first line."""
    source = _worker_source()
    assets = [static(path) for path in MATCH_PAGE_ASSETS]
    words = _offline_words()
    version = hashlib.sha256(json.dumps([source, assets, words]).encode()).hexdigest()[:12]
    config = {"version": version, "assets": assets, "static": static(""), "offline": words}
    body = f"self.GINCLUB = {json.dumps(config)};\n{source}"
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # Browsers check the worker on every visit; it must never be kept stale by a cache.
    response["Cache-Control"] = "no-cache"
    return response


def _offline_words() -> dict[str, dict[str, str]]:
    """The page the worker shows for a match page it never kept, in every language: the
    worker picks by the phone's language (it has no request to negotiate with)."""
    words = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            words[code] = {
                "title": _("Offline · ginclub"),
                "heading": _("No connection"),
                "text": _(
                    "This page was not opened on this phone while it was online, so it "
                    "cannot be shown now. Check the Wi-Fi and try again."
                ),
            }
    return words


@require_GET
def manifest(request: HttpRequest, match_id: int) -> JsonResponse:
    """The web app manifest of one table: the installed icon opens this match."""
    start = reverse("scoring:match", args=[match_id])
    data = {
        "id": start,
        "name": _("ginclub: this table"),
        "short_name": "ginclub",
        "description": _("Enter and confirm the hands of this match, with or without Wi-Fi."),
        "start_url": start,
        "scope": "/",
        "display": "standalone",
        "background_color": "#f7f5f0",
        "theme_color": THEME_COLOUR,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": "any"}
            for path, sizes in ICONS
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    # Its words are in the viewer's language: a shared cache must keep each language apart.
    response["Cache-Control"] = "public, max-age=3600"
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response
