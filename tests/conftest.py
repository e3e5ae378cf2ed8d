"""Suite-wide fixtures. Factories live in tests/factories.py."""

from __future__ import annotations

import os
import uuid

import pytest
from django.test import override_settings
from hypothesis import settings

settings.register_profile("dev", max_examples=200, deadline=None)
settings.register_profile("ci", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(scope="session", autouse=True)
def _suite_settings(tmp_path_factory):
    """Production serves hashed files that `collectstatic` wrote; the suite runs with debug
    off but without that step, so `{% static %}` resolves names straight from the finders
    (whitenoise still serves them)."""
    plain = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # PBKDF2 at production strength costs ~0.3 s a password or PIN; the suite makes
    # hundreds, and hashing strength is Django's concern, not ours.
    fast_hashers = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # The workers' shared caches of this run's own (each xdist worker has its own test
    # database, whose ids the next run reuses): a directory, or with REDIS_URL keys under
    # a prefix of this run and worker, which the end of the run deletes (clear() on Redis
    # deletes one prefix's keys, ginclub.redis_cache; the db may be another run's too).
    from django.conf import settings as django_settings

    directory = tmp_path_factory.mktemp("shared")
    run = f"test-{uuid.uuid4().hex[:8]}-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    caches = {**django_settings.CACHES}
    for alias, cache in caches.items():
        if cache["BACKEND"] == "ginclub.redis_cache.SharedRedisCache":
            caches[alias] = {**cache, "KEY_PREFIX": f"{run}:{alias}"}
        elif alias == "shared":
            caches[alias] = {**cache, "LOCATION": str(directory)}
        elif alias == "sessions":  # cached_db sessions on SQLite (settings)
            caches[alias] = {**cache, "LOCATION": str(directory / "sessions")}
    with override_settings(
        STORAGES=plain,
        PASSWORD_HASHERS=fast_hashers,
        CACHES=caches,
        CACHE_KEY_PREFIX=run,
        SHARED_CACHE_DIR=directory,
    ):
        yield
        from django.core.cache import caches as live

        for alias, cache in caches.items():
            if cache["BACKEND"] == "ginclub.redis_cache.SharedRedisCache":
                live[alias].clear()


@pytest.fixture(autouse=True)
def _ledger_dir(tmp_path_factory):
    """Each test's ledger keys and checkpoint in a directory of its own (a checkpoint
    written by one test would not match the next test's database)."""
    with override_settings(LEDGER_DIR=tmp_path_factory.mktemp("ledger"), LEDGER_KEYS=""):
        yield


@pytest.fixture(autouse=True)
def _english_unless_asked():
    """Each test starts in the default language: a request through the test client leaves
    the language it activated (Italian, say) active in the thread afterwards."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


# A whole minute (a window's start) in 2027: the login limits' clock in every test.
LOGIN_CLOCK_START = 1_800_000_000.0


@pytest.fixture(autouse=True)
def login_clock(monkeypatch):
    """The login limits read this clock, stopped at a window's start, so a test counts
    exactly up to a limit however slowly it runs; `login_clock.now += 30` moves it.
    (The counters themselves are rows, gone with each test's database.)"""
    from ginclub import login_limits

    class Clock:
        now = LOGIN_CLOCK_START

        def __call__(self) -> float:
            return self.now

    clock = Clock()
    monkeypatch.setattr(login_limits, "clock", clock)
    return clock
