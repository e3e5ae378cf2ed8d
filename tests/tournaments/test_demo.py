"""`manage.py load_demo` loads the demo tournament and, beside it, a finished event with
its history (issue 23, finding 13), once, through the services, so the ledger verifies."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from scoring.models import Hand, LedgerRow, Match, Rating
from tournaments import selectors
from tournaments.models import Round, Season, Tournament

User = get_user_model()

pytestmark = pytest.mark.django_db


def test_load_demo_publishes_round_one_of_a_demo_tournament_once():
    first, second = StringIO(), StringIO()
    call_command("load_demo", stdout=first)
    call_command("load_demo", stdout=second)
    tournament = Tournament.objects.get(name="Demo Open")
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
    assert Tournament.objects.get(club=club, name="Demo Open").round_set.count() == 1


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


def _results(event: Tournament) -> list[tuple]:
    """Every table of `event` as played: names, games, points, who decided it."""
    return list(
        Match.objects.filter(pairing__round__tournament=event)
        .order_by("pairing__round__number", "pairing__table")
        .values_list(
            "pairing__round__number",
            "pairing__table",
            "player_a__name",
            "player_b__name",
            "games_won_a",
            "games_won_b",
            "points_a",
            "points_b",
            "decided_by",
        )
    )


def test_load_demo_adds_a_finished_event_with_its_history_once_and_the_ledger_verifies(client):
    first, second = StringIO(), StringIO()
    call_command("load_demo", stdout=first)
    rows, hands = LedgerRow.objects.count(), Hand.objects.count()
    call_command("load_demo", stdout=second)
    assert (LedgerRow.objects.count(), Hand.objects.count()) == (rows, hands)  # once
    assert "Demo Autumn Cup loaded" in first.getvalue()
    assert "Demo Autumn Cup loaded" not in second.getvalue()
    event = Tournament.objects.get(name="Demo Autumn Cup")
    assert f"/tournaments/{event.slug}/bracket/" in second.getvalue()
    verified = StringIO()
    call_command("verify_ledger", stdout=verified)  # raises CommandError on a break
    assert "ledger OK" in verified.getvalue()

    # Five closed rounds: three Swiss, then the semi-finals and the final.
    assert event.state == Tournament.State.FINISHED
    assert [(r.stage, r.state) for r in event.round_set.order_by("number")] == [
        ("swiss", "closed")
    ] * 3 + [("elimination", "closed")] * 2
    bracket = selectors.bracket(event)
    assert bracket.champion is not None
    # Standings with their why, for every line.
    lines = selectors.standings(event).rows
    assert len(lines) == 8 and all(str(line.why) for line in lines)
    # A hand disputed, then corrected by the organiser with the reason.
    corrected = LedgerRow.objects.get(action="hand_corrected")
    assert "12, not 21" in corrected.reason
    assert LedgerRow.objects.filter(action="hand_disputed").count() == 1
    # A table decided by the time policy after time was called.
    decided = Match.objects.get(decided_by=Match.DecidedBy.TIME)
    assert decided.pairing.round.time_called and decided.winner
    # Hands entered card by card (melds on the players' pages), and club ratings.
    assert Hand.objects.filter(game__match__pairing__round__tournament=event).count() > 40
    assert Hand.objects.filter(
        game__match__pairing__round__tournament=event, cards__isnull=False
    ).exists()
    assert Rating.objects.filter(player__club=event.club).count() == 8
    # The season ladder counts it; the pages a newcomer opens show it all.
    season = Season.objects.get(club=event.club)
    assert event.pk in [counted.id for counted in selectors.counted_events(season)]
    for url in (
        f"/tournaments/{event.slug}/standings/",
        f"/tournaments/{event.slug}/bracket/",
        f"/clubs/demo/seasons/{season.slug}/",
    ):
        assert client.get(url).status_code == 200, url
    client.force_login(User.objects.get(username="organiser"))
    ada = event.club.players.get(name="Ada")
    page = client.get(f"/players/{ada.pk}/").content.decode()
    assert "Demo Autumn Cup" in page
    for chart in ("rating", "results", "deadwood"):
        drawn = client.get(f"/players/{ada.pk}/charts/{chart}.svg")
        assert drawn.status_code == 200 and b"<svg" in drawn.content, chart
        assert b"Nothing yet" not in drawn.content, chart


def test_the_finished_event_is_the_same_on_every_load():
    """Two clubs loaded from the same script play the same event, table for table."""
    from scoring import services
    from tests.factories import ClubFactory, UserFactory
    from tournaments.demo import load_finished_event
    from tournaments.management.commands.load_demo import DEMO_PLAYERS

    events = []
    for slug in ("one", "two"):
        club = ClubFactory(slug=slug, name=slug)
        organiser = UserFactory(username=f"org-{slug}")
        club.organisers.add(organiser)
        for name, pin in DEMO_PLAYERS:
            services.add_player(club=club, name=name, pin=pin, actor=services.Actor(user=organiser))
        events.append(load_finished_event(club, organiser))
    assert _results(events[0]) == _results(events[1])
    assert len(_results(events[0])) == 15
