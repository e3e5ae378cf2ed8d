"""One result per table (issue 22, finding 1): whatever decides a match (its hands, the
organiser's result, the time policy), the match carries the decision, and every reader
of results (the match API, the players' records and head to head, months, events,
ratings, standings) reads it there. Withdrawing the decision moves them all back."""

from __future__ import annotations

import pytest

from scoring.models import LedgerRow, Match, Rating, RatingChange
from scoring.services.ratings import recompute_ratings
from tests.tournaments.helpers import actor, new_event, play_hand
from tournaments import selectors, services


@pytest.fixture
def decided(club, organiser, client):
    """Swiss, one round, two tables: table 1's result entered by the organiser through
    the API (A wins 2–1 from the paper sheet); table 2 one game each, then time is
    called and the policy gives it to B, who leads the game in play."""
    event = new_event(club, organiser, players=["Kai", "Lea", "Max", "Nia"], rounds=1)
    rnd = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    rnd = services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    first, second = rnd.pairings.select_related("match").order_by("table")
    client.force_login(organiser)
    answer = client.post(
        f"/api/pairings/{first.pk}/result/",
        {"winner": "A", "games_a": 2, "games_b": 1, "reason": "from the paper sheet"},
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    play_hand(second.match, organiser, game=1, number=1, winner="A")
    play_hand(second.match, organiser, game=2, number=1, winner="B")
    play_hand(second.match, organiser, game=3, number=1, winner="B", kd=5, dd=10)
    services.call_time(round_id=rnd.pk, actor=actor(organiser))
    services.apply_time_policy(round_id=rnd.pk, actor=actor(organiser), pairing_ids=[second.pk])
    return event, rnd, first, second


def _player(client, name: str) -> dict:
    match = Match.objects.filter(player_a__name=name).first() or Match.objects.get(
        player_b__name=name
    )
    player = match.player_a if match.player_a.name == name else match.player_b
    answer = client.get(f"/api/players/{player.pk}/")
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_the_match_api_says_who_won_a_table_decided_by_hand_or_by_time(decided, client):
    _, _, first, second = decided
    one = client.get(f"/api/matches/{first.match_id}/").json()
    two = client.get(f"/api/matches/{second.match_id}/").json()
    assert (one["winner"], one["games_won"]) == ("A", {"A": 2, "B": 1})
    assert two["winner"] == "B"
    assert one["result_words"] == (
        "Kai wins 2–1: result set by the organiser (from the paper sheet)"
    )
    assert two["result_words"].startswith("Nia wins: time was called")  # games level


def test_the_players_records_count_matches_decided_by_hand_and_by_time(decided, client):
    kai, lea, nia = (_player(client, n) for n in ("Kai", "Lea", "Nia"))
    assert [m["result"] for m in kai["matches"]] == ["won"]
    assert [m["result"] for m in lea["matches"]] == ["lost"]
    assert [m["result"] for m in nia["matches"]] == ["won"]
    assert [(h["opponent"]["name"], h["won"], h["lost"]) for h in kai["head_to_head"]] == [
        ("Lea", 1, 0)
    ]
    assert [(m["won"], m["lost"]) for m in nia["months"]] == [(1, 0)]
    assert [(e["won"], e["lost"]) for e in kai["events"]] == [(1, 0)]


def test_ratings_count_matches_decided_by_hand_and_by_time(decided, club):
    _, _, first, second = decided
    assert recompute_ratings(club_id=club.pk) == 2
    rated = set(RatingChange.objects.values_list("match_id", flat=True))
    assert rated == {first.match_id, second.match_id}
    assert Rating.objects.filter(player__club=club).count() == 4


def test_withdrawing_a_decision_moves_every_reader_back(decided, client, club, organiser):
    event, _, first, _ = decided
    services.clear_result(pairing_id=first.pk, actor=actor(organiser), reason="wrong table")
    match = Match.objects.get(pk=first.match_id)
    assert (match.winner, match.state, match.decided_by) == ("", "in_progress", "")
    kai = _player(client, "Kai")
    assert [m["result"] for m in kai["matches"]] == ["in progress"]
    assert [h["won"] for h in kai["head_to_head"]] in ([], [0])
    assert recompute_ratings(club_id=club.pk) == 1
    standing = {row.name: row.standing.match_wins for row in selectors.standings(event).rows}
    assert standing["Kai"] == 0 and standing["Nia"] == 1


def test_the_ledger_keeps_who_set_the_result_and_why(decided):
    _, _, first, second = decided
    one = LedgerRow.objects.get(match_id=first.match_id, action="match_decided")
    assert (one.after["decided_by"], one.after["reason"]) == ("organiser", "from the paper sheet")
    two = LedgerRow.objects.get(match_id=second.match_id, action="match_decided")
    assert two.after["decided_by"] == "time" and two.after["winner"] == "B"
