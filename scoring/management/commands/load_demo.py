"""`manage.py load_demo`: a demo club, organiser, players and one match. Runs once:
when the demo club exists it does nothing, so `make run` can call it every time."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.urls import reverse

from scoring import access, services
from scoring.models import Club

DEMO_PLAYERS = [("Ada", "1111"), ("Ben", "2222"), ("Cleo", "3333"), ("Dev", "4444"),
                ("Eve", "5555"), ("Finn", "6666"), ("Gus", "7777"), ("Hana", "8888")]


class Command(BaseCommand):
    help = "Load a small demo club once (idempotent)."

    def handle(self, *args, **options):
        if Club.objects.filter(slug="demo").exists():
            self.stdout.write("Demo data already loaded.")
            return
        with transaction.atomic():
            match = self._load()
        link = reverse("scoring:table", args=[access.table_token(match)])
        self.stdout.write(self.style.SUCCESS(
            "Demo loaded. Log in as organiser / organiser-demo (admin: admin / admin-demo).\n"
            f"Players' PINs: {', '.join(f'{n} {p}' for n, p in DEMO_PLAYERS)}.\n"
            f"Table link for {match}: http://127.0.0.1:8000{link}"))

    def _load(self):
        users = get_user_model()
        admin = users.objects.filter(username="admin").first() or users.objects.create_superuser(
            "admin", "admin@example.org", "admin-demo")
        organiser = users.objects.create_user("organiser", "organiser@example.org",
                                              "organiser-demo")
        club = Club.objects.create(name="Demo Gin Club", slug="demo")
        club.organisers.add(organiser)
        actor = services.Actor(user=admin)
        players = [services.add_player(club=club, name=name, pin=pin, actor=actor)
                   for name, pin in DEMO_PLAYERS]
        return services.start_match(club=club, player_a=players[0], player_b=players[1],
                                    actor=actor, profile="standard")
