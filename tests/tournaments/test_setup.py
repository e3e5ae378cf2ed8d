"""Setting a tournament up: settings, their validation, and what freezes with round 1."""

from __future__ import annotations

import datetime as dt

import pytest

from ginclub.errors import Conflict, Forbidden, ServiceError
from scoring.models import LedgerRow
from tests.tournaments.helpers import QUICK, actor, new_event, play_round
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
DAY = dt.date(2026, 11, 28)


def create(club, user, **settings):
    return services.create_tournament(
        club=club, actor=actor(user), name="Winter Open", date=DAY, **settings
    )


def test_create_uses_the_tournament_profile_and_logs_it(club, organiser):
    tournament = create(club, organiser, venue="Back room")
    assert (tournament.profile, tournament.format, tournament.rounds) == ("tournament", "swiss", 5)
    assert tournament.slug == "winter-open-2026" and tournament.rules is None
    row = LedgerRow.objects.get(chain=f"tournament:{tournament.pk}")
    assert row.action == "tournament_created" and row.after["venue"] == "Back room"


def test_slugs_stay_unique(club, organiser):
    assert create(club, organiser).slug == "winter-open-2026"
    assert create(club, organiser).slug == "winter-open-2026-2"


@pytest.mark.parametrize(
    ("settings", "field", "message"),
    [
        ({"format": "ladder"}, "format", "format: must be one of round_robin, swiss"),
        ({"format": "swiss_cut", "cut_size": 6}, "cut_size", "cut of 4 or 8"),
        ({"format": "swiss", "cut_size": 4}, "cut_size", "only in the Swiss-then-top-cut"),
        ({"rounds": 0}, "rounds", "rounds: a whole number from 1 to 50"),
        ({"round_minutes": 0}, "round_minutes", "1 to 600"),
        ({"tiebreaks": ["points", "coin_toss"]}, "tiebreaks", "unknown tie-break 'coin_toss'"),
        ({"tiebreaks": ["points", "points"]}, "tiebreaks", "listed twice"),
        ({"bye_games": 4}, "bye_games", "bye games: a whole number from 0 to 3"),
        ({"agreement": "trust"}, "agreement", "must be one of confirm, double"),
        ({"profile": "bridge"}, "profile", "unknown profile 'bridge'"),
        ({"overrides": {"game_target": -5}}, "overrides", "game_target must be a whole number"),
        ({"overrides": {"jokers": True}}, "overrides", "unknown rule option 'jokers'"),
        ({"public": "yes"}, "public", "must be true or false"),
        (
            {"language": "fr"},
            "language",
            "language: must be one of en-gb, it, or empty (none chosen)",
        ),
    ],
)
def test_bad_settings_are_refused_by_name_and_nothing_is_written(
    club, organiser, settings, field, message
):
    with pytest.raises(ServiceError) as caught:
        create(club, organiser, **settings)
    assert message in caught.value.message
    assert field in caught.value.fields
    assert not Tournament.objects.exists() and not LedgerRow.objects.exists()


def test_empty_name_and_unknown_setting_are_refused(club, organiser):
    with pytest.raises(ServiceError, match="name: text of 1 to 120"):
        services.create_tournament(club=club, actor=actor(organiser), name="  ", date=DAY)
    with pytest.raises(ServiceError, match="Unknown setting: colour"):
        create(club, organiser, colour="green")
    assert not Tournament.objects.exists()


def test_only_the_clubs_organisers_create_tournaments(club, other_organiser):
    with pytest.raises(Forbidden):
        create(club, other_organiser)
    assert not Tournament.objects.exists()


def test_overrides_apply_to_the_profile_when_round_one_freezes_it(club, organiser):
    tournament = new_event(club, organiser, players=2, overrides={**QUICK, "gin_bonus": 30})
    play_round(tournament, organiser, close=False)
    tournament.refresh_from_db()
    assert tournament.state == "running"
    assert tournament.rules["gin_bonus"] == 30 and tournament.rules["game_target"] == 25
    assert tournament.rules["name"] == "tournament"
    match = tournament.round_set.get().pairings.get().match
    assert match.rules == tournament.rules


def test_settings_change_before_the_start_and_are_logged(club, organiser):
    tournament = create(club, organiser)
    services.update_tournament(
        tournament_id=tournament.pk,
        actor=actor(organiser),
        format="round_robin",
        tiebreaks=["points"],
        public=False,
    )
    tournament.refresh_from_db()
    assert (tournament.format, tournament.tiebreaks, tournament.public) == (
        "round_robin",
        ["points"],
        False,
    )
    row = LedgerRow.objects.filter(chain=tournament.chain).last()
    assert row.action == "tournament_updated"
    assert row.before["format"] == "swiss" and row.after["format"] == "round_robin"


def test_rules_and_format_are_frozen_once_round_one_is_published(club, organiser):
    tournament = new_event(club, organiser, players=2)
    play_round(tournament, organiser, close=False)
    with pytest.raises(Conflict) as caught:
        services.update_tournament(
            tournament_id=tournament.pk,
            actor=actor(organiser),
            overrides={"game_target": 100},
            format="round_robin",
        )
    assert caught.value.code == "frozen"
    assert "change the rules with a rules change" in caught.value.message
    tournament.refresh_from_db()
    assert tournament.overrides == QUICK and tournament.format == "swiss"
    # what does not contradict the rounds played may still change
    services.update_tournament(
        tournament_id=tournament.pk,
        actor=actor(organiser),
        venue="Hall",
        hide_last_rounds=1,
        rounds=6,
    )
    tournament.refresh_from_db()
    assert (tournament.venue, tournament.rounds) == ("Hall", 6)


def test_swiss_rounds_cannot_go_below_the_rounds_drafted(club, organiser):
    tournament = new_event(club, organiser, players=4)
    play_round(tournament, organiser)
    play_round(tournament, organiser)
    with pytest.raises(Conflict) as refused:
        services.update_tournament(tournament_id=tournament.pk, actor=actor(organiser), rounds=1)
    # no word of a cut this event has not got (a walk read "or change after the cut")
    assert refused.value.message == (
        "2 Swiss rounds are already drafted: the number cannot go below it."
    )


def test_another_clubs_organiser_cannot_change_settings(club, organiser, other_organiser):
    tournament = create(club, organiser)
    with pytest.raises(Forbidden):
        services.update_tournament(
            tournament_id=tournament.pk, actor=actor(other_organiser), name="Mine"
        )
    tournament.refresh_from_db()
    assert tournament.name == "Winter Open"


def test_swiss_rounds_stay_once_the_top_cut_has_started(club, organiser):
    tournament = new_event(club, organiser, players=6, format="swiss_cut", rounds=2, cut_size=4)
    for _ in range(3):  # two Swiss rounds, then the cut's first
        play_round(tournament, organiser)
    with pytest.raises(Conflict) as refused:
        services.update_tournament(tournament_id=tournament.pk, actor=actor(organiser), rounds=3)
    assert refused.value.message == "The top cut has started: the number of Swiss rounds stays 2."


def test_the_swiss_rounds_field_says_the_other_formats_set_their_own_rounds(client, organiser):
    """A walk chose round robin and read 'Swiss rounds: 5' beneath it with no word on
    whether a round robin of five players would stop after 5 rounds (it plays them all)."""
    client.force_login(organiser)
    page = client.get("/tournaments/new/").content.decode()
    assert "Swiss formats only: a round robin and an elimination set their own." in page
