"""My event: a player's own page (no login), its name list and its polled partial.

Four players in list order: round 1 is P01 v P02 (table 1) and P03 v P04 (table 2);
`play_round` gives every table not named to player A 2-0. Under QUICK rules a one-hand
game is worth 310 points to its winner (tests.tournaments.helpers).
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tournaments.helpers import actor, new_event, play_round, reg, win
from tournaments import services

pytestmark = pytest.mark.django_db


def my_page(client, event, name, part="player-event"):
    return client.get(reverse(f"tournaments:{part}", args=[event.slug, reg(event, name).pk]))


def words(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_name_list_links_each_player_to_their_own_page(client, club, organiser):
    event = new_event(club, organiser, players=4)
    response = client.get(reverse("tournaments:player-choose", args=[event.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-filter="#player-list"' in html
    for name in ("P01", "P04"):
        assert reverse("tournaments:player-event", args=[event.slug, reg(event, name).pk]) in html


def test_the_public_page_carries_the_qr_code_to_my_event(client, club, organiser):
    event = new_event(club, organiser, players=4)
    html = client.get(reverse("tournaments:public", args=[event.slug])).content.decode()
    assert "<svg" in html and "QR code: My event" in html
    assert reverse("tournaments:player-choose", args=[event.slug]) in html


def test_my_table_now_with_opponent_score_link_and_clock(client, club, organiser):
    event = new_event(club, organiser, players=4)
    rnd = play_round(event, organiser, play=False, close=False)
    services.start_round_timer(round_id=rnd.pk, actor=actor(organiser))
    response = my_page(client, event, "P02")
    text = words(response)
    assert "Table 1 v P01" in text
    assert "Games 0–0" in text
    pairing = rnd.pairings.get(table=1)
    html = response.content.decode()
    assert reverse("tournaments:match-summary", args=[event.slug, pairing.pk]) in html
    assert "/table/" not in html  # never the PIN-protected match page
    assert 'data-ends-at="' in html and "left" in text


def test_my_results_round_by_round_and_my_next_opponent_once_published(client, club, organiser):
    event = new_event(club, organiser, players=4, rounds=3)
    play_round(event, organiser, {"P02": "2-1"})  # P02 beats P01 2-1; P03 beats P04 2-0
    text = words(my_page(client, event, "P02"))
    # 2-1 in games; points: P02 won two one-hand games (2 × 310), P01 one (310)
    assert "Round 1 · table 1 won" in text and "v P01 games 2–1 · points 620–310" in text
    assert "Your round 2 table and opponent appear here" in text
    # P03 also won, 2-0: ahead of P02 on game-win % (2 of 2 against 2 of 3)
    assert "2nd of 4 · 1 win from 1 match · games 2/3" in text
    play_round(event, organiser, play=False, close=False)  # round 2: P02 v P03, the winners
    text = words(my_page(client, event, "P02"))
    assert "Round 2" in text and "v P03" in text
    assert "Your round 2 table" not in text


def test_a_bye_and_a_knockout_are_said_in_words(client, club, organiser):
    event = new_event(club, organiser, players=3, format="elimination")
    play_round(event, organiser, {"P02": "2-0"})  # P01 bye; P03 v P02 → P02 wins
    assert "bye" in words(my_page(client, event, "P01"))
    text = words(my_page(client, event, "P03"))
    assert "Out of the bracket: lost to P02 in round 1." in text
    assert "appear here" not in text


def test_hidden_standings_and_results_stay_hidden_on_my_page(client, club, organiser):
    # 3 rounds planned, the last 2 hidden until the end: round 2 shows no result
    event = new_event(club, organiser, players=4, rounds=3, hide_last_rounds=2)
    play_round(event, organiser)
    play_round(event, organiser)
    text = words(my_page(client, event, "P01"))
    assert "The last 2 rounds are hidden until the end: standings after round 1." in text
    assert "Round 2 · table 1 hidden" in text
    assert "points 620–0" in text  # round 1's result still shows
    assert text.count("points") == 1


def test_standings_hidden_during_a_round_are_hidden_on_my_page(client, club, organiser):
    event = new_event(club, organiser, players=4, hide_standings_during_round=True)
    play_round(event, organiser, play=False, close=False)
    text = words(my_page(client, event, "P01"))
    assert "Round 1 is being played; standings follow." in text
    assert "1st of" not in text


@pytest.mark.parametrize("part", ["player-event", "player-event-now"])
def test_a_private_tournament_refuses_the_public_and_not_its_organiser(
    client, club, organiser, part
):
    event = new_event(club, organiser, players=4, public=False)
    response = my_page(client, event, "P01", part)
    assert response.status_code == 404 and "No such tournament." in response.content.decode()
    assert client.get(reverse("tournaments:player-choose", args=[event.slug])).status_code == 404
    client.force_login(organiser)
    assert my_page(client, event, "P01", part).status_code == 200


def test_bad_player_ids_are_refused_with_a_404_not_a_500(client, club, organiser):
    event = new_event(club, organiser, players=2, name="Club Open")
    other = new_event(club, organiser, players=2, name="Other Open")
    base = f"/tournaments/{event.slug}/players/"
    stranger = reg(other, "P01").pk  # registered in another event
    for path in [f"{stranger}/", "0/", "99999999999/", "abc/", f"{stranger}/now/", "-1/"]:
        response = client.get(base + path)
        assert response.status_code == 404, path
        assert "<main" in response.content.decode(), path  # the refusal page, in the layout


def test_my_event_poll_is_a_304_until_something_changes(
    client, club, organiser, django_assert_max_num_queries
):
    event = new_event(club, organiser, players=4)
    rnd = play_round(event, organiser, play=False, close=False)
    first = my_page(client, event, "P01", "player-event-now")
    assert first.status_code == 200 and first["Cache-Control"] == "private, no-cache"
    url = reverse("tournaments:player-event-now", args=[event.slug, reg(event, "P01").pk])
    with django_assert_max_num_queries(7):
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    services.start_round_timer(round_id=rnd.pk, actor=actor(organiser))
    moved = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200 and moved["ETag"] != first["ETag"]


@pytest.mark.parametrize(
    "page",
    ["manage/dashboard/", "manage/dashboard/hall/", "projector/", ""],
    ids=lambda p: p or "public",
)
def test_a_closed_rounds_clock_is_not_shown_counting_down(client, club, organiser, page):
    """The walk found a finished event's dashboard saying "20:47 left" of its last round:
    a round's clock is shown only while the round is in play."""
    event = new_event(club, organiser, players=4)
    rnd = play_round(event, organiser, close=False)
    services.start_round_timer(round_id=rnd.pk, actor=actor(organiser))
    client.force_login(organiser)
    url = f"/tournaments/{event.slug}/{page}"
    assert "data-ends-at=" in client.get(url).content.decode()  # in play: counting down
    services.close_round(round_id=rnd.pk, actor=actor(organiser))
    response = client.get(url)
    assert response.status_code == 200
    assert "data-ends-at=" not in response.content.decode()


