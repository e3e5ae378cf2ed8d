"""Sessions behind a cache (Django's cached_db on SQLite, ginclub.settings) end when
they end in the database: a logout ends the session everywhere its cookie was copied, and
a password changed elsewhere ends every other session of the user (the user is read on
every request, with the hash of the password the session was made under)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

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


def test_a_logout_ends_the_session_for_every_copy_of_its_cookie(user):
    client = Client()
    client.force_login(user)
    other = copied(client)
    assert other.get("/api/clubs/").status_code == 200  # read (and cached) once

    assert client.post("/accounts/logout/").status_code == 302

    assert other.get("/api/clubs/").status_code in (401, 403)


def test_a_password_changed_elsewhere_ends_the_other_sessions(user):
    client = Client()
    client.force_login(user)
    assert client.get("/api/clubs/").status_code == 200

    user.set_password("another-long-password")
    user.save()

    assert client.get("/api/clubs/").status_code in (401, 403)
