"""The login form's limits, all applied BEFORE a password is hashed.

Checking a password costs PBKDF2 (tenths of a second of CPU, even for a name that does
not exist), and gunicorn's three sync workers also answer every phone's scoreboard poll.
So a flood of wrong logins must be refused cheaply, and the checks that do run must not
take every worker at once.

Terms:
    attempt         a login form sent; counted when it arrives, before its password is
                    checked, and forgiven when it succeeds.
    trusted device  a browser that logged in as a user before: it carries a signed cookie
                    (TRUST_COOKIE) naming that user. For that user it is exempt from the
                    address and username limits (which a stranger can trip), and has a
                    small limit of its own.
    check slot      one of LOGIN_CHECK_SLOTS password checks allowed to run at once on
                    this app server; a trusted device's check has one slot apart (the
                    flood's forms never hold it), one trusted check at a time.

Rules, each counted over the last LOGIN_WINDOW (a minute):
    the address     ADDRESS_LIMIT (30) attempts from one address that did not succeed,
                    for usernames that do not exist; and apart from those,
                    ADDRESS_KNOWN_LIMIT (30) for usernames that do. A flood of made-up
                    names from the venue's shared address (issue 24) spends only the
                    first budget, so the organiser on a browser that never logged in
                    there still gets their password checked; guessing real names from
                    one address stays bounded by the second, and by the two below.
    the username    USERNAME_LIMIT (20) for one username, from any addresses, each of
                    which counts for at most ADDRESS_SHARE (5): one stranger's address
                    cannot lock a name for everyone (django-axes already locks that
                    name on that address after 5).
    the device      DEVICE_LIMIT (5) for one trusted device and its user.
    at once         a check waits at most LOGIN_SLOT_WAIT (none by default: a waiting
                    sync worker is one the polls lose) for a slot, then is refused
                    (503 `login_busy`) instead of queueing behind a flood. With no
                    wait, a login sent while every slot is taken is refused before
                    anything is counted, and in production before Django handles it
                    at all (BusyGate, in ginclub.wsgi). The check itself runs at the
                    lowest CPU priority (ginclub.hashers).

Counting is atomic across every app server: the counters are rows of the database
(scoring's LoginCount, reached by its label as the ledger reaches its rows), one per key
and window, raised in one transaction that holds their row locks (on SQLite the
IMMEDIATE transaction is the lock), so attempts arriving at once on any servers are
admitted exactly up to a limit. A limit is judged on a sliding estimate, this window's
count plus the share of the last window's that still falls within the last minute, so
no burst straddling two windows gets twice the limit. Keys are digests: the table holds
no usernames or addresses. The slots are file locks in the directory this machine's
workers share (settings.SHARED_CACHE_DIR, also without a file cache), per machine, as
CPU is.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import secrets
import time
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.handlers.wsgi import WSGIRequest
from django.db import connection, transaction
from django.db.models import F
from django.http import parse_cookie
from django.template import loader
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ginclub.errors import ServiceError, Throttled, refusal_of
from ginclub.middleware import refusal_response

LOGIN_WINDOW = 60  # seconds
ADDRESS_LIMIT = 30  # usernames that do not exist
ADDRESS_KNOWN_LIMIT = 30  # usernames that do
USERNAME_LIMIT = 20
ADDRESS_SHARE = 5  # of one username's count, from any one address
DEVICE_LIMIT = 5
BUSY_RETRY_AFTER = 2  # seconds: a check takes about one
TRUST_COOKIE = "ginclub_device"
TRUST_MAX_AGE = 60 * 60 * 24 * 180  # half a year, as a phone's browser is kept
_TRUST_SALT = "ginclub.login_limits.trusted-device"
COUNT_MODEL = "scoring.LoginCount"
_PRUNE_LOCK = int.from_bytes(hashlib.sha256(b"login-count-prune").digest()[:8], "big", signed=True)

# Seconds since the epoch; tests put a clock of their own here.
clock: Callable[[], float] = time.time


@dataclass(frozen=True)
class Attempt:
    """The counter keys one arriving login was counted under, and in which window."""

    keys: tuple[str, ...]
    window: int


def _directory() -> Path:
    path = Path(settings.SHARED_CACHE_DIR)
    path.mkdir(parents=True, exist_ok=True)
    return path


def _counts():
    return apps.get_model(COUNT_MODEL)


def _key(kind: str, value: str) -> str:
    return f"{kind}:{hashlib.sha256(f'{kind}:{value}'.encode()).hexdigest()[:40]}"


def _normal(username: str) -> str:
    """The username as the login form reads it (stripped, NFKC)."""
    return unicodedata.normalize("NFKC", username.strip())


def _exists(username: str) -> bool:
    """Whether someone could log in with this name (the lookup ModelBackend makes)."""
    users = get_user_model()
    name = _normal(username)
    return bool(name) and users._default_manager.filter(**{users.USERNAME_FIELD: name}).exists()


def _plan(username: str, ip: str | None, device: str) -> tuple[tuple[str, ...], dict[str, int]]:
    """The keys an attempt counts under (the address's, its share of the name's, the
    name's; or the trusted device's alone) and the limits among them."""
    if device:
        key = _key("device", device)
        return (key,), {key: DEVICE_LIMIT}
    name, address = _normal(username).lower(), ip or ""
    if _exists(username):
        address_key, address_limit = _key("ip-known", address), ADDRESS_KNOWN_LIMIT
    else:
        address_key, address_limit = _key("ip", address), ADDRESS_LIMIT
    user_key = _key("user", name)
    keys = (address_key, _key("pair", f"{address}|{name}"), user_key)
    return keys, {address_key: address_limit, user_key: USERNAME_LIMIT}


def admit(*, username: str, ip: str | None, device: str = "") -> Attempt:
    """Count a login before its password is checked; `device` is `trusted_device` ("" for
    a browser not trusted for this username). Raises Throttled (`login_throttled`) when a
    limit above is reached; nothing is counted then."""
    keys, limits = _plan(username, ip, device)
    now = clock()
    window = int(now // LOGIN_WINDOW)
    still = 1 - (now % LOGIN_WINDOW) / LOGIN_WINDOW  # of the last window, within a minute
    counts = _counts()
    with transaction.atomic():
        _prune(window)
        counts.objects.bulk_create(
            [counts(key=key, window=window) for key in sorted(keys)], ignore_conflicts=True
        )
        rows = counts.objects.select_for_update().filter(key__in=keys, window=window)
        current = dict(rows.order_by("key").values_list("key", "count"))
        last = dict(
            counts.objects.filter(key__in=keys, window=window - 1).values_list("key", "count")
        )
        if any(current[k] + last.get(k, 0) * still >= limit for k, limit in limits.items()):
            raise Throttled(
                "login_throttled",
                _(
                    "Too many failed logins for this name or from this network; wait a "
                    "minute and try again."
                ),
                retry_after=LOGIN_WINDOW,
            )
        if not device and current[keys[1]] + last.get(keys[1], 0) * still >= ADDRESS_SHARE:
            keys = keys[:2]  # this address has had its share of the name's count
        counts.objects.filter(key__in=keys, window=window).update(count=F("count") + 1)
    return Attempt(keys=keys, window=window)


# Sign-up forms (tournaments.services.signups) sent from one address in a LOGIN_WINDOW,
# counted in the same table, in the same way, as logins: a venue's players share one
# address, so it is generous; a script filling the waiting list is not.
SIGNUP_ADDRESS_LIMIT = 20


def admit_signup(*, ip: str | None) -> None:
    """Count a sign-up form before anything is checked or written. Raises Throttled
    (`signup_throttled`) when the address has sent SIGNUP_ADDRESS_LIMIT within the
    last minute (the sliding estimate of `admit`); nothing is counted then."""
    key = _key("signup-ip", ip or "")
    now = clock()
    window = int(now // LOGIN_WINDOW)
    still = 1 - (now % LOGIN_WINDOW) / LOGIN_WINDOW
    counts = _counts()
    with transaction.atomic():
        _prune(window)
        counts.objects.bulk_create([counts(key=key, window=window)], ignore_conflicts=True)
        current = counts.objects.select_for_update().get(key=key, window=window).count
        last = counts.objects.filter(key=key, window=window - 1).values_list("count", flat=True)
        if current + (last.first() or 0) * still >= SIGNUP_ADDRESS_LIMIT:
            raise Throttled(
                "signup_throttled",
                _("Too many sign-ups from this network; wait a minute and try again."),
                retry_after=LOGIN_WINDOW,
            )
        counts.objects.filter(key=key, window=window).update(count=F("count") + 1)


def _prune(window: int) -> None:
    """Drop the windows no limit reads any more. One pruner at a time on PostgreSQL (the
    others skip it), so two deletes never wait on each other's rows."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [_PRUNE_LOCK])
            if not cursor.fetchone()[0]:
                return
    _counts().objects.filter(window__lt=window - 1).delete()


