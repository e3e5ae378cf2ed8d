"""Long work off the request: background jobs (archive imports, rules changes).

Terms:
    job       a `Job` row: what was asked, in which club (and tournament), by whom, and
              what became of it: queued, running, done (with a summary of what the work
              did) or failed (with the message a person reads: a refusal's own message).
    task      `execute_job`, the django-tasks task that runs a job. The database backend
              (django-tasks-db) queues it in this database; `manage.py run_worker` runs it,
              as many workers as wanted (each claims a task under a row lock).
    progress  how far a running job is, `done` of `total` (matches imported or re-scored).

A `start_*` service checks at once what can be checked at once (who asks, the archive's
shape, the reason), creates the job and enqueues its task when the job's row commits
(`transaction.on_commit`: a worker never looks for a row that is not there yet).
`run_job`, the task's body, does the work through the ordinary service (import_archive,
apply_rules_change) inside one transaction, which also marks the job done: the work and
"done" commit together, and a job that fails wrote nothing but its "failed".
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django_tasks import task

from ginclub import permissions
from ginclub.errors import (
    Conflict,
    Forbidden,
    NotFound,
    ServiceError,
    refusal_of,
    require_reason,
)
from ginclub.permissions import Actor
from scoring.models import Club
from scoring.rules import RulesError, make_profile
from tournaments.models import Job, Tournament
from tournaments.pairing import Phrase
from tournaments.services.archive import check_archive, import_archive, matches_in
from tournaments.services.rescoring import apply_rules_change
from tournaments.translated import error_text, language

logger = logging.getLogger(__name__)

# A job's words are stored in English (label, message, the result's summary) with their
# English templates and values in Job.words, and shown in the reader's language (JobView).
UNEXPECTED = gettext_noop(
    "The job stopped on an unexpected error (%(kind)s); nothing was changed. "
    "The error is in the server's log: try again, or tell the site's administrator."
)
WORKER_STOPPED = gettext_noop(
    "The worker was stopped while the job ran; nothing was changed. Ask again."
)
NOT_QUEUED = gettext_noop("The job could not be queued; nothing was changed. Try again.")
IMPORT_LABEL = gettext_noop("Import of %(name)s")
RULES_CHANGE_LABEL = gettext_noop("Rules change of %(name)s: %(reason)s")
# A job still "running" this long after it started lost its worker (killed, or the machine
# went down): its transaction died with it, so nothing was changed. No job takes this
# long (bench_rescore: a 1,024-match event re-scores in under a minute).
STALE_AFTER = timedelta(hours=1)
WORKER_LOST = gettext_noop(
    "The worker running this job stopped without finishing it (no word for an hour); "
    "nothing was changed. Ask again."
)


# --------------------------------------------------------------------------- start


def start_archive_import(*, club: Club, actor: Actor, archive: Any) -> Job:
    """Queue the import of `archive` into `club` (tournaments.services.archive). The whole
    shape check runs now; re-scoring every hand runs in the job.

    Raises Forbidden, ServiceError (`bad_archive`, naming the faulty part).
    """
    permissions.require_organiser(actor, club, _("import tournaments"))
    check_archive(archive)
    label = Phrase(IMPORT_LABEL, {"name": str(archive["tournament"]["name"])})
    return _start(
        Job(
            kind=Job.Kind.IMPORT_ARCHIVE,
            club=club,
            label=label.text()[:200],
            words={"label": label.as_data()},
            total=matches_in(archive),
            payload={"archive": archive},
        ),
        actor,
    )


def start_rules_change(*, tournament_id: int, actor: Actor, reason: str, **change: Any) -> Job:
    """Queue a rules change (`change`: apply_rules_change's profile, overrides, from_round)
    of a tournament. The preview (preview_rules_change) runs in the request; the change,
    which re-scores every hand concerned, in the job.

    Raises NotFound, Forbidden, ServiceError (`reason_required`, `bad_option`), Conflict
    (`job_pending`: a rules change of this tournament is already queued or running).
    """
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound("not_found", _("No such tournament."))
    permissions.require_manage_tournament(actor, tournament)
    require_reason(reason, _("Say why the rules change."))
    try:  # options that make no rules are refused now, not after a wait
        make_profile(change.get("profile", ""), change.get("overrides") or {})
    except RulesError as error:
        message = error_text(error)
        raise ServiceError(
            "bad_option", message, fields={error.field or "overrides": message}
        ) from None
    pending = _pending(tournament.jobs.filter(kind=Job.Kind.RULES_CHANGE))
    if pending is not None:
        raise Conflict(
            "job_pending",
            # Translators: %(state)s is the job's state ("waiting for a worker", "running").
            _(
                "A rules change of %(name)s is already %(state)s (asked at %(time)s): wait for "
                "it to finish."
            )
            % {
                "name": tournament.name,
                "state": pending.get_state_display(),
                "time": f"{timezone.localtime(pending.created_at):%H:%M}",
            },
        )
    label = Phrase(RULES_CHANGE_LABEL, {"name": tournament.name, "reason": reason})
    return _start(
        Job(
            kind=Job.Kind.RULES_CHANGE,
            club=tournament.club,
            tournament=tournament,
            label=label.text()[:200],
            words={"label": label.as_data()},
            payload={**change, "reason": reason},
        ),
        actor,
    )


def _pending(jobs) -> Job | None:
    """The job of `jobs` still queued or running; one whose worker was lost (STALE_AFTER)
    is marked failed on the way and does not count."""
    for job in jobs.filter(state__in=(Job.State.QUEUED, Job.State.RUNNING)):
        if job.state == Job.State.RUNNING and job.started_at < timezone.now() - STALE_AFTER:
            Job.objects.filter(pk=job.pk, state=Job.State.RUNNING).update(
                state=Job.State.FAILED,
                error_code="worker_lost",
                message=WORKER_LOST,
                words={**job.words, "message": Phrase(WORKER_LOST).as_data()},
                payload={},
                finished_at=timezone.now(),
            )
            continue
        return job
    return None


def _start(job: Job, actor: Actor) -> Job:
    job.requested_by = actor.user if actor.is_authenticated else None
    with transaction.atomic():
        job.save()
        transaction.on_commit(lambda: _enqueue(job.pk))
    return job


def _enqueue(job_id: int) -> None:
    try:
        result = execute_job.enqueue(job_id)
    except Exception:
        logger.exception("Job %s could not be queued", job_id)
        _fail(job_id, "not_queued", Phrase(NOT_QUEUED))
        return
    Job.objects.filter(pk=job_id).update(task_id=str(result.id)[:64])


# ----------------------------------------------------------------------------- run


@task()
def execute_job(job_id: int) -> str:
    """The django-tasks task: run job `job_id` (run_job) and return its state."""
    return run_job(job_id)


def run_job(job_id: int) -> str:
    """Run a queued job once: claim it, do its work in one transaction that also marks it
    done, or mark it failed with the refusal's message (anything else is logged and
    re-raised, so the task backend records its traceback too). Returns the job's state."""
    claimed = Job.objects.filter(pk=job_id, state=Job.State.QUEUED).update(
        state=Job.State.RUNNING, started_at=timezone.now()
    )
    if not claimed:  # already run (a task delivered twice), or not there
        return Job.objects.filter(pk=job_id).values_list("state", flat=True).first() or ""
    job = Job.objects.select_related("club", "tournament", "requested_by").get(pk=job_id)
    board = ProgressBoard(job)
    # What the job stores is English (the reader's language is chosen when it is shown).
    with translation.override(settings.LANGUAGE_CODE):
        return _run(job, board)


