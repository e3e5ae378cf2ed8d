"""What people see of time called (issue 9, traps 2, 3 and 7; "every number explains
itself"): the phones stop offering a new hand once the hand in play is entered and say
why; after the time policy, a result by hand or a normal finish both phones say who won
and why; game totals and results read as sums with names, on the scoreboard, the public
match summary and through the API; the dashboard tells a table finishing the hand in play
from one whose time is up, and gives one table more time or undoes a call."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring import services as scoring
from scoring.hand_input import HandInput
from scoring.models import Match
from tests.factories import UserFactory
from tests.tournaments.helpers import actor, new_event, play_hand
from tournaments import services
from tournaments.models import Pairing, Round

pytestmark = pytest.mark.django_db

SMALL = {"kd": 5, "dd": 10}  # 5 points: the QUICK game (to 25) goes on


@pytest.fixture
def table(club, organiser) -> Pairing:
    event = new_event(club, organiser, players=["Ada", "Ben"])
    rnd = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    return Pairing.objects.select_related(
        "round__tournament", "match", "player_a__player", "player_b__player"
    ).get(round=rnd)


@pytest.fixture
def org(client, organiser) -> Client:
    client.force_login(organiser)
    return client


def _names(p: Pairing) -> tuple[str, str]:
    return p.player_a.player.name, p.player_b.player.name


def _phone(pairing: Pairing, seat: str) -> Client:
    """A player's own phone: logged in as the player's user."""
    player = pairing.player_a.player if seat == "A" else pairing.player_b.player
    user = UserFactory(username=f"u-{player.name.lower()}")
    player.user = user
    player.save(update_fields=["user"])
    phone = Client()
    phone.force_login(user)
    return phone


def _get(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def test_phones_stop_offering_a_hand_once_the_hand_in_play_is_entered(table, organiser):
    a, b = _names(table)
    ada, ben = _phone(table, "A"), _phone(table, "B")
    services.call_time(round_id=table.round_id, actor=actor(organiser))
    form = _get(ada, f"/matches/{table.match_id}/hands/new/")
    assert "Save hand 1" in form  # the hand in play may be entered
    board = _get(ben, f"/matches/{table.match_id}/scoreboard/")
    assert f"{a} and {b} finish the hand in play; no new hand after it." in board
    play_hand(table.match, organiser, game=1, number=1, winner="A", **SMALL)
    for phone in (ada, ben):
        board = _get(phone, f"/matches/{table.match_id}/scoreboard/")
        assert "no new hand (hand 1 of game 1 was the hand in play)." in board
        assert 'data-next-hand="none"' in board  # the open form goes stale
        form = _get(phone, f"/matches/{table.match_id}/hands/new/")
        assert "Save hand" not in form and "No game in progress" not in form
        assert "<strong>No new hand:</strong> time was called and this table has entered" in form
        # It is not polled: it must stay true whether the hand in play, once confirmed,
        # ends the match (the scoreboard then says who won) or the organiser decides it.
        # A walk read "...gives the result once the organiser decides the match" under
        # "Ada wins 1-0", decided by the hands.
        assert "decided: by the hands played, or by the organiser." in form
        assert "Save hand" not in _get(phone, f"/matches/{table.match_id}/")


def test_both_phones_say_who_won_and_why_after_the_time_policy(table, organiser):
    a, b = _names(table)
    services.call_time(round_id=table.round_id, actor=actor(organiser))
    play_hand(table.match, organiser, game=1, number=1, winner="B")  # B wins game 1
    # QUICK: games to 2, so the match goes on; the policy decides it.
    services.apply_time_policy(round_id=table.round_id, actor=actor(organiser))
    for seat in ("A", "B"):
        board = _get(_phone(table, seat), f"/matches/{table.match_id}/scoreboard/")
        assert f"{b} wins 1–0: time was called and {b} led on games" in board
        assert "match closed" not in board and "Time called" not in board
        assert "Time was called at" not in board  # no stale banner
        assert f"{b} won game 1; the first to 2 games wins." in board
        assert "0 – 1" in board  # the games that stand


def test_a_normal_finish_and_a_result_by_hand_say_so(table, organiser):
    a, b = _names(table)
    phone = _phone(table, "A")
    play_hand(table.match, organiser, game=1, number=1, winner="A")
    play_hand(table.match, organiser, game=2, number=1, winner="A")
    board = _get(phone, f"/matches/{table.match_id}/scoreboard/")
    assert f"<strong>{a} wins 2–0</strong>" in board
    assert f"{a} won games 1 and 2; the first to 2 games wins." in board
    assert "Match points (game totals): " in board
    assert "No game in progress" not in board
    form = _get(phone, f"/matches/{table.match_id}/hands/new/")
    assert f"<strong>No more hands:</strong> {a} wins 2–0." in form


def test_a_result_set_by_the_organiser_says_so_with_its_reason(table, organiser):
    a, b = _names(table)
    services.record_result(
        pairing_id=table.pk, actor=actor(organiser), winner="B", reason="Ada had to leave"
    )
    board = _get(_phone(table, "A"), f"/matches/{table.match_id}/scoreboard/")
    assert f"{b} wins: result set by the organiser (Ada had to leave)" in board


def test_game_totals_explain_themselves_with_names_not_seats(table, organiser, client):
    a, b = _names(table)
    play_hand(table.match, organiser, game=1, number=1, winner="B", kd=5, dd=6)  # B 1
    play_hand(table.match, organiser, game=1, number=2, winner="A")  # A 30: game to A
    board = _get(_phone(table, "A"), f"/matches/{table.match_id}/scoreboard/")
    assert f"Game to {a}. {a}: 30 in hands + 100 game + 1 box × 25 = 155; " in board
    assert f"{b}: 1 in hands + 1 box × 25 = 26" in board
    assert not re.search(r"Game to [AB][ :(]|; [AB]: ", board)  # no seat letters
    assert f"{b}: 0 in hands so far" in board  # game 2, the current one
    summary = _get(client, f"/tournaments/{table.round.tournament.slug}/tables/{table.pk}/")
    assert f"Game to {a}. {a}: 30 in hands + 100 game + 1 box × 25 = 155" in summary


def test_the_api_gives_the_same_words(table, organiser):
    a, b = _names(table)
    api = APIClient()
    api.force_authenticate(organiser)
    play_hand(table.match, organiser, game=1, number=1, winner="A")
    services.call_time(round_id=table.round_id, actor=actor(organiser))
    data = api.get(f"/api/matches/{table.match_id}/").json()
    assert data["may_start_hand"] is True
    assert data["play_words"].endswith(
        f"{a} and {b} finish the hand in play; no new hand after it."
    )
    assert data["games"][0]["words"] == {
        "summary": f"Game to {a}. {a}: (30 in hands + 100 game + 1 box × 25) × 2 shutout = 310; "
        f"{b}: 0 in hands + 0 boxes × 25 = 0",
        "totals": {
            "A": f"{a}: (30 in hands + 100 game + 1 box × 25) × 2 shutout = 310",
            "B": f"{b}: 0 in hands + 0 boxes × 25 = 0",
        },
    }
    refused = api.post(
        f"/api/matches/{table.match_id}/hands/",
        {
            "game": 2,
            "number": 1,
            "outcome": "knock",
            "knocker": "B",
            "knocker_deadwood": 5,
            "defender_deadwood": 10,
            "idempotency_key": "in-play",
        },
        format="json",
    )
    assert refused.status_code in (200, 201), refused.content  # the hand in play
    refused = api.post(
        f"/api/matches/{table.match_id}/hands/",
        {
            "game": 2,
            "number": 2,
            "outcome": "knock",
            "knocker": "B",
            "knocker_deadwood": 5,
            "defender_deadwood": 10,
            "idempotency_key": "one-too-many",
        },
        format="json",
    )
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "time_called"
    assert f"{a} and {b} finish the hand in play; no new hand" in refused.json()["error"]["message"]
    data = api.get(f"/api/matches/{table.match_id}/").json()
    assert data["may_start_hand"] is False and data["result_words"] == ""
    services.apply_time_policy(round_id=table.round_id, actor=actor(organiser))
    data = api.get(f"/api/matches/{table.match_id}/").json()
    assert data["result_words"] == f"{a} wins 1–0: time was called and {a} led on games"
    assert data["result_arithmetic"].startswith(f"{a} won game 1; the first to 2 games wins.")


def test_the_dashboard_tells_the_hand_in_play_from_time_up(club, organiser, org):
    event = new_event(club, organiser, players=4)
    rnd = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    t1, t2 = rnd.pairings.order_by("table").select_related("match")
    services.call_time(round_id=rnd.pk, actor=actor(organiser))
    play_hand(t2.match, organiser, game=1, number=1, winner="A", **SMALL)
    board = _get(org, f"/tournaments/{event.slug}/manage/dashboard/tables/")
    assert "Last hand done" not in board
    # time called on a round whose clock never started: said so, not "clock not started"
    assert 'data-testid="clock">Time called' in board and "clock not started" not in board
    assert "1 finishing the hand in play" in board and "1 time up" in board
    assert 'data-testid="time-policy-1">Decide now, without the hand in play' in board
    assert 'data-testid="time-policy-2">Decide by the time policy' in board
    assert "finish the hand in play; no new hand (hand 1 of game 1 was the hand in play)" in board


def test_one_more_hand_and_undo_from_the_dashboard_and_the_api(table, organiser, org):
    slug = table.round.tournament.slug
    services.call_time(round_id=table.round_id, actor=actor(organiser))
    play_hand(table.match, organiser, game=1, number=1, winner="A", **SMALL)
    page = org.post(
        f"/tournaments/{slug}/manage/tables/{table.pk}/extend/", {"hands": "1"}, follow=True
    )
    assert "the organiser gave" in page.content.decode() and "1 more hand: 1 left" in (
        page.content.decode()
    )
    play_hand(table.match, organiser, game=1, number=2, winner="A", **SMALL)
    bad = org.post(f"/tournaments/{slug}/manage/tables/{table.pk}/extend/", {"minutes": "x"})
    assert bad.status_code == 400
    api = APIClient()
    api.force_authenticate(organiser)
    both = api.post(f"/api/pairings/{table.pk}/extend/", {"minutes": 5, "hands": 1}, format="json")
    assert both.status_code == 400
    assert both.json()["error"]["message"] == "Give the table either more minutes or more hands."
    more = api.post(f"/api/pairings/{table.pk}/extend/", {"minutes": 5}, format="json")
    assert more.status_code == 200 and more.json()["pairings"][0]["play"] == "extended"
    no_reason = api.post(f"/api/rounds/{table.round_id}/undo-time-call/", {}, format="json")
    assert no_reason.status_code == 400
    undone = org.post(
        f"/tournaments/{slug}/manage/rounds/1/undo-time-call/",
        {"reason": "called by mistake"},
        follow=True,
    )
    assert "The call is undone" in undone.content.decode()
    assert not Round.objects.get(pk=table.round_id).time_called
    again = api.post(
        f"/api/rounds/{table.round_id}/undo-time-call/", {"reason": "twice"}, format="json"
    )
    assert again.status_code == 409 and again.json()["error"]["code"] == "time_not_called"
    assert Match.objects.get(pk=table.match_id).state == Match.State.IN_PROGRESS
    scoring.submit_hand(
        match_id=table.match_id,
        actor=actor(organiser),
        hand=HandInput(
            game=1,
            number=3,
            outcome="knock",
            knocker="B",
            knocker_deadwood=5,
            defender_deadwood=10,
        ),
        idempotency_key="after-undo",
    )


def test_a_hollywood_scoreboard_explains_each_of_its_three_games(club, organiser, org):
    event = new_event(
        club,
        organiser,
        players=2,
        rounds=1,
        profile="hollywood",
        overrides={"game_target": 50},
        bye_games=3,
    )
    rnd = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    pairing = rnd.pairings.select_related("player_a__player", "player_b__player").get()
    a, b = _names(pairing)
    for number in (1, 2):  # seat A knocks 50: game 1, then game 2 (game 3 still open)
        play_hand(pairing.match, organiser, game=1, number=number, winner="A", kd=5, dd=55)
    board = _get(org, f"/matches/{pairing.match_id}/scoreboard/")
    assert 'data-testid="hollywood-games"' in board
    for game in (1, 2):
        assert (
            f"Game to {a}. {a}: (50 in hands + 100 game + 1 box × 25) × 2 shutout = 350; "
            f"{b}: 0 in hands + 0 boxes × 25 = 0"
        ) in board.split(f'data-testid="game-words-{game}"')[1].split("</details>")[0]
    third = board.split('data-testid="game-words-3"')[1].split("</details>")[0]
    assert f"{a}: 0 in hands so far; {b}: 0 in hands so far" in third
    play_hand(pairing.match, organiser, game=1, number=3, winner="A", kd=5, dd=55)
    board = _get(org, f"/matches/{pairing.match_id}/scoreboard/")
    assert f"{a} wins 3–0</strong>" in board
    assert (
        f"{a} won games 1, 2 and 3; three games at once: the match goes to whoever wins more "
        f"of them. Match points (game totals): {a} 350 + 350 + 350 = 1050; {b} 0 + 0 + 0 = 0."
    ) in board
