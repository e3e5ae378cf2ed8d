"""scoring.hooks: guards are asked inside the change and may refuse it; listeners are
told once it has committed, never asked, and a change rolled back tells them nothing."""

from __future__ import annotations

import pytest

from ginclub.errors import Conflict
from scoring import hooks
from scoring.hooks import guards, listeners
from scoring.models import Match
from tests.scoring.helpers import play_hand, quick

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard():
    """A result listener of a made-up app above scoring: it records each change."""
    told: list[hooks.ResultChange] = []
    hooks.register_result_listener(told.append)
    yield told
    listeners._result_listeners.remove(told.append)


def test_a_listener_hears_a_result_that_moved_once_it_commits(
    match, alice, bob, heard, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as queued:
        play_hand(match, alice, bob, quick(outcome="gin", kd=0, dd=80))
        assert heard == []  # not while the change is being made
    for callback in queued:
        callback()
    assert [(c.action, c.after["winner"]) for c in heard] == [("hand_confirmed", "A")]


def test_a_change_a_guard_refuses_tells_no_listener(
    match, alice, bob, heard, django_capture_on_commit_callbacks
):
    def refuse(change):
        raise Conflict("no", "Not here.")

    hooks.register_result_guard(refuse)
    try:
        with django_capture_on_commit_callbacks(execute=True), pytest.raises(Conflict):
            play_hand(match, alice, bob, quick(outcome="gin", kd=0, dd=80))
    finally:
        guards._result_guards.remove(refuse)
    assert heard == [] and Match.objects.get(pk=match.pk).state == Match.State.IN_PROGRESS


def test_a_listener_that_fails_refuses_nothing(
    match, alice, bob, django_capture_on_commit_callbacks
):
    def broken(change):
        raise RuntimeError("a listener's bug")

    hooks.register_result_listener(broken)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            play_hand(match, alice, bob, quick(outcome="gin", kd=0, dd=80))
    finally:
        listeners._result_listeners.remove(broken)
    assert Match.objects.get(pk=match.pk).state == Match.State.FINISHED


def test_the_season_ladders_refresh_is_a_listener_not_a_guard():
    from tournaments.services.season_ladders import refresh_after_result

    assert refresh_after_result in listeners._result_listeners
    assert refresh_after_result not in guards._result_guards
