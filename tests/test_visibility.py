"""Who may read what, decided once (issue 22, finding 2; ginclub.permissions).

Each single-object check and the queryset every list uses give the same answer for
every kind of visitor; and an outsider who walks every page and API route after a
private event and a held-back round were played finds none of their results."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from ginclub import permissions
from ginclub.permissions import Actor, table_token
from scoring.models import Club, Match, Player
from scoring.services.ratings import recompute_ratings
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.test_every_url import ROUTES, urls_of
from tests.tournaments.helpers import actor, new_event
from tournaments import services
from tournaments.models import Season, Tournament

pytestmark = pytest.mark.django_db

SECRET = "Secret Invitational"
# Figures and words that appear nowhere else: a page that shows them leaks the result.
PRIVATE_MARKS = (SECRET, "sekrit-reason", "98771", "98772")
HELD_MARKS = ("zebra-reason", "98761", "98762")
DAY = dt.date(2026, 11, 21)


def _decide(event: Tournament, organiser, *, points: tuple[int, int], reason: str) -> Match:
    """Round 1 of `event` (two players) drafted, published and decided by hand, closed."""
    rnd = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    rnd = services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    pairing = rnd.pairings.get()
    services.record_result(
        pairing_id=pairing.pk,
        actor=actor(organiser),
        winner="A",
        reason=reason,
        games_a=2,
        games_b=0,
        points_a=points[0],
        points_b=points[1],
    )
    services.close_round(round_id=rnd.pk, actor=actor(organiser))
    return Match.objects.get(pk=pairing.match_id)


@pytest.fixture
def world():
    """A club whose player pages and season are public. A private event (Sid beat Tess)
    and a public event that holds its last round back while it runs (Uma beat Vic), both
    in the season's dates; Walt, a member with a login, plays in neither."""
    organiser = UserFactory(username="organiser")
    club = ClubFactory(name="Home Club", slug="home", player_pages_public=True)
    club.organisers.add(organiser)
    walt = UserFactory(username="walt")
    PlayerFactory(club=club, name="Walt", user=walt)
    secret = new_event(
        club, organiser, players=["Sid", "Tess"], name=SECRET, public=False, date=DAY, rounds=2
    )
    secret_match = _decide(secret, organiser, points=(98771, 98772), reason="sekrit-reason")
    held = new_event(
        club,
        organiser,
        players=["Uma", "Vic"],
        name="Open Night",
        date=DAY,
        rounds=2,
        hide_last_rounds=2,
    )
    held_match = _decide(held, organiser, points=(98761, 98762), reason="zebra-reason")
    season = Season.objects.create(
        club=club,
        name="Autumn",
        slug="autumn",
        starts_on=DAY - dt.timedelta(days=7),
        ends_on=DAY + dt.timedelta(days=7),
        public=True,
        created_by=organiser,
    )
    return {
        "club": club,
        "organiser": organiser,
        "walt": walt,
        "secret": secret,
        "held": held,
        "season": season,
        "matches": (secret_match, held_match),
    }


def _values(world, event: Tournament, match: Match) -> dict:
    pairing = match.pairing
    return {
        "season": world["season"].slug,
        "match_id": match.pk,
        "hand_id": 1,
        "player_id": match.player_a_id,
        "token": table_token(match),
        "pairing_id": pairing.pk,
        "registration_id": pairing.player_a_id,
        "round_id": pairing.round_id,
        "number": pairing.round.number,
        "club": world["club"].slug,
        "tournament": event.slug,
        "job_id": 1,
        "chart": "results",
        "user_id": 1,
        "call_id": 1,
        "penalty_id": 1,
        "signup_id": 1,
        "code": "NOCODE",
        "action": "approve",
    }


def _reads(client: Client, url: str):
    answer = client.get(url, HTTP_USER_AGENT="visibility-walk")
    return answer.status_code, answer.content.decode("utf-8", "replace")


@pytest.mark.parametrize("visitor", ["anonymous", "member"])
def test_an_outsider_walking_every_route_finds_no_private_or_held_back_result(visitor, world):
    secret_match, held_match = world["matches"]
    problems = []
    for event, match, marks in (
        (world["secret"], secret_match, PRIVATE_MARKS),
        (world["held"], held_match, HELD_MARKS),
    ):
        values = _values(world, event, match)
        for route in ROUTES:
            if route.name in ("scoring:table", "logout", "set_language"):
                continue  # opening a table link is being given the table; not an outsider
            client = Client()
            if visitor == "member":
                client.force_login(world["walt"])
            for url in urls_of(route, values):
                status, body = _reads(client, url)
                assert status < 500, f"GET {url}: {status}"
                found = [mark for mark in marks if mark in body]
                if found:
                    problems.append(f"GET {url} ({route.name}) as {visitor} shows {found}")
    assert problems == [], "\n".join(problems)


