"""Seasons: the ladder against hand-worked examples, what counts (dates, chosen events,
club nights), the minimum of matches, tie-breaks, permissions and bad input.

The worked club (QUICK rules, tests.tournaments.helpers: every game is one hand worth
310 to its winner, 0 to its loser; a match is the first to two games):

    Autumn Open, 2026-10-10, round 1 in list order, closed:
        T1  Ada beats Ben   2-0   Ada 620, Ben 0
        T2  Cleo beats Dev  2-1   Cleo 620, Dev 310
    Club nights:
        N1  2026-10-20  Ben beats Cleo  2-0   Ben 620, Cleo 0
        N2  2026-10-21  Dev beats Ada   2-1   Dev 620, Ada 310

    Everything counted, by hand:
        player  W/M  games  points  margin
        Ada     1/2  3/5    930     +620 - 310 = +310
        Ben     1/2  2/4    620     -620 + 620 = 0
        Cleo    1/2  2/5    620     +310 - 620 = -310
        Dev     1/2  3/6    930     -310 + 310 = 0
    All four level on wins, so head-to-head (two players only) says nothing; game-win %
    puts Ada (60%) first and Cleo (40%) last; Ben and Dev (50% each) are level on
    opponents' match-win % (both met Ada and Cleo: 50%) and on margin (0), and Dev
    scored more points (930 against 620). Ladder: Ada, Dev, Ben, Cleo.
"""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.test import Client
from django.utils import timezone

from ginclub.errors import Forbidden, NotFound, ServiceError
from scoring import services as scoring
from scoring.models import LedgerRow, Match, Player
from tests.factories import PlayerFactory, UserFactory
from tests.tournaments.helpers import QUICK, actor, new_event, play_hand, play_round
from tournaments import selectors
from tournaments.models import Season
from tournaments.serializers import LadderRowOutputSerializer
from tournaments.services import seasons as services

pytestmark = pytest.mark.django_db


def club_night(club, organiser, a: str, b: str, games: str, day: dt.date) -> Match:
    """A club match of QUICK rules played game by game ("AA": A wins two), started on
    `day` (the service stamps it now; the date is set afterwards, as if played then)."""
    players = {p.name: p for p in Player.objects.filter(club=club, name__in=[a, b])}
    match = scoring.start_match(
        club=club,
        player_a=players[a],
        player_b=players[b],
        actor=actor(organiser),
        overrides=dict(QUICK),
    )
    for number, seat in enumerate(games, start=1):
        play_hand(match, organiser, game=number, number=1, winner=seat)
    noon = dt.datetime.combine(day, dt.time(12), tzinfo=timezone.get_current_timezone())
    Match.objects.filter(pk=match.pk).update(created_at=noon)
    return match


@pytest.fixture
def worked(club, organiser):
    """The club of the module docstring."""
    event = new_event(
        club,
        organiser,
        players=["Ada", "Ben", "Cleo", "Dev"],
        name="Autumn Open",
        date=dt.date(2026, 10, 10),
    )
    play_round(event, organiser, {"Ada": "2-0", "Cleo": "2-1"})
    club_night(club, organiser, "Ben", "Cleo", "AA", dt.date(2026, 10, 20))
    club_night(club, organiser, "Dev", "Ada", "ABA", dt.date(2026, 10, 21))
    return event


def new_season(club, organiser, **settings) -> Season:
    settings.setdefault("name", "Autumn 2026")
    settings.setdefault("starts_on", dt.date(2026, 9, 1))
    settings.setdefault("ends_on", dt.date(2026, 11, 30))
    return services.create_season(club=club, actor=actor(organiser), **settings)


def lines(season: Season) -> list[tuple]:
    return [
        (row.name, row.standing.rank if row.ranked else None, row.season_points)
        for row in selectors.ladder(season).rows
    ]


# --------------------------------------------------------------- worked examples


