"""Season ladders reused: this process's cache and the stored snapshot serve a ladder
only while its version (tournaments.selectors.seasons.ladder_inputs) is current, and
serve exactly what computing it gives. The worked club of tests.tournaments.test_seasons
(ladder: Ada, Dev, Ben, Cleo; one tournament table each for Ada-Ben and Cleo-Dev, two club
nights)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.cache import cache
from django.test import Client

from tests.tournaments.helpers import play_hand
from tests.tournaments.test_seasons import club_night, lines, new_season
from tests.tournaments.test_seasons import worked as worked  # noqa: F401 (a fixture)
from tournaments import selectors
from tournaments.models import SeasonLadder
from tournaments.serializers import LadderOutputSerializer
from tournaments.services import season_ladders
from tournaments.services.season_ladders import store_ladder

pytestmark = pytest.mark.django_db


def test_the_stored_ladder_is_what_computing_gives_and_reads_in_three_queries(
    club, organiser, worked, django_assert_num_queries
):
    season = new_season(club, organiser)
    computed = selectors.ladder(season)
    assert store_ladder(season_id=season.pk) is True
    cache.clear()  # another worker, or this one restarted
    with django_assert_num_queries(3):  # names and versions, events, the snapshot
        stored = selectors.ladder(season)
    assert stored.rows == computed.rows
    assert [row.name for row in stored.rows] == ["Ada", "Dev", "Ben", "Cleo"]
    assert (stored.tournament_matches, stored.club_night_matches) == (2, 2)
    with django_assert_num_queries(2):  # cached in this process now
        assert selectors.ladder(season).rows == computed.rows


def test_a_refresh_of_a_current_ladder_stores_nothing(club, organiser, worked):
    season = new_season(club, organiser)
    assert store_ladder(season_id=season.pk) is True
    assert store_ladder(season_id=season.pk) is False
    assert SeasonLadder.objects.filter(season=season).count() == 1


def test_a_new_club_night_is_counted_though_a_ladder_was_stored_and_cached(club, organiser, worked):
    season = new_season(club, organiser)
    selectors.ladder(season)
    store_ladder(season_id=season.pk)
    # Cleo beats Ada 2-0 on 25 Oct: Cleo 2/3 wins, ahead of Ada, Dev and Ben (1 win).
    club_night(club, organiser, "Cleo", "Ada", "AA", dt.date(2026, 10, 25))
    fresh = selectors.ladder(season)
    assert fresh.club_night_matches == 3
    assert [name for name, *_ in lines(season)][0] == "Cleo"
    cache.clear()
    assert selectors.ladder(season).rows == fresh.rows  # the old snapshot is not served


def test_a_renamed_player_or_changed_setting_is_a_new_version(club, organiser, worked):
    season = new_season(club, organiser)
    before = selectors.ladder(season).version
    club.players.filter(name="Dev").update(name="Devi")
    renamed = selectors.ladder(season)
    assert renamed.version != before
    assert [row.name for row in renamed.rows] == ["Ada", "Devi", "Ben", "Cleo"]
    season.points_per_win = 3
    season.save()
    assert [row.season_points for row in selectors.ladder(season).rows] == [3, 3, 3, 3]


def test_a_ladder_computed_for_a_reader_is_stored_by_the_refresh_it_queues(
    club, organiser, worked, django_capture_on_commit_callbacks
):
    season = new_season(club, organiser)
    SeasonLadder.objects.all().delete()  # as if the refresh queued at creation had not run
    cache.clear()
    with django_capture_on_commit_callbacks(execute=True):  # the test suite's tasks run at once
        computed = season_ladders.ladder_of(season)
    assert computed.computed_here
    stored = SeasonLadder.objects.get(season=season)
    assert stored.version == computed.version
    cache.clear()
    again = season_ladders.ladder_of(season)
    assert not again.computed_here and again.rows == computed.rows


def test_a_finished_club_night_queues_a_refresh_of_the_clubs_ladders(
    club, organiser, worked, django_capture_on_commit_callbacks
):
    season = new_season(club, organiser)
    assert not SeasonLadder.objects.filter(season=season).exists()  # nothing ran yet
    with django_capture_on_commit_callbacks(execute=True) as queued:
        club_night(club, organiser, "Cleo", "Ada", "AA", dt.date(2026, 10, 25))
    # The result guard queued the refresh when the match finished; it ran at once.
    assert queued and SeasonLadder.objects.filter(season=season).exists()


def test_a_hand_that_leaves_the_match_undecided_queues_no_refresh(
    club, organiser, worked, monkeypatch, django_capture_on_commit_callbacks
):
    new_season(club, organiser)
    queued = []
    monkeypatch.setattr(
        season_ladders,
        "refresh_ladders",
        type("Task", (), {"enqueue": staticmethod(queued.append)}),
    )
    with django_capture_on_commit_callbacks(execute=True):
        # QUICK rules: first to two games; Ben wins game 1 only, the match goes on.
        match = club_night(club, organiser, "Ben", "Dev", "A", dt.date(2026, 10, 26))
    assert queued == []
    with django_capture_on_commit_callbacks(execute=True):
        play_hand(match, organiser, game=2, number=1, winner="A")  # 2-0: Ben wins it
    assert len(queued) == 1


def test_a_reader_who_changed_nothing_sees_the_last_stored_ladder_while_it_is_refreshed(
    club, organiser, worked, monkeypatch, django_capture_on_commit_callbacks
):
    """stale_ok (the public and members): the last stored ladder, marked, rather than
    300 ms of maths; the first such reader queues a refresh, the next ones do not; once
    stored, the current ladder. An organiser (exact) always sees the current one."""
    season = new_season(club, organiser, public=True)
    store_ladder(season_id=season.pk)
    before = [row.name for row in selectors.ladder(season).rows]
    queued = []
    monkeypatch.setattr(
        season_ladders,
        "refresh_ladders",
        type("Task", (), {"enqueue": staticmethod(queued.append)}),
    )
    cache.clear()
    with django_capture_on_commit_callbacks(execute=True):
        club_night(club, organiser, "Cleo", "Ada", "AA", dt.date(2026, 10, 25))
    queued.clear()  # the result's own refresh, which has not run yet
    with django_capture_on_commit_callbacks(execute=True):
        stale = season_ladders.ladder_of(season, exact=False)
        again = season_ladders.ladder_of(season, exact=False)
    assert [row.name for row in stale.rows] == before and stale.stale_since is not None
    assert again.stale_since is not None and len(queued) == 1  # one refresh, not two
    assert LadderOutputSerializer(stale).data["up_to_date"] is False
    page = Client().get(f"/clubs/gin-club/seasons/{season.slug}/")
    assert 'data-testid="ladder-updating"' in page.content.decode()
    api = Client().get(f"/api/clubs/gin-club/seasons/{season.slug}/ladder/").json()
    assert api["up_to_date"] is False and api["computed_at"]

    exact = season_ladders.ladder_of(season, exact=True)
    assert exact.stale_since is None and exact.rows[0].name == "Cleo"
    store_ladder(season_id=season.pk)
    current = season_ladders.ladder_of(season, exact=False)
    assert current.stale_since is None and current.rows == exact.rows
    page = Client().get(f"/clubs/gin-club/seasons/{season.slug}/")
    assert 'data-testid="ladder-updating"' not in page.content.decode()
    assert Client().get(f"/api/clubs/gin-club/seasons/{season.slug}/ladder/").json()["up_to_date"]


def test_with_no_stored_ladder_a_reader_gets_it_computed(club, organiser, worked):
    season = new_season(club, organiser, public=True)
    SeasonLadder.objects.all().delete()
    view = season_ladders.ladder_of(season, exact=False)
    assert view.stale_since is None and view.computed_here
