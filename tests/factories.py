"""factory-boy factories. Matches are started through the service, never built by hand,
so every test match has its first game and its ledger row like a real one."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model
from factory.django import DjangoModelFactory

from scoring.models import Club, Player

PASSWORD = "correct-horse-battery"
PIN = "1234"


class UserFactory(DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")

    @factory.post_generation
    def password(self, create, extracted, **kwargs):
        self.set_password(extracted or PASSWORD)
        if create:
            self.save(update_fields=["password"])


class ClubFactory(DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class PlayerFactory(DjangoModelFactory):
    class Meta:
        model = Player
        skip_postgeneration_save = True

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Player {n}")

    @factory.post_generation
    def pin(self, create, extracted, **kwargs):
        self.set_pin(extracted or PIN)
        if create:
            self.save(update_fields=["pin_hash"])


# ------------------------------------------------------------------------ tournaments


def _event_date():
    from datetime import date

    return date(2026, 11, 28)


class TournamentFactory(DjangoModelFactory):
    """A tournament in setup. Rounds are drafted and published through the services."""

    class Meta:
        model = "tournaments.Tournament"

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Event {n}")
    slug = factory.Sequence(lambda n: f"event-{n}")
    date = factory.LazyFunction(_event_date)


class RegistrationFactory(DjangoModelFactory):
    class Meta:
        model = "tournaments.Registration"

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..tournament.club"))