def test_the_worked_ladder_counts_the_tournament_and_the_club_nights(club, organiser, worked):
    season = new_season(club, organiser, points_per_win=3)
    view = selectors.ladder(season)
    # Every player won one of two matches: 3 points each; the order is the tie-breaks'.
    assert lines(season) == [("Ada", 1, 3), ("Dev", 2, 3), ("Ben", 3, 3), ("Cleo", 4, 3)]
    assert (view.tournament_matches, view.club_night_matches) == (2, 2)
    by_name = {row.name: row.standing for row in view.rows}
    assert (by_name["Ada"].games_won, by_name["Ada"].games_played) == (3, 5)
    assert (by_name["Ada"].points, by_name["Ada"].margin) == (930, 310)
    assert (by_name["Cleo"].margin, by_name["Dev"].points, by_name["Ben"].points) == (
        -310,
        930,
        620,
    )


def test_each_line_says_why_it_stands_there_with_names(club, organiser, worked):
    view = selectors.ladder(new_season(club, organiser))
    why = {row.name: row.why for row in view.rows}
    assert why["Ada"] == "Ahead of Dev on game-win %: 3 of 5 against 3 of 6."
    assert why["Dev"] == (
        "Behind Ada on game-win %: 3 of 6 against 3 of 5; ahead of Ben on points: 930 against 620."
    )


def test_without_club_nights_only_the_tournament_counts(club, organiser, worked):
    # T1 and T2 only: Ada and Cleo one win each (they did not meet, so head-to-head says
    # nothing): Ada 2 of 2 games, Cleo 2 of 3. Dev 1 of 3 games is ahead of Ben 0 of 2.
    season = new_season(club, organiser, club_nights=False, points_per_win=2)
    assert lines(season) == [("Ada", 1, 2), ("Cleo", 2, 2), ("Dev", 3, 0), ("Ben", 4, 0)]


def test_the_dates_leave_out_a_tournament_before_the_season(club, organiser, worked):
    # From 15 October only N1 and N2: Ben (2 of 2 games) before Dev (2 of 3); Ada (1 of
    # 3) before Cleo (0 of 2).
    season = new_season(club, organiser, starts_on=dt.date(2026, 10, 15))
    assert lines(season) == [("Ben", 1, 1), ("Dev", 2, 1), ("Ada", 3, 0), ("Cleo", 4, 0)]
    assert selectors.ladder(season).events == []


def test_the_last_day_counts_whole_and_the_day_after_not(club, organiser, worked):
    # N2 was played at noon on 21 October: in a season ending that day, not one ending
    # the day before.
    ends_21 = new_season(club, organiser, name="to 21", ends_on=dt.date(2026, 10, 21))
    ends_20 = new_season(club, organiser, name="to 20", ends_on=dt.date(2026, 10, 20))
    assert selectors.ladder(ends_21).club_night_matches == 2
    assert selectors.ladder(ends_20).club_night_matches == 1


def test_chosen_events_count_only_the_chosen_tournaments(club, organiser, worked):
    other = new_event(
        club, organiser, players=["Ada", "Ben"], name="Cup", date=dt.date(2026, 10, 11)
    )
    play_round(other, organiser, {"Ben": "2-0"})  # Ben beats Ada
    every = new_season(club, organiser, name="All", club_nights=False)
    chosen = new_season(
        club,
        organiser,
        name="Cup only",
        events="chosen",
        tournaments=[other.pk],
        club_nights=False,
    )
    assert selectors.ladder(every).tournament_matches == 3
    assert lines(chosen) == [("Ben", 1, 1), ("Ada", 2, 0)]
    assert [e.name for e in selectors.ladder(chosen).events] == ["Cup"]


def test_a_round_in_play_counts_once_it_closes(club, organiser):
    event = new_event(club, organiser, players=["Ada", "Ben"], date=dt.date(2026, 10, 10))
    rnd = play_round(event, organiser, {"Ada": "2-0"}, close=False)
    season = new_season(club, organiser)
    assert lines(season) == []
    from tournaments import services as tournament_services

    tournament_services.close_round(round_id=rnd.pk, actor=actor(organiser))
    assert lines(season) == [("Ada", 1, 1), ("Ben", 2, 0)]


