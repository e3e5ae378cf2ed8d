"""A rules change from round N on (issue 8, finding 4): rounds before N keep the rules
they were played under; rounds from N on are re-scored, and tables not yet started get
the new rules. Follow-on settings (the bye's games) are checked only against the byes
actually given in the rounds re-scored.

The events use QUICK rules (tests/tournaments/helpers.py): target 25, first to two
games. A gin against deadwood 4 scores 4 + 25 = 29 and ends a game; with a gin bonus
of 20 it scores 24, short of the target, so that game would no longer be over.
"""

from __future__ import annotations

import itertools
import json

import pytest
from rest_framework.test import APIClient

from ginclub import ledger
from ginclub.errors import ServiceError
from scoring import services as scoring
from scoring.hand_input import HandInput
from scoring.models import Game, Hand, LedgerRow, Match
from tests.factories import ClubFactory
from tests.tournaments.helpers import QUICK, actor, new_event, play_hand, play_round
from tournaments import selectors, services
from tournaments.models import Round
from tournaments.selectors.exports import tournament_archive

pytestmark = pytest.mark.django_db

_keys = itertools.count()


def gin(match, organiser, *, game: int, winner: str = "A", defender_deadwood: int = 4) -> None:
    scoring.submit_hand(
        match_id=match.pk,
        actor=actor(organiser),
        idempotency_key=f"gin-{next(_keys)}",
        hand=HandInput(
            game=game,
            number=1,
            outcome="gin",
            knocker=winner,
            knocker_deadwood=0,
            defender_deadwood=defender_deadwood,
        ),
    )


def matches_of(rnd: Round) -> list[Match]:
    pairings = rnd.pairings.exclude(match=None).select_related("match").order_by("position")
    return [p.match for p in pairings]


def snapshot(matches: list[Match]):
    """Everything a rules change could touch in these matches."""
    ids = [m.pk for m in matches]
    return (
        list(
            Hand.objects.filter(game__match__in=ids)
            .order_by("pk")
            .values_list("points", "version", "winner")
        ),
        list(
            Game.objects.filter(match__in=ids)
            .order_by("pk")
            .values_list("state", "total_a", "total_b")
        ),
        list(
            Match.objects.filter(pk__in=ids)
            .order_by("pk")
            .values_list("rules", "state", "winner", "points_a", "points_b")
        ),
        LedgerRow.objects.filter(chain__in=[f"match:{m.pk}" for m in matches]).count(),
    )


def change(event, organiser, *, apply=False, from_round=None, **options):
    kwargs = {
        "tournament_id": event.pk,
        "actor": actor(organiser),
        "profile": "tournament",
        "overrides": {**QUICK, **options},
        "from_round": from_round,
    }
    if apply:
        return services.apply_rules_change(**kwargs, reason="house rules")
    return services.preview_rules_change(**kwargs)


@pytest.fixture
def gins(club, organiser):
    """Round 1 closed: both tables won 2-0 by gins against deadwood 4. Round 2 running:
    table 1 has a gin that ended game 1, table 2 no hand yet."""
    event = new_event(club, organiser, players=4, rounds=3)
    first = play_round(event, organiser, play=False, close=False)
    for match in matches_of(first):
        gin(match, organiser, game=1)
        gin(match, organiser, game=2)
    services.close_round(round_id=first.pk, actor=actor(organiser))
    second = play_round(event, organiser, play=False, close=False)
    gin(matches_of(second)[0], organiser, game=1)
    event.refresh_from_db()
    return event, first, second


def test_a_gin_bonus_that_would_reopen_a_closed_round_is_refused_for_the_whole_event(
    gins, organiser
):
    event, first, _ = gins
    with pytest.raises(ServiceError) as caught:
        change(event, organiser, gin_bonus=20)
    assert caught.value.code in ("game_reopened", "would_reopen")
    assert caught.value.message.startswith("Round 1, table 1 (P01 v P02)")


