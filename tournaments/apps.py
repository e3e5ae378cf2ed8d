from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from ginclub.errors import register_user_error
        from tournaments.pairing import PairingError

        # Pairing is pure like the rules engine: its errors are refusals too.
        register_user_error(PairingError)