def test_a_bye_is_no_match_played(club, organiser):
    # Three players: round 1 in list order pairs Ada v Ben and gives Cleo the bye.
    event = new_event(club, organiser, players=["Ada", "Ben", "Cleo"], date=dt.date(2026, 10, 10))
    play_round(event, organiser, {"Ada": "2-0"})
    assert lines(new_season(club, organiser)) == [("Ada", 1, 1), ("Ben", 2, 0)]


def test_an_unfinished_club_night_does_not_count(club, organiser, worked):
    club_night(club, organiser, "Ada", "Ben", "A", dt.date(2026, 10, 22))  # one game of two
    assert selectors.ladder(new_season(club, organiser)).club_night_matches == 2


# ----------------------------------------------------------- the minimum, tie-breaks


def test_players_under_the_minimum_are_listed_after_the_ranked_and_marked(club, organiser):
    for name in ("Ada", "Ben", "Cleo", "Dev", "Eve"):
        PlayerFactory(club=club, name=name)
    day = dt.date(2026, 10, 20)
    club_night(club, organiser, "Ben", "Cleo", "AA", day)  # Ben 2-0
    club_night(club, organiser, "Dev", "Ada", "ABA", day)  # Dev 2-1
    club_night(club, organiser, "Eve", "Ben", "AA", day)  # Eve 2-0
    # Only Ben played two matches. The rest, one each, in the maths' order: Eve and Dev
    # one win (Eve 2 of 2 games, Dev 2 of 3), then Ada (1 of 3) and Cleo (0 of 2).
    season = new_season(club, organiser, min_matches=2, points_per_win=2)
    assert lines(season) == [
        ("Ben", 1, 2),
        ("Eve", None, 2),
        ("Dev", None, 2),
        ("Ada", None, 0),
        ("Cleo", None, 0),
    ]
    eve = selectors.ladder(season).rows[1]
    assert eve.why == "Not ranked yet: 1 of the 2 matches the season asks for."
    assert LadderRowOutputSerializer(eve).data["rank"] is None


def test_the_seasons_tie_breaks_decide_in_their_order(club, organiser):
    for name in ("Ada", "Ben", "Cleo"):
        PlayerFactory(club=club, name=name)
    day = dt.date(2026, 10, 20)
    club_night(club, organiser, "Ada", "Ben", "ABA", day)  # Ada 2-1: Ada 620, Ben 310
    club_night(club, organiser, "Ben", "Cleo", "AA", day)  # Ben 2-0: Ben 620
    # Ada and Ben one win each. Head-to-head: Ada beat Ben. Points: Ben 930, Ada 620.
    h2h = new_season(club, organiser, name="h2h", tiebreaks=["head_to_head", "points"])
    points = new_season(club, organiser, name="points", tiebreaks=["points", "head_to_head"])
    assert [name for name, *_ in lines(h2h)] == ["Ada", "Ben", "Cleo"]
    assert selectors.ladder(h2h).rows[0].head_to_head == "beat Ben"
    assert selectors.ladder(h2h).rows[0].why.startswith("Ahead of Ben on head-to-head")
    assert [name for name, *_ in lines(points)] == ["Ben", "Ada", "Cleo"]


def test_the_ladder_reads_in_four_queries_whatever_the_history(
    club, organiser, worked, django_assert_num_queries
):
    season = new_season(club, organiser)
    with django_assert_num_queries(4):
        small = selectors.ladder(season)
    for n in range(6):
        club_night(club, organiser, "Ada", "Ben", "AA", dt.date(2026, 10, 22 + n))
    with django_assert_num_queries(4):
        big = selectors.ladder(season)
    assert big.club_night_matches == small.club_night_matches + 6


# ------------------------------------------------------------------ services, ledger


def test_creating_and_changing_a_season_writes_the_ledger(club, organiser, worked):
    season = new_season(club, organiser)
    assert season.slug == "autumn-2026"
    services.update_season(
        season_id=season.pk, actor=actor(organiser), name="Autumn", points_per_win=2
    )
    rows = list(LedgerRow.objects.filter(chain=season.chain).order_by("position"))
    assert [r.action for r in rows] == ["season_created", "season_updated"]
    assert rows[1].before == {"name": "Autumn 2026", "points_per_win": 1}
    assert rows[1].after == {"name": "Autumn", "points_per_win": 2}
    season.refresh_from_db()
    assert season.slug == "autumn-2026"  # kept: links to the ladder still work


