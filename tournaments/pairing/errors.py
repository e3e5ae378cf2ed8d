"""The pairing package's user-fixable error.

A :class:`PairingError` names a problem the organiser can fix (too few players, an
unknown tie-break, a duplicate seed). Anything that cannot happen with valid input is an
assertion instead.
"""

from __future__ import annotations


class PairingError(ValueError):
    """A problem with the input that the organiser can fix; ``code`` is stable.
    ``fields`` and ``status`` are what the web layer reads, as for the services' errors."""

    status = 400
    fields: dict[str, str] = {}  # never mutated

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message
