"""`manage.py load_demo`: a demo club, organiser, players and one match, a demo
tournament with the eight players checked in and round 1 published, and beside it a
finished event with its history (tournaments.demo: standings with their why, a bracket,
a corrected hand, a time decision, the players' statistics, the season ladder). Each part
is made once: when it exists it is left alone, so `make run` can call this every time.

`--language it` names the club, tournament, venue and season in Italian (the demo's
data, shown on every page) and makes Italian the demo tournament's language; the
default (settings.LANGUAGE_CODE) loads the English demo. What it prints for the admin
stays English."""

from __future__ import annotations

import datetime as dt
import os

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy

from ginclub.permissions import table_token
from scoring import services
from scoring.models import Club
from tournaments import services as tournament_services
from tournaments.demo import FINISHED_NAME, load_finished_event
from tournaments.services import seasons as season_services

# The demo's visible words, in the language it is loaded in.
# Translators: the demo's data: the name of its tournament.
DEMO_TOURNAMENT = gettext_lazy("Demo Open")
# Translators: the demo's data: the name of its club.
DEMO_CLUB = gettext_lazy("Demo Gin Club")
# Translators: the demo's data: where its tournament is played.
DEMO_VENUE = gettext_lazy("Club room")
# Translators: the demo's data: the name of its season ladder.
DEMO_SEASON = gettext_lazy("Demo season")
DEMO_PLAYERS = [
    ("Ada", "1111"),
    ("Ben", "2222"),
    ("Cleo", "3333"),
    ("Dev", "4444"),
    ("Eve", "5555"),
    ("Finn", "6666"),
    ("Gus", "7777"),
    ("Hana", "8888"),
]