def test_a_second_season_of_the_same_name_gets_its_own_slug(club, organiser):
    assert new_season(club, organiser).slug == "autumn-2026"
    assert new_season(club, organiser).slug == "autumn-2026-2"
    assert new_season(club, organiser, name="New").slug == "new-season"


@pytest.mark.parametrize(
    ("settings", "field", "words"),
    [
        (
            {"starts_on": dt.date(2026, 12, 1), "ends_on": dt.date(2026, 9, 1)},
            "ends_on",
            "the season ends (2026-09-01) before it starts (2026-12-01)",
        ),
        ({"points_per_win": -3}, "points_per_win", "a whole number from 1 to 1000"),
        ({"points_per_win": 10**12}, "points_per_win", "a whole number from 1 to 1000"),
        ({"min_matches": -1}, "min_matches", "a whole number from 0 to 10000"),
        ({"name": "  "}, "name", "text of 1 to 120 characters"),
        ({"tiebreaks": ["luck"]}, "tiebreaks", "unknown tie-break 'luck'"),
        ({"events": "some"}, "events", "must be one of all, chosen"),
        ({"tournaments": [1]}, "tournaments", "choose tournaments only with events 'chosen'"),
        (
            {"events": "chosen", "club_nights": False},
            "tournaments",
            "nothing would count",
        ),
        ({"ends_on": dt.date(2040, 1, 1)}, "ends_on", "at most 3700 days"),
    ],
)
def test_bad_settings_are_refused_with_the_field_named(club, organiser, settings, field, words):
    with pytest.raises(ServiceError) as refused:
        new_season(club, organiser, **settings)
    assert refused.value.code == "invalid" and refused.value.status == 400
    assert words in refused.value.fields[field]
    assert not Season.objects.exists()


def test_a_chosen_tournament_outside_the_dates_or_of_another_club_is_named(
    club, organiser, worked, other_organiser
):
    with pytest.raises(ServiceError) as refused:
        new_season(
            club,
            organiser,
            events="chosen",
            tournaments=[worked.pk],
            starts_on=dt.date(2026, 11, 1),
        )
    assert refused.value.fields["tournaments"] == (
        "Autumn Open (2026-10-10) is outside the season's dates (2026-11-01 to 2026-11-30)"
    )
    others = new_event(
        other_organiser.organised_clubs.get(), other_organiser, players=2, name="Elsewhere"
    )
    with pytest.raises(ServiceError) as refused:
        new_season(club, organiser, events="chosen", tournaments=[others.pk])
    assert refused.value.fields["tournaments"] == f"Gin Club has no tournament #{others.pk}"


def test_only_the_clubs_organisers_create_and_change_seasons(club, organiser, other_organiser):
    player = UserFactory(username="ada")
    PlayerFactory(club=club, name="Ada", user=player)
    for who in (player, other_organiser):
        with pytest.raises(Forbidden) as refused:
            new_season(club, who)
        assert refused.value.code == "not_allowed"
    season = new_season(club, organiser)  # not public
    with pytest.raises(NotFound):  # another club's organiser learns nothing of it
        services.update_season(season_id=season.pk, actor=actor(other_organiser), name="x")
    with pytest.raises(Forbidden):  # a member sees it, but may not change it
        services.update_season(season_id=season.pk, actor=actor(player), name="x")


# ------------------------------------------------------------------ pages and API


