"""The site's own pages that belong to no app (the home page is scoring's: your clubs
and matches): the health check, and the login form with its cheap door."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.templatetags.static import static

from ginclub import login_limits
from ginclub.errors import ServiceError
from ginclub.middleware import log_unavailable, unavailable_response
from ginclub.permissions import client_ip


def healthz(request: HttpRequest) -> HttpResponse:
    """Load balancers poll this: 200 when the database answers, else the JSON 503 with
    Retry-After, whatever went wrong (never a page: ginclub.middleware answers JSON for
    this address too, should something before the view fail)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as error:  # any failure here is "unhealthy", not a bug page
        log_unavailable(error, request)
        return unavailable_response(request)
    return JsonResponse({"status": "ok"})


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico whatever the page says; the icon is a static file."""
    return HttpResponsePermanentRedirect(static("favicon.ico"))


class LoginView(auth_views.LoginView):
    """The login form behind ginclub.login_limits: counted and refused before any
    password is hashed, one of a few password checks at once, and a browser that logged
    in before keeps logging in while its venue's address is limited."""

    def post(self, request, *args, **kwargs):
        username = request.POST.get("username", "")
        device = login_limits.trusted_device(request, username)
        login_limits.require_free_slot(trusted=bool(device))
        attempt = login_limits.admit(username=username, ip=client_ip(request), device=device)
        try:
            with login_limits.check_slot(trusted=bool(device)):
                response = super().post(request, *args, **kwargs)
        except ServiceError:
            login_limits.forgive(attempt)  # no password was checked
            raise
        if request.user.is_authenticated:
            login_limits.forgive(attempt)
            response.set_cookie(
                login_limits.TRUST_COOKIE,
                login_limits.trust_token(request.user),
                max_age=login_limits.TRUST_MAX_AGE,
                secure=request.is_secure(),
                httponly=True,
                samesite="Lax",
            )
        return response
