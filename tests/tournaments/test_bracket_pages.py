"""The bracket pages (public page, polled board, print) and the projector's bracket: who
may open them, what they show as matches finish, the organiser's hiding, refusals.

The events are built with the helpers' QUICK rules; `play_round` gives every table not
named to player A 2-0. Six players seeded P06 (seed 1) down to P01 (seed 6) make a
bracket of 8: P06 bye, P03 v P02 (seeds 4 v 5), P05 bye, P04 v P01 (seeds 3 v 6).
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tournaments.helpers import actor, new_event, play_round, reg
from tournaments import services

pytestmark = pytest.mark.django_db


def seeded_six(club, organiser, **settings):
    event = new_event(club, organiser, players=6, format="elimination", **settings)
    for seed, name in enumerate(["P06", "P05", "P04", "P03", "P02", "P01"], start=1):
        services.set_seed(registration_id=reg(event, name).pk, actor=actor(organiser), seed=seed)
    return event


def page(client, event, name="bracket", query=""):
    return client.get(reverse(f"tournaments:{name}", args=[event.slug]) + query)


def words(response) -> str:
    """The page's text without tags, spaces squeezed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_before_round_one_the_bracket_shows_seeds_and_empty_later_rounds(client, club, organiser):
    event = seeded_six(club, organiser)
    text = words(page(client, event))
    assert "Quarter-finals" in text and "Semi-finals" in text and "Final" in text
    assert "Seed 4" in text and "Seed 5" in text
    assert "P06" not in text  # the seeds get names when round 1 is published
    assert "Winner of match 3" in text  # the final waits for the semi-finals (matches 3, 4)


def test_winners_advance_byes_are_marked_and_the_final_waits_for_a_table(client, club, organiser):
    event = seeded_six(club, organiser)
    play_round(event, organiser, {"P03": "2-0", "P01": "2-1"})  # P01 beats seed 3 P04
    semis = play_round(event, organiser, {"P06": "2-0"}, play=False, close=False)
    response = page(client, event)
    assert response.status_code == 200
    text = words(response)
    assert text.count("Bye") == 2
    # the semi-finals as paired: P06 v P03 (table 1), P05 v P01 (table 2)
    tables = dict(semis.pairings.values_list("table", "player_a__player__name"))
    assert tables == {1: "P06", 2: "P05"}
    assert "Winner of table 1" in text and "Winner of table 2" in text
    assert "P01 , through" in text  # the upset went on (", through": read out, not shown)


def test_a_finished_bracket_names_its_winner_with_the_scores(client, club, organiser):
    event = seeded_six(club, organiser)
    play_round(event, organiser, {"P03": "2-0", "P04": "2-1"})
    play_round(event, organiser, {"P06": "2-0", "P04": "2-0"})
    play_round(event, organiser, {"P04": "2-1"})
    response = page(client, event, "bracket-board")
    assert "Winner: P04" in words(response)
    # the final's box: P06 1 games, P04 2 games (2-1 to P04)
    final = response.content.decode().rsplit('data-testid="bracket-box"', 1)[1]
    assert re.search(r"P06.*?games\">1<.*P04.*?games\">2<", final, re.S)


def test_a_top_cut_of_four_fills_from_the_swiss_standings(client, club, organiser):
    event = new_event(club, organiser, players=6, format="swiss_cut", rounds=2, cut_size=4)
    play_round(event, organiser)
    text = words(page(client, event))
    assert "top 4 of the Swiss standings" in text and "Seed 1" in text
    play_round(event, organiser)
    play_round(event, organiser, play=False, close=False)  # the semi-finals, round 3
    text = words(page(client, event))
    assert "Semi-finals round 3" in text and "Final round 4" in text
    assert "Seed 1" not in text and "Winner of table 1" in text


def test_the_projector_shows_the_bracket_once_it_is_played(client, club, organiser):
    event = seeded_six(club, organiser)
    board = page(client, event, "projector-board")
    assert "bracket-box" not in board.content.decode()
    play_round(event, organiser, close=False)
    assert words(page(client, event, "projector-board")).count("Bye") == 2


def test_print_takes_a4_or_a3_and_refuses_other_paper(client, club, organiser):
    event = seeded_six(club, organiser)
    a3 = page(client, event, "bracket-print", "?paper=a3")
    assert a3.status_code == 200 and "css/paper-a3.css" in a3.content.decode()
    assert "css/paper-a4.css" in page(client, event, "bracket-print").content.decode()
    refused = page(client, event, "bracket-print", "?paper=letter")
    assert refused.status_code == 400
    assert "Paper is A4 or A3, not &#x27;letter&#x27;." in refused.content.decode()


@pytest.mark.parametrize("name", ["bracket", "bracket-board", "bracket-print"])
def test_a_swiss_has_no_bracket_and_says_so(client, club, organiser, name):
    event = new_event(club, organiser, players=4)
    response = page(client, event, name)
    assert response.status_code == 404
    assert "Club Open is played as a Swiss: it has no bracket." in response.content.decode()


@pytest.mark.parametrize("name", ["bracket", "bracket-board", "bracket-print"])
def test_a_private_tournaments_bracket_is_not_found_by_the_public(client, club, organiser, name):
    event = seeded_six(club, organiser, public=False)
    assert page(client, event, name).status_code == 404
    client.force_login(organiser)
    assert page(client, event, name).status_code == 200


def test_results_hidden_by_the_organiser_stay_off_the_bracket(client, club, organiser):
    # 3 rounds planned, the last 2 hidden: round 1's results show, the semi-finals' not
    event = seeded_six(club, organiser, hide_last_rounds=2)
    play_round(event, organiser, {"P03": "2-0", "P04": "2-0"})
    play_round(event, organiser, {"P06": "2-0", "P04": "2-1"}, close=False)
    html = page(client, event, "bracket-board").content.decode()
    semis = html.split("Semi-finals", 1)[1].split("Final", 1)[0]
    assert "P06" in semis and "P04" in semis
    assert 'class="games"' not in semis and "won" not in semis
    final = html.rsplit("Final", 1)[1]
    assert "Winner of table 1" in final and "P04" not in final


def test_the_bracket_board_answers_a_repeated_poll_with_a_304(
    client, club, organiser, django_assert_max_num_queries
):
    event = seeded_six(club, organiser)
    play_round(event, organiser, close=False)
    url = reverse("tournaments:bracket-board", args=[event.slug])
    first = client.get(url)
    assert first.status_code == 200
    with django_assert_max_num_queries(7):
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""


def test_a_box_decided_over_the_hands_says_who_decided_it(client, club, organiser):
    """A walk recorded a no-show by hand (0–0, the organiser's result) and read the bracket
    box 'Dev 0, Eve 0' with nothing to say why Dev went through; time's 0–0 alike."""
    event = seeded_six(club, organiser)
    rnd = play_round(event, organiser, play=False, close=False)
    no_show = rnd.pairings.exclude(player_b=None).order_by("table").first()
    services.record_result(
        pairing_id=no_show.pk, actor=actor(organiser), winner="A", reason="P02 did not come"
    )
    html = page(client, event).content.decode()
    assert html.count('data-testid="decided-by"') == 1
    assert "decided by: organiser" in words(page(client, event))
    assert "P02 did not come" not in html  # the reason stays on the organiser's pages
    client.cookies["django_language"] = "it"
    assert "deciso da: organizzatore" in words(page(client, event))
