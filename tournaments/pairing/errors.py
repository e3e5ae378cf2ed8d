"""The pairing package's user-fixable error.

A :class:`PairingError` names a problem the organiser can fix (too few players, an
unknown tie-break, a duplicate seed). Anything that cannot happen with valid input is an
assertion instead.

Its words are translatable without Django, in the rules engine's shape: ``template`` is
the English message with named placeholders (marked with ``gettext_noop`` where it is
written), ``params`` its values, ``message`` the English text; the web layer
(ginclub.errors.refusal_of) shows ``gettext(template) % params`` in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class PairingError(ValueError):
    """A problem with the input that the organiser can fix; ``code`` is stable.
    ``fields`` and ``status`` are what the web layer reads, as for the services' errors."""

    status = 400
    fields: dict[str, str] = {}  # never mutated

    def __init__(self, code: str, template: str, params: Mapping[str, Any] | None = None) -> None:
        self.code = code
        self.template = template
        self.params = dict(params or {})
        self.message = template % self.params if self.params else template
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message
