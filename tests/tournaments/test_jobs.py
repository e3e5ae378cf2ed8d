"""Background jobs (tournaments.services.jobs): an archive import off the request, its
progress bar, failure that writes nothing, and the database queue with its real worker.

The suite runs tasks with django-tasks' immediate backend (pyproject's pytest env): a job
runs when the request that asked for it commits, which `django_capture_on_commit_callbacks`
makes happen inside a test's transaction.
"""

from __future__ import annotations

import json
import threading
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection, transaction
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from ginclub import ledger
from ginclub.errors import ServiceError
from scoring.models import Club, LedgerRow, Match, Player
from tests.tournaments.helpers import actor, new_event, play_round, unsigned
from tournaments import services
from tournaments.models import Job, Tournament
from tournaments.selectors.exports import tournament_archive
from tournaments.services import jobs

pytestmark = pytest.mark.django_db

DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture
def archive(club, organiser) -> dict:
    """Four players, two closed rounds: four matches of two one-hand games each."""
    event = new_event(club, organiser, players=4, rounds=3)
    play_round(event, organiser)
    play_round(event, organiser, {"P02": "2-1"})
    return json.loads(json.dumps(tournament_archive(event)))


@pytest.fixture
def org(client, organiser):
    client.force_login(organiser)
    return client


def counts() -> tuple[int, int, int, int]:
    return (
        Tournament.objects.count(),
        Match.objects.count(),
        Player.objects.count(),
        LedgerRow.objects.count(),
    )


def upload(archive: dict) -> SimpleUploadedFile:
    return SimpleUploadedFile("event.json", json.dumps(archive).encode(), "application/json")


def spoil_a_hand(archive: dict) -> dict:
    """An archive whose shape is right but whose round 2 table 1 game 1 hand 1 claims
    points the engine does not give: only the import itself, scoring again, finds it.
    Unsigned (version 1): a signed archive changed by hand is refused at once."""
    archive = unsigned(archive)
    match = next(p for p in archive["rounds"][1]["pairings"] if p["match"])["match"]
    match["games"][0]["hands"][0]["points"] += 1
    return archive


def test_the_import_page_queues_a_job_that_imports_and_shows_it_done(
    org, archive, django_capture_on_commit_callbacks
):
    before = Tournament.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        response = org.post("/tournaments/import/", {"club": "gin-club", "file": upload(archive)})
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/jobs/{job.pk}/"
    assert (job.kind, job.state, job.done, job.total) == ("import_archive", "done", 4, 4)
    assert job.payload == {} and job.message == "" and job.task_id
    copy_ = job.tournament
    assert Tournament.objects.count() == before + 1 and copy_.club.slug == "gin-club"
    assert job.result == {
        "tournament": copy_.slug,
        "name": "Club Open",
        "registrations": 4,
        "rounds": 2,
        "matches": 4,
    }
    page = org.get(response["Location"]).content.decode()
    assert "Import of Club Open" in page and f"/tournaments/{copy_.slug}/manage/standings/" in page
    bar = org.get(reverse("tournaments:job-progress", args=[job.pk])).content.decode()
    assert 'id="job-' in bar and "hx-trigger" not in bar  # finished: the polling stops
    assert "Import of Club Open" in org.get("/tournaments/import/").content.decode()


def test_an_import_that_fails_writes_nothing_and_says_why(
    org, archive, django_capture_on_commit_callbacks
):
    before = counts()
    with django_capture_on_commit_callbacks(execute=True):
        org.post(
            "/tournaments/import/", {"club": "gin-club", "file": upload(spoil_a_hand(archive))}
        )
    job = Job.objects.get()
    assert job.state == "failed" and job.error_code == "bad_archive"
    assert job.tournament is None and job.payload == {}
    assert "round 2" in job.message.lower() and "points" in job.message
    assert counts() == before  # no tournament, match, player or ledger row of it
    assert ledger.verify() == []
    bar = org.get(reverse("tournaments:job-progress", args=[job.pk])).content.decode()
    assert "hx-trigger" not in bar and "Nothing was changed." in bar
    assert job.message.split(":")[0] in bar


def test_an_archive_with_a_bad_shape_is_refused_at_once_without_a_job(org, archive):
    del archive["players"][0]["name"]
    response = org.post("/tournaments/import/", {"club": "gin-club", "file": upload(archive)})
    assert response.status_code == 400 and "players[0].name is missing" in response.content.decode()
    assert not Job.objects.exists()


