"""`manage.py rebuild_seat_summaries [--club SLUG]`: recount the players' statistics."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from scoring.models import Club
from scoring.services.summaries import rebuild_summaries


class Command(BaseCommand):
    help = (
        "Rewrite the seat summaries behind the player pages' statistics from the stored "
        "hands and games (every match, or one club's)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--club", help="the club's slug (default: every club)")

    def handle(self, *args, club=None, **options):
        club_id = None
        if club:
            club_id = Club.objects.filter(slug=club).values_list("pk", flat=True).first()
            if club_id is None:
                raise CommandError(f"No club with the slug {club!r}.")
        written = rebuild_summaries(club_id=club_id)
        self.stdout.write(f"{written} seat summaries written")