def test_a_private_events_players_pages_list_none_of_it(world, client):
    sid = Player.objects.get(name="Sid")
    page = client.get(f"/api/players/{sid.pk}/").json()
    assert (page["matches"], page["head_to_head"], page["events"]) == ([], [], [])
    assert [(m["won"], m["lost"]) for m in page["months"]] == []
    client.force_login(world["organiser"])
    page = client.get(f"/api/players/{sid.pk}/").json()
    assert [m["result"] for m in page["matches"]] == ["won"]  # its organisers see it


def test_a_private_events_tables_are_not_rated(world, client, django_capture_on_commit_callbacks):
    """A walk made the Demo Autumn Cup private and read, logged out, Ada's page showing
    no match of it but 'Club rating 7.7 after 4 rated matches', and Ada ranked second in
    the club's rated list. Made public again, its tables are rated at once (the change
    queues a recompute), and private again, they leave the ratings."""
    recompute_ratings(club_id=world["club"].pk)
    sid = Player.objects.get(name="Sid")

    def rated() -> set[str]:
        return {row["player"]["name"] for row in client.get("/api/clubs/home/ratings/").json()}

    assert "Sid" not in rated() and "Tess" not in rated()
    assert client.get(f"/api/players/{sid.pk}/").json()["rating"] is None
    for public in (True, False):
        with django_capture_on_commit_callbacks(execute=True):
            services.update_tournament(
                tournament_id=world["secret"].pk, actor=actor(world["organiser"]), public=public
            )
        assert ("Sid" in rated()) is public


def test_a_held_back_result_moves_no_rating_until_the_hold_lifts(
    world, client, django_capture_on_commit_callbacks
):
    """Open Night holds its last two rounds back while it runs: Uma's win is listed as
    hidden, so her rating must not move by it either (a visitor reading 'after 1 rated
    match' and a rise knows who won). Once the event finishes, closing its last round,
    the results are read, and rated at once (the close queues a recompute)."""
    recompute_ratings(club_id=world["club"].pk)

    def rated() -> set[str]:
        return {row["player"]["name"] for row in client.get("/api/clubs/home/ratings/").json()}

    uma = Player.objects.get(name="Uma")
    assert "Uma" not in rated() and "Vic" not in rated()
    assert client.get(f"/api/players/{uma.pk}/").json()["rating"] is None
    organiser = actor(world["organiser"])
    with django_capture_on_commit_callbacks(execute=True):  # round 2, held back too
        rnd = services.draft_round(tournament_id=world["held"].pk, actor=organiser)
        rnd = services.publish_round(round_id=rnd.pk, actor=organiser)
        services.record_result(
            pairing_id=rnd.pairings.get().pk,
            actor=organiser,
            winner="A",
            reason="round two",
            games_a=2,
            games_b=0,
            points_a=200,
            points_b=50,
        )
    assert "Uma" not in rated()
    with django_capture_on_commit_callbacks(execute=True):
        services.close_round(round_id=rnd.pk, actor=organiser)
    assert Tournament.objects.get(pk=world["held"].pk).state == Tournament.State.FINISHED
    assert {"Uma", "Vic"} <= rated()
    assert client.get(f"/api/players/{uma.pk}/").json()["rating"]["matches"] == 2


def test_lifting_the_hold_in_the_settings_rates_the_results_at_once(
    world, client, django_capture_on_commit_callbacks
):
    recompute_ratings(club_id=world["club"].pk)
    with django_capture_on_commit_callbacks(execute=True):
        services.update_tournament(
            tournament_id=world["held"].pk, actor=actor(world["organiser"]), hide_last_rounds=0
        )
    rated = {row["player"]["name"] for row in client.get("/api/clubs/home/ratings/").json()}
    assert {"Uma", "Vic"} <= rated


def test_a_held_back_result_is_listed_as_hidden_and_counts_nowhere(world, client):
    uma = Player.objects.get(name="Uma")
    page = client.get(f"/api/players/{uma.pk}/").json()
    assert [m["result"] for m in page["matches"]] == ["hidden"]
    assert page["head_to_head"] == [] and page["events"][0]["record_shown"] is False


def test_a_public_season_counts_no_private_event(world, client):
    answer = client.get("/api/clubs/home/seasons/autumn/ladder/").json()
    names = {row["name"] for row in answer["rows"]}
    assert "Sid" not in names and "Tess" not in names
    assert [event["name"] for event in answer["tournaments"]] == ["Open Night"]
    assert answer["tournament_matches"] == 0  # Open Night holds its round back: not yet


# --------------------------------------------------- each check and its queryset agree


