"""The password hasher: Django's PBKDF2-SHA256, computed in a thread of its own that
runs at a low CPU priority.

A password check is PBKDF2 at Django's strength, most of a second of one core. The same
gunicorn workers answer every phone's scoreboard poll, and a flood of logins keeps one
check running all the time (ginclub.login_limits lets no more run at once): on a
two-core server that is half the CPU, taken from the polls. Linux gives each thread its
own niceness, so the check runs in one thread per process that lowered its own to 10
when it started; the scheduler then gives the polls' threads about ten times the check's
share of a busy core. Not 19 (the lowest): on a server whose cores the polls keep busy,
a check at 19 gets about a sixtieth of a core, so the organiser's own login took over
20 s (a walk through the demo on gunicorn, the test suite busy beside it, load average
8); at 10 it took 4 to 7 s there. The request that asked waits for the result (hashlib releases
the GIL meanwhile), so nothing about the check changes but when it gets the CPU: the
same hash, the same algorithm name (stored hashes keep verifying and are not
"upgraded"), and a name that does not exist is hashed the same way, so a refusal takes
as long for it.
"""

from __future__ import annotations

import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from django.contrib.auth.hashers import PBKDF2PasswordHasher

CHECK_PRIORITY = 10

_pool: ThreadPoolExecutor | None = None
_pool_pid = 0
_pool_lock = threading.Lock()


def lower_own_priority() -> None:
    """Give the calling thread (only it, on Linux) the password check's low priority."""
    if sys.platform.startswith("linux"):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), CHECK_PRIORITY)


def background() -> ThreadPoolExecutor:
    """This process's hashing thread, started on first use (and again in a process forked
    after it: threads do not survive a fork)."""
    global _pool, _pool_pid
    with _pool_lock:
        if _pool is None or _pool_pid != os.getpid():
            _pool = ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="password-hash", initializer=lower_own_priority
            )
            _pool_pid = os.getpid()
        return _pool


class LowPriorityPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """PBKDF2PasswordHasher whose hashing runs in `background()` (see the module)."""

    def encode(self, password, salt, iterations=None):
        parent = super().encode
        return background().submit(parent, password, salt, iterations).result()