def test_no_standing_is_claimed_before_any_match_is_decided(client, club, organiser):
    """A walk read "1st of 4 · 0 wins from 0 matches · shares 1st with Ben, Ivy, Jo" on a
    player's page before round 1 was played; the first decided match makes standings."""
    event = new_event(club, organiser, players=4)
    rnd = play_round(event, organiser, play=False, close=False)
    before = my_page(client, event, "P03")
    assert 'data-testid="my-standing"' not in before.content.decode()
    assert "Not in the standings yet." in words(before)
    win(rnd.pairings.get(table=1), organiser, "P01")
    after = my_page(client, event, "P03").content.decode()
    assert 'data-testid="my-standing"' in after  # P03 has not played yet, and stands


def test_an_organiser_on_a_players_page_is_sent_to_the_withdrawal_not_asked_a_pin(
    client, club, organiser
):
    """A walk, logged in as the organiser, opened Hana's page, tapped 'Drop from the
    event', typed Hana's PIN and read 'Dropping is Hana's own step, with their PIN': a
    form the organiser could never use, and no way to the withdrawal it named."""
    event = new_event(club, organiser, players=4)
    play_round(event, organiser, play=False, close=False)
    player = reg(event, "P02")
    assert 'data-testid="my-drop-button"' in my_page(client, event, "P02").content.decode()
    client.force_login(organiser)
    html = my_page(client, event, "P02").content.decode()
    assert 'data-testid="my-drop-button"' not in html
    players = reverse("tournaments:players", args=[event.slug])
    assert f'href="{players}#reg-{player.pk}"' in html
    text = words(my_page(client, event, "P02"))
    assert "Dropping is P02's own step, from their phone with their PIN." in text
    assert "Withdraw P02 on the Players page, saying why" in text
