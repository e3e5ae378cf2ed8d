"""Time called at a real table (issue 9, traps 2 and 3; "every number explains itself"),
two phones at 360 px and the organiser's dashboard: after "Call time" the phones say the
table finishes the hand in play; once it is saved and confirmed neither phone offers a
next hand and the dashboard says the table's time is up (not "last hand done" for every
table); the organiser decides by the time policy and both phones say who won and why;
tapping the result and a game total shows the arithmetic with names. Screenshots go to
test-artifacts/time-called-*.png.
"""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from scoring.models import Match
from scoring.services import Actor
from tests.browser.conftest import ARTIFACTS
from tests.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory
from tournaments import selectors, services
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db(transaction=True)

PINS = {"Ada": "1111", "Ben": "2222"}


@pytest.fixture
def desk(browser, live_server, settings):
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False
    context = browser.new_context(viewport={"width": 900, "height": 1000}, base_url=live_server.url)
    context.set_default_timeout(15000)
    yield context.new_page()
    context.close()


def _table():
    club = ClubFactory(name="Riverside Gin", slug="riverside")
    olga = UserFactory(username="olga")
    club.organisers.add(olga)
    for name, pin in PINS.items():
        PlayerFactory(club=club, name=name, pin=pin)
    who = Actor(user=olga)
    event = services.create_tournament(
        club=club,
        actor=who,
        name="Autumn Open",
        date=dt.date(2026, 11, 28),
        overrides={"games_to_win": 2, "game_target": 25},
        bye_games=2,
    )
    for name in PINS:
        services.add_registration(tournament_id=event.pk, actor=who, name=name)
    rnd = services.draft_round(tournament_id=event.pk, actor=who)
    services.publish_round(round_id=rnd.pk, actor=who)
    services.start_round_timer(round_id=rnd.pk, actor=who, minutes=30)
    pairing = Pairing.objects.select_related("match", "player_a__player", "player_b__player").get(
        round=rnd
    )
    return event, pairing


def _log_in(page) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".who")).to_have_text("olga")


def _sit_down(page, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_label(name, exact=True).check()
    page.get_by_label("PIN").fill(PINS[name])
    page.get_by_role("button", name="This is me").click()
    expect(page.locator("#hand-form")).to_contain_text(f"as {name}")


def _shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"time-called-{name}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, f"{name} overflows"


def test_time_called_stops_play_and_both_phones_say_how_the_match_ended(desk, phone):
    event, pairing = _table()
    a, b = pairing.player_a.player.name, pairing.player_b.player.name
    link = selectors.table_path(pairing.match)
    first, second = phone(), phone()
    _sit_down(first, link, a)
    _sit_down(second, link, b)

    _log_in(desk)
    desk.goto(f"/tournaments/{event.slug}/manage/dashboard/")
    desk.get_by_text("Call time…").click()
    desk.get_by_role("button", name="Yes, call time now").click()
    expect(desk.get_by_test_id("play-1")).to_contain_text(
        f"{a} and {b} finish the hand in play; no new hand after it."
    )
    expect(desk.get_by_test_id("time-policy-1")).to_have_text(
        "Decide now, without the hand in play"
    )
    for page in (first, second):  # the phones learn it by polling
        expect(page.get_by_test_id("play-note")).to_contain_text(
            f"{a} and {b} finish the hand in play; no new hand after it.", timeout=10000
        )
    expect(first.get_by_test_id("submit-hand")).to_contain_text("Save hand 1")
    _shot(first, "1-finish-the-hand-in-play")

    # The hand in play: a knocks 3 against 41 (38 points, past the game's 25).
    first.locator("#hand-form").get_by_label(a, exact=True).check()
    first.locator("#id_knocker_deadwood").fill("3")
    first.locator("#id_defender_deadwood").fill("41")
    first.get_by_test_id("submit-hand").click()
    confirm = second.get_by_test_id("confirm-1")
    expect(confirm).to_be_visible(timeout=10000)
    confirm.click()
    for page in (first, second):
        note = page.get_by_test_id("play-note")
        expect(note).to_contain_text(
            "no new hand (hand 1 of game 1 was the hand in play).", timeout=10000
        )
        expect(page.get_by_test_id("submit-hand")).to_have_count(0, timeout=10000)
        expect(page.get_by_test_id("no-more-hands")).to_contain_text("No new hand: time was")
        expect(page.locator("#hand-form")).not_to_contain_text("No game in progress")
    _shot(second, "2-no-new-hand")
    assert Match.objects.get(pk=pairing.match_id).state == Match.State.IN_PROGRESS

    # The dashboard: this table's time is up; the policy decides it.
    expect(desk.get_by_test_id("play-counts")).to_contain_text("1 time up", timeout=10000)
    expect(desk.get_by_test_id("time-policy-1")).to_have_text(  # once confirmed
        "Decide by the time policy", timeout=10000
    )
    desk.get_by_test_id("time-policy").click()
    expect(desk.locator(".messages")).to_contain_text(
        f"Table 1: {a} wins 1–0: time was called and {a} led on games."
    )

    for page in (first, second):
        result = page.get_by_test_id("match-result")
        expect(result).to_contain_text(
            f"{a} wins 1–0: time was called and {a} led on games", timeout=10000
        )
        expect(page.get_by_test_id("play-note")).to_have_count(0)
        expect(page.locator("#scoreboard")).not_to_contain_text("match closed")
        expect(page.locator("#scoreboard")).not_to_contain_text("Time called")
        result.locator("summary").click()
        expect(page.get_by_test_id("match-arithmetic")).to_contain_text(
            f"{a} won game 1; the first to 2 games wins."
        )
        words = page.get_by_test_id("game-words-1")
        words.locator("summary").click()
        expect(words).to_contain_text(
            f"Game to {a}. {a}: (38 in hands + 100 game + 1 box × 25) × 2 shutout = 326; "
            f"{b}: 0 in hands + 0 boxes × 25 = 0"
        )
    # The scoreboard refreshes every 3 s: what the reader opened stays open.
    first.wait_for_timeout(3500)
    for page in (first, second):
        expect(page.get_by_test_id("match-arithmetic")).to_be_visible()
        expect(page.get_by_test_id("game-words-1").locator("p")).to_be_visible()
    _shot(first, "3-result-and-why")
    _shot(second, "4-result-and-why-other-phone")
