"""The hall view (issue 23, "a dashboard for a big hall"): 64 tables on one 1280×800
screen, one line a table; one tap on "3 disputed" shows just those three; a player is
found by name (accents ignored) and a table by number; the polled view keeps its filter
and shows a new dispute; in Italian too; and at 360 px (an organiser's phone) the lines
still fit the width. No console errors. Screenshots: test-artifacts/hall-*.png."""

from __future__ import annotations

import datetime as dt
import itertools
import re

import pytest
from playwright.sync_api import expect

from scoring import services as scoring
from scoring.hand_input import HandInput
from tests.browser.conftest import ARTIFACTS
from tests.factories import PASSWORD, ClubFactory, UserFactory
from tournaments import services
from tournaments.models import Pairing, Round

pytestmark = pytest.mark.django_db(transaction=True)

FIRST = ["Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana"]
LAST = ["Rossi", "Ferrari", "Esposito", "Romano", "Colombo", "Ricci", "Marino", "Greco",
        "Bruno", "Gallo", "Conti", "De Luca", "Mancini", "Costa", "Giordano", "Rizzo"]  # fmt: skip
# 128 players: table 7's player A has an accented name a search finds without accents.
NAMES = [f"{first} {last}" for last, first in itertools.product(LAST, FIRST)]
NAMES[12] = "Niccolò Bianchi"
DISPUTED = (5, 20, 41)
PENDING = (2, 3)
FINISHED = range(10, 16)
_keys = itertools.count()


def _hand(pairing: Pairing, seat: str = "A"):
    player = (pairing.player_a if seat == "A" else pairing.player_b).player
    return scoring.submit_hand(
        match_id=pairing.match_id,
        actor=scoring.Actor(player=player),
        idempotency_key=f"hall-{next(_keys)}",
        hand=HandInput(
            game=1, number=1, outcome="knock", knocker="A", knocker_deadwood=4, defender_deadwood=9
        ),
    ).hand


def _dispute(pairing: Pairing) -> None:
    hand = _hand(pairing)
    scoring.dispute_hand(
        hand_id=hand.pk,
        actor=scoring.Actor(player=pairing.player_b.player),
        version=1,
        reason="I had 7",
        idempotency_key=f"hall-{next(_keys)}",
    )


def _hall():
    """A 128-player Swiss, round 1 published: 64 tables in every state."""
    club = ClubFactory(name="Grand Hall Gin", slug="grand")
    olga = UserFactory(username="olga")
    club.organisers.add(olga)
    who = scoring.Actor(user=olga)
    event = services.create_tournament(
        club=club,
        actor=who,
        name="Grand Open",
        date=dt.date(2026, 11, 28),
        overrides={"games_to_win": 1, "game_target": 10},
        first_round="list",
    )
    for name in NAMES:
        services.add_registration(tournament_id=event.pk, actor=who, name=name)
    rnd = services.draft_round(tournament_id=event.pk, actor=who)
    services.publish_round(round_id=rnd.pk, actor=who)
    services.start_round_timer(round_id=rnd.pk, actor=who, minutes=50)
    tables = {
        p.table: p
        for p in Pairing.objects.filter(round=rnd).select_related(
            "match", "player_a__player", "player_b__player"
        )
    }
    for table in PENDING:
        _hand(tables[table])
    for table in DISPUTED:
        _dispute(tables[table])
    for table in FINISHED:  # one knock worth 16 ends a game to 10
        scoring.submit_hand(
            match_id=tables[table].match_id,
            actor=who,
            idempotency_key=f"hall-{next(_keys)}",
            hand=HandInput(
                game=1,
                number=1,
                outcome="knock",
                knocker="B",
                knocker_deadwood=4,
                defender_deadwood=20,
            ),
        )
    return event, rnd, tables