@pytest.fixture
def actors(world):
    admin = get_user_model().objects.create_superuser("admin", "admin@example.org", "pw")
    sid_user = UserFactory(username="sid")
    Player.objects.filter(name="Sid").update(user=sid_user)
    other = UserFactory(username="other-organiser")
    away = ClubFactory(name="Away", slug="away")
    away.organisers.add(other)
    auditor = UserFactory(username="auditor")
    world["club"].auditors.add(auditor)
    away_auditor = UserFactory(username="away-auditor")
    away.auditors.add(away_auditor)
    site_auditor = UserFactory(username="site-auditor")
    site_auditor.user_permissions.add(Permission.objects.get(codename="audit_every_club"))
    # An organiser of Away whom the club made its auditor too: organises one, audits one.
    away.auditors.add(other)
    return {
        "anonymous": Actor(),
        "member": Actor(user=world["walt"]),
        "organiser": Actor(user=world["organiser"]),
        "registered": Actor(user=sid_user),
        "organiser elsewhere": Actor(user=other),
        "admin": Actor(user=admin),
        "auditor": Actor(user=auditor),
        "auditor elsewhere": Actor(user=away_auditor),
        "site auditor": Actor(user=site_auditor),
    }


def test_may_view_tournament_and_visible_tournaments_agree(actors):
    for (who, actor_), event in itertools.product(actors.items(), Tournament.objects.all()):
        listed = permissions.visible_tournaments(actor_).filter(pk=event.pk).exists()
        assert listed == permissions.may_view_tournament(actor_, event), (who, event.name)


def test_may_view_season_and_visible_seasons_agree(actors, world):
    Season.objects.create(
        club=world["club"], name="Members", slug="members", starts_on=DAY, ends_on=DAY
    )
    for (who, actor_), season in itertools.product(actors.items(), Season.objects.all()):
        listed = permissions.visible_seasons(actor_, season.club).filter(pk=season.pk).exists()
        assert listed == permissions.may_view_season(actor_, season), (who, season.name)


def test_organises_and_organised_clubs_agree(actors):
    for (who, actor_), club in itertools.product(actors.items(), Club.objects.all()):
        listed = permissions.organised_clubs(actor_).filter(pk=club.pk).exists()
        assert listed == permissions.organises(actor_, club), (who, club.name)
        member = permissions.member_clubs(actor_).filter(pk=club.pk).exists()
        assert member == (permissions.organises(actor_, club) or actor_.is_authenticated
                          and permissions.is_member(actor_, club)), (who, club.name)  # fmt: skip


def test_may_view_match_and_openable_matches_agree_for_logins(actors):
    for (who, actor_), match in itertools.product(actors.items(), Match.objects.all()):
        listed = permissions.openable_matches(actor_).filter(pk=match.pk).exists()
        assert listed == permissions.may_view_match(actor_, match), (who, str(match))


def test_a_match_is_visible_in_lists_when_its_event_may_be_opened(actors):
    for (who, actor_), match in itertools.product(actors.items(), Match.objects.all()):
        event = match.pairing.round.tournament
        listed = permissions.visible_matches(actor_).filter(pk=match.pk).exists()
        assert listed == permissions.may_view_tournament(actor_, event), (who, str(match))
        readable = permissions.readable_results(actor_).filter(pk=match.pk).exists()
        held = event.hide_last_rounds and not permissions.reads_club(actor_, event.club)
        assert readable == (listed and not held), (who, str(match))


def test_reads_club_and_read_clubs_agree_and_audits_and_audited_clubs_agree(actors):
    for (who, actor_), club in itertools.product(actors.items(), Club.objects.all()):
        listed = permissions.read_clubs(actor_).filter(pk=club.pk).exists()
        assert listed == permissions.reads_club(actor_, club), (who, club.name)
        audited = permissions.audited_clubs(actor_).filter(pk=club.pk).exists()
        assert audited == permissions.audits(actor_, club), (who, club.name)
        known = permissions.known_clubs(actor_).filter(pk=club.pk).exists()
        member = permissions.member_clubs(actor_).filter(pk=club.pk).exists()
        assert known == (member or listed), (who, club.name)


def test_an_auditor_reads_the_private_event_and_the_held_back_round(actors, world):
    secret_match, held_match = world["matches"]
    for who in ("auditor", "site auditor"):
        actor_ = actors[who]
        assert permissions.may_view_tournament(actor_, world["secret"]), who
        assert permissions.readable_results(actor_).filter(pk=held_match.pk).exists(), who
        assert permissions.may_audit_match(actor_, secret_match), who
        assert not permissions.may_manage_match(actor_, secret_match), who
    elsewhere = actors["auditor elsewhere"]
    assert not permissions.may_view_tournament(elsewhere, world["secret"])
    assert not permissions.readable_results(elsewhere).filter(pk=held_match.pk).exists()