class Command(BaseCommand):
    help = "Load a small demo club once (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--base-url",
            default=None,
            help="where the printed links point (default: http://$HOST:$PORT as `make run` "
            "serves, 127.0.0.1 and 8000 unless set)",
        )
        parser.add_argument(
            "--language",
            default=None,
            choices=[code for code, _name in settings.LANGUAGES],
            help="the language of the demo's names, and of its tournament (default: "
            f"{settings.LANGUAGE_CODE}, with no event language set)",
        )

    def handle(self, *args, **options):
        language = options["language"]
        with translation.override(language or settings.LANGUAGE_CODE):
            self._handle(options, event_language=language or "")

    def _handle(self, options, *, event_language: str):
        host = options["base_url"] or (
            f"http://{os.environ.get('HOST') or '127.0.0.1'}:{os.environ.get('PORT') or '8000'}"
        )
        club = Club.objects.filter(slug="demo").first()
        if club is not None:
            self.stdout.write("Demo club already loaded.")
        else:
            with transaction.atomic():
                match = self._load()
            club = match.club
            link = reverse("scoring:table", args=[table_token(match)])
            self.stdout.write(
                self.style.SUCCESS(
                    "Demo loaded. Log in as organiser / organiser-demo "
                    "(admin: admin / admin-demo).\n"
                    f"Players' PINs: {', '.join(f'{n} {p}' for n, p in DEMO_PLAYERS)}.\n"
                    f"Table link for {match}: {host}{link}"
                )
            )
        tournament = club.tournaments.filter(name__in=_in_every_language(DEMO_TOURNAMENT)).first()
        if tournament is None:
            tournament = self._tournament(club, event_language)
            self.stdout.write(
                self.style.SUCCESS(
                    f"Demo tournament {tournament.name} loaded: "
                    "8 players checked in, round 1 published."
                )
            )
        finished = club.tournaments.filter(name__in=_in_every_language(FINISHED_NAME)).first()
        if finished is None:
            finished = load_finished_event(club, self._organiser(club), language=event_language)
            self.stdout.write(
                self.style.SUCCESS(
                    f"Demo finished event {finished.name} loaded: a Swiss of 3 rounds, "
                    "a top cut of 4, a corrected hand and a time decision."
                )
            )
        season = club.seasons.first() or self._season(club)
        slug = tournament.slug
        ada = club.players.order_by("pk").values_list("pk", flat=True).first()
        self.stdout.write(
            f"Tournament dashboard (log in as organiser): {host}"
            f"{reverse('tournaments:dashboard', args=[slug])}\n"
            f"Public pairings: {host}{reverse('tournaments:public', args=[slug])}\n"
            f"Projector: {host}{reverse('tournaments:projector', args=[slug])}\n"
            f"Table cards with QR codes: {host}{reverse('tournaments:print-cards', args=[slug])}\n"
            f"Season ladder (public): "
            f"{host}{reverse('tournaments:season', args=[club.slug, season.slug])}\n"
            f"Finished event's standings: "
            f"{host}{reverse('tournaments:public-standings', args=[finished.slug])}\n"
            f"Its bracket: {host}{reverse('tournaments:bracket', args=[finished.slug])}\n"
            f"Its corrections and ledger (log in as organiser): "
            f"{host}{reverse('tournaments:corrections', args=[finished.slug])}\n"
            f"A player's page with statistics (log in as organiser): "
            f"{host}{reverse('scoring:player', args=[ada])}"
        )

    def _season(self, club: Club):
        """A public season around today: the demo tournament and the club nights count."""
        organiser = club.organisers.order_by("pk").first()
        today = timezone.localdate()
        return season_services.create_season(
            club=club,
            actor=services.Actor(user=organiser),
            name=str(DEMO_SEASON),
            starts_on=today - dt.timedelta(days=30),
            ends_on=today + dt.timedelta(days=60),
            points_per_win=3,
            public=True,
        )

    def _tournament(self, club: Club, event_language: str):
        """Through the tournament services, as the organiser would on the day. Short
        rules (one game to 100) so a demo match ends in a few hands."""
        actor = services.Actor(user=self._organiser(club))
        with transaction.atomic():
            tournament = tournament_services.create_tournament(
                club=club,
                actor=actor,
                name=str(DEMO_TOURNAMENT),
                date=timezone.localdate(),
                venue=str(DEMO_VENUE),
                overrides={"games_to_win": 1, "game_target": 100},
                rounds=3,
                round_minutes=30,
                bye_games=1,
                **({"language": event_language} if event_language else {}),
            )
            for player in club.players.filter(name__in=[n for n, _ in DEMO_PLAYERS]):
                registration = tournament_services.add_registration(
                    tournament_id=tournament.pk, actor=actor, player_id=player.pk
                )
                tournament_services.check_in(registration_id=registration.pk, actor=actor)
            draft = tournament_services.draft_round(tournament_id=tournament.pk, actor=actor)
            tournament_services.publish_round(round_id=draft.pk, actor=actor)
        return tournament

    def _organiser(self, club: Club):
        return (
            club.organisers.order_by("pk").first()
            or get_user_model().objects.filter(is_superuser=True).order_by("pk").first()
        )

    def _load(self):
        users = get_user_model()
        admin = users.objects.filter(username="admin").first() or users.objects.create_superuser(
            "admin", "admin@example.org", "admin-demo"
        )
        organiser = users.objects.create_user(
            "organiser", "organiser@example.org", "organiser-demo"
        )
        actor = services.Actor(user=admin)
        club = services.create_club(
            name=str(DEMO_CLUB), slug="demo", actor=actor, organisers=[organiser]
        )
        players = [
            services.add_player(club=club, name=name, pin=pin, actor=actor)
            for name, pin in DEMO_PLAYERS
        ]
        return services.start_match(
            club=club, player_a=players[0], player_b=players[1], actor=actor, profile="standard"
        )


def _in_every_language(text) -> list[str]:
    """`text` (a lazy translation) in each of the site's languages: the demo tournament
    is found whichever language it was loaded in."""
    names = []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            names.append(str(text))
    return names
