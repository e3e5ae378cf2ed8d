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
                    this app server.

Rules, each counted over the last LOGIN_WINDOW (a minute):
    the address     ADDRESS_LIMIT (30) attempts from one address that did not succeed.
    the username    USERNAME_LIMIT (20) for one username, from any addresses, each of
                    which counts for at most ADDRESS_SHARE (5): one stranger's address
                    cannot lock a name for everyone (django-axes already locks that
                    name on that address after 5).
    the device      DEVICE_LIMIT (5) for one trusted device and its user.
    at once         a check waits at most LOGIN_SLOT_WAIT (none by default: a waiting
                    sync worker is one the polls lose) for a slot, then is refused
                    (503 `login_busy`) instead of queueing behind a flood.

Counting is atomic across the workers of one app server: the counters are a small file
in the shared cache directory, read and rewritten under an exclusive file lock; the
slots are file locks in the same directory. Both are per machine, as CPU is.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core import signing
from django.utils.translation import gettext as _

from ginclub.errors import ServiceError, Throttled

LOGIN_WINDOW = 60.0  # seconds
ADDRESS_LIMIT = 30
USERNAME_LIMIT = 20
ADDRESS_SHARE = 5  # of one username's count, from any one address
DEVICE_LIMIT = 5
TRUST_COOKIE = "ginclub_device"
TRUST_MAX_AGE = 60 * 60 * 24 * 180  # half a year, as a phone's browser is kept
_TRUST_SALT = "ginclub.login_limits.trusted-device"


@dataclass(frozen=True)
class Attempt:
    """The counter keys one arriving login was counted under."""

    keys: tuple[str, ...]
    at: float


def _directory() -> Path:
    path = Path(settings.CACHES["shared"]["LOCATION"])
    path.mkdir(parents=True, exist_ok=True)
    return path


@contextmanager
def _counters() -> Iterator[dict[str, list[float]]]:
    """The counters, read and written back under an exclusive lock (one writer at a time
    across processes and threads: each open file has its own lock)."""
    path = _directory() / "login-counters.json"
    with open(path, "a+", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        handle.seek(0)
        text = handle.read()
        counters: dict[str, list[float]] = json.loads(text) if text else {}
        since = time.time() - LOGIN_WINDOW
        counters = {k: [t for t in v if t > since] for k, v in counters.items()}
        yield counters
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps({k: v for k, v in counters.items() if v}))
        handle.flush()


def admit(*, username: str, ip: str | None, device: str = "") -> Attempt:
    """Count a login before its password is checked; `device` is `trusted_device` ("" for
    a browser not trusted for this username). Raises Throttled (`login_throttled`) when a
    limit above is reached; nothing is counted then."""
    name = username.strip().lower()
    if device:
        keys: tuple[str, ...] = (f"device:{device}",)
        limits = {keys[0]: DEVICE_LIMIT}
    else:
        keys = (f"ip:{ip or ''}", f"pair:{ip or ''}:{name}", f"user:{name}")
        limits = {keys[0]: ADDRESS_LIMIT, keys[2]: USERNAME_LIMIT}
    with _counters() as counters:
        if any(len(counters.get(key, [])) >= limit for key, limit in limits.items()):
            raise Throttled(
                "login_throttled",
                _(
                    "Too many failed logins for this name or from this network; wait a "
                    "minute and try again."
                ),
            )
        if not device and len(counters.get(keys[1], [])) >= ADDRESS_SHARE:
            keys = keys[:2]  # this address has had its share of the name's count
        now = time.time()
        for key in keys:
            counters.setdefault(key, []).append(now)
    return Attempt(keys=keys, at=now)


def forgive(attempt: Attempt) -> None:
    """The attempt succeeded (or never reached a password check): it no longer counts."""
    with _counters() as counters:
        for key in attempt.keys:
            times = counters.get(key, [])
            if attempt.at in times:
                times.remove(attempt.at)


def reset() -> None:
    """Forget every counter (tests; an operator after an incident)."""
    with _counters() as counters:
        counters.clear()


@contextmanager
def check_slot() -> Iterator[None]:
    """Hold one of LOGIN_CHECK_SLOTS while a password is checked. Raises ServiceError
    (`login_busy`, 503) if none frees within LOGIN_SLOT_WAIT seconds."""
    slots = settings.LOGIN_CHECK_SLOTS
    deadline = time.monotonic() + settings.LOGIN_SLOT_WAIT
    handles = [open(_directory() / f"login-slot-{n}.lock", "a") for n in range(slots)]  # noqa: SIM115
    try:
        while True:
            for handle in handles:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue
                try:
                    yield
                finally:
                    fcntl.flock(handle, fcntl.LOCK_UN)
                return
            if time.monotonic() >= deadline:
                raise ServiceError(
                    "login_busy",
                    _("The server is busy checking other logins; try again in a few seconds."),
                    status=503,
                )
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
    if not value or not username:
        return ""
    try:
        data = signing.loads(value, salt=_TRUST_SALT, max_age=TRUST_MAX_AGE)
    except signing.BadSignature:
        return ""
    if data.get("n") != username.strip().lower():
        return ""
    return hashlib.sha256(value.encode()).hexdigest()[:32]


def axes_whitelist(request, credentials=None) -> bool:
    """django-axes' AXES_WHITELIST_CALLABLE: a trusted device is not locked by axes'
    (username, address) lock, which a stranger on the venue's address can trip; the
    device limit above bounds it instead."""
    username = (credentials or {}).get("username") or ""
    return request is not None and bool(trusted_device(request, username))
