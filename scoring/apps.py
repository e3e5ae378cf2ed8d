from django.apps import AppConfig
from django.utils.translation import gettext_noop

# What a row of scoring's on the ledger did, by its action (ginclub.ledger).
LEDGER_ACTIONS = {
    "hand_entered": gettext_noop("Hand entered"),
    "hand_confirmed": gettext_noop("Hand confirmed"),
    "hand_disputed": gettext_noop("Hand disputed"),
    "hand_corrected": gettext_noop("Hand corrected"),
    "hand_voided": gettext_noop("Hand voided"),
    "hand_withdrawn": gettext_noop("Hand withdrawn"),
    "game_removed": gettext_noop("Game removed"),
    "match_started": gettext_noop("Match started"),
    "match_closed": gettext_noop("Match closed"),
    "match_reopened": gettext_noop("Match reopened"),
    "match_stopped": gettext_noop("Match stopped"),
    "match_resumed": gettext_noop("Match resumed"),
    "match_rescored": gettext_noop("Match rescored"),
    "match_imported": gettext_noop("Match imported"),
    "pin_unlocked": gettext_noop("Pin unlocked"),
    "pin_network_unlocked": gettext_noop("Network PIN limit lifted"),
    "player_pages_public": gettext_noop("Player pages public"),
    "player_pages_private": gettext_noop("Player pages private"),
    "table_links_revoked": gettext_noop("Table links revoked"),
    "club_created": gettext_noop("Club created"),
    "auditor_granted": gettext_noop("Auditor granted"),
    "auditor_withdrawn": gettext_noop("Auditor withdrawn"),
    "scorekeeper_granted": gettext_noop("Scorekeeper granted"),
    "scorekeeper_withdrawn": gettext_noop("Scorekeeper withdrawn"),
    "call_raised": gettext_noop("Organiser called to the table"),
    "call_taken": gettext_noop("Call taken"),
    "call_resolved": gettext_noop("Call resolved"),
    "match_decided": gettext_noop("Match decided"),
    "match_undecided": gettext_noop("Match no longer decided"),
    "decision_withdrawn": gettext_noop("Decision withdrawn"),
    "result_changed_after_close": gettext_noop("Result changed after close"),
    "penalty_recorded": gettext_noop("Penalty recorded"),
    "penalty_reversed": gettext_noop("Penalty reversed"),
}


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self) -> None:
        from ginclub.errors import register_user_error
        from scoring.rules import RulesError

        # The engine is pure and cannot know the web layer: say here that its errors
        # are refusals (code, message, fields, status), like the services'.
        register_user_error(RulesError)
        # The ledger (the shared core's) says scoring's actions in the reader's language.
        from ginclub import ledger

        ledger.register_actions(LEDGER_ACTIONS)
        # Who decided a match (Match.DecidedBy, or its hands), and which change decided
        # it, in the reader's language on the ledger (stored as their codes).
        from django.utils.translation import pgettext

        from scoring.models import Match

        def decided_by(value: str) -> str:
            if value == "hands":
                return pgettext("result set by", "the hands")
            labels = dict(Match.DecidedBy.choices)
            return str(labels.get(value, value))

        ledger.register_field_text("decided_by", decided_by)

        def link_generation(value) -> str | None:
            # the links' generation (Match.link_generation): how often they were withdrawn
            if isinstance(value, bool) or not isinstance(value, int):
                return None
            if value == 0:
                return pgettext("table links", "the first, as printed")
            if value == 1:
                return pgettext("table links", "withdrawn (new links made)")
            return pgettext("table links", "withdrawn %(count)s times (new links made)") % {
                "count": value
            }

        ledger.register_value_text("link_generation", link_generation)
        ledger.register_field_text("action", ledger.action_label)
        # The deploy steps' system checks (collectstatic, migrate) register on import.
        import ginclub.readiness  # noqa: F401