@pytest.fixture
def member(club):
    user = UserFactory(username="ben-user")
    PlayerFactory(club=club, name="Member Ben", user=user)
    return user


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_ladder_page_shows_names_points_and_why(club, organiser, worked):
    season = new_season(club, organiser, points_per_win=3, public=True)
    page = Client().get(f"/clubs/gin-club/seasons/{season.slug}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert text.index("Ada") < text.index("Dev") < text.index("Cleo")
    assert "Ahead of Dev on game-win %: 3 of 5 against 3 of 6." in text


@pytest.mark.parametrize(
    ("who", "public", "status"),
    [
        ("anonymous", False, 404),
        ("other_organiser", False, 404),
        ("member", False, 200),
        ("organiser", False, 200),
        ("anonymous", True, 200),
        ("other_organiser", True, 200),
    ],
)
def test_who_reads_a_ladder(club, organiser, other_organiser, member, who, public, status):
    season = new_season(club, organiser, public=public)
    users = {"anonymous": None, "other_organiser": other_organiser, "member": member}
    client = client_for(users.get(who, organiser))
    for url in (
        f"/clubs/gin-club/seasons/{season.slug}/",
        f"/clubs/gin-club/seasons/{season.slug}/ladder.csv",
        f"/api/clubs/gin-club/seasons/{season.slug}/ladder/",
        f"/api/clubs/gin-club/seasons/{season.slug}/",
    ):
        response = client.get(url)
        assert response.status_code == status, url
    if status == 404:
        body = client.get(f"/api/clubs/gin-club/seasons/{season.slug}/ladder/").json()
        assert body["error"]["code"] == "not_found"


@pytest.mark.parametrize("who", ["anonymous", "member", "other_organiser"])
def test_only_organisers_create_through_the_api(club, organiser, other_organiser, member, who):
    users = {"anonymous": None, "other_organiser": other_organiser, "member": member}
    response = client_for(users[who]).post(
        "/api/clubs/gin-club/seasons/",
        {"name": "Winter", "starts_on": "2026-12-01", "ends_on": "2027-02-28"},
        content_type="application/json",
    )
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "not_allowed"
    assert not Season.objects.exists()


def test_a_public_season_refuses_changes_from_another_clubs_organiser(
    club, organiser, other_organiser
):
    season = new_season(club, organiser, public=True)
    response = client_for(other_organiser).patch(
        f"/api/clubs/gin-club/seasons/{season.slug}/",
        {"name": "Mine"},
        content_type="application/json",
    )
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "not_allowed"
    assert "Gin Club" in response.json()["error"]["message"]


def test_the_api_creates_changes_and_reads_the_ladder(club, organiser, worked):
    client = client_for(organiser)
    created = client.post(
        "/api/clubs/gin-club/seasons/",
        {
            "name": "Autumn 2026",
            "starts_on": "2026-09-01",
            "ends_on": "2026-11-30",
            "events": "chosen",
            "tournaments": [worked.pk],
            "points_per_win": 3,
        },
        content_type="application/json",
    )
    assert created.status_code == 201, created.content
    assert created.json()["tournaments"] == [{"id": worked.pk, "name": "Autumn Open"}]
    changed = client.patch(
        "/api/clubs/gin-club/seasons/autumn-2026/",
        {"club_nights": False},
        content_type="application/json",
    )
    assert changed.json()["club_nights"] is False
    ladder = client.get("/api/clubs/gin-club/seasons/autumn-2026/ladder/").json()
    assert [(r["name"], r["rank"], r["season_points"]) for r in ladder["rows"]] == [
        ("Ada", 1, 3),
        ("Cleo", 2, 3),
        ("Dev", 3, 0),
        ("Ben", 4, 0),
    ]
    assert ladder["tournaments"][0]["counted"] is True
    listed = client.get("/api/clubs/gin-club/seasons/").json()
    assert [s["slug"] for s in listed] == ["autumn-2026"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"starts_on": "2026-12-01", "ends_on": "2026-09-01"}, "ends_on"),
        ({"starts_on": "2026-02-30", "ends_on": "2026-09-01"}, "starts_on"),
        ({"starts_on": "99999-01-01", "ends_on": "2026-09-01"}, "starts_on"),
        ({"points_per_win": -1}, "points_per_win"),
        ({"points_per_win": 10**30}, "points_per_win"),
        ({"min_matches": 10**9}, "min_matches"),
        ({"tournaments": [0]}, "tournaments"),
        ({"tournaments": "all"}, "tournaments"),
        ({"tiebreaks": ["points", "points"]}, "tiebreaks"),
        ({"public": "maybe"}, "public"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_api_input_is_a_400_naming_the_field(club, organiser, body, field):
    payload = {"name": "Winter", "starts_on": "2026-12-01", "ends_on": "2027-02-28", **body}
    response = client_for(organiser).post(
        "/api/clubs/gin-club/seasons/", payload, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert field in response.json()["error"]["fields"]


def test_the_form_says_what_is_wrong_with_dates_and_names(club, organiser, worked):
    client = client_for(organiser)
    response = client.post(
        "/clubs/gin-club/seasons/new/",
        {
            "name": "Backwards",
            "starts_on": "2026-12-01",
            "ends_on": "2026-09-01",
            "events": "all",
            "points_per_win": "1",
            "min_matches": "0",
        },
    )
    assert response.status_code == 400
    assert "The season ends (2026-09-01) before it starts (2026-12-01)." in (
        response.content.decode()
    )
    response = client.post(
        "/clubs/gin-club/seasons/new/",
        {
            "name": "November",
            "starts_on": "2026-11-01",
            "ends_on": "2026-11-30",
            "events": "chosen",
            "tournaments": [str(worked.pk)],
            "points_per_win": "1",
            "min_matches": "0",
        },
    )
    assert response.status_code == 400
    assert "Autumn Open (2026-10-10) is outside the season&#x27;s dates." in (
        response.content.decode()
    )
    assert not Season.objects.exists()


def test_the_form_creates_then_changes_a_season(club, organiser, worked):
    client = client_for(organiser)
    form = {
        "name": "Autumn 2026",
        "starts_on": "2026-09-01",
        "ends_on": "2026-11-30",
        "events": "all",
        "club_nights": "on",
        "points_per_win": "3",
        "min_matches": "0",
        "tiebreak_1": "game_win_pct",
    }
    response = client.post("/clubs/gin-club/seasons/new/", form)
    assert response.status_code == 302
    season = Season.objects.get()
    assert (season.points_per_win, season.tiebreaks) == (3, ["game_win_pct"])
    assert client.get(f"/clubs/gin-club/seasons/{season.slug}/edit/").status_code == 200
    response = client.post(
        f"/clubs/gin-club/seasons/{season.slug}/edit/", {**form, "min_matches": "3"}
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.min_matches == 3


def test_the_csv_neutralises_formulas_and_lists_every_line(club, organiser):
    PlayerFactory(club=club, name="=SUM(A1)")
    PlayerFactory(club=club, name="Ben")
    club_night(club, organiser, "=SUM(A1)", "Ben", "AA", dt.date(2026, 10, 20))
    season = new_season(club, organiser, points_per_win=2)
    response = client_for(organiser).get(f"/clubs/gin-club/seasons/{season.slug}/ladder.csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [(r["rank"], r["player"], r["season_points"]) for r in rows] == [
        ("1", "'=SUM(A1)", "2"),
        ("2", "Ben", "0"),
    ]


def test_the_season_list_shows_the_public_ones_to_everybody(club, organiser):
    new_season(club, organiser, name="Open ladder", public=True)
    new_season(club, organiser, name="Members ladder")
    anonymous = Client().get("/clubs/gin-club/seasons/").content.decode()
    assert "Open ladder" in anonymous and "Members ladder" not in anonymous
    mine = client_for(organiser).get("/clubs/gin-club/seasons/").content.decode()
    assert "Members ladder" in mine and "New season" in mine


def test_organisers_find_the_seasons_from_the_club_and_tournament_lists(club, organiser):
    client = client_for(organiser)
    link = 'href="/clubs/gin-club/seasons/"'
    assert link in client.get("/tournaments/").content.decode()
    assert link in client.get("/clubs/gin-club/").content.decode()
    assert link not in Client().get("/tournaments/").content.decode()


def test_the_demo_has_a_public_season(settings):
    from django.core.management import call_command

    call_command("load_demo", stdout=io.StringIO())
    season = Season.objects.get(club__slug="demo")
    assert season.public and season.points_per_win == 3
    assert Client().get(f"/clubs/demo/seasons/{season.slug}/").status_code == 200
