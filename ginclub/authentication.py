"""Session authentication that keeps CSRF protection for table sessions too.

DRF checks CSRF only for logged-in session users. A phone that opened a table link is
anonymous but still carries a session that can act for a seat, so any request that
arrives with a session cookie and no token is CSRF-checked here.
"""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.authentication import SessionScheme
from rest_framework.authentication import SessionAuthentication


class CsrfSessionAuthentication(SessionAuthentication):
    def authenticate(self, request):
        result = super().authenticate(request)
        if result is None and settings.SESSION_COOKIE_NAME in request.COOKIES:
            self.enforce_csrf(request)
        return result


class CsrfSessionScheme(SessionScheme):
    """Describes the session cookie scheme in the OpenAPI schema."""

    target_class = CsrfSessionAuthentication
