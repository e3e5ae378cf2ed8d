"""Fixtures for the scoring app: a club with an organiser, two players, a match."""

from __future__ import annotations

import pytest

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.scoring.helpers import start


@pytest.fixture
def club(db):
    return ClubFactory()


@pytest.fixture
def organiser(club):
    user = UserFactory()
    club.organisers.add(user)
    return user


@pytest.fixture
def admin_user(db):
    return UserFactory(username="root", is_superuser=True, is_staff=True)


@pytest.fixture
def alice(club):
    return PlayerFactory(club=club, name="Alice", user=UserFactory(username="alice"))


@pytest.fixture
def bob(club):
    return PlayerFactory(club=club, name="Bob", user=UserFactory(username="bob"))


@pytest.fixture
def match(club, alice, bob, organiser):
    return start(club, alice, bob, organiser)


@pytest.fixture
def double_match(club, alice, bob, organiser):
    return start(club, alice, bob, organiser, agreement="double")
