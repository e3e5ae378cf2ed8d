"""Refusals become pages here, and only here (the API's are in ginclub.api_errors).

A view never catches a refusal: it lets the service's (or the engine's) error rise, and
this middleware answers with it. An htmx request gets the `refusal` partial (the
message, its code and the fields concerned) with the refusal's status; the page's
script puts it beside the form that was sent, which keeps what the player typed. Any
other request gets the refusal page in the site's layout. Responses that Django makes
without a body for a person (405, and CSRF failures through `csrf_failure`) get the
same page. Errors that are not refusals are bugs and are left to Django (a 500).

The database being unreachable is neither a refusal nor a bug: it is a 503 with
`Retry-After`, a small page that needs no database (or the API's JSON), whether the view
raised it (`process_exception`) or something before or after the view did (a session or
user lookup in another middleware: Django turns those into a call of `server_error`,
handler500, which answers the 503 too).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import DisallowedHost, RequestDataTooBig, TooManyFieldsSent
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.urls import Resolver404, resolve
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ginclub.errors import Refusal, refusal_of
from ginclub.inputs import TooLarge

# The load balancers' health check answers like the API, never with a page.
HEALTH_PATH = "/healthz"


def is_api(request: HttpRequest) -> bool:
    """Whether refusals here are JSON: the API's addresses, and the health check."""
    return request.path.startswith("/api/") or request.path == HEALTH_PATH


def refusal_response(
    request: HttpRequest, refusal: Refusal, back: str | None = None, plain: str = ""
) -> HttpResponse:
    """The refusal as a page, or as the htmx partial; JSON under /api/. A refusal that
    says when to ask again (every 429) carries it as Retry-After. `back`: where the
    page's Back button leads (by default the page the request came from); `plain`: the
    refused page without the query it was refused for (_without_query)."""
    if is_api(request):
        response = JsonResponse(refusal.as_dict(), status=refusal.status)
    elif getattr(request, "htmx", False):
        response = render(
            request, "core/_refusal.html", {"refusal": refusal}, status=refusal.status
        )
        response["X-Refusal"] = refusal.code
        # A boosted form would otherwise push its POST address into the history.
        response["HX-Push-Url"] = "false"
    else:
        context = {"refusal": refusal, "back": _back_url(request) or back or "", "plain": plain}
        response = render(request, "core/refusal.html", context, status=refusal.status)
    if refusal.retry_after is not None:
        response["Retry-After"] = str(refusal.retry_after)
    return response


logger = logging.getLogger("ginclub")

# Errors that mean "the database cannot be reached now", not "this request is wrong".
UNAVAILABLE = (OperationalError, InterfaceError)
RETRY_AFTER = 10
UNAVAILABLE_MESSAGE = gettext_lazy(
    "The server cannot reach its database just now: nothing was saved. Try again in a moment."
)


def is_unavailable(error: BaseException | None) -> bool:
    return isinstance(error, UNAVAILABLE)


def log_unavailable(error: BaseException, request: HttpRequest) -> None:
    logger.error("Database unavailable (503): %s %s: %s", request.method, request.path, error)