def _run(job: Job, board: ProgressBoard) -> str:
    job_id = job.pk
    try:
        with transaction.atomic():
            tournament, result = WORK[job.kind](job, _actor_of(job), board.report)
            board.close()  # its last write lands before this transaction touches the row
            words = result.pop("words", None)
            Job.objects.filter(pk=job_id).update(
                state=Job.State.DONE,
                tournament=tournament,
                done=board.total,
                total=board.total,
                result=result,
                words={**job.words, **(words or {})},
                payload={},
                finished_at=timezone.now(),
            )
    except BaseException as error:  # the transaction is rolled back: say so, and why
        refusal = refusal_of(error) if isinstance(error, Exception) else None
        if refusal is not None:
            template = getattr(error, "template", None)  # the pure packages' errors
            if template is not None:
                _fail(job_id, refusal.code, Phrase(template, getattr(error, "params", None) or {}))
            else:  # worded when it was refused: kept as it was worded (English here)
                _fail(job_id, refusal.code, refusal.message)
            return Job.State.FAILED
        if isinstance(error, Exception):
            logger.exception("Job %s (%s) failed", job_id, job.kind)
            _fail(job_id, "unexpected", Phrase(UNEXPECTED, {"kind": type(error).__name__}))
        else:  # the worker was told to stop at once (a second Ctrl-C, SystemExit)
            _fail(job_id, "worker_stopped", Phrase(WORKER_STOPPED))
        raise
    finally:
        board.close()
        board.forget()
    return Job.State.DONE


