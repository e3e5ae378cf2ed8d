"""Standings say which rounds they follow, and leave out who never checked in
(issue 9, traps 10 and 15)."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import actor, new_event, play_round, reg
from tournaments import selectors, services

pytestmark = pytest.mark.django_db


def test_the_caption_follows_the_rounds(club, organiser, client):
    event = new_event(club, organiser, players=4, rounds=3)
    assert selectors.standings(event).caption == ""
    first = play_round(event, organiser, {"P01": "2-0", "P03": "2-0"}, close=False)
    assert selectors.standings(event).caption == "Round 1 in play: the tables finished so far."
    services.close_round(round_id=first.pk, actor=actor(organiser))
    assert selectors.standings(event).caption == "After round 1."
    play_round(event, organiser, close=False)
    assert selectors.standings(event).caption == (
        "After round 1, with the tables of round 2 finished so far."
    )
    page = client.get(f"/tournaments/{event.slug}/standings/")
    assert "After round 1, with the tables of round 2 finished so far." in page.content.decode()


def test_public_standings_held_back_say_the_round_they_stop_at(club, organiser):
    event = new_event(club, organiser, players=4, rounds=3, hide_standings_during_round=True)
    play_round(event, organiser, {"P01": "2-0", "P03": "2-0"})
    play_round(event, organiser, close=False)
    assert selectors.standings(event, public=True).caption == "After round 1."


def test_who_never_checked_in_is_left_out_once_play_begins(club, organiser):
    event = new_event(club, organiser, players=3, rounds=2, check_in_required=True)
    for name in ("P01", "P02"):
        services.check_in(registration_id=reg(event, name).pk, actor=actor(organiser))
    assert {r.name for r in selectors.standings(event).rows} == {"P01", "P02", "P03"}
    play_round(event, organiser, {"P01": "2-0"})
    assert [r.name for r in selectors.standings(event).rows] == ["P01", "P02"]
    # checking in late brings them in (with nothing played yet)
    services.check_in(registration_id=reg(event, "P03").pk, actor=actor(organiser))
    assert [r.name for r in selectors.standings(event).rows][-1] == "P03"


def test_pairings_list_every_player_a_to_z_with_table_and_opponent(club, organiser, client):
    event = new_event(club, organiser, players=["Zoe", "ada", "Mia", "Ben", "Cy"], rounds=2)
    rnd = play_round(event, organiser, close=False)
    seats = selectors.seats_by_name(selectors.tables(rnd))
    assert [s.name for s in seats] == ["ada", "Ben", "Cy", "Mia", "Zoe"]
    byes = [s for s in seats if s.opponent is None]
    assert len(byes) == 1 and byes[0].table is None
    for seat in seats:
        if seat.opponent is not None:
            partner = next(s for s in seats if s.name == seat.opponent)
            assert (partner.table, partner.opponent) == (seat.table, seat.name)
    page = client.get(f"/tournaments/{event.slug}/").content.decode()
    assert "Find your table: players A–Z" in page
    first = seats[0]
    where = (
        f'table {first.table} <span class="muted">v {first.opponent}</span>'
        if first.opponent
        else '<span class="muted">bye</span>'
    )
    assert f"<span>ada</span><span>{where}</span>" in page


def test_score_sheets_follow_each_tables_own_rules(club, organiser, client):
    """A Hollywood table gets one run of hands scored into three games; a fixed-length
    one as many rows as hands; each sheet says its rules in words (issue 8)."""
    event = new_event(club, organiser, players=2, profile="hollywood", overrides={})
    play_round(event, organiser, play=False, close=False)
    client.force_login(organiser)
    page = client.get(f"/tournaments/{event.slug}/manage/print/sheets/").content.decode()
    assert "Hollywood: three games at once, each to 100 · knock ≤ 10" in page
    assert page.count("<caption>Hands</caption>") == 1 and "<caption>Game 1" not in page
    assert "Game 3 A–B" in page
    school = new_event(
        club, organiser, players=2, profile="school", overrides={}, name="School", bye_games=1
    )
    play_round(school, organiser, play=False, close=False)
    page = client.get(f"/tournaments/{school.slug}/manage/print/sheets/").content.decode()
    assert "first to 1 game · 10 hands a game · knock ≤ 10 · no lay-offs" in page
    assert page.count("<tr><td>10</td>") == 1 and "<tr><td>11</td>" not in page


def test_score_sheets_choose_one_table_with_a_form_not_by_editing_the_address(
    club, organiser, client
):
    """A walk read "Add &table=N to the address for one table" on the page."""
    event = new_event(club, organiser, players=4)
    rnd = play_round(event, organiser, play=False, close=False)
    client.force_login(organiser)
    url = f"/tournaments/{event.slug}/manage/print/sheets/"
    page = client.get(url).content.decode()
    assert "&amp;table=N" not in page and 'data-testid="one-table"' in page
    assert f'name="round" value="{rnd.number}"' in page and 'name="table"' in page
    one = client.get(url, {"round": rnd.number, "table": 2}).content.decode()
    assert one.count('class="sheet"') == 1 and "Every table" in one