def test_a_gin_bonus_from_round_2_leaves_the_closed_round_1_untouched(gins, organiser):
    event, first, second = gins
    kept = snapshot(matches_of(first))
    preview = change(event, organiser, gin_bonus=20, from_round=2)
    assert (preview.from_round, preview.rounds_rescored, preview.rounds_kept) == (2, [2], [1])
    assert [(m["round"], m["table"]) for m in preview.matches] == [(2, 1)]
    assert preview.matches[0]["hands"][0]["after"]["points"] == 24  # 4 + 20
    assert preview.matches[0]["games"][0]["after"]["state"] == "in_progress"
    assert preview.standings == []  # round 2 decides nothing yet, before or after

    result = change(event, organiser, apply=True, gin_bonus=20, from_round=2)
    assert result.applied and result.hands_changed == 1
    assert snapshot(matches_of(first)) == kept
    assert all(m.rules["gin_bonus"] == 25 for m in matches_of(first))
    assert all(m.rules["gin_bonus"] == 20 for m in matches_of(second))
    event.refresh_from_db()
    assert event.rules["gin_bonus"] == 20 and event.overrides["gin_bonus"] == 20
    row = LedgerRow.objects.get(chain=event.chain, action="rules_changed")
    assert (row.after["from_round"], row.after["rounds_rescored"]) == (2, [2])
    assert row.after["rounds_kept"] == [1]
    assert ledger.verify() == []


def test_a_change_from_the_next_round_rescores_nothing_and_new_tables_get_it(club, organiser):
    event = new_event(club, organiser, players=4, rounds=3)
    first = play_round(event, organiser)
    event.refresh_from_db()
    kept = snapshot(matches_of(first))
    with pytest.raises(ServiceError) as caught:
        change(event, organiser, gin_bonus=20, from_round=3)
    assert caught.value.code == "bad_round"
    assert "Choose a round from 1 to 2." in caught.value.message
    result = change(event, organiser, apply=True, gin_bonus=20, from_round=2)
    assert (result.rounds_rescored, result.rounds_kept, result.matches) == ([], [1], [])
    assert snapshot(matches_of(first)) == kept
    # a drafted round is still a future round: its tables start under the new rules
    second = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    event.refresh_from_db()
    preview = change(event, organiser, gin_bonus=30, from_round=2)
    assert (preview.rounds_rescored, preview.rounds_kept) == ([], [1])
    services.publish_round(round_id=second.pk, actor=actor(organiser))
    assert [m.rules["gin_bonus"] for m in matches_of(second)] == [20, 20]
    assert [m.rules["gin_bonus"] for m in matches_of(first)] == [25, 25]


def test_the_whole_event_can_be_brought_back_in_line_after_a_change_from_a_round(club, organiser):
    event = new_event(club, organiser, players=4, rounds=3)
    first = play_round(event, organiser)
    event.refresh_from_db()
    change(event, organiser, apply=True, box_bonus=10, from_round=2)
    event.refresh_from_db()
    with pytest.raises(ServiceError) as caught:
        change(event, organiser, box_bonus=10, from_round=2)
    assert caught.value.code == "no_change"
    whole = change(event, organiser, apply=True, box_bonus=10)
    assert whole.from_round == 1 and whole.rounds_rescored == [1]
    # a one-hand game is now (30 + 100 + 10) × 2 = 280 instead of 310
    assert [m.points_a for m in matches_of(first)] == [560, 560]


@pytest.mark.parametrize(
    ("from_round", "code", "message"),
    [
        (0, "invalid", "Round 0 is not a round"),
        (-1, "invalid", "Round -1 is not a round"),
        (4, "bad_round", "cannot start at round 4: round 3 is the next round"),
    ],
)
def test_a_round_that_cannot_start_the_change_is_refused(
    gins, organiser, from_round, code, message
):
    event = gins[0]
    with pytest.raises(ServiceError) as caught:
        change(event, organiser, box_bonus=10, from_round=from_round)
    assert (caught.value.code, caught.value.fields.keys()) == (code, {"from_round"})
    assert message in caught.value.message


# ------------------------------------------------------------------------ the bye


def best_of_five(club, organiser, players: int):
    """bye_games 3, first to three games; round 1 published, one hand at each table."""
    event = new_event(
        club, organiser, players=players, bye_games=3, overrides={**QUICK, "games_to_win": 3}
    )
    first = play_round(event, organiser, play=False, close=False)
    for pairing in first.pairings.exclude(match=None).select_related("match"):
        play_hand(pairing.match, organiser, game=1, number=1)
    event.refresh_from_db()
    return event, first


