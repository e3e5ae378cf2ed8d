"""Sessions (ginclub.sessions) end when they end in the database, behind a cache too
(Django's cached_db on SQLite): a logout ends the session everywhere its cookie was
copied, and a password changed elsewhere ends every other session of the user (the user
is read on every request, with the hash of the password the session was made under).
Read from the database, a session brings its user in the same statement, with the same
checks; its row names its user, and goes with them."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib import auth
from django.contrib.sessions.backends import db as django_sessions
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.models import Session
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def user():
    return UserFactory()


def copied(client: Client) -> Client:
    """Another browser holding the same session cookie (a stolen or shared one)."""
    other = Client()
    other.cookies[settings.SESSION_COOKIE_NAME] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return other


@pytest.fixture
def database_sessions(settings):
    """Sessions read from the database on every request, as on PostgreSQL."""
    settings.SESSION_ENGINE = "ginclub.sessions"


@pytest.fixture(params=["configured", "database"])
def engine(request):
    """The sessions as settings configure them (on SQLite behind their cache), and read
    from the database on every request, the user with them."""
    if request.param == "database":
        request.getfixturevalue("database_sessions")


def test_a_logout_ends_the_session_for_every_copy_of_its_cookie(user, engine):
    client = Client()
    client.force_login(user)
    other = copied(client)
    assert other.get("/api/clubs/").status_code == 200  # read (and cached) once

    assert client.post("/accounts/logout/").status_code == 302

    assert other.get("/api/clubs/").status_code in (401, 403)


def test_a_password_changed_elsewhere_ends_the_other_sessions(user, engine):
    client = Client()
    client.force_login(user)
    assert client.get("/api/clubs/").status_code == 200

    user.set_password("another-long-password")
    user.save()

    assert client.get("/api/clubs/").status_code in (401, 403)


def test_a_session_read_from_the_database_brings_its_user_in_the_same_statement(
    user, database_sessions
):
    client = Client()
    client.force_login(user)

    with CaptureQueriesContext(connection) as captured:
        assert client.get("/api/clubs/").status_code == 200

    sent = [query["sql"] for query in captured.captured_queries]
    assert '"auth_user"' in sent[0] and '"scoring_session"' in sent[0], sent[0]
    alone = f'FROM "auth_user" WHERE "auth_user"."id" = {user.pk}'
    assert not any(alone in sql for sql in sent), "\n".join(sent)


def test_a_user_deactivated_since_their_session_began_is_not_logged_in(user, database_sessions):
    client = Client()
    client.force_login(user)
    assert client.get("/").wsgi_request.user == user

    user.is_active = False
    user.save()

    assert not client.get("/").wsgi_request.user.is_authenticated


def test_a_sessions_row_names_its_user_and_goes_when_they_do(user):
    client = Client()
    client.force_login(user)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert Session.objects.get(pk=key).user_id == user.pk

    user.delete()

    assert not Session.objects.filter(pk=key).exists()
    assert client.get("/api/clubs/").status_code in (401, 403)


def test_the_deploy_that_brings_the_new_table_logs_nobody_out(user):
    """Migration scoring 0018 moves Django's sessions into the new table: a session
    logged in through Django's ModelBackend stays logged in (through ginclub's), and one
    whose user is gone is left behind."""
    kept, orphan = django_sessions.SessionStore(), django_sessions.SessionStore()
    kept.update(
        {
            auth.SESSION_KEY: str(user.pk),
            auth.BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            auth.HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
    )
    orphan.update({auth.SESSION_KEY: str(user.pk + 1000), auth.HASH_SESSION_KEY: "x"})
    kept.save(must_create=True)
    orphan.save(must_create=True)
    migration = importlib.import_module("scoring.migrations.0018_sessions_with_their_user")

    migration.move_sessions(apps, connection.schema_editor())

    assert Session.objects.get(pk=kept.session_key).user_id == user.pk
    assert not Session.objects.filter(pk=orphan.session_key).exists()
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = kept.session_key
    assert client.get("/api/clubs/").status_code == 200
