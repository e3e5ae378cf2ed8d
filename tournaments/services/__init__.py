"""The only code that writes tournaments, registrations, rounds and pairings.

Every service takes keyword-only arguments, runs in one transaction holding the
tournament's lock (tournaments.services.base), refuses anyone but the club's organisers
(and admins; ginclub.permissions decides), and appends one row per change to the
tournament's ledger chain. Matches are started, stopped and re-scored only through
scoring.services.

The day, in services:
    create_tournament → add_registration / import_registrations → check_in
    → draft_round → (swap_players | fix_pairing | discard_round) → publish_round
    → start_round_timer → call_time (→ extend_table | undo_time_call)
    → apply_time_policy | record_result → close_round
    → draft_round ... the last close_round finishes the tournament.

The modules of this package:
    base          locks, the ledger, stages and results plumbing
    tournaments   create, update, check settings
    registration  add, import a CSV, check in, withdraw, seed
    rounds        draft, adjust, publish
    results       the running round: clock, time policy, results by hand, close
    rescoring     rule changes once the rules are frozen
    archive       import a tournament from a JSON archive (the export is a read:
                  tournaments.selectors.exports)
    signups       players sign themselves up (waiting list, approval), check in and
                  drop from their phones
    jobs          long work off the request: background jobs (archive imports, rules
                  changes), their django-tasks task and their progress
All are re-exported here: `from tournaments import services; services.draft_round(...)`.
Modules inside the package import their siblings, never this hub.
"""

from __future__ import annotations

from ginclub.permissions import Actor
from ginclub.readiness import worker_missing  # the dashboard and job pages say it too
from tournaments.services.archive import import_archive
from tournaments.services.jobs import (
    progress_of,
    recent_jobs,
    run_job,
    start_archive_import,
    start_rules_change,
)
from tournaments.services.registration import (
    add_registration,
    check_in,
    check_in_all,
    import_registrations,
    reinstate_registration,
    remove_registration,
    seed_by_rating,
    set_seed,
    withdraw_registration,
)
from tournaments.services.rescoring import apply_rules_change, preview_rules_change
from tournaments.services.results import (
    apply_time_policy,
    call_time,
    clear_result,
    close_round,
    extend_table,
    record_result,
    revoke_round_links,
    start_round_timer,
    undo_time_call,
)
from tournaments.services.rounds import (
    discard_round,
    draft_round,
    fix_pairing,
    publish_round,
    swap_players,
)
from tournaments.services.signups import (
    SignupSettings,
    approve_signup,
    check_in_by_phone,
    drop,
    leave_signup,
    refuse_signup,
    resolve_signup,
    set_signups,
    sign_up,
)
from tournaments.services.tournaments import (
    check_settings,
    create_tournament,
    settings_of,
    update_tournament,
)

__all__ = [
    "Actor",
    "create_tournament",
    "update_tournament",
    "settings_of",
    "check_settings",
    "add_registration",
    "import_registrations",
    "check_in",
    "check_in_all",
    "withdraw_registration",
    "reinstate_registration",
    "remove_registration",
    "set_seed",
    "seed_by_rating",
    "preview_rules_change",
    "apply_rules_change",
    "draft_round",
    "discard_round",
    "swap_players",
    "fix_pairing",
    "publish_round",
    "start_round_timer",
    "call_time",
    "undo_time_call",
    "extend_table",
    "revoke_round_links",
    "apply_time_policy",
    "record_result",
    "clear_result",
    "close_round",
    "import_archive",
    "start_archive_import",
    "start_rules_change",
    "run_job",
    "progress_of",
    "recent_jobs",
    "worker_missing",
    "SignupSettings",
    "set_signups",
    "sign_up",
    "leave_signup",
    "approve_signup",
    "refuse_signup",
    "resolve_signup",
    "check_in_by_phone",
    "drop",
]