def test_best_of_three_is_accepted_when_no_bye_was_given(club, organiser):
    event, first = best_of_five(club, organiser, players=4)
    preview = change(event, organiser, games_to_win=2)
    assert preview.settings == {"bye_games": [3, 2]}
    change(event, organiser, apply=True, games_to_win=2)
    event.refresh_from_db()
    assert (event.rules["games_to_win"], event.bye_games) == (2, 2)
    assert all(m.rules["games_to_win"] == 2 for m in matches_of(first))
    # the settings stay consistent: other settings can still be saved
    services.update_tournament(tournament_id=event.pk, actor=actor(organiser), venue="Hall B")
    row = LedgerRow.objects.get(chain=event.chain, action="rules_changed")
    assert (row.before["bye_games"], row.after["bye_games"]) == (3, 2)


def test_best_of_three_is_refused_naming_the_bye_given_in_a_rescored_round(club, organiser):
    event, first = best_of_five(club, organiser, players=5)
    bye = first.pairings.select_related("player_a__player").get(player_b=None)
    assert bye.bye_games == 3
    for apply in (False, True):
        with pytest.raises(ServiceError) as caught:
            change(event, organiser, apply=apply, games_to_win=2)
        assert caught.value.code == "bye_over_games"
        assert f"{bye.player_a.player.name}'s bye in round 1" in caught.value.message
        assert "from round 2" in caught.value.message
    event.refresh_from_db()
    assert (event.rules["games_to_win"], event.bye_games) == (3, 3)


def test_best_of_three_from_the_round_after_the_bye_keeps_the_bye_as_given(club, organiser):
    event, first = best_of_five(club, organiser, players=5)
    result = change(event, organiser, apply=True, games_to_win=2, from_round=2)
    assert result.settings == {"bye_games": [3, 2]} and result.rounds_kept == [1]
    event.refresh_from_db()
    assert event.bye_games == 2
    bye = first.pairings.get(player_b=None)
    assert bye.bye_games == 3  # as given in round 1
    assert all(m.rules["games_to_win"] == 3 for m in matches_of(first))


def test_an_archive_of_an_event_changed_from_a_round_imports_elsewhere(club, organiser):
    event, first = best_of_five(club, organiser, players=5)
    change(event, organiser, apply=True, games_to_win=2, from_round=2)
    event.refresh_from_db()
    other = ClubFactory(name="Elsewhere", slug="elsewhere")
    someone = other.organisers.create(username="elsewhere-org")
    archive = json.loads(json.dumps(tournament_archive(event)))
    copy_ = services.import_archive(club=other, actor=actor(someone), archive=archive)
    assert (copy_.rules, copy_.bye_games) == (event.rules, 2)
    played = Match.objects.filter(club=other).values_list("rules", flat=True)
    assert {rules["games_to_win"] for rules in played} == {3}  # round 1 as it was played

    def lines(t):
        return [
            (r.name, r.standing.rank, r.standing.games_won) for r in selectors.standings(t).rows
        ]

    assert lines(copy_) == lines(event) and ("P05", 1, 3) in lines(event)  # the 3-0 bye


# ------------------------------------------------------- background-ready apply


def test_apply_reports_progress_match_by_match(gins, organiser):
    event = gins[0]
    calls: list[tuple[int, int]] = []
    services.apply_rules_change(
        tournament_id=event.pk,
        actor=actor(organiser),
        profile="tournament",
        overrides={**QUICK, "box_bonus": 10},
        from_round=2,
        reason="house rules",
        progress=lambda done, total: calls.append((done, total)),
    )
    assert calls == [(0, 2), (1, 2), (2, 2)]


