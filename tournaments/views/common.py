"""What every tournament page shares: who may open it, the Actor, errors on forms."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect

from ginclub.errors import Forbidden, ServiceError
from scoring.rules import RulesError
from scoring.services import Actor
from scoring.views import forbidden_page
from tournaments import selectors
from tournaments.models import Tournament

USER_ERRORS = (ServiceError, RulesError)
NOT_ORGANISER = Forbidden(
    "not_allowed", "Only the organisers of this tournament's club (and admins) manage it."
)


def actor_of(request: HttpRequest) -> Actor:
    return Actor(
        user=request.user,
        device=request.headers.get("User-Agent", "")[:200],
        ip=request.META.get("REMOTE_ADDR"),
    )


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), slug=slug)


def organiser_page(view: Callable) -> Callable:
    """Log in first; then the club's organisers and admins only (others get a 403 page).
    The view receives the tournament instead of its slug."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        tournament = _tournament(slug)
        if not selectors.can_manage(request.user, tournament):
            return forbidden_page(request, NOT_ORGANISER)
        return view(request, tournament, *args, **kwargs)

    return wrapper


def public_page(view: Callable) -> Callable:
    """Anyone, when the tournament is public; else its organisers and players. A private
    tournament is a 404 to everybody else: the public learns nothing of it."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        tournament = _tournament(slug)
        if not selectors.can_view(request.user, tournament):
            raise Http404("No such tournament.")
        return view(request, tournament, *args, **kwargs)

    return wrapper


def add_service_error(form: forms.Form, error: Exception) -> None:
    """The message on top of the form, and each named field's problem beside it."""
    form.add_error(None, error.message)
    fields = getattr(error, "fields", None) or {}
    field_of = getattr(form, "error_field", lambda key: key if key in form.fields else None)
    for key, text in fields.items():
        name = field_of(key)
        if name and name in form.fields and name not in form.errors:
            form.add_error(name, str(text))


def run(request: HttpRequest, service: Callable, success: str = "", **kwargs) -> tuple[bool, Any]:
    """Call a service for a one-button form, with a message either way: (True, its
    result), or (False, None) when it refused (the error is then the message)."""
    try:
        result = service(actor=actor_of(request), **kwargs)
    except USER_ERRORS as error:
        messages.error(request, error.message)
        return False, None
    if success:
        messages.success(request, success)
    return True, result


def back(tournament: Tournament, name: str, **kwargs) -> HttpResponse:
    return redirect(f"tournaments:{name}", slug=tournament.slug, **kwargs)
