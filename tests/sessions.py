"""For tests that count a request's queries: whether its session is one of them. On
PostgreSQL a request reads its session from the database; on SQLite from the sessions
cache in front of it (Django's cached_db, ginclub.sessions.cached), a file on this
machine. Either way the user comes with it (ginclub.sessions) when read from the database."""

from __future__ import annotations

from django.conf import settings


def session_read() -> int:
    """1 when a request reads its session from the database, else 0."""
    return 0 if settings.SESSION_ENGINE.endswith(".cached") else 1