@pytest.fixture
def screens(browser, live_server, settings):
    """Browser contexts: the desk at 1280×800, a phone at 360 px."""
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False
    contexts = []

    def make(width: int, height: int, **options):
        context = browser.new_context(
            viewport={"width": width, "height": height}, base_url=live_server.url, **options
        )
        context.set_default_timeout(15000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.console_errors = errors
        page.goto("/accounts/login/")
        page.get_by_label("Username").fill("olga")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        expect(page.locator(".who")).to_have_text("olga")
        return page

    yield make
    for context in contexts:
        context.close()


def _outside_the_screen(page) -> list[str]:
    """The hall's lines whose box is not wholly inside the viewport, as the page opened
    (no scrolling)."""
    return page.evaluate(
        """() => {
        const w = window.innerWidth, h = window.innerHeight;
        return [...document.querySelectorAll('#hall-tables .hall-row')]
          .filter(el => { const r = el.getBoundingClientRect();
            return r.top < 0 || r.left < 0 || r.bottom > h || r.right > w; })
          .map(el => el.dataset.testid);
        }"""
    )


def test_sixty_four_tables_fit_one_desk_screen_filter_in_one_tap_and_find_a_player(screens):
    event, rnd, tables = _hall()
    hall = f"/tournaments/{event.slug}/manage/dashboard/hall/"
    desk = screens(1280, 800)
    desk.goto(f"/tournaments/{event.slug}/manage/dashboard/")
    desk.get_by_test_id("hall-view").click()
    rows = desk.locator("#hall-tables .hall-row")
    expect(rows).to_have_count(64)
    assert desk.evaluate("window.scrollY") == 0
    assert _outside_the_screen(desk) == []
    assert desk.evaluate("document.documentElement.scrollWidth") <= 1280
    line = desk.get_by_test_id("hall-table-7")
    expect(line).to_contain_text("Niccolò Bianchi")
    expect(line).to_contain_text("playing")
    expect(desk.get_by_test_id("hall-table-12")).to_contain_text("finished")
    expect(desk.get_by_test_id("hall-table-12")).to_contain_text("0–1")
    desk.screenshot(path=str(ARTIFACTS / "hall-desk-1280x800.png"))

    # One tap on the count of disputed tables shows them, and only them.
    expect(desk.get_by_test_id("filter-disputed")).to_have_text("3 disputed")
    expect(desk.get_by_test_id("filter-finished")).to_have_text("6 finished")
    expect(desk.get_by_test_id("filter-pending")).to_have_text("2 pending")
    expect(desk.get_by_test_id("filter-playing")).to_have_text("53 playing")
    desk.get_by_test_id("filter-disputed").click()
    expect(rows).to_have_count(3)
    assert [rows.nth(i).get_attribute("data-testid") for i in range(3)] == [
        f"hall-table-{t}" for t in DISPUTED
    ]
    expect(desk.get_by_test_id("hall-shown")).to_contain_text("3 tables of 64 shown")
    expect(desk.get_by_test_id("filter-disputed")).to_have_attribute("aria-current", "true")
    # Each line opens its match, where the dispute is resolved.
    href = desk.get_by_test_id("hall-table-5").locator("a").get_attribute("href")
    assert href == f"/matches/{tables[5].match_id}/"
    # The filtered view is polled (and answered 304 while nothing changes); a new
    # dispute shows in it without a tap.
    _dispute(tables[60])
    expect(rows).to_have_count(4, timeout=12000)
    expect(desk.get_by_test_id("filter-disputed")).to_have_text("4 disputed")

    # A player by name, typed without the accent; the address keeps the search.
    desk.get_by_test_id("filter-all").click()
    expect(rows).to_have_count(64)
    desk.get_by_test_id("hall-search").fill("niccolo")
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-testid", "hall-table-7")
    expect(desk).to_have_url(re.compile(r"q=niccolo"))
    # The next poll asks for the same search (the box's words), and keeps the one line.
    polls: list[str] = []
    desk.on("request", lambda r: polls.append(r.url) if "/hall/tables/" in r.url else None)
    desk.wait_for_timeout(5500)
    assert polls and all("q=niccolo" in url for url in polls), polls
    expect(rows).to_have_count(1)
    # A table by its number (and a player whose name holds it: none here).
    desk.get_by_test_id("hall-search").fill("41")
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-testid", "hall-table-41")
    desk.get_by_test_id("hall-search").fill("nobody")
    expect(desk.get_by_test_id("hall-empty")).to_contain_text("No table or player matches")
    assert desk.console_errors == [], desk.console_errors

    # Time called: every unfinished table finishes after time, and says so on its line.
    desk.goto(hall)
    services.call_time(round_id=rnd.pk, actor=scoring.Actor(user=event.club.organisers.get()))
    expect(desk.get_by_test_id("filter-after_time")).to_have_text(
        "58 finishing after time", timeout=12000
    )
    desk.get_by_test_id("filter-after_time").click()
    expect(rows).to_have_count(58)
    expect(desk.get_by_test_id("hall-table-1")).to_contain_text("after time")
    assert _outside_the_screen(desk) == []
    desk.screenshot(path=str(ARTIFACTS / "hall-desk-after-time.png"))

    # In Italian: the words change, the 64 lines still fit the screen.
    desk.goto(hall)
    desk.get_by_test_id("language-it").click()
    expect(desk.get_by_test_id("filter-disputed")).to_have_text("4 contestati")
    expect(rows).to_have_count(64)
    assert _outside_the_screen(desk) == []
    expect(desk.get_by_test_id("hall-table-12")).to_contain_text("finito")
    desk.get_by_test_id("filter-disputed").click()
    expect(rows).to_have_count(4)
    desk.screenshot(path=str(ARTIFACTS / "hall-desk-it-disputed.png"))
    assert desk.console_errors == [], desk.console_errors

    # An organiser's phone: one column that fits the width, filters and search work.
    phone = screens(360, 740, is_mobile=True, has_touch=True)
    phone.goto(hall)
    expect(rows_of(phone)).to_have_count(64)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    phone.screenshot(path=str(ARTIFACTS / "hall-phone-360.png"))
    phone.get_by_test_id("filter-disputed").tap()
    expect(rows_of(phone)).to_have_count(4)
    # A search looks at every table, whatever the filter: tables 29 to 32 seat the Grecos.
    phone.get_by_test_id("hall-search").fill("Greco")
    expect(phone.get_by_test_id("hall-table-29")).to_be_visible()
    assert [rows_of(phone).nth(i).get_attribute("data-testid") for i in range(4)] == [
        f"hall-table-{t}" for t in (29, 30, 31, 32)
    ]
    expect(phone.get_by_test_id("filter-all")).not_to_have_attribute("aria-current", "true")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    phone.screenshot(path=str(ARTIFACTS / "hall-phone-360-search.png"), full_page=True)
    assert phone.console_errors == [], phone.console_errors
    assert Round.objects.get(pk=rnd.pk).state == Round.State.PUBLISHED


def rows_of(page):
    return page.locator("#hall-tables .hall-row")
