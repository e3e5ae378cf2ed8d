"""Background jobs' pages: a job with its progress bar, and the bar alone (polled by
htmx every second while the job is queued or running; a finished job's bar carries no
poll, so polling stops). Only the job's club's organisers see it (ginclub.permissions)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ginclub import permissions
from ginclub.errors import NotFound
from tournaments import services
from tournaments.models import Job
from tournaments.services.jobs import JobView


def _job(request: HttpRequest, job_id: int) -> JobView:
    found = (
        Job.objects.select_related("club", "tournament", "requested_by").filter(pk=job_id).first()
    )
    if found is None:
        raise NotFound("not_found", _("No such job."))
    permissions.require_see_job(permissions.actor_of(request), found)
    return services.progress_of(found)


def _context(request: HttpRequest, job_id: int) -> dict:
    item = _job(request, job_id)
    queued = item.job.state == Job.State.QUEUED
    return {"item": item, "worker_missing": queued and services.worker_missing()}


@login_required
@require_GET
def job(request: HttpRequest, job_id: int) -> HttpResponse:
    return render(request, "tournaments/job.html", _context(request, job_id))


@login_required
@require_GET
def job_progress(request: HttpRequest, job_id: int) -> HttpResponse:
    response = render(request, "tournaments/_job.html", _context(request, job_id))
    response["Cache-Control"] = "no-store"
    return response
