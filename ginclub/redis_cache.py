"""The workers' shared cache on Redis, for more than one app server (settings.CACHES when
REDIS_URL is set): Django's own RedisCache (redis-py), with what a cache that several app
servers, and maybe several deployments, share needs besides.

Terms:
    deployment  one database and the app servers serving it. Its entries carry its
                KEY_PREFIX (settings.CACHE_KEY_PREFIX: DJANGO_CACHE_KEY_PREFIX, else a
                digest of the database's address), so two deployments, or two test
                workers, may share one Redis database without reading each other's.
    down        Redis refuses the connection or does not answer within the socket
                timeouts (settings.CACHES' OPTIONS).

- `clear()` forgets this deployment's entries only (the keys under its prefix), where
  Django's empties the whole Redis database (FLUSHDB), every other deployment's too.
- While Redis is down the cache is empty, not an error: a read misses (the page computes
  what it would have read, as a first poll does), a write is dropped, and the log says so
  at most once a minute per process. Every entry is kept under what it follows from, so
  nothing read after Redis is back is stale. Only `incr` and `clear` still raise.
"""

from __future__ import annotations

import logging
import time

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

DOWN = (RedisConnectionError, RedisTimeoutError)
SAY_DOWN_EVERY = 60  # seconds
_said_down_at = -SAY_DOWN_EVERY
DELETE_BATCH = 500  # keys a clear() deletes per command


def _down(error: Exception) -> None:
    global _said_down_at
    now = time.monotonic()
    if now - _said_down_at >= SAY_DOWN_EVERY:
        _said_down_at = now
        logger.warning("The shared cache (Redis) is unreachable; serving without it: %s", error)


class _Client(RedisCacheClient):
    """Django's client, answering as an empty cache while Redis is down."""

    def get(self, key, default):
        try:
            return super().get(key, default)
        except DOWN as error:
            _down(error)
            return default

    def get_many(self, keys):
        try:
            return super().get_many(keys)
        except DOWN as error:
            _down(error)
            return {}

    def has_key(self, key):
        try:
            return super().has_key(key)
        except DOWN as error:
            _down(error)
            return False

    def set(self, key, value, timeout):
        try:
            super().set(key, value, timeout)
        except DOWN as error:
            _down(error)

    def set_many(self, data, timeout):
        try:
            super().set_many(data, timeout)
        except DOWN as error:
            _down(error)

    def add(self, key, value, timeout):
        try:
            return super().add(key, value, timeout)
        except DOWN as error:
            _down(error)
            return False

    def touch(self, key, timeout):
        try:
            return super().touch(key, timeout)
        except DOWN as error:
            _down(error)
            return False

    def delete(self, key):
        try:
            return super().delete(key)
        except DOWN as error:
            _down(error)
            return False

    def delete_many(self, keys):
        try:
            super().delete_many(keys)
        except DOWN as error:
            _down(error)


def _glob_escaped(text: str) -> str:
    return "".join("\\" + c if c in "*?[]\\" else c for c in text)


class SharedRedisCache(RedisCache):
    """RedisCache whose keys all start with its KEY_PREFIX (the default key function's
    shape, and ginclub.http.shared_cache_key's) and whose clear() deletes those alone."""

    def __init__(self, server, params):
        super().__init__(server, params)
        if not self.key_prefix:
            raise ValueError("A shared Redis cache needs a KEY_PREFIX (its deployment's).")
        self._class = _Client

    def clear(self) -> bool:
        client = self._cache.get_client(None, write=True)
        batch, deleted = [], 0
        for key in client.scan_iter(match=_glob_escaped(self.key_prefix) + ":*", count=1000):
            batch.append(key)
            if len(batch) >= DELETE_BATCH:
                deleted += client.unlink(*batch)
                batch = []
        if batch:
            deleted += client.unlink(*batch)
        return bool(deleted)
