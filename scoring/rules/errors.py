"""The one error a user can fix: a stable code and a message that names the problem.

Codes: bad_card, duplicate_card, wrong_card_count, invalid_meld, illegal_layoff,
illegal_knock, bad_option, bad_deadwood, bad_outcome, missing_upcard, bad_hand, game_over
(and bad_json, from the command-line tool).
Anything else that goes wrong is a bug and fails an assertion instead.

Words for people, from codes and values: the engine speaks English only and imports no
translation machinery, so an error carries its message as a `template` with named
placeholders and the `params` that fill it ("%(card)s appears twice", {"card": "7H"}).
`message` is that template filled in (the English the command-line tool and the API's
tests read); the layer that shows it to people (ginclub.errors.refusal_of) translates the
template and fills it with the same params. Any package's error may follow this shape
(`template`, `params`, `message`). Templates are marked for the translators' catalogue
with `gettext_noop`, called by that name where the text is written, since the extraction
tool finds marked text by the function's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def gettext_noop(text: str) -> str:
    """Mark `text` for translation without translating it (the display layer does that)."""
    return text


class RulesError(ValueError):
    """`code`, `message`, `fields` and `status` are what the web layer reads (the same
    four attributes as the services' errors); `field` names the input concerned;
    `side` the hand it is about ("knocker" or "defender"), so that the layer that knows
    who sat where can name the player; `template` and `params` are the message before it
    is filled in (module docstring)."""

    status = 400

    def __init__(
        self,
        code: str,
        template: str,
        params: Mapping[str, Any] | None = None,
        field: str | None = None,
        side: str | None = None,
    ) -> None:
        self.code = code
        self.template = template
        self.params = dict(params or {})
        self.message = template % self.params if self.params else template
        self.field = field
        self.side = side
        super().__init__(self.message)

    @property
    def fields(self) -> dict[str, str]:
        return {self.field: self.message} if self.field else {}

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}
