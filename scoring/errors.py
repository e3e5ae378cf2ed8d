"""Errors the services raise for a user to read, with a stable code and an HTTP status."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    status = 400

    def __init__(
        self,
        code: str,
        message: str,
        *,
        status: int | None = None,
        fields: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fields = fields
        if status is not None:
            self.status = status

    def as_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.fields:
            body["fields"] = self.fields
        return {"error": body}


class Conflict(ServiceError):
    """The request is well formed but the state has moved on (HTTP 409)."""

    status = 409


class Forbidden(ServiceError):
    status = 403


class Throttled(ServiceError):
    status = 429


def require_reason(reason: str, message: str) -> None:
    """Corrections, voids, reopenings and results by hand are audited: refuse a blank why."""
    if not reason.strip():
        raise ServiceError("reason_required", message, fields={"reason": "required"})