def _fail(job_id: int, code: str, message: str | Phrase) -> None:
    words = Job.objects.filter(pk=job_id).values_list("words", flat=True).first() or {}
    if isinstance(message, Phrase):
        words = {**words, "message": message.as_data()}
        message = message.text()
    Job.objects.filter(pk=job_id).update(
        state=Job.State.FAILED,
        error_code=code[:40],
        message=message,
        words=words,
        payload={},
        finished_at=timezone.now(),
    )


def _actor_of(job: Job) -> Actor:
    """Who asked, as the services see them: their rights are asked again now."""
    if job.requested_by is None:
        raise Forbidden("not_allowed", _("The account that asked for this job no longer exists."))
    return Actor(user=job.requested_by, device="background job")


Report = Callable[[int, int], None]


def _import_work(job: Job, actor: Actor, report: Report) -> tuple[Tournament, dict]:
    tournament = import_archive(
        club=job.club, actor=actor, archive=job.payload["archive"], progress=report
    )
    return tournament, {
        "tournament": tournament.slug,
        "name": tournament.name,
        "registrations": tournament.registrations.count(),
        "rounds": tournament.round_set.count(),
        "matches": matches_in(job.payload["archive"]),
    }


def _rules_work(job: Job, actor: Actor, report: Report) -> tuple[Tournament, dict]:
    change = apply_rules_change(
        tournament_id=job.tournament_id, actor=actor, progress=report, **job.payload
    )
    summary = change.job_result()
    # Every hand that changed is in the ledger; the job keeps the figures.
    summary.pop("matches", None)
    summary["standings_moved"] = len(summary.pop("standings", []))
    words = rules_change_words(change)
    summary["summary"] = words.text()
    summary["words"] = {"summary": words.as_data()}  # to Job.words (run_job), not the result
    return job.tournament, summary


WHOLE_EVENT = gettext_noop("the whole event")
FROM_ROUND = gettext_noop("from round %(number)s on (%(rounds)s re-scored)")
RULES_CHANGED = gettext_noop(
    "Rules changed: %(scope)s: %(hands)s hand(s), %(games)s game(s) and %(results)s match "
    "result(s) changed; %(moved)s standings line(s) moved."
)


def rules_change_words(change) -> Phrase:
    """What an applied rules change did, in a sentence (its job's page and list)."""
    scope = (
        Phrase(WHOLE_EVENT)
        if change.whole_event
        else Phrase(FROM_ROUND, {"number": change.from_round, "rounds": change.rescored_text})
    )
    values = {
        "scope": scope,
        "hands": change.hands_changed,
        "games": change.games_changed,
        "results": change.results_changed,
        "moved": len(change.standings),
    }
    return Phrase(RULES_CHANGED, values)


def rules_change_summary(change) -> str:
    """rules_change_words in the reader's language."""
    return rules_change_words(change).text(language())


WORK = {Job.Kind.IMPORT_ARCHIVE: _import_work, Job.Kind.RULES_CHANGE: _rules_work}


# ------------------------------------------------------------------------ progress


