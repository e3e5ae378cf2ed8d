from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from ginclub.errors import register_user_error
        from scoring.hooks import register_match_clock
        from tournaments.pairing import PairingError
        from tournaments.selectors import clock_for_match

        # Pairing is pure like the rules engine: its errors are refusals too.
        register_user_error(PairingError)
        # A match played in a round shows the round's clock on its scoreboard; scoring
        # asks through its hook and imports nothing of tournaments.
        register_match_clock(clock_for_match)
