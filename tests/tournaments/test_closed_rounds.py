"""Closed means closed (issue 8, finding 1): a correction or void of a hand in a match
of a closed round may change its result, shown first by a preview, but may not leave
the match undecided; an applied change is on the match's ledger and on the standings
pages, with the later rounds paired from the old standings flagged."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from ginclub import ledger
from ginclub.errors import Conflict
from scoring import services as scoring
from scoring.hand_input import HandInput
from scoring.models import Hand, LedgerRow, Match
from tests.tournaments.helpers import actor, new_event, pairs_of, play_round
from tournaments import selectors, services
from tournaments.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed(club, organiser):
    """Swiss, four players, QUICK rules (one hand a game, first to two games). Round 1
    played out and closed: P01 beat P02 2-1 at table 1 (games A, B, A), P03 beat P04
    2-1 at table 2. Returns the event and table 1's pairing."""
    event = new_event(club, organiser, players=4, rounds=3)
    play_round(event, organiser, {"P01": "2-1", "P03": "2-1"})
    event.refresh_from_db()
    table1 = event.round_set.get(number=1).pairings.select_related("match").get(table=1)
    return event, table1


def last_hand(pairing) -> Hand:
    """Game 3's only (so last) hand: P01 knocks 5 against 35, 30 points, past 25."""
    return Hand.objects.get(game__match=pairing.match, game__number=3, number=1)


def correction(**values) -> dict:
    fields = {"outcome": "knock", "knocker": "A", "knocker_deadwood": 5, "defender_deadwood": 35}
    return {"game": 3, "number": 1, **fields, **values}


def api_client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def standings_lines(event) -> list[tuple]:
    return [
        (row.name, row.standing.rank, row.standing.match_wins, row.standing.points)
        for row in selectors.standings(event).rows
    ]


def test_finding_1_a_correction_cannot_unfinish_a_match_of_a_closed_round(closed, organiser):
    event, table1 = closed
    hand = last_hand(table1)
    standings_before, rows_before = standings_lines(event), LedgerRow.objects.count()
    # 5 against 10 scores 5: game 3 would no longer end, the match would be undecided.
    response = api_client(organiser).post(
        f"/api/hands/{hand.pk}/correct/",
        {
            **correction(defender_deadwood=10),
            "version": hand.version,
            "reason": "typo",
            "idempotency_key": "k1",
        },
        format="json",
    )
    assert response.status_code == 409, response.content
    error = response.json()["error"]
    assert error["code"] == "would_reopen"
    assert "P01 v P02 (round 1, table 1)" in error["message"]
    assert "game 3 unfinished (P01 5 – 0 P02)" in error["message"]
    assert "Correct hand 1 of game 3 to the score that was played" in error["message"]
    table1.match.refresh_from_db()
    assert (table1.match.state, table1.match.winner) == (Match.State.FINISHED, "A")
    assert standings_lines(event) == standings_before
    assert LedgerRow.objects.count() == rows_before
    # Round 2 is paired from the standings as they stand: winners meet, losers meet.
    rnd = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    assert sorted(pairs_of(rnd)) == [("P01", "P03"), ("P02", "P04")]


def test_a_void_that_would_unfinish_the_match_is_refused_and_says_correct_instead(
    closed, organiser
):
    _event, table1 = closed
    hand = last_hand(table1)
    with pytest.raises(Conflict) as refused:
        scoring.void_hand(
            hand_id=hand.pk,
            actor=actor(organiser),
            version=hand.version,
            reason="wrong table",
            idempotency_key="v1",
        )
    assert refused.value.code == "would_reopen"
    assert "voiding hand 1 of game 3" in refused.value.message
    assert "Correct hand 1 of game 3 instead of voiding it" in refused.value.message
    hand.refresh_from_db()
    assert hand.state == Hand.State.CONFIRMED
    # The preview gives the very same refusal.
    with pytest.raises(Conflict) as previewed:
        scoring.preview_void(hand_id=hand.pk, actor=actor(organiser), version=hand.version)
    assert previewed.value.message == refused.value.message


def test_the_preview_shows_the_result_the_moved_standings_and_the_drafted_round(closed, organiser):
    event, table1 = closed
    round2 = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    hand = last_hand(table1)
    rows_before = LedgerRow.objects.count()
    response = api_client(organiser).post(
        f"/api/hands/{hand.pk}/correct/preview/",
        {**correction(knocker="B"), "version": hand.version},
        format="json",
    )
    assert response.status_code == 200, response.content
    preview = response.json()
    assert preview["action"] == "correct"
    assert preview["hand"]["before"]["winner"] == "A"
    assert preview["hand"]["after"]["winner"] == "B"
    result = preview["result"]
    assert result["changed"] is True
    assert result["before"]["winner"] == "A" and result["after"]["winner"] == "B"
    assert result["before"]["games_won"] == {"A": 2, "B": 1}
    assert result["after"]["games_won"] == {"A": 1, "B": 2}
    t = preview["tournament"]
    assert (t["round"], t["table"], t["players"]) == (1, 1, {"A": "P01", "B": "P02"})
    assert t["round_closed_at"]
    moved = {row["name"]: (row["before"]["rank"], row["after"]["rank"]) for row in t["standings"]}
    assert moved["P01"][0] < moved["P01"][1] and moved["P02"][0] > moved["P02"][1]
    assert {row["name"] for row in t["standings"]} >= {"P01", "P02"}
    assert t["later_rounds"] == [{"number": 2, "state": "draft", "paired_from_standings": True}]
    assert any("Round 2 is a draft paired from the old standings" in n for n in t["notes"])
    # Nothing was written: no ledger row, the hand and the match as they were.
    assert LedgerRow.objects.count() == rows_before
    hand.refresh_from_db()
    table1.match.refresh_from_db()
    assert (hand.winner, hand.version, table1.match.winner) == ("A", 1, "A")
    assert round2.pk == event.round_set.get(number=2).pk


