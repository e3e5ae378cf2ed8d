"""The site's own pages that belong to no app (the home page is scoring's: your clubs
and matches): the health check, and the login form with its cheap door."""

from __future__ import annotations

from datetime import timedelta

from axes.models import AccessAttempt
from django.contrib.auth import views as auth_views
from django.db import connection
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.templatetags.static import static
from django.utils import timezone
from django.utils.translation import gettext as _

from ginclub.errors import Throttled
from ginclub.middleware import log_unavailable, unavailable_response
from ginclub.permissions import client_ip

# Checking a password costs PBKDF2 (tenths of a second of CPU), even for a name that
# does not exist. django-axes locks a username from one address after 5 failures, but a
# guesser trying new names each time never meets that lock: so an address that failed
# this often in the last minute is refused before any password is hashed. Set well above
# what a venue's shared Wi-Fi produces by mistyping.
LOGIN_FAILURES_PER_MINUTE = 30


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


def recent_login_failures(ip: str | None) -> int:
    since = timezone.now() - timedelta(minutes=1)
    rows = AccessAttempt.objects.filter(ip_address=ip, attempt_time__gte=since)
    return rows.aggregate(total=Sum("failures_since_start"))["total"] or 0


class LoginView(auth_views.LoginView):
    def post(self, request, *args, **kwargs):
        if recent_login_failures(client_ip(request)) >= LOGIN_FAILURES_PER_MINUTE:
            raise Throttled(
                "login_throttled",
                _(
                    "Too many failed logins from this network in the last minute; wait a "
                    "minute and try again."
                ),
            )
        return super().post(request, *args, **kwargs)
