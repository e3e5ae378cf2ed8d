"""A forgotten deploy step (ginclub.readiness): served with debug off before
`collectstatic`, or before `migrate`, every page answers a plain 503 naming the step (it
was a 500), the system checks say so, and so does the log at start-up."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.core import checks
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder
from django.test import override_settings
from django.utils import timezone
from django_tasks import task
from django_tasks_db.models import DBTaskResult

from ginclub import readiness
from ginclub.readiness import ReadinessMiddleware

HASHED = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


@pytest.fixture(autouse=True)
def fresh_server(monkeypatch):
    """A server process that has not yet served a page."""
    monkeypatch.setattr(ReadinessMiddleware, "ready", False)


@pytest.fixture
def uncollected(tmp_path):
    """Debug off as in production, and `collectstatic` never run: STATIC_ROOT is empty."""
    with override_settings(STORAGES=HASHED, STATIC_ROOT=tmp_path / "staticfiles"):
        yield


@pytest.fixture
def unmigrated(db):
    """The newest migration of `tournaments` not applied (the test's transaction undoes it)."""
    recorder = MigrationRecorder(connection)
    newest = max(name for app, name in recorder.applied_migrations() if app == "tournaments")
    recorder.record_unapplied("tournaments", newest)
    return newest


def ids(*, deploy: bool) -> set[str]:
    return {message.id for message in checks.run_checks(include_deployment_checks=deploy)}


@pytest.mark.django_db
def test_pages_answer_503_naming_collectstatic_when_static_files_were_not_collected(
    client, uncollected
):
    for url in ("/", "/accounts/login/", "/tournaments/"):
        page = client.get(url)
        assert page.status_code == 503, url
        body = page.content.decode()
        assert "collectstatic" in body and "static_not_collected" in body
        assert page["Retry-After"]


@pytest.mark.django_db
def test_the_api_and_healthz_need_no_static_files_but_the_api_docs_do(client, uncollected):
    assert client.get("/api/clubs/").status_code == 401  # answered: asks who is there
    assert client.get("/healthz").status_code == 200
    docs = client.get("/api/docs/")
    assert docs.status_code == 503 and "collectstatic" in docs.content.decode()


def test_the_api_answers_a_503_refusal_naming_the_missing_migrations(client, unmigrated):
    answer = client.get("/api/clubs/")
    assert answer.status_code == 503
    assert answer.json()["error"]["code"] == "migrations_not_applied"
    assert "manage.py migrate" in answer.json()["error"]["message"]
    health = client.get("/healthz")
    assert health.status_code == 503
    assert health.json()["error"]["code"] == "migrations_not_applied"


def test_pages_answer_503_naming_migrate_when_migrations_are_not_applied(client, unmigrated):
    page = client.get("/")
    assert page.status_code == 503
    body = page.content.decode()
    assert "migrate" in body and "migrations_not_applied" in body


def test_once_the_step_is_done_the_same_server_serves(client, unmigrated):
    assert client.get("/").status_code == 503
    MigrationRecorder(connection).record_applied("tournaments", unmigrated)
    assert client.get("/").status_code == 200


@pytest.mark.django_db
def test_a_server_with_every_step_done_serves_and_the_checks_are_quiet(client):
    assert client.get("/").status_code == 200
    assert not {"ginclub.W001", "ginclub.W002"} & ids(deploy=True)


@pytest.mark.django_db
def test_the_checks_name_the_missing_steps_and_migrations_only_under_deploy(
    uncollected, unmigrated
):
    assert "ginclub.W001" in ids(deploy=False) and "ginclub.W002" not in ids(deploy=False)
    assert {"ginclub.W001", "ginclub.W002"} <= ids(deploy=True)


@pytest.mark.django_db
def test_the_start_up_log_names_what_is_missing(uncollected, unmigrated, caplog):
    with caplog.at_level(logging.ERROR, logger="ginclub"):
        readiness.log_missing_steps()
    logged = caplog.text
    assert "static_not_collected" in logged and "collectstatic" in logged
    assert "migrations_not_applied" in logged and "manage.py migrate" in logged


# ------------------------------------------------- a worker for the database queue

DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@task()
def errand() -> None:
    """A background task that waits in the database queue until a worker runs it."""


def queued_minutes_ago(minutes: float) -> None:
    with override_settings(TASKS=DATABASE_QUEUE):
        errand.enqueue()
    DBTaskResult.objects.update(enqueued_at=timezone.now() - timedelta(minutes=minutes))


@pytest.mark.django_db(transaction=True)
def test_check_deploy_and_the_start_up_log_name_a_queue_no_worker_takes(caplog):
    assert "ginclub.W004" not in ids(deploy=True)  # nothing queued: nothing to say
    queued_minutes_ago(0.25)  # a worker looks every second: a moment is no sign
    assert "ginclub.W004" not in ids(deploy=True)
    DBTaskResult.objects.update(enqueued_at=timezone.now() - timedelta(minutes=2))
    [warning] = [
        m for m in checks.run_checks(include_deployment_checks=True) if m.id == "ginclub.W004"
    ]
    assert "no worker is taking them" in warning.msg and "run_worker" in warning.hint
    assert "ginclub.W004" not in ids(deploy=False)  # `check --deploy` only, as W002
    with caplog.at_level(logging.WARNING, logger="ginclub"):
        readiness.log_missing_steps()
    assert "no worker is taking them" in caplog.text and "run_worker" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_a_queue_no_worker_takes_leaves_the_pages_serving(client):
    """Unlike a missing deploy step, the site works without a worker: only jobs wait."""
    queued_minutes_ago(5)
    assert readiness.worker_missing()
    assert client.get("/").status_code == 200
    assert readiness.missing_steps() == []
