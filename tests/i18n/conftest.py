"""The club, its organiser and the organiser's logged-in client that the Italian tests
share (as tests/tournaments/conftest.py makes them; its fixtures are not seen from here)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.factories import ClubFactory, UserFactory


@pytest.fixture
def club(db):
    return ClubFactory(name="Gin Club", slug="gin-club")


@pytest.fixture
def organiser(club):
    user = UserFactory(username="org")
    club.organisers.add(user)
    return user


@pytest.fixture
def org(client, organiser):
    cache.clear()  # cached standings lines and fragments of another test's language
    client.force_login(organiser)
    return client
