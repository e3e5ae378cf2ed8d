"""Once time is called the round clock is over: the dashboard no longer offers to start
(or restart) it, and the service refuses, since a restart would lift the call without a
reason and leave the time policy's results standing. Undoing the call gives it back."""

from __future__ import annotations

import pytest
from django.test import Client

from ginclub.errors import Conflict
from tests.tournaments.helpers import actor, new_event
from tournaments import services
from tournaments.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def rnd(club, organiser) -> Round:
    event = new_event(club, organiser, players=["Ada", "Ben"])
    draft = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    rnd = services.publish_round(round_id=draft.pk, actor=actor(organiser))
    services.start_round_timer(round_id=rnd.pk, actor=actor(organiser), minutes=30)
    return rnd


def dashboard(client: Client, organiser, rnd: Round) -> str:
    client.force_login(organiser)
    return client.get(f"/tournaments/{rnd.tournament.slug}/manage/dashboard/").content.decode()


def test_the_clock_is_offered_until_time_is_called(client, organiser, rnd):
    assert "Restart the clock" in dashboard(client, organiser, rnd)
    services.call_time(round_id=rnd.pk, actor=actor(organiser))
    page = dashboard(client, organiser, rnd)
    assert 'data-testid="clock-form"' not in page
    assert "Start the clock" not in page and "Restart the clock" not in page
    assert 'data-testid="undo-time-call"' in page


def test_starting_the_clock_after_the_call_is_refused_and_changes_nothing(organiser, rnd):
    services.call_time(round_id=rnd.pk, actor=actor(organiser))
    before = Round.objects.get(pk=rnd.pk)
    with pytest.raises(Conflict, match="undo the call") as refused:
        services.start_round_timer(round_id=rnd.pk, actor=actor(organiser), minutes=10)
    assert refused.value.code == "time_already_called"
    after = Round.objects.get(pk=rnd.pk)
    assert after.time_called and after.time_called_at == before.time_called_at
    assert after.ends_at == before.ends_at


def test_undoing_the_call_offers_the_clock_again(client, organiser, rnd):
    services.call_time(round_id=rnd.pk, actor=actor(organiser))
    services.undo_time_call(round_id=rnd.pk, actor=actor(organiser), reason="by mistake")
    assert "Restart the clock" in dashboard(client, organiser, rnd)
    services.start_round_timer(round_id=rnd.pk, actor=actor(organiser), minutes=10)
