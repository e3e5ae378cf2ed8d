"""The hall view (issue 23): every table one line, narrowed to a state or a search, its
counts links to their filter, polled with ETags like the dashboard. The browser side
(64 tables on one screen, one tap, a phone): tests/browser/test_hall_view.py."""

from __future__ import annotations

from html import unescape

import pytest
from django.core.cache import caches

from scoring import services as scoring
from tests.tournaments.helpers import actor, new_event, play_round, win
from tests.tournaments.test_dashboard import submit
from tournaments import selectors, services
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def _event(club, organiser):
    """Five tables: playing, pending, disputed, finished, playing (P01 v P02 ...)."""
    event = new_event(
        club,
        organiser,
        players=[
            "Ada",
            "Ben",
            "Cleo",
            "Dev",
            "Eve",
            "Finn",
            "Gus",
            "Hana",
            "Niccolò",
            "Jo",
        ],  # fmt: skip
    )
    rnd = play_round(event, organiser, play=False, close=False)
    tables = list(
        rnd.pairings.order_by("position").select_related(
            "player_a__player", "player_b__player", "match"
        )
    )
    submit(tables[1], key="pending")
    hand = submit(tables[2], key="disputed")
    scoring.dispute_hand(
        hand_id=hand.pk,
        actor=scoring.Actor(player=tables[2].player_b.player),
        version=1,
        reason="I had 7",
        idempotency_key="disputed-2",
    )
    win(tables[3], organiser, "Gus")
    return event, Round.objects.get(pk=rnd.pk)


def _tables(rows) -> list[int]:
    return [row.pairing.table for row in rows]


def test_the_hall_filters_by_state_and_finds_a_table_or_a_name_without_accents(club, organiser):
    event, rnd = _event(club, organiser)
    board = selectors.dashboard_facts(rnd)
    rows = board.tables
    assert _tables(selectors.hall_rows(rows)) == [1, 2, 3, 4, 5]
    assert _tables(selectors.hall_rows(rows, state="playing")) == [1, 5]
    assert _tables(selectors.hall_rows(rows, state="pending")) == [2]
    assert _tables(selectors.hall_rows(rows, state="disputed")) == [3]
    assert _tables(selectors.hall_rows(rows, state="finished")) == [4]
    assert _tables(selectors.hall_rows(rows, state="after_time")) == []
    assert board.hall_counts == {
        "calling": 0,
        "playing": 2,
        "pending": 1,
        "disputed": 1,
        "after_time": 0,
        "finished": 1,
    }
    assert _tables(selectors.hall_rows(rows, search="niccolo")) == [5]  # Niccolò v Jo
    assert _tables(selectors.hall_rows(rows, search="  DEV ")) == [2]
    assert _tables(selectors.hall_rows(rows, search="4")) == [4]
    assert _tables(selectors.hall_rows(rows, search="e")) == [1, 2, 3]  # Ben; Cleo, Dev; Eve
    assert _tables(selectors.hall_rows(rows, state="finished", search="ada")) == []
    # After the call every unfinished table finishes after time (and keeps its state).
    services.call_time(round_id=rnd.pk, actor=actor(organiser))
    board = selectors.dashboard_facts(Round.objects.get(pk=rnd.pk))
    assert _tables(selectors.hall_rows(board.tables, state="after_time")) == [1, 2, 3, 5]
    assert board.hall_counts["after_time"] == 4 and board.hall_counts["disputed"] == 1


def test_the_hall_page_links_each_count_to_its_filter_and_shows_only_those_tables(
    club, organiser, client
):
    event, rnd = _event(club, organiser)
    client.force_login(organiser)
    hall = f"/tournaments/{event.slug}/manage/dashboard/hall/"
    page = client.get(hall).content.decode()
    assert f'href="{hall}?round=1&amp;state=disputed"' in page and "1 disputed" in page
    assert page.count('class="hall-row') == 5
    disputed = client.get(hall, {"round": 1, "state": "disputed"}).content.decode()
    assert disputed.count('class="hall-row') == 1 and 'data-testid="hall-table-3"' in disputed
    assert "1 table of 5 shown" in disputed
    # The poll carries the filter (and the search box's words), so it keeps showing the
    # same tables.
    assert '/manage/dashboard/hall/tables/?round=1&amp;state=disputed"' in disputed
    assert 'hx-include="#hall-search"' in disputed
    found = client.get(hall, {"q": "Gus"}).content.decode()
    assert found.count('class="hall-row') == 1 and "Gus" in found
    nobody = client.get(hall, {"q": "Zed"}).content.decode()
    assert "No table or player matches “Zed”." in nobody
    italian = client.get(hall, {"state": "disputed"}, HTTP_ACCEPT_LANGUAGE="it")
    assert "1 contestato" in italian.content.decode()


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ({"state": "lost"}, "There is no table filter 'lost'"),
        ({"q": "x" * 101}, "A search holds at most 100 characters."),
        ({"round": "one"}, "A round is a whole number"),
    ],
)
def test_a_bad_filter_is_refused_with_its_reason(club, organiser, client, query, words):
    event, _rnd = _event(club, organiser)
    client.force_login(organiser)
    for path in ("", "tables/"):
        response = client.get(f"/tournaments/{event.slug}/manage/dashboard/hall/{path}", query)
        assert response.status_code == 400, path
        assert words in unescape(response.content.decode())


def test_an_unchanged_hall_poll_is_a_304_and_a_change_renders_only_its_row(
    club, organiser, client, monkeypatch
):
    from tournaments.views import rounds as views

    caches["shared"].clear()
    event, rnd = _event(club, organiser)
    rendered = []
    real = views.render_to_string
    monkeypatch.setattr(
        views, "render_to_string", lambda *a, **k: rendered.append(a[0]) or real(*a, **k)
    )
    client.force_login(organiser)
    url = f"/tournaments/{event.slug}/manage/dashboard/hall/tables/?round=1"
    first = client.get(url)
    assert first.status_code == 200 and rendered.count("tournaments/_hall_row.html") == 5
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    rendered.clear()
    table_one = rnd.pairings.select_related("player_a__player").get(table=1)
    submit(table_one, key="moved")
    moved = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200 and rendered == ["tournaments/_hall_row.html"]
    assert "2 pending" in moved.content.decode()


def test_a_bad_filter_page_offers_the_page_without_it(club, organiser, client):
    """A filter in the address refused (an old bookmark, an address edited by hand) left
    a 'Not done' page with only Home: it offers the same page without the filter."""
    event, _rnd = _event(club, organiser)
    client.force_login(organiser)
    hall = f"/tournaments/{event.slug}/manage/dashboard/hall/"
    for query in ({"state": "lost"}, {"round": "one"}):
        refused = client.get(hall, query)
        assert refused.status_code == 400
        assert f'href="{hall}" data-testid="refusal-plain"' in refused.content.decode()
    assert client.get(hall).status_code == 200
    dashboard = f"/tournaments/{event.slug}/manage/dashboard/"
    refused = client.get(dashboard, {"round": "x"}).content.decode()
    assert f'href="{dashboard}" data-testid="refusal-plain"' in refused
    unasked = client.get(dashboard, {"unknown": "1", "round": "x"}).content.decode()
    assert "Open the page without the filter" in unasked
