"""Sessions that bring their user: who is asking, read in one statement (issue 26).

Django reads a logged-in request's session, then its user, in two statements. Here the
session's row (scoring's Session, reached by its label) carries the user it is logged
in as in a column of its own, so the session's read brings the user's row with it:

    SessionStore        Django's database sessions on that table. Saving a session
                        writes the column from the session's own data (the user id
                        django.contrib.auth keeps there); loading one keeps the user
                        that came with it as `loaded_user`.
    ModelBackend        Django's, but a user it is asked for is that `loaded_user` when
                        the request's session brought it: the same row, and the same
                        checks (the user still active, checked here as Django's backend
                        does; the session made under the user's current password,
                        checked by Django's own get_user, which calls this).
    AuthenticationMiddleware
                        Django's, telling the backend which session is asking.

The session's data stays the one source of who is logged in: the column is written from
it on every save and read only beside it. A session whose user is not loaded with it
(from the sessions cache on SQLite, ginclub.sessions.cached) reads the user as Django
does. What does change: deleting a user deletes their sessions.
"""

from __future__ import annotations

from contextvars import ContextVar

from django.apps import apps
from django.contrib import auth
from django.contrib.auth import backends
from django.contrib.auth import middleware as auth_middleware
from django.contrib.sessions.backends import db
from django.utils.functional import SimpleLazyObject

MODEL = "scoring.Session"

# The session of the request whose user Django is looking up, while it does.
_asking: ContextVar = ContextVar("ginclub.sessions.asking", default=None)


def user_id_in(data: dict) -> int | None:
    """The id of the user a session's data is logged in as, else None."""
    try:
        return int(data[auth.SESSION_KEY])
    except (KeyError, TypeError, ValueError):
        return None


class UserColumn:
    """Django's database session store, on the table that keeps the user beside the
    session: for the plain store and the cached one alike."""

    loaded_user = None

    @classmethod
    def get_model_class(cls):
        return apps.get_model(MODEL)

    def create_model_instance(self, data):
        instance = super().create_model_instance(data)
        instance.user_id = user_id_in(data)
        return instance

    def _get_session_from_db(self):
        # Django's read of the row (expiry, a malformed key); the model's manager joins
        # the user's row to it.
        found = super()._get_session_from_db()
        self.loaded_user = found.user if found is not None else None
        return found


class SessionStore(UserColumn, db.SessionStore):
    """SESSION_ENGINE = "ginclub.sessions": the database alone (PostgreSQL)."""


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id):
        user = getattr(_asking.get(), "loaded_user", None)
        if user is None or user.pk != user_id:
            return super().get_user(user_id)
        return user if self.user_can_authenticate(user) else None


def _user(request):
    """Django's lookup of the request's user (kept for the request as Django keeps it),
    with the backend told which session is asking."""
    asking = _asking.set(request.session)
    try:
        return auth_middleware.get_user(request)
    finally:
        _asking.reset(asking)


class AuthenticationMiddleware(auth_middleware.AuthenticationMiddleware):
    def process_request(self, request):
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: _user(request))