def forgive(attempt: Attempt) -> None:
    """The attempt succeeded (or never reached a password check): it no longer counts."""
    rows = _counts().objects.filter(key__in=attempt.keys, window=attempt.window, count__gt=0)
    rows.update(count=F("count") - 1)


def reset() -> None:
    """Forget every counter (an operator after an incident)."""
    _counts().objects.all().delete()


def _busy() -> ServiceError:
    return ServiceError(
        "login_busy",
        _("The server is busy checking other logins; try again in a few seconds."),
        status=503,
        retry_after=BUSY_RETRY_AFTER,
    )


def _slot_files(trusted: bool = False) -> list:
    """The check slots' lock files: LOGIN_CHECK_SLOTS for any login, or the one kept apart
    for a trusted device's (`trusted`), so that a flood holding every other slot cannot
    keep out a browser that logged in before."""
    directory = _directory()
    if trusted:
        return [open(directory / "login-slot-trusted.lock", "a")]  # noqa: SIM115
    return [
        open(directory / f"login-slot-{n}.lock", "a") for n in range(settings.LOGIN_CHECK_SLOTS)
    ]  # noqa: SIM115


def _take(handle) -> bool:
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def slot_free(trusted: bool = False) -> bool:
    """Whether a check slot is free now (`trusted`: the trusted devices' slot): a glance,
    which may be out of date by the time `check_slot` asks for one."""
    handles = _slot_files(trusted)
    try:
        for handle in handles:
            if _take(handle):
                fcntl.flock(handle, fcntl.LOCK_UN)
                return True
        return False
    finally:
        for handle in handles:
            handle.close()


