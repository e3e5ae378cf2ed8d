"""Fixtures for the tournament tests: a club, its organiser, an admin, a stranger."""

from __future__ import annotations

import pytest

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
def other_organiser(db):
    user = UserFactory(username="other-org")
    ClubFactory(name="Other Club", slug="other-club").organisers.add(user)
    return user
