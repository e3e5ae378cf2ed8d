"""`manage.py load_demo` loads the demo tournament once, through the services."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


def test_load_demo_publishes_round_one_of_a_demo_tournament_once():
    first, second = StringIO(), StringIO()
    call_command("load_demo", stdout=first)
    call_command("load_demo", stdout=second)
    tournament = Tournament.objects.get()
    assert tournament.registrations.filter(checked_in=True).count() == 8
    rnd = tournament.round_set.get()
    assert rnd.state == Round.State.PUBLISHED
    assert rnd.pairings.filter(match__isnull=False).count() == 4
    for out in (first.getvalue(), second.getvalue()):
        assert f"/tournaments/{tournament.slug}/manage/dashboard/" in out
        assert f"/tournaments/{tournament.slug}/" in out
    assert "Demo tournament Demo Open loaded" not in second.getvalue()


def test_load_demo_adds_the_tournament_to_a_demo_club_loaded_before_it():
    """A database loaded before tournaments existed: club, organiser, players, no event."""
    from scoring import services
    from scoring.models import Club
    from tests.factories import UserFactory
    from tournaments.management.commands.load_demo import DEMO_PLAYERS

    club = Club.objects.create(name="Demo Gin Club", slug="demo")
    organiser = UserFactory(username="organiser")
    club.organisers.add(organiser)
    for name, pin in DEMO_PLAYERS:
        services.add_player(club=club, name=name, pin=pin, actor=services.Actor(user=organiser))
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "Demo club already loaded." in out.getvalue()
    assert Tournament.objects.get(club=club).round_set.count() == 1


def test_load_demo_links_point_where_make_run_serves(monkeypatch):
    """`make run PORT=9000` serves on 9000, so the printed links say 9000 (issue 9)."""
    monkeypatch.setenv("PORT", "9000")
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "http://127.0.0.1:9000/tournaments/" in out.getvalue()
    assert ":8000" not in out.getvalue()
    again = StringIO()
    call_command("load_demo", "--base-url", "https://club.example.org", stdout=again)
    assert "Projector: https://club.example.org/tournaments/" in again.getvalue()