def test_an_apply_stopped_halfway_writes_nothing(gins, organiser):
    event, first, second = gins
    matches = matches_of(first) + matches_of(second)
    before = snapshot(matches)

    def stop_after_three(done: int, total: int) -> None:
        if done == 3:
            raise RuntimeError("worker stopped")

    with pytest.raises(RuntimeError):
        services.apply_rules_change(
            tournament_id=event.pk,
            actor=actor(organiser),
            profile="tournament",
            overrides={**QUICK, "box_bonus": 10},
            reason="house rules",
            progress=stop_after_three,
        )
    assert snapshot(matches) == before
    event.refresh_from_db()
    assert event.rules["box_bonus"] == 25
    assert not LedgerRow.objects.filter(action__in=["rules_changed", "match_rescored"]).exists()


# ------------------------------------------------------------------------- the API


def test_the_api_changes_the_rules_from_a_round(
    gins, organiser, django_capture_on_commit_callbacks
):
    event, first, second = gins
    client = APIClient()
    client.force_authenticate(organiser)
    url = f"/api/tournaments/{event.slug}/rules/"
    body = {"profile": "tournament", "overrides": {**QUICK, "gin_bonus": 20}, "from_round": 2}
    preview = client.post(url + "preview/", body, format="json")
    assert preview.status_code == 200, preview.content
    shown = preview.json()
    assert (shown["from_round"], shown["rounds_rescored"], shown["rounds_kept"]) == (2, [2], [1])
    assert shown["settings"] == {} and not shown["applied"]

    whole = client.post(url + "preview/", {**body, "from_round": None}, format="json")
    assert whole.status_code == 409
    assert whole.json()["error"]["message"].startswith("Round 1, table 1 (P01 v P02)")
    late = client.post(url + "preview/", {**body, "from_round": 9}, format="json")
    assert late.status_code == 409 and late.json()["error"]["code"] == "bad_round"
    assert late.json()["error"]["fields"] == {"from_round": "from 1 to 3"}
    for bad in (0, "two", 2**31):
        refused = client.post(url + "preview/", {**body, "from_round": bad}, format="json")
        assert refused.status_code == 400 and "from_round" in refused.json()["error"]["fields"]

    with django_capture_on_commit_callbacks(execute=True):  # applied by a background job
        queued = client.post(url + "apply/", {**body, "reason": "club vote"}, format="json")
    assert queued.status_code == 202, queued.content
    applied = client.get(queued["Location"]).json()
    assert applied["state"] == "done" and applied["result"]["applied"]
    assert applied["result"]["rounds_rescored"] == [2]
    assert [m.rules["gin_bonus"] for m in matches_of(first)] == [25, 25]
    assert [m.rules["gin_bonus"] for m in matches_of(second)] == [20, 20]


# ----------------------------------------------------------------------- the pages


def test_the_settings_page_previews_and_applies_a_change_from_a_round(
    client, gins, organiser, django_capture_on_commit_callbacks
):
    event, first, second = gins
    client.force_login(organiser)
    page = client.get(f"/tournaments/{event.slug}/manage/").content.decode()
    assert '<option value="2">Round 2 on' in page
    assert '<option value="3">Round 3 on (not yet played' in page
    body = {
        "profile": "tournament",
        "overrides": "game_target = 25\ngames_to_win = 2\ngin_bonus = 20",
        "from_round": "2",
        "preview": "1",
    }
    rules_url = f"/tournaments/{event.slug}/manage/rules/"
    preview = client.post(rules_url, body).content.decode()
    assert "From round 2 on." in preview and "Re-scored: round 2." in preview
    assert "Round 1 keeps the rules it was played under." in preview
    assert '<input type="hidden" name="from_round" value="2">' in preview
    with django_capture_on_commit_callbacks(execute=True):  # applied by a background job
        job_page = client.post(rules_url, {**body, "apply": "1", "reason": "club vote"})["Location"]
    assert "Rules changed: from round 2 on (round 2 re-scored): 1 hand(s)" in (
        client.get(job_page).content.decode()
    )
    applied = client.get(f"/tournaments/{event.slug}/manage/").content.decode()
    assert "Round 1 played under other rules: <strong>gin bonus</strong> 25." in applied
    assert [m.rules["gin_bonus"] for m in matches_of(first)] == [25, 25]
    refused = client.post(rules_url, {**body, "from_round": "9"})
    assert refused.status_code == 400 and "Select a valid choice" in refused.content.decode()