class ProgressBoard:
    """Where a running job's progress is written so the organiser's page can read it
    while the job's one transaction is still open (nothing that transaction writes is
    visible to anyone before it commits):

    - PostgreSQL: an UPDATE of the job's row on a second connection of the board's own,
      in autocommit, visible at once. The job's transaction writes the job row only after
      the board's last write (`close`), so the two never wait on one row lock.
    - SQLite: one writer at a time, and the job's transaction holds the write lock from
      BEGIN (IMMEDIATE) to COMMIT. A second connection's write would wait for it (busy
      timeout, then "database is locked") while the job waits for that write: a deadlock
      in all but name. So progress goes to the "jobs" cache, files beside the database;
      SQLite serves one machine, where the web server and the worker both see them.

    Written at most every `EVERY` seconds (and the last figure at the end): the page polls
    every second or two, and a write per hand would cost more than the work.
    """

    EVERY = 0.5

    def __init__(self, job: Job) -> None:
        self.job_id, self.done, self.total = job.pk, job.done, job.total
        self._written_at = 0.0
        self._unwritten = False
        self._side = None

    def report(self, done: int, total: int) -> None:
        self.done, self.total = done, max(total, done)
        self._unwritten = True
        now = time.monotonic()
        if now - self._written_at >= self.EVERY:
            self._write()
            self._written_at = now

    def close(self) -> None:
        """Write the last figure, and let go of the second connection."""
        if self._unwritten:
            self._write()
        if self._side is not None:
            self._side.close()
            self._side = None

    def forget(self) -> None:
        if connection.vendor == "sqlite":
            caches["jobs"].delete(_cache_key(self.job_id))

    def _write(self) -> None:
        self._unwritten = False
        if connection.vendor == "sqlite":
            caches["jobs"].set(_cache_key(self.job_id), (self.done, self.total))
            return
        if self._side is None:
            self._side = connections.create_connection(DEFAULT_DB_ALIAS)
        table = self._side.ops.quote_name(Job._meta.db_table)
        with self._side.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET done = %s, total = %s WHERE id = %s",  # noqa: S608
                [self.done, self.total, self.job_id],
            )


# --------------------------------------------------------------------------- reads
# Beside the board, because a running job's progress is read where the board wrote it.


@dataclass(frozen=True)
class JobView:
    """A job as its pages and the API show it: the row and its live progress."""

    job: Job
    done: int
    total: int

    @property
    def label(self) -> str:
        """What was asked, in the reader's language (Job.label is its English)."""
        return self._worded("label", self.job.label)

    @property
    def message(self) -> str:
        """Why the job failed, in the reader's language where it was stored as a template."""
        return self._worded("message", self.job.message)

    @property
    def error(self) -> dict[str, str] | None:
        """A failed job's code and message (in the reader's language); None otherwise."""
        if self.job.state != Job.State.FAILED:
            return None
        return {"code": self.job.error_code, "message": self.message}

    @property
    def result(self) -> Any:
        """What the work did, its summary in the reader's language."""
        result = self.job.result
        if isinstance(result, dict) and "summary" in result:
            return {**result, "summary": self.summary}
        return result

    @property
    def summary(self) -> str:
        """What the work did (a rules change's sentence), in the reader's language."""
        return self._worded("summary", (self.job.result or {}).get("summary", ""))

    def _worded(self, key: str, english: str) -> str:
        data = (self.job.words or {}).get(key)
        if not data:
            return english
        worded = Phrase.from_data(data).text(language())
        return worded[:200] if key == "label" else worded

    @property
    def percent(self) -> int:
        if self.job.state == Job.State.DONE:
            return 100
        return min(100, self.done * 100 // self.total) if self.total else 0


def progress_of(job: Job) -> JobView:
    """`job` with its progress, live while it runs (ProgressBoard)."""
    if job.state == Job.State.RUNNING and connection.vendor == "sqlite":
        written = caches["jobs"].get(_cache_key(job.pk))
        if written is not None:
            return JobView(job, *written)
    return JobView(job, job.done, job.total)


def recent_jobs(*, clubs=None, tournament: Tournament | None = None, kind: str = "") -> list:
    """The ten newest jobs of `clubs` or of `tournament` (of one `kind` if given)."""
    jobs = Job.objects.select_related("club", "tournament", "requested_by")
    if tournament is not None:
        jobs = jobs.filter(tournament=tournament)
    if clubs is not None:
        jobs = jobs.filter(club__in=clubs)
    if kind:
        jobs = jobs.filter(kind=kind)
    return [progress_of(job) for job in jobs[:10]]


def _cache_key(job_id: int) -> str:
    # Keyed by the database too: two databases (the test suite's workers) share the files.
    database = hashlib.sha256(str(connection.settings_dict["NAME"]).encode()).hexdigest()[:16]
    return f"job-progress:{database}:{job_id}"
