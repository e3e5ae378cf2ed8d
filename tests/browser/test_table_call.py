"""Call the organiser from the table (issue 25): a player at 360 px taps "Organiser,
please" and a reason, the phone says so clearly, a second tap makes no second call; the
dashboard at 1280 px, open before the call, shows it at its next poll (badge, count,
the table's mark); the scorekeeper takes the call (the phone then says staff are on
the way) and resolves it; the match's ledger keeps each step. No console errors.
Screenshots: test-artifacts/call-*.png."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from ginclub.permissions import table_token
from scoring import services as scoring
from scoring.models import LedgerRow, TableCall
from tests.browser.conftest import ARTIFACTS
from tests.factories import PASSWORD, ClubFactory, UserFactory
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)

PINS = {"Alice": "1111", "Bob": "2222", "Cara": "3333", "Dan": "4444"}


@pytest.fixture
def event():
    club = ClubFactory(name="Table Gin", slug="table-gin")
    olga = UserFactory(username="olga")
    club.organisers.add(olga)
    UserFactory(username="sam")
    by = scoring.Actor(user=olga)
    scoring.grant_scorekeeper(club=club, username="sam", actor=by)
    tournament = services.create_tournament(
        club=club,
        actor=by,
        name="Call Open",
        date=dt.date(2026, 11, 28),
        first_round="list",
        overrides={"game_target": 25, "games_to_win": 2},
    )
    for name, pin in PINS.items():
        registration = services.add_registration(tournament_id=tournament.pk, actor=by, name=name)
        registration.player.set_pin(pin)
        registration.player.save(update_fields=["pin_hash"])
    rnd = services.draft_round(tournament_id=tournament.pk, actor=by)
    services.publish_round(round_id=rnd.pk, actor=by)
    first = rnd.pairings.exclude(match=None).order_by("table").first()
    return tournament, first


@pytest.fixture
def desk(browser, live_server, settings):
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False
    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_server.url)
    context.set_default_timeout(15000)
    yield context.new_page()
    context.close()


def shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"call-{name}.png"), full_page=True)


def test_a_player_calls_the_dashboard_shows_it_and_the_scorekeeper_resolves_it(
    event, desk, phone, console
):
    tournament, table = event
    match = table.match
    console.watch(desk)
    desk.goto("/accounts/login/")
    desk.get_by_label("Username").fill("sam")
    desk.get_by_label("Password").fill(PASSWORD)
    desk.get_by_role("button", name="Log in").click()
    expect(desk.locator(".who")).to_have_text("sam")
    desk.goto(f"/tournaments/{tournament.slug}/manage/dashboard/")
    expect(desk.get_by_test_id("scorekeeper-note")).to_be_visible()
    expect(desk.get_by_test_id("calls-count")).to_have_text("0")

    player = phone()
    console.watch(player)
    player.goto(f"/t/{table_token(match)}/")
    player.get_by_label("Alice", exact=True).check()
    player.get_by_label("PIN").fill(PINS["Alice"])
    player.get_by_role("button", name="This is me").click()
    expect(player.locator("#hand-form")).to_contain_text("as Alice")

    call_button = player.get_by_test_id("call-staff-open")
    call_button.scroll_into_view_if_needed()
    box = call_button.bounding_box()
    assert box["height"] >= 48 and box["width"] >= 300 and box["x"] + box["width"] <= 360, box
    call_button.click()
    ruling = player.get_by_role("button", name="A ruling")
    assert ruling.bounding_box()["height"] >= 48
    ruling.click()
    expect(player.get_by_text("The organiser is called for a ruling.")).to_be_visible()
    expect(player.get_by_test_id("call-status")).to_contain_text("Organiser called")
    shot(player, "phone-called")
    # a second tap (and another reason) makes no second call, and says so
    player.get_by_test_id("call-staff-open").click()
    player.get_by_role("button", name="A dispute").click()
    expect(player.get_by_text("no second call was made")).to_be_visible()
    assert TableCall.objects.filter(match=match).count() == 1

    # the dashboard, open before the call, shows it at its next poll
    expect(desk.get_by_test_id("calls-count")).to_have_text("1", timeout=30000)
    expect(desk.get_by_test_id("call-1")).to_contain_text("a ruling")
    expect(desk.get_by_test_id("call-1")).to_contain_text("called by Alice")
    expect(desk.get_by_test_id("calling-1")).to_be_visible()
    expect(desk.get_by_test_id("count-calling")).to_contain_text("1 calling")
    shot(desk, "dashboard-calling")
    desk.get_by_test_id("take-call-1").click()
    expect(desk.get_by_test_id("call-1")).to_contain_text("taken by sam")
    # the phone learns that staff are on their way at its scoreboard's next poll
    expect(player.get_by_test_id("call-status")).to_contain_text("on the way", timeout=30000)
    desk.get_by_test_id("resolve-call-1").click()
    desk.get_by_label("What was decided (optional)").fill("the knock stands")
    desk.get_by_test_id("resolve-call-now-1").click()
    expect(desk.get_by_test_id("calls-count")).to_have_text("0")
    expect(player.get_by_test_id("call-status")).to_have_count(0, timeout=30000)

    call = TableCall.objects.get(match=match)
    assert call.state == "resolved" and call.note == "the knock stands"
    actions = list(
        LedgerRow.objects.filter(chain=f"match:{match.pk}", action__startswith="call_")
        .order_by("position")
        .values_list("action", flat=True)
    )
    assert actions == ["call_raised", "call_taken", "call_resolved"]
    console.assert_clean()
