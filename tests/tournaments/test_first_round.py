"""The floor (issue 9, trap 10): round 1 of a Swiss at random (a recorded draw) or by
seed instead of registration neighbours; typed rule options; each profile in words;
round lengths that fit the rules."""

from __future__ import annotations

import datetime as dt

import pytest

from ginclub.errors import ServiceError
from scoring.models import LedgerRow
from scoring.rules import make_profile
from tests.tournaments.helpers import actor, pairs_of
from tournaments import services
from tournaments.forms import CreateTournamentForm, RulesChangeForm, TournamentForm
from tournaments.models import Tournament
from tournaments.rule_guide import rules_in_words, suggested_round_minutes

pytestmark = pytest.mark.django_db
NAMES = [f"P{n}" for n in range(1, 10)]  # nine: a bye


def event(club, organiser, **settings) -> Tournament:
    tournament = services.create_tournament(
        club=club, actor=actor(organiser), name="Open", date=dt.date(2026, 11, 28), **settings
    )
    for name in NAMES:
        services.add_registration(tournament_id=tournament.pk, actor=actor(organiser), name=name)
    return tournament


def draft(tournament, organiser, **kwargs):
    return services.draft_round(tournament_id=tournament.pk, actor=actor(organiser), **kwargs)


def test_round_one_is_drawn_at_random_by_default_and_the_draw_is_in_the_ledger(club, organiser):
    tournament = event(club, organiser)
    assert tournament.first_round == "random"
    first = draft(tournament, organiser)
    row = LedgerRow.objects.filter(action="round_drafted").get()
    draw = row.after["draw"]
    assert 1 <= draw <= 999_999
    reasons = list(first.pairings.values_list("reason", flat=True))
    assert reasons.count(f"round 1: random draw {draw}") == 4
    assert f"bye: last in random draw {draw}" in reasons
    drawn = pairs_of(first)
    # Redone with the recorded draw, the same pairs: the draw can be checked.
    services.discard_round(round_id=first.pk, actor=actor(organiser))
    assert pairs_of(draft(tournament, organiser, draw=draw)) == drawn


def test_registration_neighbours_no_longer_meet_in_round_one(club, organiser):
    """Before: P1 v P2, P3 v P4, ... and P9 (the last registered) always had the bye."""
    tournament = event(club, organiser)
    neighbours = [("P1", "P2"), ("P3", "P4"), ("P5", "P6"), ("P7", "P8"), ("P9", None)]
    seen = []
    for draw in (1, 2, 3):
        rnd = draft(tournament, organiser, draw=draw)
        seen.append(pairs_of(rnd))
        services.discard_round(round_id=rnd.pk, actor=actor(organiser))
    assert all(pairs != neighbours for pairs in seen)
    assert len({pairs[-1] for pairs in seen}) > 1  # the bye moves with the draw


def test_by_seed_the_top_half_meets_the_bottom_half(club, organiser):
    tournament = event(club, organiser, first_round="seed")
    assert pairs_of(draft(tournament, organiser)) == [
        ("P1", "P5"),
        ("P2", "P6"),
        ("P3", "P7"),
        ("P4", "P8"),
        ("P9", None),
    ]
    assert "draw" not in LedgerRow.objects.get(action="round_drafted").after


def test_in_list_order_neighbours_meet_when_the_organiser_asks_for_it(club, organiser):
    tournament = event(club, organiser, first_round="list")
    assert pairs_of(draft(tournament, organiser))[:2] == [("P1", "P2"), ("P3", "P4")]


def test_a_bad_method_or_draw_is_refused(club, organiser):
    with pytest.raises(ServiceError) as error:
        event(club, organiser, first_round="alphabetical")
    assert "first_round" in error.value.fields
    tournament = event(club, organiser)
    with pytest.raises(ServiceError) as error:
        draft(tournament, organiser, draw=0)
    assert error.value.fields == {"draw": "1 to 999999"}
    assert not tournament.round_set.exists()


def test_round_length_follows_the_rules_unless_given(club, organiser):
    assert event(club, organiser).round_minutes == 150  # best of five games to 250
    assert event(club, organiser, profile="standard", bye_games=1).round_minutes == 25
    assert event(club, organiser, round_minutes=40).round_minutes == 40
    quick = event(club, organiser, overrides={"game_target": 25, "games_to_win": 2}, bye_games=2)
    assert quick.round_minutes == suggested_round_minutes(
        make_profile("tournament", {"game_target": 25, "games_to_win": 2})
    )


