"""The shared cache on Redis (ginclub.redis_cache): deployments sharing one Redis database
keep to their own keys, clear() forgets one deployment's only, and a Redis that is down
is an empty cache rather than a failed page. Against the Redis of REDIS_URL (CI's
PostgreSQL leg), except the last test, which needs none."""

from __future__ import annotations

import logging
import os
import socket
import uuid

import pytest
import redis

from ginclub import redis_cache
from ginclub.redis_cache import SharedRedisCache

REDIS_URL = os.environ.get("REDIS_URL", "")
needs_redis = pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL names no Redis to test against")


def shared(url: str, prefix: str, **params) -> SharedRedisCache:
    return SharedRedisCache(url, {"KEY_PREFIX": prefix, "TIMEOUT": 60, **params})


@pytest.fixture
def prefixes():
    """Two deployments' prefixes, made for this test; their keys are gone after it."""
    run = uuid.uuid4().hex[:8]
    made = [f"test-{run}-riverside", f"test-{run}-hilltop*[x]"]
    yield made
    for prefix in made:
        shared(REDIS_URL, prefix).clear()


@needs_redis
def test_two_deployments_sharing_one_redis_read_only_their_own_entries(prefixes):
    riverside, hilltop = (shared(REDIS_URL, p) for p in prefixes)
    riverside.set("standings-rows:7", ["Alice", "Bob"])
    assert riverside.get("standings-rows:7") == ["Alice", "Bob"]
    assert hilltop.get("standings-rows:7") is None
    hilltop.set("standings-rows:7", ["Carla"])
    assert riverside.get("standings-rows:7") == ["Alice", "Bob"]


@needs_redis
def test_clear_forgets_this_deployments_entries_and_no_one_elses(prefixes):
    """Django's own clear() is FLUSHDB: every deployment's entries (and, in the test
    suite, the other worker's) would go."""
    riverside, hilltop = (shared(REDIS_URL, p) for p in prefixes)
    riverside.set_many({f"row:{n}": n for n in range(1200)})  # more than a delete batch
    hilltop.set("row:1", "hilltop's")
    client = redis.Redis.from_url(REDIS_URL)
    lookalike = f"{prefixes[0]}-not-its-prefix:1:row:1"  # begins alike, but is not under it
    client.set(lookalike, b"kept", ex=60)

    assert riverside.clear() is True
    assert riverside.get_many([f"row:{n}" for n in range(1200)]) == {}
    assert hilltop.get("row:1") == "hilltop's"
    assert client.get(lookalike) == b"kept"
    client.delete(lookalike)
    assert riverside.clear() is False  # nothing left of it


def test_a_redis_that_is_down_is_an_empty_cache_said_once_in_the_log(caplog, monkeypatch):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once the socket is closed
    cache = shared(
        f"redis://127.0.0.1:{port}/0",
        "test-down",
        OPTIONS={"socket_connect_timeout": 1, "socket_timeout": 1},
    )
    monkeypatch.setattr(redis_cache, "_said_down_at", -redis_cache.SAY_DOWN_EVERY * 2)
    with caplog.at_level(logging.WARNING, logger="ginclub.redis_cache"):
        assert cache.get("standings-rows:7", "computed instead") == "computed instead"
        assert cache.get_many(["a", "b"]) == {}
        cache.set("standings-rows:7", ["Alice"])
        cache.set_many({"a": 1})
        assert cache.add("guard", True) is False
        assert cache.delete("standings-rows:7") is False
        assert cache.has_key("a") is False
    said = [r for r in caplog.records if r.name == "ginclub.redis_cache"]
    assert len(said) == 1 and "unreachable" in said[0].getMessage()


def test_a_shared_redis_cache_without_a_prefix_is_refused():
    with pytest.raises(ValueError, match="KEY_PREFIX"):
        SharedRedisCache("redis://127.0.0.1:6379/0", {})
