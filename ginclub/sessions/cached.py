"""SESSION_ENGINE = "ginclub.sessions.cached": Django's cached_db on the sessions table
of ginclub.sessions, for SQLite (ginclub.settings says why there alone). A session read
from the cache reads its user as Django does; one read from the database brings it."""

from __future__ import annotations

from django.contrib.sessions.backends import cached_db

from ginclub.sessions import UserColumn


class SessionStore(UserColumn, cached_db.SessionStore):
    # Not Django's prefix: what its cache kept before names a backend that is no longer
    # one of the settings', so those entries are passed by and read again from the table.
    cache_key_prefix = "ginclub.sessions.cached"
