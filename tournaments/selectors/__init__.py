"""Reads shared by the tournament pages and the API: what the pages, the phones, the
projector and the API show of a tournament, and nothing that writes.

Every selector reads in a fixed number of queries, whatever the number of players,
rounds or hands: standings in 3, the dashboard in 3, a round's tables in 3.

The modules of this package:
    events        which events an actor sees; an event's registrations, rounds, field,
                  the rounds its hiding options hold back, its results set by hand, its
                  ledger, where its matches are played, and a player's events (for
                  their page in scoring)
    standings     the standings lines (computed, cached, hidden from the public as the
                  organiser chose) and what moves between two standings
    corrections   results changed after a round closed (the standings pages' notice)
    clock         the round clock, a match's clock, and what the polls ask
    play          play after time is called: the hand in play, a table's extra time,
                  and scoring's play gate
    tables        a round's tables and their states, the projector's rows, the seats A
                  to Z, the table links
    dashboard     the organiser's view of a round
    calls         the calls from the tables still waiting for staff
    bracket       a tournament's bracket as the public page, the projector and the
                  print show it
    player_event  one player's event as their own phone shows it ("My event")
    seasons       which seasons an actor sees, and a season's ladder
    exports       the standings, every hand and a season's ladder as CSV, and the
                  tournament as its JSON archive (signed, with its ledger)
    verification  a tournament's ledger chains and its matches' replays, verified
    audit         every result not made by the two players agreeing, and every chain
                  of the event verified (the audit page, its API and exports)
Their reads are re-exported here: `from tournaments import selectors;
selectors.standings(...)`. Where a module and its main read share a name (standings,
clock, tables, dashboard, bracket), the name here is the read: import anything else from
the module itself (`from tournaments.selectors.standings import record_of`). Modules
inside the package import their siblings, never this hub.
"""

from __future__ import annotations

from tournaments.selectors.audit import Audit, audit_csv, tournament_audit
from tournaments.selectors.bracket import BracketView, bracket, has_bracket
from tournaments.selectors.calls import WaitingCall, calls_by_match, waiting_calls
from tournaments.selectors.clock import (
    CLOCK_RELATED,
    Clock,
    clock,
    clock_for_match,
    poll_version,
)
from tournaments.selectors.corrections import ResultChangeNotice, results_changed
from tournaments.selectors.dashboard import (
    DASHBOARD_DEFERRED,
    HALL_STATES,
    Dashboard,
    dashboard,
    dashboard_facts,
    hall_rows,
    shown_pairings,
)
from tournaments.selectors.events import (
    current_round,
    event_ledger,
    events_of_matches,
    field_size,
    held_rounds,
    hidden_after,
    next_table,
    place_of,
    places_of_matches,
    player_events,
    players_who_played,
    registrations_of,
    results_by_hand,
    rounds_of,
    rounds_planned,
    still_in,
    tournaments_for,
    without_pin,
)
from tournaments.selectors.exports import (
    hands_csv,
    ladder_csv,
    standings_csv,
    tournament_archive,
)
from tournaments.selectors.play import Play, play_gate
from tournaments.selectors.player_event import MyEvent, MyRound, my_event
from tournaments.selectors.seasons import (
    CountedEvent,
    LadderRow,
    LadderView,
    compute_ladder,
    counted_events,
    ladder,
    ladder_inputs,
    seasons_of,
)
from tournaments.selectors.signups import (
    Entries,
    Signups,
    SignupView,
    entries_of,
    normal_code,
    signup_path,
    signup_view,
    signups_of,
)
from tournaments.selectors.standings import (
    PAIRING_FIELDS,
    RESULT_FIELDS,
    STANDING_VALUES,
    StandingRow,
    StandingsView,
    decided_winner,
    in_reader_language,
    pairing_rows,
    public_limit,
    record_of,
    standing_values,
    standings,
    standings_moves,
    standings_version,
    tiebreaks_of,
)
from tournaments.selectors.tables import (
    MatchFacts,
    PairingFacts,
    PlayerSeat,
    RoundView,
    TableRow,
    TableState,
    projector_rows,
    qr_svg,
    round_view,
    seats_by_name,
    table_facts,
    table_path,
    table_state,
    tables,
)
from tournaments.selectors.verification import verify_tournament

__all__ = [
    "WaitingCall",
    "calls_by_match",
    "waiting_calls",
    # audit
    "Audit",
    "audit_csv",
    "tournament_audit",
    # events
    "tournaments_for",
    "without_pin",
    "registrations_of",
    "rounds_of",
    "current_round",
    "field_size",
    "rounds_planned",
    "still_in",
    "players_who_played",
    "hidden_after",
    "held_rounds",
    "results_by_hand",
    "event_ledger",
    "events_of_matches",
    "next_table",
    "place_of",
    "places_of_matches",
    "player_events",
    # standings
    "in_reader_language",
    "RESULT_FIELDS",
    "PAIRING_FIELDS",
    "pairing_rows",
    "decided_winner",
    "record_of",
    "StandingRow",
    "StandingsView",
    "tiebreaks_of",
    "standings",
    "standings_version",
    "public_limit",
    "STANDING_VALUES",
    "standing_values",
    "standings_moves",
    # corrections
    "ResultChangeNotice",
    "results_changed",
    # clock
    "Clock",
    "clock",
    "poll_version",
    "CLOCK_RELATED",
    "clock_for_match",
    # bracket
    "BracketView",
    "bracket",
    "has_bracket",
    # exports
    "standings_csv",
    "hands_csv",
    "ladder_csv",
    "tournament_archive",
    # play
    "Play",
    "play_gate",
    # player_event
    "MyEvent",
    "MyRound",
    "my_event",
    # seasons (their tiebreaks_of is theirs: tournaments.selectors.seasons)
    "seasons_of",
    "CountedEvent",
    "LadderRow",
    "LadderView",
    "ladder",
    "ladder_inputs",
    "compute_ladder",
    "counted_events",
    # tables
    "TableState",
    "TableRow",
    "table_state",
    "tables",
    "MatchFacts",
    "PairingFacts",
    "table_facts",
    "projector_rows",
    "RoundView",
    "round_view",
    "PlayerSeat",
    "seats_by_name",
    "table_path",
    "qr_svg",
    # dashboard
    "Dashboard",
    "DASHBOARD_DEFERRED",
    "dashboard",
    "dashboard_facts",
    "shown_pairings",
    "hall_rows",
    "HALL_STATES",
    # verification
    "verify_tournament",
    # signups
    "Entries",
    "entries_of",
    "Signups",
    "SignupView",
    "normal_code",
    "signup_path",
    "signup_view",
    "signups_of",
]
