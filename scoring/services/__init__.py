"""The only code that writes matches, games, hands, entries and ledger rows.

Every service takes keyword-only arguments, runs in one transaction holding the match
row's lock, checks who may act, writes, and appends exactly one ledger row per state
change in the same transaction. Each submission carries an idempotency key: a retry gets
the stored response and writes nothing; the same key with another payload is refused.

    clubs       create a club; its settings (who reads its player pages); its auditors
                and scorekeepers
    calls       a table calls the organiser ("Organiser, please"); staff take and
                resolve the call
    base        Outcome and the plumbing the services share (Actor is ginclub.permissions')
    matches     start (one, or a round's tables at once), close, reopen, stop, resume;
                revoke a match's table links
    hand_entry  a hand at the table and its corrections: preview, submit, confirm,
                dispute, withdraw, correct, void (scoring.rules.hands scores one hand)
    recompute   the games and the match re-derived from the hand rows after each change
    results     a match's result; recompute it and ask the result guards (scoring.hooks);
                set a result over the hands (an organiser's, the time policy's) or take it back
    corrections preview an organiser's correction or void (run, then rolled back)
    penalties   record a caution, warning, game loss or match loss against a player,
                preview it, reverse it (a game or match loss through the result path)
    players     add players, set and check table PINs (rate-limited), act for a player by
                their PIN, see and lift wrong-PIN locks, remember a player's language
    rescoring   re-score a match under new rules; re-create one from an archive
    summaries   write and rebuild the seat summaries behind the players' statistics
"""

from ginclub.permissions import Actor
from scoring.services.base import Outcome, chain_of, snapshot
from scoring.services.calls import CallOutcome, call_staff, resolve_call, take_call
from scoring.services.clubs import (
    auditors_of,
    create_club,
    grant_auditor,
    grant_scorekeeper,
    scorekeepers_of,
    set_player_pages_public,
    withdraw_auditor,
    withdraw_scorekeeper,
)
from scoring.services.corrections import CorrectionPreview, preview_correction, preview_void
from scoring.services.hand_entry import (
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
    revoke_table_links,
    start_match,
    start_matches,
    stop_match,
)
from scoring.services.penalties import (
    PenaltyPreview,
    penalty_of,
    preview_penalty,
    record_penalty,
    reverse_penalty,
)
from scoring.services.players import (
    KNOWN_DEVICE_FOR,
    NETWORK_FAILURE_LIMIT,
    PIN_FAILURE_LIMIT,
    PIN_LOCKOUT,
    PLAYER_FAILURE_LIMIT,
    PLAYER_WINDOW,
    NetworkLimit,
    PinLock,
    acting_for_player,
    acting_with_pin,
    add_player,
    add_players,
    add_signed_up_player,
    check_pin_format,
    device_key,
    lift_network_limit,
    network_limits,
    new_player_name,
    pin_locks,
    remember_language,
    set_pin,
    unlock_pin,
    verify_pin,
    verify_player_pin,
)
from scoring.services.rescoring import import_match, rescore_match
from scoring.services.results import (
    RESULT_CHANGED,
    decide_match,
    result_of,
    withdraw_decision,
)

__all__ = [
    "CallOutcome",
    "call_staff",
    "resolve_call",
    "take_call",
    "grant_scorekeeper",
    "scorekeepers_of",
    "withdraw_scorekeeper",
    "KNOWN_DEVICE_FOR",
    "NETWORK_FAILURE_LIMIT",
    "PIN_FAILURE_LIMIT",
    "PIN_LOCKOUT",
    "PLAYER_FAILURE_LIMIT",
    "PLAYER_WINDOW",
    "RESULT_CHANGED",
    "NetworkLimit",
    "PinLock",
    "Actor",
    "CorrectionPreview",
    "PenaltyPreview",
    "penalty_of",
    "preview_penalty",
    "record_penalty",
    "reverse_penalty",
    "Outcome",
    "acting_for_player",
    "acting_with_pin",
    "add_player",
    "add_players",
    "new_player_name",
    "add_signed_up_player",
    "check_pin_format",
    "chain_of",
    "device_key",
    "close_match",
    "decide_match",
    "confirm_hand",
    "correct_hand",
    "create_club",
    "dispute_hand",
    "import_match",
    "lift_network_limit",
    "network_limits",
    "pin_locks",
    "preview_correction",
    "preview_hand",
    "preview_void",
    "remember_language",
    "rescore_match",
    "reopen_match",
    "result_of",
    "withdraw_decision",
    "set_player_pages_public",
    "grant_auditor",
    "withdraw_auditor",
    "auditors_of",
    "resume_match",
    "revoke_table_links",
    "set_pin",
    "snapshot",
    "start_match",
    "start_matches",
    "stop_match",
    "submit_hand",
    "unlock_pin",
    "verify_pin",
    "verify_player_pin",
    "void_hand",
    "withdraw_hand",
]