def test_each_profile_is_offered_with_its_rules_in_words():
    form = CreateTournamentForm(clubs=[])
    labels = dict(form.fields["profile"].choices)
    assert labels["tournament"] == (
        "tournament: Games to 250, first to 3 games wins the match; knock with 10 or less; "
        "gin 25, big gin 31, undercut 25, box 25 a hand won, game 100; a shutout doubles "
        "the winner's whole total. Rounds of about 150 minutes."
    )
    assert "Games of 10 hands" in labels["school"] and "no lay-offs" in labels["school"]
    assert rules_in_words(make_profile("straight")).count("gin only (no knocking)") == 1


def settings_post(**extra):
    return {
        "name": "Open",
        "date": "2026-11-28",
        "profile": "tournament",
        "format": "swiss",
        "rounds": 3,
        "cut_size": 0,
        "bye_games": 1,
        "bye_points": 0,
        "agreement": "confirm",
        "hide_last_rounds": 0,
        **extra,
    }


def test_typed_rule_options_and_the_other_lines_make_one_set_of_overrides():
    form = TournamentForm(
        settings_post(
            rule_game_target="150",
            rule_games_to_win="1",
            rule_layoffs="false",
            rule_shutout="bonus",
            overrides="big_gin_bonus = none",
        )
    )
    assert form.is_valid(), form.errors
    values = form.settings()
    assert values["overrides"] == {
        "game_target": 150,
        "games_to_win": 1,
        "layoffs": False,
        "shutout": "bonus",
        "big_gin_bonus": None,
    }
    # A blank round length goes to the service as None: it fits it to these rules
    # (tests/tournaments/test_profile_settings.py).
    assert values["round_minutes"] is None
    assert not any(key.startswith("rule_") for key in values)


def test_an_option_set_twice_or_out_of_range_is_named_at_its_field():
    twice = TournamentForm(settings_post(rule_game_target="150", overrides="game_target = 200"))
    assert not twice.is_valid()
    assert "game_target has a field of its own" in twice.errors["overrides"][0]
    too_high = TournamentForm(settings_post(rule_knock_limit="99"))
    assert not too_high.is_valid() and "rule_knock_limit" in too_high.errors
    assert TournamentForm().error_field("knock_limit") == "rule_knock_limit"
    assert TournamentForm().error_field("hollywood") == "overrides"


def test_saved_overrides_come_back_in_their_fields():
    initial = TournamentForm.initial_from(
        {"overrides": {"game_target": 25, "layoffs": False, "hollywood": True}}
    )
    assert initial["rule_game_target"] == 25 and initial["rule_layoffs"] == "false"
    assert initial["overrides"] == "hollywood = true"


def test_the_rules_change_form_has_the_typed_options_too():
    form = RulesChangeForm(
        {"profile": "standard", "rule_gin_bonus": "30", "overrides": ""}, rounds=([1], 2)
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["overrides"] == {"gin_bonus": 30}
    assert 'id="id_rules_profile_0"' in str(form["profile"])  # no clash with the settings


def test_the_api_takes_and_gives_the_round_one_method(club, organiser, client):
    client.force_login(organiser)
    made = client.post(
        "/api/tournaments/",
        {"club": club.slug, "name": "API Open", "date": "2026-11-28", "first_round": "seed"},
        content_type="application/json",
    )
    assert made.status_code == 201, made.json()
    assert made.json()["first_round"] == "seed"
    assert made.json()["round_minutes"] == 150
    bad = client.post(
        "/api/tournaments/",
        {"club": club.slug, "name": "API Open", "date": "2026-11-28", "first_round": "abc"},
        content_type="application/json",
    )
    assert bad.status_code == 400 and "first_round" in bad.json()["error"]["fields"]


def test_the_rules_preview_posts_the_typed_options_back_on_apply():
    form = RulesChangeForm(
        {"profile": "standard", "rule_gin_bonus": "30", "overrides": "big_gin_bonus = none"},
        rounds=([1], 2),
    )
    assert form.is_valid(), form.errors
    again = RulesChangeForm(
        {"profile": "standard", "overrides": form.overrides_text}, rounds=([1], 2)
    )
    assert again.is_valid(), again.errors
    assert again.cleaned_data["overrides"] == {"big_gin_bonus": None, "gin_bonus": 30}