def test_a_published_later_round_is_flagged_and_the_change_applies_with_ledger_rows(
    closed, organiser
):
    event, table1 = closed
    play_round(event, organiser, play=False, close=False)  # round 2 published
    hand = last_hand(table1)
    preview = scoring.preview_correction(
        hand_id=hand.pk,
        actor=actor(organiser),
        hand_input=HandInput(**correction(knocker="B")),
        version=hand.version,
    )
    t = preview.tournament
    assert t["later_rounds"] == [{"number": 2, "state": "published", "paired_from_standings": True}]
    assert any("Round 2 was already published from the old standings" in n for n in t["notes"])

    outcome = scoring.correct_hand(
        hand_id=hand.pk,
        actor=actor(organiser),
        hand_input=HandInput(**correction(knocker="B")),
        version=hand.version,
        reason="P02 knocked, not P01",
        idempotency_key="fix-1",
    )
    assert outcome.extra["result"].consequences[0]["standings"] == t["standings"]
    table1.match.refresh_from_db()
    assert (table1.match.state, table1.match.winner) == (Match.State.FINISHED, "B")
    chain = list(
        LedgerRow.objects.filter(chain=f"match:{table1.match_id}").order_by("-position")[:3]
    )
    actions = [row.action for row in chain]
    assert actions == ["result_changed_after_close", "match_decided", "hand_corrected"]
    changed = chain[0]
    assert changed.reason == "P02 knocked, not P01"
    assert changed.before["result"]["winner"] == "A"
    assert changed.after["result"]["winner"] == "B"
    assert changed.after["round"] == 1 and changed.after["action"] == "hand_corrected"
    assert ledger.verify() == []
    names = [row.name for row in selectors.standings(event).rows]
    assert names.index("P02") < names.index("P01")


def test_the_standings_pages_say_results_changed_after_the_round_closed(closed, organiser, client):
    event, table1 = closed
    hand = last_hand(table1)
    scoring.correct_hand(
        hand_id=hand.pk,
        actor=actor(organiser),
        hand_input=HandInput(**correction(knocker="B")),
        version=hand.version,
        reason="P02 knocked",
        idempotency_key="fix-2",
    )
    public = Client().get(f"/tournaments/{event.slug}/standings/").content.decode()
    assert "Results changed after round 1 closed" in public
    assert "P01 v P02" in public and "hand 1 of game 3 corrected" in public
    assert "P01 won, P01 2–1 P02" in public and "P02 won, P01 1–2 P02" in public
    client.force_login(organiser)
    page = client.get(f"/tournaments/{event.slug}/manage/standings/").content.decode()
    assert "Results changed after round 1 closed" in page
    notices = selectors.results_changed(event)
    assert [(n.round, n.table, n.what) for n in notices] == [(1, 1, "corrected")]


def test_the_public_does_not_see_a_change_in_a_hidden_round(closed, organiser):
    event, table1 = closed
    hand = last_hand(table1)
    scoring.correct_hand(
        hand_id=hand.pk,
        actor=actor(organiser),
        hand_input=HandInput(**correction(knocker="B")),
        version=hand.version,
        reason="P02 knocked",
        idempotency_key="fix-3",
    )
    assert len(selectors.results_changed(event, through_round=1)) == 1
    assert selectors.results_changed(event, through_round=0) == []
    # Round 1 of 3 hidden from the public until the end: no standings, no notice.
    services.update_tournament(tournament_id=event.pk, actor=actor(organiser), hide_last_rounds=3)
    public = Client().get(f"/tournaments/{event.slug}/standings/").content.decode()
    assert "hidden" in public and "Results changed" not in public


def test_a_change_in_an_open_round_is_not_judged(club, organiser):
    event = new_event(club, organiser, players=4, rounds=3)
    rnd = play_round(event, organiser, {"P01": "2-1"}, close=False)
    assert rnd.state == Round.State.PUBLISHED
    table1 = rnd.pairings.select_related("match").get(table=1)
    hand = last_hand(table1)
    outcome = scoring.correct_hand(
        hand_id=hand.pk,
        actor=actor(organiser),
        hand_input=HandInput(**correction(defender_deadwood=10)),
        version=hand.version,
        reason="typo",
        idempotency_key="open-1",
    )
    assert outcome.extra["result"].consequences == []
    table1.match.refresh_from_db()
    assert table1.match.state == Match.State.IN_PROGRESS
    assert not LedgerRow.objects.filter(action="result_changed_after_close").exists()


def test_an_elimination_winner_cannot_change_once_the_next_round_is_drafted(club, organiser):
    event = new_event(club, organiser, players=4, format="elimination")
    first = play_round(event, organiser, {"P01": "2-1", "P02": "2-1"})
    services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    pairing = first.pairings.select_related("match", "player_a__player").get(
        player_a__player__name="P01"
    )
    hand = last_hand(pairing)
    with pytest.raises(Conflict) as refused:
        scoring.preview_correction(
            hand_id=hand.pk,
            actor=actor(organiser),
            hand_input=HandInput(**correction(knocker="B")),
            version=hand.version,
        )
    assert refused.value.code == "bracket_changed"
    assert "discard that draft first" in refused.value.message
    assert "from P01 to" in refused.value.message
