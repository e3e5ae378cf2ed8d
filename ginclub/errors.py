"""The one family of refusals, and the one way to read any user-fixable error.

A *refusal* is what a person is told when the service will not do what they asked: a
stable code (English, for programs), a message that names the problem (for people:
names of players, never seat letters), the fields concerned, and an HTTP status.

The services raise `ServiceError` and its kinds (`Conflict`, `Forbidden`, `NotFound`,
`Throttled`). The pure packages (the rules engine, pairing) cannot import this module,
so their errors carry the same four attributes and their apps register them here
(`register_user_error`, from `AppConfig.ready`). `refusal_of` reads any of them, plus
Django's own Http404 and PermissionDenied; `ginclub.middleware` turns a refusal into a
page and `ginclub.api_errors` into the API's JSON. Nothing else builds error responses.

Words: the services write their messages in the language of the request (gettext). The
pure packages cannot, so their errors also carry `template` (English, with named
placeholders) and `params` (scoring.rules.errors); `refusal_of` and `message_of` say
them in the active language: `gettext(template) % params`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext


class ServiceError(Exception):
    """A request the service refuses; 400 unless a kind below says otherwise.
    `retry_after`: seconds after which asking again may succeed, sent as Retry-After."""

    status = 400

    def __init__(
        self,
        code: str,
        message: str,
        *,
        status: int | None = None,
        fields: dict[str, Any] | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fields = fields or {}
        self.retry_after = retry_after
        if status is not None:
            self.status = status

    def as_dict(self) -> dict[str, Any]:
        return refusal_of(self).as_dict()


class Conflict(ServiceError):
    """The request is well formed but the state has moved on (HTTP 409)."""

    status = 409


class Forbidden(ServiceError):
    """This actor may not do this (HTTP 403)."""

    status = 403


class NotFound(ServiceError):
    """No such thing, or nothing this actor may see (HTTP 404: nothing leaks)."""

    status = 404


class Throttled(ServiceError):
    """Too many attempts; try again later (HTTP 429). Every one says when (Retry-After,
    whole seconds, at least 1), as RFC 6585 asks of a 429."""

    status = 429

    def __init__(self, code: str, message: str, *, retry_after: float, **kwargs: Any) -> None:
        super().__init__(code, message, retry_after=max(1, math.ceil(retry_after)), **kwargs)


def require_reason(reason: str, message: str) -> None:
    """Corrections, voids, reopenings and results by hand are audited: refuse a blank why."""
    if not (reason or "").strip():
        raise ServiceError("reason_required", message, fields={"reason": "required"})


@dataclass(frozen=True)
class Refusal:
    code: str
    message: str
    status: int = 400
    fields: dict[str, Any] | None = None
    retry_after: int | None = None  # seconds, for the Retry-After header

    def as_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.fields:
            body["fields"] = self.fields
        return {"error": body}


_USER_ERRORS: list[type[Exception]] = [ServiceError]


def register_user_error(kind: type[Exception]) -> None:
    """Let a pure package's error (with code, message, fields, status) be a refusal."""
    if kind not in _USER_ERRORS:
        _USER_ERRORS.append(kind)


def refusal_of(error: BaseException) -> Refusal | None:
    """The refusal a user-fixable error stands for; None for anything else (a bug)."""
    if isinstance(error, tuple(_USER_ERRORS)):
        message = message_of(error)
        fields = {
            # a field's note that is the message itself is said as the message is
            key: message if value == error.message else _text(value)
            for key, value in (getattr(error, "fields", None) or {}).items()
        }
        return Refusal(
            code=error.code,
            message=message,
            status=getattr(error, "status", 400),
            fields=fields or None,
            retry_after=getattr(error, "retry_after", None),
        )
    if isinstance(error, Http404):
        return Refusal("not_found", _django_message(error, gettext("There is nothing here.")), 404)
    if isinstance(error, PermissionDenied):
        return Refusal("not_allowed", _django_message(error, gettext("You may not do that.")), 403)
    return None


def message_of(error: BaseException) -> str:
    """A user-fixable error's message in the active language: a pure package's error
    (with `template` and `params`) is translated here; the services' are already."""
    template = getattr(error, "template", None)
    if not template:
        return getattr(error, "message", None) or str(error)
    params = getattr(error, "params", None)
    return gettext(template) % params if params else gettext(template)


def _text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return " ".join(str(item) for item in value)
    return str(value)


def _django_message(error: Exception, default: str) -> str:
    text = str(error)
    # get_object_or_404 says "No Match matches the given query.": keep it short and plain.
    if not text or "matches the given query" in text:
        return default
    return text