def require_free_slot(trusted: bool = False) -> None:
    """Refuse at once (ServiceError `login_busy`, 503), before anything is counted or
    written, when every slot is taken and no login may wait for one: under a flood most
    logins end here, and an answer that writes nothing keeps the workers free for the
    polls. `trusted`: a trusted device's login, which asks for its own slot."""
    if not settings.LOGIN_SLOT_WAIT and not slot_free(trusted):
        raise _busy()


class BusyGate:
    """WSGI middleware (ginclub.wsgi): a login form sent while every check slot is taken
    and no login may wait is answered 503 `login_busy` with Retry-After before Django
    handles it at all (no session, no database, no site layout: about a millisecond),
    so a flood's hundred requests queued ahead of a phone's poll pass quickly. A form
    carrying a trust cookie the app signed goes on to the view, which asks for the
    trusted devices' slot if the cookie is for the name sent (the gate reads no body);
    a forged cookie is refused here like no cookie. The login view makes the same glance
    for what this does not see (the test client)."""

    def __init__(self, app) -> None:
        self.app = app

    def __call__(self, environ, start_response):
        if (
            environ.get("REQUEST_METHOD") == "POST"
            and environ.get("PATH_INFO") == _login_path()
            and not settings.LOGIN_SLOT_WAIT
            and not slot_free()
            and not _trust_of(parse_cookie(environ.get("HTTP_COOKIE", "")).get(TRUST_COOKIE))
        ):
            body = _busy_page(environ)
            start_response(
                "503 Service Unavailable",
                [
                    ("Content-Type", "text/html; charset=utf-8"),
                    ("Content-Length", str(len(body))),
                    ("Retry-After", str(BUSY_RETRY_AFTER)),
                    ("Cache-Control", "no-store"),
                    ("X-Content-Type-Options", "nosniff"),
                ],
            )
            return [body]
        return self.app(environ, start_response)