def test_an_unexpected_error_fails_the_job_plainly_and_writes_nothing(
    archive, club, organiser, monkeypatch
):
    def broken(**kwargs):
        Tournament.objects.create(club=club, name="half", slug="half", date="2026-11-28")
        raise RuntimeError("disk on fire")

    monkeypatch.setitem(jobs.WORK, Job.Kind.IMPORT_ARCHIVE, lambda job, actor, report: broken())
    job = Job.objects.create(kind="import_archive", club=club, requested_by=organiser, label="x")
    with pytest.raises(RuntimeError):  # re-raised, so the task backend records it too
        services.run_job(job.pk)
    job.refresh_from_db()
    assert (job.state, job.error_code) == ("failed", "unexpected")
    assert "RuntimeError" in job.message and "nothing was changed" in job.message
    assert not Tournament.objects.filter(slug="half").exists()


def test_a_job_runs_once_and_asks_again_who_may_do_it(archive, club, organiser, other_organiser):
    job = services.start_archive_import(club=club, actor=actor(organiser), archive=archive)
    club.organisers.remove(organiser)  # no longer an organiser when the worker gets to it
    assert services.run_job(job.pk) == "failed"
    job.refresh_from_db()
    assert job.error_code == "not_allowed" and "Only the organisers of Gin Club" in job.message
    assert services.run_job(job.pk) == "failed"  # delivered twice: not run again


# Transactional: on PostgreSQL the board writes on a connection of its own, which sees only
# committed job rows.
@pytest.mark.django_db(transaction=True)
def test_progress_is_reported_match_by_match(archive, club, organiser, monkeypatch):
    seen = []
    report = jobs.ProgressBoard.report

    def spy(board, done, total):
        report(board, done, total)
        seen.append(services.progress_of(Job.objects.get(pk=board.job_id)))

    monkeypatch.setattr(jobs.ProgressBoard, "report", spy)
    monkeypatch.setattr(jobs.ProgressBoard, "EVERY", 0)
    job = services.start_archive_import(club=club, actor=actor(organiser), archive=archive)
    services.run_job(job.pk)
    assert [(view.done, view.total) for view in seen] == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert [view.percent for view in seen] == [25, 50, 75, 100]


@pytest.mark.django_db(transaction=True)
def test_the_progress_bar_polls_while_the_job_runs(org, club, organiser, client):
    job = Job.objects.create(
        kind="import_archive", club=club, requested_by=organiser, label="Import of Big", total=8
    )
    url = reverse("tournaments:job-progress", args=[job.pk])
    queued = org.get(url).content.decode()
    assert 'hx-trigger="every 1s"' in queued and "Waiting for a worker" in queued
    Job.objects.filter(pk=job.pk).update(state="running")
    jobs.ProgressBoard(job).report(3, 8)
    running = org.get(url)
    body = running.content.decode()
    assert running.status_code == 200 and running["Cache-Control"] == "no-store"
    assert 'hx-trigger="every 1s"' in body and 'value="3" max="8"' in body and "37%" in body
    api = APIClient()
    api.force_login(organiser)
    polled = api.get(f"/api/jobs/{job.pk}/").json()
    assert (polled["state"], polled["done"], polled["total"], polled["percent"]) == (
        "running",
        3,
        8,
        37,
    )


def test_only_the_clubs_organisers_see_a_job(club, organiser, other_organiser, client):
    job = Job.objects.create(kind="import_archive", club=club, requested_by=organiser, label="x")
    for name in ("tournaments:job", "tournaments:job-progress"):
        url = reverse(name, args=[job.pk])
        assert client.get(url).status_code == 302  # to the login page
        client.force_login(other_organiser)
        assert client.get(url).status_code == 404
        client.logout()
    api = APIClient()
    api.force_login(other_organiser)
    refused = api.get(f"/api/jobs/{job.pk}/")
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "not_found"
    assert api.get("/api/jobs/999999/").status_code == 404


