"""An event frozen before the fixed-length and Hollywood options existed still publishes
its next round after the migration that gives stored rules those options."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from scoring.models import Match
from scoring.rules import make_profile
from tests.tournaments.helpers import actor, new_event, play_round
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
NEW = ("dead_hands_count", "game_bonus_min", "hollywood")


def _as_stored_before(rules: dict) -> dict:
    return {k: v for k, v in rules.items() if k not in NEW}


def test_old_rules_gain_the_new_options_and_the_next_round_publishes(club, organiser):
    event = new_event(club, organiser, players=4, rounds=2)
    play_round(event, organiser, {"P01": "2-0", "P03": "2-0"})
    event.refresh_from_db()
    Tournament.objects.filter(pk=event.pk).update(rules=_as_stored_before(event.rules))
    for match in Match.objects.all():
        Match.objects.filter(pk=match.pk).update(rules=_as_stored_before(match.rules))
    event.refresh_from_db()
    assert "hollywood" not in event.rules
    with pytest.raises(AssertionError):  # what publishing round 2 did before the migration
        rnd = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
        services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    importlib.import_module("scoring.migrations.0003_rules_new_options").add_options(apps, None)
    importlib.import_module("tournaments.migrations.0004_rules_new_options").add_options(apps, None)
    event.refresh_from_db()
    assert event.rules == make_profile(event.profile, event.overrides).as_dict()
    assert all(m.rules["hollywood"] is False for m in Match.objects.all())
    rnd = event.round_set.get(number=2)
    services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    assert rnd.pairings.filter(match__isnull=False).count() == 2
