"""Cheap answers to the partials that pages poll (scoreboard, dashboard, projector...).

A polled partial computes an ETag from a small version of what it shows (a ledger
position, a round's clock state...), the viewer (user, CSRF cookie: the partials carry
forms), the active language (the words differ) and the deployed templates, before
rendering anything. When the browser sends the same value back in `If-None-Match` the
answer is a 304 with no body and no rendering. `Cache-Control: private, no-cache` lets
the browser keep the last 200 and makes it revalidate on every poll: its XHR turns the
304 into that cached 200, so htmx swaps in the same content.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response
from django.utils.translation import get_language

POLL_CACHE_CONTROL = "private, no-cache"


@cache
def deploy_version() -> str:
    """What a deploy changes in the polled and cached output: `DJANGO_DEPLOY_VERSION` when
    set, else a digest of the project's code, templates and compiled translations (read
    once per process)."""
    given = os.environ.get("DJANGO_DEPLOY_VERSION")
    if given:
        return given
    digest = hashlib.sha256()
    for app in ("ginclub", "scoring", "tournaments"):  # the code that words and renders
        root = Path(settings.BASE_DIR) / app
        for path in sorted(root.rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    for folder in settings.TEMPLATES[0].get("DIRS", []):
        root = Path(folder)
        for path in sorted(root.rglob("*.html")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    for folder in settings.LOCALE_PATHS:
        root = Path(folder)
        for path in sorted(root.rglob("*.mo")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def poll_etag(request: HttpRequest, *version) -> str:
    """A strong ETag for `version` as seen by this viewer, in this deploy and in the
    active language (an Italian and an English viewer must not share a 304)."""
    user = getattr(request, "user", None)
    viewer = (
        user.pk if user is not None and user.is_authenticated else None,
        request.COOKIES.get(settings.CSRF_COOKIE_NAME, ""),
    )
    raw = repr((deploy_version(), get_language(), request.get_full_path(), viewer, version))
    return '"' + hashlib.sha256(raw.encode()).hexdigest()[:32] + '"'


def answer_poll(
    request: HttpRequest, version: tuple, render: Callable[[], HttpResponse]
) -> HttpResponse:
    """304 when the browser already holds this version, else `render()`; both carry the
    ETag and ask the browser to revalidate each time."""
    etag = poll_etag(request, *version)
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = render()
    if response.status_code in (200, 304):
        response["ETag"] = etag
        response["Cache-Control"] = POLL_CACHE_CONTROL
    return response


def shared_cache_key(key: str, key_prefix: str, version: int) -> str:
    """The "shared" cache's keys (settings.CACHES): what one worker computed is reused by
    the others only in the same deploy, so an entry never outlives the code and templates
    that made it (the keys themselves are digests of the content's inputs). The prefix (the
    deployment's, on Redis) comes first, as in Django's own keys, so a deployment's entries
    are found by it (ginclub.redis_cache)."""
    return f"{key_prefix}:{deploy_version()}:{version}:{key}"