def test_the_api_answers_202_with_the_job_to_poll(
    club, organiser, archive, django_capture_on_commit_callbacks
):
    api = APIClient()
    api.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/api/clubs/{club.slug}/tournaments/import/", archive, format="json")
    assert response.status_code == 202, response.content
    body = response.json()
    assert response["Location"] == body["url"] and body["url"].endswith(f"/api/jobs/{body['id']}/")
    # The test's transaction runs the job when the block ends, after the answer.
    assert body["state"] == "queued" and body["error"] is None and body["tournament"] is None
    polled = api.get(body["url"]).json()
    assert (
        polled["state"] == "done"
        and polled["tournament"] == "club-open-2026-2"
        and polled["result"]["matches"] == 4
    )
    assert api.get(f"/api/tournaments/{polled['tournament']}/standings/").status_code == 200
    spoiled = spoil_a_hand(archive)
    with django_capture_on_commit_callbacks(execute=True):
        failed = api.post(f"/api/clubs/{club.slug}/tournaments/import/", spoiled, format="json")
    assert failed.status_code == 202
    polled = api.get(failed["Location"]).json()
    assert polled["state"] == "failed" and polled["error"]["code"] == "bad_archive"


# ----------------------------------------------------- the database queue, for real


@pytest.mark.django_db(transaction=True)
def test_the_database_worker_runs_a_queued_import(archive, club, organiser):
    with override_settings(TASKS=DATABASE_QUEUE):
        job = services.start_archive_import(club=club, actor=actor(organiser), archive=archive)
        job.refresh_from_db()
        assert job.state == "queued" and job.task_id  # queued in the database, not run
        from django_tasks_db.models import DBTaskResult

        assert DBTaskResult.objects.get(id=job.task_id).status == "READY"
        call_command(
            "db_worker", "--batch", "--no-reload", "--no-startup-delay", "--interval=0", verbosity=0
        )
        job.refresh_from_db()
        assert (job.state, job.done, job.total) == ("done", 4, 4)
        assert DBTaskResult.objects.get(id=job.task_id).status == "SUCCESSFUL"
        assert job.tournament.registrations.count() == 4 and ledger.verify() == []


@pytest.mark.django_db(transaction=True)
def test_progress_is_visible_while_the_jobs_transaction_is_still_open(club, organiser):
    """Another connection (the page's poll) reads the progress while the job's
    transaction, holding SQLite's write lock or PostgreSQL's row locks, is open."""
    job = Job.objects.create(
        kind="import_archive", club=club, requested_by=organiser, label="x", total=8
    )
    Job.objects.filter(pk=job.pk).update(state="running")
    job.refresh_from_db()
    seen = []

    def poll():
        try:
            seen.append(services.progress_of(Job.objects.get(pk=job.pk)))
        finally:
            connection.close()

    with transaction.atomic():
        Club.objects.filter(pk=club.pk).update(name="Gin Club")  # hold the write lock
        board = jobs.ProgressBoard(job)
        board.report(5, 8)
        reader = threading.Thread(target=poll)
        reader.start()
        reader.join(timeout=30)
        board.close()
    assert [(view.done, view.total) for view in seen] == [(5, 8)]


# ------------------------------------------------------------------- rules changes


@pytest.fixture
def played(club, organiser) -> Tournament:
    """Four players, round 1 played and closed (two matches), QUICK rules frozen."""
    event = new_event(club, organiser, players=4, rounds=3)
    play_round(event, organiser)
    event.refresh_from_db()
    return event


def rules_body(**overrides) -> dict:
    return {
        "profile": "tournament",
        "overrides": {"game_target": 25, "games_to_win": 2, **overrides},
        "reason": "club vote",
    }