@functools.cache
def _login_path() -> str:
    return reverse("login")


def _busy_page(environ) -> bytes:
    """The busy answer in the visitor's language (the language cookie, else the browser's
    Accept-Language), as LocaleMiddleware would choose it."""
    return _busy_page_in(translation.get_language_from_request(WSGIRequest(environ)))


@functools.cache
def _busy_page_in(language: str) -> bytes:
    """Made once per language and process: the page says the same to everyone."""
    with translation.override(language):
        busy = _busy()
        context = {"code": busy.code, "message": busy.message, "login": _login_path()}
        try:
            context["stylesheet"] = static("css/app.css")
        except ValueError:  # static files not collected: ginclub.readiness says so
            pass
        return loader.render_to_string("registration/login_busy.html", context).encode()


@contextmanager
def check_slot(trusted: bool = False) -> Iterator[None]:
    """Hold one of LOGIN_CHECK_SLOTS (`trusted`: the trusted devices' slot) while a
    password is checked. Raises ServiceError (`login_busy`, 503) if none frees within
    LOGIN_SLOT_WAIT seconds."""
    deadline = time.monotonic() + settings.LOGIN_SLOT_WAIT
    handles = _slot_files(trusted)
    try:
        while True:
            for handle in handles:
                if not _take(handle):
                    continue
                try:
                    yield
                finally:
                    fcntl.flock(handle, fcntl.LOCK_UN)
                return
            if time.monotonic() >= deadline:
                raise _busy()
            time.sleep(0.05)
    finally:
        for handle in handles:
            handle.close()


def trust_token(user) -> str:
    """The signed cookie value that marks this browser as one `user` logged in from."""
    data = {"n": user.get_username().lower(), "d": secrets.token_hex(8)}  # one per device
    return signing.dumps(data, salt=_TRUST_SALT)


def trusted_device(request, username: str) -> str:
    """This browser's device key if it carries a valid trust cookie for `username`, else ""."""
    value = request.COOKIES.get(TRUST_COOKIE, "")
    data = _trust_of(value)
    if data is None or not username or data.get("n") != username.strip().lower():
        return ""
    return hashlib.sha256(value.encode()).hexdigest()[:32]


def _trust_of(value: str | None) -> dict | None:
    """What a trust cookie the app signed says (whose it is), else None."""
    if not value:
        return None
    try:
        return signing.loads(value, salt=_TRUST_SALT, max_age=TRUST_MAX_AGE)
    except signing.BadSignature:
        return None


def axes_whitelist(request, credentials=None) -> bool:
    """django-axes' AXES_WHITELIST_CALLABLE: a trusted device is not locked by axes'
    (username, address) lock, which a stranger on the venue's address can trip; the
    device limit above bounds it instead."""
    username = (credentials or {}).get("username") or ""
    return request is not None and bool(trusted_device(request, username))


def axes_lockout(request, original_response=None, credentials=None):
    """django-axes' AXES_LOCKOUT_CALLABLE: its lock of a name on an address (5 wrong
    passwords) answered like any refusal, 429 `login_locked` in the site's words with
    Retry-After, instead of axes' bare English text. Each try during the lock starts
    its cool-off again (axes' default), so the wait is the whole cool-off from now."""
    seconds = int(settings.AXES_COOLOFF_TIME * 3600)
    minutes = max(1, seconds // 60)
    locked = Throttled(
        "login_locked",
        _(
            "Too many wrong passwords for this name from this network; try again in "
            "%(minutes)s, or log in from a browser you logged in from before."
        )
        % {
            "minutes": ngettext("%(count)s minute", "%(count)s minutes", minutes)
            % {"count": minutes}
        },
        retry_after=seconds,
    )
    return refusal_response(request, refusal_of(locked))
