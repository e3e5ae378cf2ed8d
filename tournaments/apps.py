from django.apps import AppConfig
from django.utils.translation import gettext_noop

# What a row of the tournaments app on the ledger did, by its action (ginclub.ledger).
LEDGER_ACTIONS = {
    "table_extended": gettext_noop("Table extended"),
    "time_called": gettext_noop("Time called"),
    "time_call_undone": gettext_noop("Time call undone"),
    "time_policy_applied": gettext_noop("Time policy applied"),
    "round_timer_started": gettext_noop("Round timer started"),
    "result_recorded": gettext_noop("Result recorded"),
    "result_cleared": gettext_noop("Result cleared"),
    "rules_changed": gettext_noop("Rules changed"),
    "rules_frozen": gettext_noop("Rules frozen"),
    "tournament_created": gettext_noop("Tournament created"),
    "tournament_updated": gettext_noop("Tournament updated"),
    "tournament_finished": gettext_noop("Tournament finished"),
    "tournament_imported": gettext_noop("Tournament imported"),
    "player_registered": gettext_noop("Player registered"),
    "player_withdrawn": gettext_noop("Player withdrawn"),
    "player_reinstated": gettext_noop("Player reinstated"),
    "registration_removed": gettext_noop("Registration removed"),
    "registrations_imported": gettext_noop("Registrations imported"),
    "seed_set": gettext_noop("Seed set"),
    "seeded_by_rating": gettext_noop("Seeded by rating"),
    "checked_in": gettext_noop("Checked in"),
    "checked_in_all": gettext_noop("Checked in all"),
    "check_in_undone": gettext_noop("Check in undone"),
    "round_drafted": gettext_noop("Round drafted"),
    "round_published": gettext_noop("Round published"),
    "round_discarded": gettext_noop("Round discarded"),
    "round_closed": gettext_noop("Round closed"),
    "pairing_fixed": gettext_noop("Pairing fixed"),
    "pairings_swapped": gettext_noop("Pairings swapped"),
    "season_created": gettext_noop("Season created"),
    "season_updated": gettext_noop("Season updated"),
    "signups_set": gettext_noop("Sign-ups set"),
    "signed_up": gettext_noop("Signed up"),
    "signup_left": gettext_noop("Left the sign-ups"),
    "signup_approved": gettext_noop("Sign-up approved"),
    "signup_refused": gettext_noop("Sign-up refused"),
    "signup_resolved": gettext_noop("Sign-up resolved"),
    "waiting_list_moved_up": gettext_noop("Moved up from the waiting list"),
    "player_dropped": gettext_noop("Player dropped"),
    "late_entry_byes": gettext_noop("Late entry's missed rounds as byes"),
}


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from ginclub.errors import register_user_error

        # Every list of results holds back what the events' hiding options keep from the
        # public (ginclub.permissions.held_back asks; the rounds are counted here).
        from ginclub.permissions import register_held_rounds
        from scoring.hooks import (
            register_match_clock,
            register_match_place,
            register_match_places,
            register_play_gate,
            register_result_guard,
            register_result_listener,
            register_result_lock,
        )
        from tournaments.pairing import PairingError
        from tournaments.selectors import (
            CLOCK_RELATED,
            clock_for_match,
            held_rounds,
            place_of,
            places_of_matches,
            play_gate,
        )
        from tournaments.services.corrections import judge_result_change, lock_tournament_of

        register_held_rounds(held_rounds)
        # Pairing is pure like the rules engine: its errors are refusals too.
        register_user_error(PairingError)
        # A match played in a round shows the round's clock on its scoreboard; scoring
        # asks through its hook and imports nothing of tournaments (a scoreboard poll
        # reads the clock's pairing and round with its match, in one query).
        register_match_clock(clock_for_match, CLOCK_RELATED)
        # Lists of matches (the home page) say which event, round and table.
        register_match_places(places_of_matches)
        # A match's own page says its place, linked to the event's page the viewer may
        # open (one read).
        register_match_place(place_of)
        # Time called (docs/rules.md §13): each table finishes the hand in play, then no
        # new hand may start; scoring asks before it records a new hand.
        register_play_gate(play_gate)
        # Closed means closed: a change to a result of a closed round is judged (refused
        # or described) by tournaments, asked through scoring's result guard; an
        # organiser's correction takes the tournament's lock first.
        register_result_guard(judge_result_change)
        register_result_lock(lock_tournament_of)
        # A result that moves may move a season's ladder: once it commits, the club's
        # stored ladders are refreshed in the background (a listener: it never refuses).
        from tournaments.services.season_ladders import refresh_after_result

        register_result_listener(refresh_after_result)
        # A player's page (scoring) lists the events they played and their record in
        # each, asked through scoring's hook (player events).
        from scoring.hooks import register_player_events
        from tournaments.selectors import player_events

        register_player_events(player_events)
        # A phone that proved a player at one table of an event sits for them at their
        # next one, and a match that is over shows the player where to go next.
        from scoring.hooks import register_match_events, register_next_table
        from tournaments.selectors import events_of_matches, next_table

        register_match_events(events_of_matches)
        register_next_table(next_table)
        # The ledger (the shared core's) says the tournaments app's actions, and a
        # round's pairs with their stored reasons, in the reader's language (they stay
        # English on the ledger).
        from ginclub import ledger
        from tournaments.translated import reason_text

        ledger.register_actions(LEDGER_ACTIONS)
        ledger.register_field_text("pairs", reason_text)
        # A result the time policy set over the hands says why in stored English words
        # (scoring.words.decision_why shows them in the reader's language).
        ledger.register_field_text("decision_reason", reason_text)
        # Ids and stored reasons in a round's rows said with the players' names.
        from tournaments.selectors.events import (
            ledger_byes_text,
            ledger_pairs_text,
            ledger_settled_text,
            ledger_waiting_text,
        )

        ledger.register_value_text("pairs", ledger_pairs_text)
        ledger.register_value_text("byes", ledger_byes_text)
        ledger.register_value_text("settled", ledger_settled_text)
        ledger.register_value_text("waiting", ledger_waiting_text)