def unavailable_response(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: JSON under /api/, else a page that touches no database."""
    if is_api(request):
        response: HttpResponse = JsonResponse(
            Refusal("unavailable", str(UNAVAILABLE_MESSAGE), 503).as_dict(), status=503
        )
    else:
        context = {"code": "unavailable", "message": str(UNAVAILABLE_MESSAGE)}
        body = loader.render_to_string(
            "core/unavailable.html", {**context, "retry_after": RETRY_AFTER}
        )
        response = HttpResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


def _back_url(request: HttpRequest) -> str:
    referer = request.headers.get("Referer", "")
    try:
        host = request.get_host()
    except DisallowedHost:  # handler400's own refusal of a Host header: no way back
        return ""
    same_site = url_has_allowed_host_and_scheme(
        referer, allowed_hosts={host}, require_https=request.is_secure()
    )
    return referer if referer and same_site and referer != request.build_absolute_uri() else ""


def _without_query(request: HttpRequest, refusal: Refusal) -> str:
    """A page visit refused for what its address asks (`?round=x`, a filter edited by
    hand or an old bookmark): the same page without the query, which it answers."""
    asked = set(request.GET)
    if request.method not in ("GET", "HEAD") or refusal.status != 400 or not asked:
        return ""
    return request.path if asked & set(refusal.fields or ()) else ""


def _up_url(request: HttpRequest) -> str:
    """The nearest address above the request's that the site answers ("/a/b/c/" asks
    "/a/b/", then "/a/"): where a form's address visited by mistake leads back to."""
    parts = [part for part in request.path.split("/") if part]
    for end in range(len(parts) - 1, 0, -1):
        above = "/" + "/".join(parts[:end]) + "/"
        try:
            resolve(above)
        except Resolver404:
            continue
        return above
    return "/"


class RefusalMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code == 405 and not response.content:
            allowed = response.get("Allow", "")
            visit = request.method in ("GET", "HEAD") and not is_api(request)
            if visit:  # a form's address, reloaded or bookmarked: said plainly
                message = _(
                    "This address takes what a form sends, not a visit: go back to the "
                    "page with the form."
                )
            else:
                message = _("This address does not take %(method)s (%(allowed)s).") % {
                    "method": request.method,
                    "allowed": allowed,
                }
            refusal = Refusal("method_not_allowed", message, 405)
            refused = refusal_response(request, refusal, back=_up_url(request) if visit else None)
            refused["Allow"] = allowed
            return refused
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_unavailable(exception):
            log_unavailable(exception, request)
            return unavailable_response(request)
        refusal = refusal_of(exception)
        if refusal is None:
            return None
        return refusal_response(request, refusal, plain=_without_query(request, refusal))


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """Django's CSRF_FAILURE_VIEW: an expired or missing form token, said plainly."""
    refusal = Refusal(
        "csrf_failed",
        _("This form had expired or came from another site. Reload the page and try again."),
        403,
    )
    return refusal_response(request, refusal)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404: an address nothing answers, in the site's layout (JSON under /api/)."""
    return refusal_response(
        request, Refusal("not_found", _("There is nothing at this address."), 404)
    )


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler400: what Django refuses before any view (a body of more fields than
    DATA_UPLOAD_MAX_NUMBER_FIELDS, one over the size limit, a bad Host), as the site's
    refusal page (JSON under /api/) instead of Django's bare "Bad Request"."""
    if isinstance(exception, TooManyFieldsSent):
        refusal = too_many_fields()
    elif isinstance(exception, RequestDataTooBig):
        refusal = refusal_of(TooLarge(settings.DATA_UPLOAD_MAX_MEMORY_SIZE))
    else:
        refusal = Refusal("bad_request", _("The request could not be read."), 400)
    return refusal_response(request, refusal)


def too_many_fields() -> Refusal:
    return Refusal(
        "too_many_fields",
        _("The body has more than %(count)s fields: send fewer, or a list as JSON.")
        % {"count": settings.DATA_UPLOAD_MAX_NUMBER_FIELDS},
        400,
    )


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: a bug on our side; the request may not have been saved. Called while
    the error is being handled, so an unreachable database (raised in a middleware, before
    or after the view) is told apart here and answered 503."""
    if is_unavailable(sys.exc_info()[1]) or request.path == HEALTH_PATH:
        return unavailable_response(request)  # a health check that broke is unhealthy
    refusal = Refusal(
        "server_error",
        _(
            "Something went wrong on our side; it has been logged. Reload to see whether "
            "your change was saved before trying again."
        ),
        500,
    )
    if is_api(request):
        return JsonResponse(refusal.as_dict(), status=500)
    try:
        body = loader.render_to_string("core/refusal.html", {"refusal": refusal})
    except Exception:  # the template itself may be what broke
        body = refusal.message
    return HttpResponse(body, status=500)
