"""Standings through the database, on small events worked out by hand; hiding for the
public; and a query count that does not grow with players, rounds or hands.

Under the QUICK rules every game is one hand and worth 310 to its winner, 0 to the
loser (tests/tournaments/helpers.py), so a 2-0 match is 620-0 and a 2-1 match 620-310.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.helpers import actor, new_event, pairs_of, play_round, win
from tournaments import selectors, services
from tournaments.serializers import (
    DashboardOutputSerializer,
    StandingOutputSerializer,
    ViewerRoundOutputSerializer,
)

pytestmark = pytest.mark.django_db


def lines(view):
    return [
        (
            row.standing.rank,
            row.name,
            row.standing.match_wins,
            row.standing.games_won,
            row.standing.games_played,
            row.standing.points,
            row.standing.margin,
        )
        for row in view.rows
    ]


@pytest.fixture
def worked(club, organiser):
    """Round 1: P01 beats P02 2-1, P04 beats P03 2-0.
    Round 2: P04 v P01 (score group 1): P01 2-0; P02 v P03: P03 2-1."""
    event = new_event(club, organiser, players=4, rounds=2)
    first = play_round(event, organiser, {"P01": "2-1", "P04": "2-0"})
    assert pairs_of(first) == [("P01", "P02"), ("P03", "P04")]
    second = play_round(event, organiser, {"P01": "2-0", "P03": "2-1"})
    assert pairs_of(second) == [("P04", "P01"), ("P02", "P03")]
    return event


def test_hand_worked_swiss_standings(worked):
    view = selectors.standings(worked)
    assert lines(view) == [
        # rank, name, wins, games won, played, points, margin
        (1, "P01", 2, 4, 5, 1240, 930),
        (2, "P04", 1, 2, 4, 620, 0),  # above P03: beat P03 head to head
        (3, "P03", 1, 2, 5, 620, -310),
        (4, "P02", 0, 2, 6, 620, -620),
    ]
    by_name = {row.name: row for row in view.rows}
    assert by_name["P04"].head_to_head == "beat P03"
    assert by_name["P03"].head_to_head == "lost to P04"
    # opponents' match-win %: each opponent floored at 1/3
    assert by_name["P01"].standing.opponents_match_win_pct == pytest.approx(5 / 12)
    assert by_name["P04"].standing.opponents_match_win_pct == pytest.approx(3 / 4)
    assert by_name["P02"].standing.game_win_pct == pytest.approx(1 / 3)
    assert StandingOutputSerializer(view.rows[0]).data["tiebreaks"] == {
        "head_to_head": 0.0,
        "game_win_pct": 0.8,
        "opponents_match_win_pct": 0.4167,
        "margin": 930.0,
        "points": 1240.0,
    }


def test_the_tournaments_tiebreak_order_is_used(worked, organiser):
    services.update_tournament(
        tournament_id=worked.pk, actor=actor(organiser), tiebreaks=["points"]
    )
    worked.refresh_from_db()
    view = selectors.standings(worked)
    # P03 and P04 are level on wins and points: a full tie, sharing second place
    assert [(r.standing.rank, r.name) for r in view.rows] == [
        (1, "P01"),
        (2, "P03"),
        (2, "P04"),
        (4, "P02"),
    ]
    assert view.tiebreaks == ("points",)


def test_standings_after_a_given_round(worked):
    view = selectors.standings(worked, through_round=1)
    assert [(r.name, r.standing.match_wins) for r in view.rows][:2] == [("P04", 1), ("P01", 1)]
    assert view.through_round == 1


def test_byes_count_as_wins_with_the_bye_score(club, organiser):
    event = new_event(club, organiser, players=3, rounds=1, bye_games=2, bye_points=100)
    play_round(event, organiser, {"P02": "2-1"})
    assert lines(selectors.standings(event)) == [
        (1, "P03", 1, 2, 2, 100, 100),  # the bye: 2 games to 0 (100%), 100 points
        (2, "P02", 1, 2, 3, 620, 310),  # 2 games of 3
        (3, "P01", 0, 1, 3, 310, -310),
    ]


def test_public_standings_hide_the_running_round_when_asked(club, organiser):
    event = new_event(club, organiser, players=4, rounds=3, hide_standings_during_round=True)
    play_round(event, organiser, {"P01": "2-0", "P03": "2-0"})
    second = play_round(event, organiser, close=False)
    organiser_view = selectors.standings(event)
    public_view = selectors.standings(event, public=True)
    assert organiser_view.rows[0].standing.match_wins == 2 and not organiser_view.hidden
    assert max(r.standing.match_wins for r in public_view.rows) == 1
    assert public_view.through_round == 1 and public_view.hidden
    assert public_view.note == "Standings after round 1; round 2 is being played."
    services.close_round(round_id=second.pk, actor=actor(organiser))
    assert selectors.standings(event, public=True).through_round is None


def test_public_standings_hide_the_last_rounds_until_the_end(club, organiser):
    event = new_event(club, organiser, players=4, rounds=3, hide_last_rounds=2)
    play_round(event, organiser)
    play_round(event, organiser)
    view = selectors.standings(event, public=True)
    assert view.through_round == 1 and view.hidden
    assert view.note == "The last 2 rounds are hidden until the end: standings after round 1."
    assert selectors.standings(event, public=True, through_round=2).through_round == 1
    play_round(event, organiser)  # the last round: the tournament is finished
    event.refresh_from_db()
    final = selectors.standings(event, public=True)
    assert final.through_round is None and not final.hidden
    assert lines(final) == lines(selectors.standings(event))


def test_nothing_is_shown_to_the_public_before_the_first_visible_round(club, organiser):
    event = new_event(club, organiser, players=2, rounds=2, hide_standings_during_round=True)
    play_round(event, organiser, close=False)
    view = selectors.standings(event, public=True)
    assert view.rows == [] and view.note == "Round 1 is being played; standings follow."


def count_queries(func) -> int:
    with CaptureQueriesContext(connection) as captured:
        func()
    return len(captured.captured_queries)


def build(club, organiser, players: int, rounds: int, score: str):
    event = new_event(
        club,
        organiser,
        players=players,
        rounds=rounds,
        name=f"Event {players}",
        hide_standings_during_round=True,
    )
    for _ in range(rounds - 1):
        play_round(event, organiser, {f"P{n:02d}": score for n in range(2, players + 1, 2)})
    last = play_round(event, organiser, play=False, close=False)  # a round still running
    running = (
        last.pairings.exclude(match=None)
        .select_related("player_a__player", "player_b__player", "match")
        .first()
    )
    win(running, organiser, running.player_a.player.name, score)
    return event, last


def test_standings_and_dashboard_queries_do_not_grow_with_players_or_hands(club, organiser):
    small, small_round = build(club, organiser, players=4, rounds=2, score="2-0")
    large, large_round = build(club, organiser, players=11, rounds=4, score="2-1")
    for public in (False, True):
        counts = [
            count_queries(lambda e=e, p=public: selectors.standings(e, public=p).rows)
            for e in (small, large)
        ]
        assert counts == [3, 3], (public, counts)
    counts = [
        count_queries(lambda r=r: DashboardOutputSerializer(selectors.dashboard(r)).data)
        for r in (small_round, large_round)
    ]
    # 4: the round's tables, their hands' states, their games, and the calls waiting
    assert counts[0] == counts[1] == 4
    counts = [
        count_queries(
            lambda e=e: [
                ViewerRoundOutputSerializer(selectors.round_view(r), context={"public": True}).data
                for r in selectors.rounds_of(e)[:1]
            ]
        )
        for e in (small, large)
    ]
    assert counts[0] == counts[1]


def test_the_dashboard_poll_reads_nothing_more_for_more_tables(client, club, organiser):
    """Its rows show only what the dashboard's query loads (selectors.DASHBOARD_DEFERRED
    leaves out what they never show): a deferred field read by a row would be a query per
    table."""
    client.force_login(organiser)
    # A process's first request checks once that migrations are applied (ginclub.readiness):
    # made before counting, so the test holds when it runs first in its process.
    assert client.get("/").status_code == 200
    counts = []
    for players, rounds, score in ((4, 2, "2-0"), (11, 4, "2-1")):
        event, rnd = build(club, organiser, players=players, rounds=rounds, score=score)
        url = reverse("tournaments:dashboard-tables", args=[event.slug]) + f"?round={rnd.number}"
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_mid_round_a_player_who_met_no_one_shows_no_percentages_not_zero(client, club, organiser):
    """Round 1 in play, one table done (P01 beat P02 2-1): P03 and P04 have met no one,
    so their game-win % and opponents' match-win % are a dash with its reason, not 0%
    (the legend says every opponent counts at least 33%); P02's opponent won all (100%)."""
    event = new_event(club, organiser, players=4, rounds=2)
    first = play_round(event, organiser, play=False, close=False)
    win(first.pairings.get(table=1), organiser, "P01", "2-1")
    client.force_login(organiser)
    html = client.get(reverse("tournaments:standings", args=[event.slug])).content.decode()
    rows = {
        name: row
        for row in html.split("<tr")[1:]
        for name in ("P01", "P02", "P03", "P04")
        if f">{name}<" in row
    }
    assert "100.0%" in rows["P02"] and "33.3%" in rows["P01"]
    for unplayed in ("P03", "P04"):
        assert "0.0%" not in rows[unplayed]
        assert 'title="no opponent met yet"' in rows[unplayed]
        assert 'title="no game finished"' in rows[unplayed]


def test_a_knockout_round_missing_a_pair_of_withdrawn_players_keeps_its_size():
    """Quarter-finals of 8 where one pair (both withdrawn) was left out: 3 pairings, still
    the quarter-finals (8), not "the last 6"; the winner of a decided final reached 1."""
    from tournaments.selectors.standings import knockout_reach

    def row(number, a, b, winner=""):
        return {
            "round__stage": "elimination",
            "round__number": number,
            "player_a_id": a,
            "player_b_id": b,
            "match__state": "finished" if winner else "in_progress",
            "match__winner": winner,
        }

    rows = [row(1, 1, 2, "A"), row(1, 3, 4, "B"), row(1, 5, None), row(2, 1, 4, "B")]
    assert knockout_reach(rows) == {1: 2, 2: 8, 3: 8, 4: 1, 5: 8}
    swiss = [{**row(1, 1, 2, "A"), "round__stage": "swiss"}]
    assert knockout_reach(swiss) == {}
