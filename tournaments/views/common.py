"""What every tournament page shares: who may open it (asked of ginclub.permissions).

No view catches a refusal: a service's (or the pairing package's) error rises, and
ginclub.middleware answers with the refusal page, or the htmx partial, at its status.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from ginclub import permissions
from ginclub.errors import ServiceError
from tournaments.models import Tournament


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), slug=slug)


def organiser_page(view: Callable) -> Callable:
    """Log in first; then the club's organisers and admins only (a private tournament is
    a 404 to others, a public one a 403: permissions.require_manage_tournament raises).
    Its auditors read (GET) every organiser's page and change nothing: whatever they
    send is refused naming the role (permissions.refuse_auditor).
    The view receives the tournament instead of its slug."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        tournament = _tournament(slug)
        actor = permissions.actor_of(request)
        if request.method in ("GET", "HEAD"):
            permissions.require_audit_tournament(actor, tournament)
        else:
            permissions.require_manage_tournament(actor, tournament)
        return view(request, tournament, *args, **kwargs)

    return wrapper


def staff_page(view: Callable) -> Callable:
    """`organiser_page` for running the rounds: reads as there; a change (POST) by the
    club's organisers and its scorekeepers (permissions.require_run_rounds: an auditor
    is refused naming the role). The view receives the tournament instead of its slug."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        tournament = _tournament(slug)
        actor = permissions.actor_of(request)
        permissions.require_audit_tournament(actor, tournament)
        if request.method not in ("GET", "HEAD"):
            permissions.require_run_rounds(actor, tournament)
        return view(request, tournament, *args, **kwargs)

    return wrapper


def public_page(view: Callable) -> Callable:
    """Anyone, when the tournament is public; else its organisers and players. A private
    tournament is a 404 to everybody else (permissions.require_view_tournament)."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        tournament = _tournament(slug)
        permissions.require_view_tournament(permissions.actor_of(request), tournament)
        return view(request, tournament, *args, **kwargs)

    return wrapper


def manages(request: HttpRequest, tournament: Tournament) -> bool:
    """Show the organiser's forms and buttons? (permissions.may_manage_tournament)"""
    return permissions.may_manage_tournament(permissions.actor_of(request), tournament)


def runs(request: HttpRequest, tournament: Tournament) -> bool:
    """Show the forms and buttons that run the rounds? (permissions.may_run_rounds)"""
    return permissions.may_run_rounds(permissions.actor_of(request), tournament)


def audits(request: HttpRequest, tournament: Tournament) -> bool:
    """Show the organiser's pages (read-only for auditors)? (may_audit_tournament)"""
    return permissions.may_audit_tournament(permissions.actor_of(request), tournament)


# What the pages ask for by number, in the catalogue even where a caller passes plain
# English (whole_number translates `what` when it refuses).
NUMBERED = (gettext_noop("A round"), gettext_noop("A table"))


def whole_number(request: HttpRequest, key: str, what: str) -> int | None:
    """A whole number from the query string or the form (None when blank); anything else
    is a refusal naming the field. `what` names it ("A round"), translated or not."""
    raw = (request.POST.get(key) or request.GET.get(key) or "").strip()
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 9:
        raise ServiceError(
            "invalid",
            # Translators: what is a thing asked for by number ("A round", "A seed").
            _("%(what)s is a whole number, not %(raw)s.")
            % {"what": _(str(what)), "raw": repr(raw)},
            fields={key: "a whole number"},
        )
    return int(raw)


def back(tournament: Tournament, name: str, **kwargs) -> HttpResponse:
    return redirect(f"tournaments:{name}", slug=tournament.slug, **kwargs)
