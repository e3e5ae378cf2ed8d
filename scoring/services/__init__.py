"""The only code that writes matches, games, hands, entries and ledger rows.

Every service takes keyword-only arguments, runs in one transaction holding the match
row's lock, checks who may act, writes, and appends exactly one ledger row per state
change in the same transaction. Each submission carries an idempotency key: a retry gets
the stored response and writes nothing; the same key with another payload is refused.

    base        Outcome and the plumbing the services share (Actor is ginclub.permissions')
    matches     start, close, reopen, stop, resume
    hands       preview, submit, confirm, dispute, withdraw, correct, void
    players     add players, set and check table PINs, act for a player by their PIN
    rescoring   re-score a match under new rules; re-create one from an archive
"""

from ginclub.permissions import Actor
from scoring.services.base import Outcome, chain_of, snapshot
from scoring.services.hands import (
    confirm_hand,
    correct_hand,
    dispute_hand,
    preview_hand,
    submit_hand,
    void_hand,
    withdraw_hand,
)
from scoring.services.matches import (
    close_match,
    reopen_match,
    resume_match,
    start_match,
    stop_match,
)
from scoring.services.players import (
    PIN_FAILURE_LIMIT,
    PIN_LOCKOUT,
    acting_with_pin,
    add_player,
    set_pin,
    verify_pin,
)
from scoring.services.rescoring import import_match, rescore_match

__all__ = [
    "PIN_FAILURE_LIMIT",
    "PIN_LOCKOUT",
    "Actor",
    "Outcome",
    "acting_with_pin",
    "add_player",
    "chain_of",
    "close_match",
    "confirm_hand",
    "correct_hand",
    "dispute_hand",
    "import_match",
    "preview_hand",
    "rescore_match",
    "reopen_match",
    "resume_match",
    "set_pin",
    "snapshot",
    "start_match",
    "stop_match",
    "submit_hand",
    "verify_pin",
    "void_hand",
    "withdraw_hand",
]
