"""Polled partials answer conditional requests (ginclub/http.py): the same data is a 304
with nothing rendered and few queries; every change they show is a 200 with a new ETag."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ginclub.permissions import table_token
from scoring import services as scoring
from scoring.hand_input import HandInput
from scoring.models import Player
from tests.sessions import session_read
from tests.tournaments.helpers import actor, new_event, play_round
from tournaments import services

pytestmark = pytest.mark.django_db

_keys = iter(range(10_000))


@pytest.fixture
def event(club, organiser):
    tournament = new_event(club, organiser, players=4)
    rnd = play_round(tournament, organiser, play=False, close=False)
    pairing = rnd.pairings.select_related("match", "player_a__player", "player_b__player").first()
    return tournament, rnd, pairing


@pytest.fixture
def org(client, organiser):
    client.force_login(organiser)
    return client


def urls(tournament, rnd, pairing) -> dict[str, str]:
    slug = tournament.slug
    return {
        "scoreboard": reverse("scoring:scoreboard", args=[pairing.match_id]),
        "dashboard": reverse("tournaments:dashboard-tables", args=[slug]) + f"?round={rnd.number}",
        "pairings": reverse("tournaments:pairings-table", args=[slug]) + f"?round={rnd.number}",
        "standings": reverse("tournaments:standings-table", args=[slug]),
        "projector": reverse("tournaments:projector-board", args=[slug]),
    }


def etags(client, addresses: dict[str, str]) -> dict[str, str]:
    found = {}
    for name, url in addresses.items():
        response = client.get(url)
        assert response.status_code == 200, name
        assert response["Cache-Control"] == "private, no-cache", name
        found[name] = response["ETag"]
    return found


def hand(number=1, knocker="A") -> HandInput:
    return HandInput(
        game=1,
        number=number,
        outcome="knock",
        knocker=knocker,
        knocker_deadwood=4,
        defender_deadwood=9,
    )


def submit(pairing, seat="A", number=1):
    player = (pairing.player_a if seat == "A" else pairing.player_b).player
    return scoring.submit_hand(
        match_id=pairing.match_id,
        actor=scoring.Actor(player=player),
        idempotency_key=f"poll-{next(_keys)}",
        hand=hand(number),
    ).hand


def assert_all_moved(before: dict[str, str], after: dict[str, str], names=None) -> None:
    for name in names or before:
        assert before[name] != after[name], f"{name} kept its ETag after a change it shows"


def test_same_data_is_a_304_without_rendering(org, event, django_assert_max_num_queries):
    addresses = urls(*event)
    first = etags(org, addresses)
    for name, url in addresses.items():
        with django_assert_max_num_queries(7):
            response = org.get(url, HTTP_IF_NONE_MATCH=first[name], HTTP_HX_REQUEST="true")
        assert response.status_code == 304, name
        assert response.content == b""
        assert response.templates == [], f"{name} rendered a template for a 304"
        assert response["ETag"] == first[name]
        assert response["Cache-Control"] == "private, no-cache"
    # An ETag the browser no longer holds gets the page again.
    response = org.get(addresses["scoreboard"], HTTP_IF_NONE_MATCH='"stale"')
    assert response.status_code == 200 and response.templates


def test_a_hand_entered_then_confirmed_moves_every_etag(org, event):
    tournament, rnd, pairing = event
    addresses = urls(*event)
    start = etags(org, addresses)
    entered = submit(pairing, "A")
    after_entry = etags(org, addresses)
    assert_all_moved(start, after_entry)
    scoring.confirm_hand(
        hand_id=entered.pk,
        actor=scoring.Actor(player=pairing.player_b.player),
        version=entered.version,
        idempotency_key="confirm-1",
    )
    assert_all_moved(after_entry, etags(org, addresses))


def test_time_called_and_a_result_move_the_etags(org, event, organiser):
    tournament, rnd, pairing = event
    addresses = urls(*event)
    start = etags(org, addresses)
    services.start_round_timer(round_id=rnd.pk, actor=actor(organiser), minutes=30)
    running = etags(org, addresses)
    assert_all_moved(start, running, ["scoreboard", "dashboard", "pairings", "projector"])
    # The countdown ticks in the browser: the rendered clock carries its end.
    board = org.get(addresses["scoreboard"]).content.decode()
    assert "data-ends-at=" in board
    services.call_time(round_id=rnd.pk, actor=actor(organiser))
    called = etags(org, addresses)
    assert_all_moved(running, called, ["scoreboard", "dashboard", "pairings", "projector"])
    services.record_result(
        pairing_id=pairing.pk,
        actor=actor(organiser),
        winner="A",
        games_a=2,
        games_b=0,
        points_a=200,
        points_b=0,
        reason="by hand",
    )
    assert_all_moved(called, etags(org, addresses), ["dashboard", "pairings", "standings"])


def test_the_viewer_is_part_of_the_etag(client, event, club, organiser):
    tournament, rnd, pairing = event
    alice: Player = pairing.player_a.player
    scoring.set_pin(player=alice, pin="4321", actor=actor(organiser))
    url = reverse("scoring:scoreboard", args=[pairing.match_id])
    phone = Client()
    phone.get(reverse("scoring:table", args=[table_token(pairing.match)]))
    unseated = phone.get(url)
    assert unseated.status_code == 200
    phone.post(
        reverse("scoring:seat", args=[pairing.match_id]), {"player": alice.pk, "pin": "4321"}
    )
    seated = phone.get(url, HTTP_IF_NONE_MATCH=unseated["ETag"])
    assert seated.status_code == 200, "a seated phone must see its confirm buttons"
    assert seated["ETag"] != unseated["ETag"]
    client.force_login(organiser)
    assert client.get(url)["ETag"] not in (seated["ETag"], unseated["ETag"])


def test_no_304_for_who_may_not_see(client, event, other_organiser, organiser):
    tournament, rnd, pairing = event
    url = reverse("tournaments:dashboard-tables", args=[tournament.slug])
    client.force_login(organiser)
    etag = client.get(url)["ETag"]
    client.force_login(other_organiser)
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code in (403, 404)


def seated_phone(pairing, organiser) -> Client:
    alice: Player = pairing.player_a.player
    scoring.set_pin(player=alice, pin="4321", actor=actor(organiser))
    phone = Client()
    phone.get(reverse("scoring:table", args=[table_token(pairing.match)]))
    phone.post(
        reverse("scoring:seat", args=[pairing.match_id]), {"player": alice.pk, "pin": "4321"}
    )
    return phone


def test_a_phones_unchanged_scoreboard_poll_reads_its_session_and_one_row(
    event, organiser, django_assert_num_queries
):
    """The poll every phone makes every few seconds: its session (from the database on
    PostgreSQL; on SQLite from the sessions cache's file, settings), then the match with
    its club, players, ledger position and round clock in one query (on PostgreSQL, each
    round trip more was a wait the busy hall's tail was made of: docs/benchmarks.md, "A
    busy hall")."""
    tournament, rnd, pairing = event
    services.start_round_timer(round_id=rnd.pk, actor=actor(organiser), minutes=30)
    phone = seated_phone(pairing, organiser)
    url = reverse("scoring:scoreboard", args=[pairing.match_id])
    etag = phone.get(url)["ETag"]
    with django_assert_num_queries(1 + session_read()):
        assert phone.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    # What that one row read still moves the poll: a hand (the ledger), the clock, and
    # the table's own extra time.
    submit(pairing, "B")
    moved = phone.get(url, HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200
    services.call_time(round_id=rnd.pk, actor=actor(organiser))
    called = phone.get(url, HTTP_IF_NONE_MATCH=moved["ETag"])
    assert called.status_code == 200
    assert called["ETag"] != moved["ETag"]


def test_the_clock_read_with_the_match_is_the_clock_read_alone(
    event, organiser, django_assert_num_queries
):
    from scoring import selectors
    from tournaments.selectors import clock_for_match

    tournament, rnd, pairing = event
    services.start_round_timer(round_id=rnd.pk, actor=actor(organiser), minutes=30)
    organiser_actor = actor(organiser)
    polled = selectors.visible_match(organiser_actor, pairing.match_id, polled=True)
    alone = clock_for_match(pairing.match_id)
    with django_assert_num_queries(0):
        together = clock_for_match(polled)
    assert together is not None and together.ends_at is not None
    assert (together.started_at, together.ends_at, together.time_called, together.table) == (
        alone.started_at,
        alone.ends_at,
        alone.time_called,
        alone.table,
    )
    assert selectors.match_version(polled) == selectors.match_version(
        selectors.visible_match(organiser_actor, pairing.match_id)
    )


def test_a_match_outside_any_round_polls_without_a_clock(
    club, organiser, django_assert_num_queries
):
    from scoring import selectors
    from tournaments.selectors import clock_for_match

    alice = Player.objects.create(club=club, name="Alice")
    bob = Player.objects.create(club=club, name="Bob")
    match = scoring.start_match(club=club, player_a=alice, player_b=bob, actor=actor(organiser))
    polled = selectors.visible_match(actor(organiser), match.pk, polled=True)
    with django_assert_num_queries(0):
        assert clock_for_match(polled) is None
