"""The one error a user can fix: a stable code and a message that names the problem.

Codes: bad_card, duplicate_card, wrong_card_count, invalid_meld, illegal_layoff,
illegal_knock, bad_option, bad_deadwood, bad_outcome, missing_upcard, bad_hand, game_over
(and bad_json, from the command-line tool).
Anything else that goes wrong is a bug and fails an assertion instead.
"""

from __future__ import annotations


class RulesError(ValueError):
    """`code`, `message`, `fields` and `status` are what the web layer reads (the same
    four attributes as the services' errors); `field` names the input concerned."""

    status = 400

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    @property
    def fields(self) -> dict[str, str]:
        return {self.field: self.message} if self.field else {}

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}
