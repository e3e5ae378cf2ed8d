"""The background worker outlives the database (tournaments/management/commands/
run_worker.py): a database error while it looks for work makes it wait and go on, not
exit. The outage is simulated where the worker fetches its next task; no sleep is real.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import OperationalError
from django.test import override_settings
from django.utils import timezone
from django_tasks_db.models import DBTaskResult, DBTaskResultQuerySet

from tests.tournaments.helpers import actor, new_event, play_round
from tournaments import services
from tournaments.management.commands import run_worker
from tournaments.selectors.exports import tournament_archive

DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
BATCH = ("--batch", "--no-reload", "--no-startup-delay", "--interval=0")


@pytest.fixture
def slept(monkeypatch) -> list[float]:
    """The delays the worker asked to sleep, without sleeping."""
    delays: list[float] = []
    monkeypatch.setattr(run_worker.ResilientWorker, "sleep", staticmethod(delays.append))
    return delays


def fetch_fails(monkeypatch, errors: list[Exception]) -> None:
    """The worker's fetch of its next task raises `errors`, one per call, then works."""
    real = DBTaskResultQuerySet.get_locked

    def get_locked(queryset):
        if errors:
            raise errors.pop(0)
        return real(queryset)

    monkeypatch.setattr(DBTaskResultQuerySet, "get_locked", get_locked)


def answers(monkeypatch, replies: list[bool]) -> None:
    """The database answers the worker's probes with `replies`, then for good."""
    monkeypatch.setattr(run_worker, "database_answers", lambda: replies.pop(0) if replies else True)


@pytest.mark.django_db(transaction=True)
def test_the_worker_waits_out_a_database_outage_and_runs_the_queued_job(
    club, organiser, monkeypatch, slept
):
    event = new_event(club, organiser, players=4, rounds=3)
    play_round(event, organiser)
    archive = json.loads(json.dumps(tournament_archive(event)))
    with override_settings(TASKS=DATABASE_QUEUE):
        job = services.start_archive_import(club=club, actor=actor(organiser), archive=archive)
        gone = OperationalError("server closed the connection unexpectedly")
        fetch_fails(monkeypatch, [gone, gone])
        answers(monkeypatch, [False])
        call_command("run_worker", *BATCH, verbosity=0)
    job.refresh_from_db()
    assert job.state == "done"
    # outage 1: 1 s (no answer), 2 s (answers); outage 2: 1 s (answers)
    assert slept == [1.0, 2.0, 1.0]


@pytest.mark.django_db(transaction=True)
def test_db_worker_alone_exits_on_the_same_outage(monkeypatch):
    """What run_worker is for: the library's worker gives up on the first such error."""
    with override_settings(TASKS=DATABASE_QUEUE):
        fetch_fails(monkeypatch, [OperationalError("server closed the connection")])
        with pytest.raises(OperationalError):
            call_command("db_worker", *BATCH, verbosity=0)


def test_the_wait_between_tries_doubles_up_to_a_bound(monkeypatch, slept):
    answers(monkeypatch, [False] * 7)
    worker = run_worker.ResilientWorker(
        queue_names=["default"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="test",
        excluded_queue_names=[],
    )
    worker.wait_for_database()
    assert slept == [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0, 30.0]
    assert max(slept) == run_worker.MAX_DELAY


@pytest.mark.django_db(transaction=True)
def test_an_error_that_is_not_the_database_still_stops_the_worker(monkeypatch, slept):
    with override_settings(TASKS=DATABASE_QUEUE):
        fetch_fails(monkeypatch, [ValueError("a bug")])
        with pytest.raises(ValueError, match="a bug"):
            call_command("run_worker", *BATCH, verbosity=0)
    assert slept == []


# ------------------------------------------------------- no worker: the organiser is told


@pytest.fixture
def queued(club, organiser, client):
    """An import queued in the database queue, no worker running; the organiser logged in."""
    event = new_event(club, organiser, players=4, rounds=3)
    play_round(event, organiser)
    archive = json.loads(json.dumps(tournament_archive(event)))
    client.force_login(organiser)
    with override_settings(TASKS=DATABASE_QUEUE):
        job = services.start_archive_import(club=club, actor=actor(organiser), archive=archive)
    job.refresh_from_db()
    return event, job


def wait(minutes: float) -> None:
    """Every queued task was enqueued `minutes` ago."""
    DBTaskResult.objects.update(enqueued_at=timezone.now() - timedelta(minutes=minutes))


WARNING = "No background worker is taking jobs."


@pytest.mark.django_db(transaction=True)
def test_a_job_waiting_over_a_minute_warns_on_the_dashboard_and_the_job_pages(client, queued):
    event, job = queued
    wait(minutes=2)
    pages = {
        "dashboard": f"/tournaments/{event.slug}/manage/dashboard/",
        "job": f"/tournaments/jobs/{job.pk}/",
        "progress": f"/tournaments/jobs/{job.pk}/progress/",
        "imports": "/tournaments/import/",
    }
    for name, url in pages.items():
        page = client.get(url)
        assert page.status_code == 200, name
        assert page.content.decode().count(WARNING) == 1, name
        assert "run_worker" in page.content.decode(), name


@pytest.mark.django_db(transaction=True)
def test_a_job_queued_moments_ago_warns_nobody(client, queued):
    event, job = queued
    wait(minutes=0.25)
    for url in (f"/tournaments/{event.slug}/manage/dashboard/", f"/tournaments/jobs/{job.pk}/"):
        assert WARNING not in client.get(url).content.decode()


@pytest.mark.django_db(transaction=True)
def test_once_the_worker_has_run_the_queue_the_warning_goes(client, queued, slept):
    event, job = queued
    wait(minutes=5)
    with override_settings(TASKS=DATABASE_QUEUE):
        call_command("run_worker", *BATCH, verbosity=0)
    job.refresh_from_db()
    assert job.state == "done"
    dashboard = client.get(f"/tournaments/{event.slug}/manage/dashboard/")
    assert WARNING not in dashboard.content.decode()