def test_the_rules_change_page_applies_through_a_job_and_lists_it(
    org, played, django_capture_on_commit_callbacks
):
    form = {
        "profile": "tournament",
        "overrides": "game_target = 25\ngames_to_win = 2\nbox_bonus = 10",
        "apply": "1",
        "reason": "club vote",
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = org.post(f"/tournaments/{played.slug}/manage/rules/", form)
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/jobs/{job.pk}/"
    assert (job.kind, job.state, job.tournament, job.done, job.total) == (
        "rules_change",
        "done",
        played,
        2,
        2,
    )
    played.refresh_from_db()
    assert played.rules["box_bonus"] == 10
    summary = "Rules changed: the whole event: 0 hand(s), 4 game(s) and 2 match result(s)"
    assert job.result["summary"].startswith(summary) and job.result["applied"]
    assert summary in org.get(response["Location"]).content.decode()
    settings_page = org.get(f"/tournaments/{played.slug}/manage/").content.decode()
    assert "Rules changes" in settings_page and summary in settings_page


def test_a_rules_change_that_fails_in_its_job_changes_nothing_and_says_why(
    played, organiser, django_capture_on_commit_callbacks
):
    api = APIClient()
    api.force_login(organiser)
    rows, rules = LedgerRow.objects.count(), played.rules
    url = f"/api/tournaments/{played.slug}/rules/apply/"
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(url, rules_body(game_target=500), format="json")
    assert response.status_code == 202, response.content
    job = api.get(response["Location"]).json()
    assert job["state"] == "failed" and job["error"] == {
        "code": "game_reopened",
        "message": "Round 1, table 1 (P01 v P02): This change would leave game 1 unfinished, "
        "but game 2 already has hand 1: void it, then make this change.",
    }
    played.refresh_from_db()
    assert played.rules == rules and LedgerRow.objects.count() == rows
    assert ledger.verify() == []


def test_a_second_rules_change_waits_for_the_first_and_bad_options_are_refused_at_once(
    played, organiser
):
    api = APIClient()
    api.force_login(organiser)
    url = f"/api/tournaments/{played.slug}/rules/apply/"
    assert api.post(url, rules_body(box_bonus=10), format="json").status_code == 202
    second = api.post(url, rules_body(box_bonus=5), format="json")  # the first never ran
    assert second.status_code == 409 and second.json()["error"]["code"] == "job_pending"
    assert "already waiting for a worker" in second.json()["error"]["message"]
    Job.objects.update(state="done")
    bad = api.post(url, rules_body(box_bonus=-3), format="json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_option"
    assert Job.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_database_worker_applies_a_queued_rules_change(played, organiser):
    with override_settings(TASKS=DATABASE_QUEUE):
        job = services.start_rules_change(
            tournament_id=played.pk, actor=actor(organiser), **rules_body(box_bonus=10)
        )
        played.refresh_from_db()
        assert played.rules["box_bonus"] == 25  # queued, not applied
        call_command(
            "db_worker", "--batch", "--no-reload", "--no-startup-delay", "--interval=0", verbosity=0
        )
    job.refresh_from_db()
    played.refresh_from_db()
    assert (job.state, job.done, job.total) == ("done", 2, 2)
    assert played.rules["box_bonus"] == 10 and ledger.verify() == []


def test_a_worker_stopped_mid_job_leaves_it_failed_and_nothing_written(
    played, organiser, monkeypatch
):
    """A second Ctrl-C makes the worker raise SystemExit inside the task."""
    rules = played.rules

    def stopped(job, actor, report):
        Tournament.objects.filter(pk=played.pk).update(rules={"half": "written"})
        raise SystemExit(1)

    monkeypatch.setitem(jobs.WORK, Job.Kind.RULES_CHANGE, stopped)
    job = services.start_rules_change(
        tournament_id=played.pk, actor=actor(organiser), **rules_body(box_bonus=10)
    )
    with pytest.raises(SystemExit):
        services.run_job(job.pk)
    job.refresh_from_db()
    played.refresh_from_db()
    assert (job.state, job.error_code) == ("failed", "worker_stopped")
    assert "nothing was changed" in job.message and played.rules == rules


def test_a_job_whose_worker_was_lost_no_longer_blocks_the_next_rules_change(played, organiser):
    lost = services.start_rules_change(
        tournament_id=played.pk, actor=actor(organiser), **rules_body(box_bonus=10)
    )
    an_hour_ago = timezone.now() - jobs.STALE_AFTER
    Job.objects.filter(pk=lost.pk).update(
        state="running", started_at=an_hour_ago + timedelta(minutes=1)
    )
    with pytest.raises(ServiceError) as caught:  # still running, by all it can tell
        services.start_rules_change(
            tournament_id=played.pk, actor=actor(organiser), **rules_body(box_bonus=5)
        )
    assert caught.value.code == "job_pending"
    Job.objects.filter(pk=lost.pk).update(started_at=an_hour_ago - timedelta(seconds=1))
    services.start_rules_change(
        tournament_id=played.pk, actor=actor(organiser), **rules_body(box_bonus=5)
    )
    lost.refresh_from_db()
    assert (lost.state, lost.error_code) == ("failed", "worker_lost")
    assert "nothing was changed" in lost.message
