from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self) -> None:
        from ginclub.errors import register_user_error
        from scoring.rules import RulesError

        # The engine is pure and cannot know the web layer: say here that its errors
        # are refusals (code, message, fields, status), like the services'.
        register_user_error(RulesError)
