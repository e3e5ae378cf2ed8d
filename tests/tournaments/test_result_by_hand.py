"""A result recorded by hand agrees with itself (issue 9, trap 1): the winner never has
fewer games than the loser, and nobody has more games than the match is played to."""

from __future__ import annotations

import pytest

from ginclub.errors import ServiceError
from tests.tournaments.helpers import actor, new_event
from tournaments import services
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(club, organiser):
    """Two players, best of three (QUICK: games_to_win 2), round 1 published."""
    event = new_event(club, organiser, players=["Cleo", "Dev"])
    rnd = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    return Pairing.objects.select_related("player_a__player").get(round=rnd)


def record(pairing, organiser, winner_name, games):
    winner = "A" if pairing.player_a.player.name == winner_name else "B"
    a, b = games if winner == "A" else games[::-1]
    return services.record_result(
        pairing_id=pairing.pk,
        actor=actor(organiser),
        winner=winner,
        reason="no phone at the table",
        games_a=a,
        games_b=b,
    )


@pytest.mark.parametrize(
    ("games", "message"),
    [
        # (winner's games, loser's games)
        ((1, 3), "Dev cannot have won 3 games: the match is won with 2."),
        ((0, 1), "Cleo cannot win the match with fewer games (0) than Dev (1)."),
        ((2, 2), "Dev has won 2 games, which wins the match, so Cleo cannot be the winner."),
        ((3, 0), "Cleo cannot have won 3 games: the match is won with 2."),
    ],
)
def test_a_result_that_contradicts_its_games_is_refused(table, organiser, games, message):
    with pytest.raises(ServiceError) as caught:
        record(table, organiser, "Cleo", games)
    assert caught.value.code == "invalid"
    assert caught.value.message == message
    table.refresh_from_db()
    assert not table.resolved


@pytest.mark.parametrize("games", [(2, 1), (2, 0), (1, 1), (1, 0), (0, 0)])
def test_time_may_be_called_level_or_with_the_winner_ahead(table, organiser, games):
    record(table, organiser, "Cleo", games)
    table.refresh_from_db()
    assert table.resolved and (table.match.games_won_a, table.match.games_won_b) in (
        games,
        games[::-1],
    )


def test_the_result_page_refuses_it_by_name_and_marks_the_field(client, organiser, table):
    client.force_login(organiser)
    tournament = table.round.tournament
    path = f"/tournaments/{tournament.slug}/manage/tables/{table.pk}/result/"
    winner = "A" if table.player_a.player.name == "Cleo" else "B"
    games = {"games_a": 1, "games_b": 3} if winner == "A" else {"games_a": 3, "games_b": 1}
    response = client.post(
        path, {"winner": winner, "reason": "no phone", **games}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "Dev cannot have won 3 games: the match is won with 2." in body
    table.refresh_from_db()
    assert not table.resolved


def test_the_result_pages_field_refusals_name_the_players_not_the_seats(client, organiser, table):
    """A walk found "Points a: Ensure this value is less than or equal to 2147483647."."""
    client.force_login(organiser)
    tournament = table.round.tournament
    path = f"/tournaments/{tournament.slug}/manage/tables/{table.pk}/result/"
    a, b = table.player_a.player.name, table.player_b.player.name
    response = client.post(
        path,
        {"winner": "A", "reason": "no phone", "games_a": 1, "points_a": 10**9, "points_b": -1},
    )
    assert response.status_code == 400
    body = response.content.decode().replace("&#x27;", "'")
    assert f"{a}'s points: Ensure this value is less than or equal to 99999." in body
    assert f"{b}'s points: Ensure this value is greater than or equal to 0." in body
    assert "Points a" not in body and "Points b" not in body
    # each player's refusal under their own figures
    assert body.index(f"{a}'s points") < body.index(f"<legend>{b}</legend>")
    assert body.index(f"{b}'s points") > body.index(f"<legend>{b}</legend>")
    table.refresh_from_db()
    assert not table.resolved
