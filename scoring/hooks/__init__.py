"""Hooks through which apps built on scoring add to its pages and services, so scoring
imports none of them (dependencies run one way: tournaments → scoring → ginclub). An app
registers its functions from its AppConfig.ready(), each as what it is:

    guards      may refuse a change, asked inside its transaction before it commits:
                the result guard and the result lock (a match's result moving), the
                play gate (may a new hand start)
    listeners   react once a change has committed and never refuse: the result
                listener (a match's result moved)
    readers     answer scoring's pages: the match clock, match places and one match's
                place (with the path of its event's page), player events, match events,
                the next table

The ledger's words for an app's actions and stored values are registered with the
shared ginclub.ledger instead.
"""

from scoring.hooks.guards import (
    PlayGate,
    PlayNote,
    ResultChange,
    ResultGuard,
    ResultLock,
    guard_result_change,
    lock_for_result_change,
    play_note,
    register_play_gate,
    register_result_guard,
    register_result_lock,
)
from scoring.hooks.listeners import (
    ResultListener,
    register_result_listener,
    result_changed,
)
from scoring.hooks.readers import (
    MatchClock,
    MatchEvents,
    MatchPlace,
    MatchPlaceFinder,
    MatchPlaces,
    NextTable,
    PlayerEvent,
    PlayerEvents,
    PlayerEventsFinder,
    match_clock,
    match_clock_related,
    match_events,
    match_place,
    match_places,
    next_table,
    player_events,
    register_match_clock,
    register_match_events,
    register_match_place,
    register_match_places,
    register_next_table,
    register_player_events,
)

__all__ = [
    "MatchClock",
    "MatchEvents",
    "MatchPlace",
    "MatchPlaceFinder",
    "MatchPlaces",
    "NextTable",
    "PlayGate",
    "PlayNote",
    "PlayerEvent",
    "PlayerEvents",
    "PlayerEventsFinder",
    "ResultChange",
    "ResultGuard",
    "ResultListener",
    "ResultLock",
    "guard_result_change",
    "lock_for_result_change",
    "match_clock",
    "match_clock_related",
    "match_events",
    "match_place",
    "match_places",
    "next_table",
    "play_note",
    "player_events",
    "register_match_clock",
    "register_match_events",
    "register_match_place",
    "register_match_places",
    "register_next_table",
    "register_play_gate",
    "register_player_events",
    "register_result_guard",
    "register_result_listener",
    "register_result_lock",
    "result_changed",
]
