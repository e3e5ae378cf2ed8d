"""DRF's EXCEPTION_HANDLER: every API refusal as {"error": {"code", "message", "fields"?}}.

The one place API errors become responses. Services' and the engine's refusals (see
ginclub.errors) keep their codes, so a phone shows the same message the page would;
DRF's own errors (bad JSON, validation, authentication) get codes of their own.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings as django_settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from ginclub.errors import refusal_of
from ginclub.inputs import TooLarge
from ginclub.middleware import (
    RETRY_AFTER,
    UNAVAILABLE_MESSAGE,
    is_unavailable,
    log_unavailable,
    too_many_fields,
)


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Machine-readable: stable across releases.")
    message = serializers.CharField(help_text="Human-readable, ready to show.")
    # Values are free-form on purpose: services send a string per field, DRF's validation
    # a list of strings, or nested objects of them for nested input.
    fields = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        help_text="The fields concerned: each field's problem (a string, or a list or "
        "object of them for DRF validation of nested input).",
    )


class ErrorSerializer(serializers.Serializer):
    """Every API refusal: {"error": {"code", "message", "fields"?}}."""

    error = ErrorDetailSerializer()


# What every operation may answer besides success, for the schema.
ERRORS = {
    code: OpenApiResponse(response=ErrorSerializer, description=text)
    for code, text in {
        400: "Bad input (fields says which).",
        401: "Not authenticated: no token or session (or an invalid token).",
        403: "Not allowed, or a session request without its CSRF token.",
        404: "Not found (or not visible to you).",
        409: "Conflict: closed match, stale version, reused idempotency key...",
        429: "Too many wrong PINs: wait the seconds in Retry-After before trying again.",
        503: "The database cannot be reached just now: nothing was saved. Retry after "
        "the seconds in Retry-After.",
    }.items()
}


_DRF_CODES = {
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.ParseError: "bad_json",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.ValidationError: "invalid",
}


def error_body(code: str, message: str, fields: dict[str, Any] | None = None) -> dict:
    body: dict[str, Any] = {"code": code, "message": message}
    if fields:
        body["fields"] = fields
    return {"error": body}


def _first_message(detail: Any) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            inner = _first_message(value)
            if key == "non_field_errors":
                return inner
            # the field as people write it ("knocker deadwood"), not as JSON spells it
            # Translators: an API field's problem: "knocker deadwood: A valid integer is required."
            return _("%(field)s: %(problem)s") % {
                "field": str(key).replace("_", " "),
                "problem": inner,
            }
        return _("Invalid input.")
    if isinstance(detail, list):
        return _first_message(detail[0]) if detail else _("Invalid input.")
    return str(detail)


def _plain(detail: Any) -> Any:
    if isinstance(detail, dict):
        return {key: _plain(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_plain(value) for value in detail]
    return str(detail)


def exception_handler(exc: Exception, context: dict) -> Response | None:
    if is_unavailable(exc):
        log_unavailable(exc, context["request"])
        response = Response(error_body("unavailable", str(UNAVAILABLE_MESSAGE)), status=503)
        response["Retry-After"] = str(RETRY_AFTER)
        return response
    if isinstance(exc, RequestDataTooBig):  # a multipart body's fields over the limit
        exc = TooLarge(django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    if isinstance(exc, TooManyFieldsSent):  # a form or multipart body of countless fields
        return Response(too_many_fields().as_dict(), status=400)
    refusal = None if isinstance(exc, (Http404, DjangoPermissionDenied)) else refusal_of(exc)
    if refusal is not None:
        response = Response(refusal.as_dict(), status=refusal.status)
        if refusal.retry_after is not None:
            response["Retry-After"] = str(refusal.retry_after)
        return response
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    code = next((c for cls, c in _DRF_CODES.items() if isinstance(exc, cls)), "error")
    if isinstance(exc, exceptions.ValidationError):
        fields = _plain(exc.detail) if isinstance(exc.detail, dict) else None
        response.data = error_body(code, _first_message(exc.detail), fields)
        response.status_code = status.HTTP_400_BAD_REQUEST
    else:
        response.data = error_body(code, _first_message(exc.detail))
    return response


BODY_ERRORS = {
    "413": "The body is over the size limit (DATA_UPLOAD_MAX_MEMORY_SIZE, 20 MB).",
    "415": "The body's media type is not one this operation reads.",
}


def document_unsupported_media_type(result, generator, request, public):
    """drf-spectacular hook: an operation that reads a body answers 415 to a body in a
    media type it does not parse (or with no Content-Type at all), and 413 to one over
    the size limit."""
    for item in result.get("paths", {}).values():
        for operation in item.values():
            if isinstance(operation, dict) and "requestBody" in operation:
                for code, text in BODY_ERRORS.items():
                    operation["responses"].setdefault(
                        code,
                        {
                            "content": {
                                "application/json": {
                                    "schema": {"$ref": "#/components/schemas/Error"}
                                }
                            },
                            "description": text,
                        },
                    )
    return result
