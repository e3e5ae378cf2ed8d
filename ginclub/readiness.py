"""Deploy steps a server cannot serve without, said at start-up and on every page until
they are done, instead of a 500 on every page.

Terms:
    step    a deploy step (docs/operations.md, "App servers and gunicorn") whose absence
            breaks every page: `collectstatic` (with debug off the hashed-name storage
            has no manifest, and every `{% static %}` raises) and `migrate` (the tables
            the code reads are not there or not as it reads them).
    missing the steps not done, each a code and a sentence naming the command to run.

Said three ways: system checks `ginclub.W001` (static; runserver, `check`) and
`ginclub.W002` (migrations; `check --deploy`), both failing `--fail-level WARNING`; an
error in the log when gunicorn loads the application (ginclub.wsgi); and a plain 503 for
every page (ReadinessMiddleware) until the step is done. A database that cannot be
reached is not a missing step (that is ginclub.middleware's 503 "unavailable"): the
migrations are then not asked.

A background worker for the database queue is needed too, but not by every page: without
one, imports, rules changes and ladder refreshes wait. It is missing when a task has
waited in the queue longer than WORKER_LATE (a worker looks every second). Said in
`check --deploy` (`ginclub.W004`), in the log at start-up, and on the organiser's
dashboard and job pages (tournaments' `_worker_missing.html`); the pages still serve.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.core import checks
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ginclub.errors import Refusal
from ginclub.middleware import is_api, is_unavailable

logger = logging.getLogger("ginclub")


@dataclass(frozen=True)
class Missing:
    code: str
    message: str


def static_missing() -> Missing | None:
    """With a hashed-name storage (debug off): no manifest loaded, so no static name
    resolves. The storage reads its manifest once, when first used: a server that
    started before `collectstatic` needs a restart after it, and this says so."""
    storage = staticfiles_storage  # a lazy object: isinstance sees the configured class
    if not isinstance(storage, ManifestFilesMixin) or storage.hashed_files:
        return None
    return Missing(
        "static_not_collected",
        _(
            "The static files have not been collected into %(root)s: run "
            "`python manage.py collectstatic --noinput`, then restart the server."
        )
        % {"root": settings.STATIC_ROOT},
    )


def migrations_missing(alias: str = DEFAULT_DB_ALIAS) -> Missing | None:
    """Migrations not applied to the database. Raises the database's error when it cannot
    be reached (the caller decides what that means)."""
    connection = connections[alias]
    if _sqlite_file_absent(connection):  # asking would create an empty file
        count = len(MigrationLoader(None).graph.nodes)
    else:
        executor = MigrationExecutor(connection)
        count = len(executor.migration_plan(executor.loader.graph.leaf_nodes()))
    if not count:
        return None
    return Missing(
        "migrations_not_applied",
        _("%(count)s database migration(s) have not been applied: run `python manage.py migrate`.")
        % {"count": count},
    )


def _sqlite_file_absent(connection) -> bool:
    name = str(connection.settings_dict["NAME"])
    in_memory = name == ":memory:" or name.startswith("file:")
    return connection.vendor == "sqlite" and not in_memory and not Path(name).exists()


def survey() -> tuple[list[Missing], bool]:
    """The steps not done, and whether all could be asked: the migrations are left
    unasked when the database cannot be reached (or may not be, in a test)."""
    found, asked = [static_missing()], True
    try:
        found.append(migrations_missing())
    except Exception as error:  # noqa: BLE001 - a probe must never be the 500 itself
        asked = False
        if not is_unavailable(error):
            logger.warning("Could not ask the database for its migrations: %s", error)
    return [step for step in found if step is not None], asked


def missing_steps() -> list[Missing]:
    return survey()[0]


# ----------------------------------------------------------------- saying so


HINT = gettext_lazy("Until then every page answers 503, naming the step.")


@checks.register("deploy_steps")
def check_static_collected(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """`ginclub.W001`. A warning, not an error: an error would stop `collectstatic`."""
    step = static_missing()
    return [checks.Warning(step.message, hint=HINT, id="ginclub.W001")] if step else []


@checks.register("deploy_steps", deploy=True)
def check_migrations_applied(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """`ginclub.W002`, in `check --deploy` only: runserver says it already, and `migrate`
    (which runs the checks first) would warn of what it is about to do."""
    try:
        step = migrations_missing()
    except Exception as error:  # noqa: BLE001 - as in missing_steps
        return [] if is_unavailable(error) else [checks.Warning(str(error), id="ginclub.W002")]
    return [checks.Warning(step.message, hint=HINT, id="ginclub.W002")] if step else []


# A worker looks for work every second; a task that has waited a minute has no worker.
WORKER_LATE = timedelta(minutes=1)
WORKER_MESSAGE = (
    "Background tasks have waited in the database queue for more than a minute: no "
    "worker is taking them (imports, rules changes and season ladders wait)."
)
WORKER_HINT = (
    "Run `python manage.py run_worker` beside the app servers, supervised "
    "(docs/operations.md, 'The background worker')."
)


def worker_missing() -> bool:
    """Whether a background task (a job, a ladder refresh) has waited in the database queue
    for more than WORKER_LATE: no worker is taking them. Always False with a backend that
    runs tasks at once (nothing waits)."""
    from django_tasks_db.models import DBTaskResult  # its app is loaded after this module

    late = timezone.now() - WORKER_LATE
    return DBTaskResult.objects.ready().filter(enqueued_at__lt=late).exists()


@checks.register("deploy_steps", deploy=True)
def check_worker_running(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """`ginclub.W004`, in `check --deploy` only: tasks wait with no worker taking them.
    Asked of a migrated database only (else W002 or the outage says it, the queue's table
    may not exist yet, and asking SQLite would create an empty file)."""
    if migrations_missing_quietly():
        return []
    try:
        late = worker_missing()
    except Exception as error:  # noqa: BLE001 - as in check_migrations_applied
        return [] if is_unavailable(error) else [checks.Warning(str(error), id="ginclub.W004")]
    return [checks.Warning(WORKER_MESSAGE, hint=WORKER_HINT, id="ginclub.W004")] if late else []


def migrations_missing_quietly() -> bool:
    """Whether migrations are missing, or the database cannot say (True)."""
    try:
        return migrations_missing() is not None
    except Exception:  # noqa: BLE001 - the database itself is the problem then
        return True


def log_missing_steps() -> None:
    """At start-up (ginclub.wsgi): each missing step as an error in the log, and a queue
    no worker takes as a warning (the pages serve; the jobs wait)."""
    steps, asked = survey()
    for step in steps:
        logger.error("Not ready to serve (%s): %s", step.code, step.message)
    if asked and not steps:
        try:
            late = worker_missing()
        except Exception:  # noqa: BLE001 - a probe must never stop the start-up
            return
        if late:
            logger.warning("%s %s", WORKER_MESSAGE, WORKER_HINT)


def not_ready_response(request: HttpRequest, steps: list[Missing]) -> HttpResponse:
    """503 naming the steps: JSON under /api/, else a page that needs no static file."""
    if answers_json(request):
        refusal = Refusal(steps[0].code, " ".join(step.message for step in steps), 503)
        response: HttpResponse = JsonResponse(refusal.as_dict(), status=503)
    else:
        body = loader.render_to_string("core/not_ready.html", {"steps": steps}, request=None)
        response = HttpResponse(body, status=503)
    response["Retry-After"] = "60"
    response["Cache-Control"] = "no-store"
    return response


class ReadinessMiddleware:
    """Every request answers the 503 while a step is missing. Asked on each request until
    all is there, then never again in this process: a server that served once is ready."""

    ready = False  # for the process, not one instance (the test client makes many)

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not ReadinessMiddleware.ready:
            steps, asked = survey()
            ReadinessMiddleware.ready = asked and not steps
            blocking = [step for step in steps if step.code in needs(request)]
            if blocking:
                return not_ready_response(request, blocking)
        return self.get_response(request)


def needs(request: HttpRequest) -> set[str]:
    """The steps `request` cannot be answered without: JSON (the API, /healthz) uses no
    static file; the API's HTML docs page does."""
    if answers_json(request) and not request.path.startswith("/api/docs/"):
        return {"migrations_not_applied"}
    return {"static_not_collected", "migrations_not_applied"}


def answers_json(request: HttpRequest) -> bool:
    return is_api(request) or request.path == reverse("healthz")
