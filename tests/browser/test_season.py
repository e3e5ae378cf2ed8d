"""Seasons in the browser: an organiser creates a season on a phone (a reversed date is
named beside the form first), lands on its ladder, taps a name for why it stands there,
and the ladder fits 360 px and reads at 1280 px; axe finds nothing serious on the form,
the ladder or the club's season list. Screenshots go to test-artifacts/."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.hand_input import HandInput
from tests.browser.axe import assert_accessible
from tests.browser.conftest import ARTIFACTS
from tests.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def build_club():
    """Three club nights today: Alexandra beats Bob and Cara; Bob beats Cara."""
    club = ClubFactory(name="Riverside Gin", slug="riverside")
    organiser = UserFactory(username="olga")
    club.organisers.add(organiser)
    actor = services.Actor(user=organiser)
    people = {
        name: PlayerFactory(club=club, name=name)
        for name in ("Alexandra Montgomery-Smythe", "Bob", "Cara")
    }
    for n, (a, b) in enumerate(
        [
            ("Alexandra Montgomery-Smythe", "Bob"),
            ("Alexandra Montgomery-Smythe", "Cara"),
            ("Bob", "Cara"),
        ]
    ):
        match = services.start_match(
            club=club,
            player_a=people[a],
            player_b=people[b],
            actor=actor,
            overrides={"game_target": 25, "games_to_win": 1},
        )
        services.submit_hand(
            match_id=match.pk,
            actor=actor,
            hand=HandInput(
                game=1,
                number=1,
                outcome="knock",
                knocker="A",
                knocker_deadwood=5,
                defender_deadwood=35,
            ),
            idempotency_key=f"season-{n}",
        )
    return club


def fits(page, name: str, width: int) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert_accessible(page)


def test_create_a_season_then_read_its_ladder(phone, browser, live_server):
    build_club()
    page = phone()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto("/clubs/riverside/")
    page.get_by_role("link", name="Seasons").click()
    page.get_by_role("link", name="New season").click()
    fits(page, "season-form", 360)
    today = dt.date.today()
    page.get_by_label("Name", exact=True).fill("Winter ladder")
    page.get_by_label("First day").fill((today + dt.timedelta(days=1)).isoformat())
    page.get_by_label("Last day").fill((today - dt.timedelta(days=30)).isoformat())
    page.get_by_label("Points for a match won").fill("3")
    page.get_by_role("button", name="Create the season").click()
    expect(page.get_by_text("before it starts")).to_be_visible()
    page.get_by_label("First day").fill((today - dt.timedelta(days=30)).isoformat())
    page.get_by_label("Last day").fill((today + dt.timedelta(days=60)).isoformat())
    page.get_by_role("button", name="Create the season").click()
    expect(page.get_by_role("heading", name="Winter ladder")).to_be_visible()
    ladder = page.get_by_test_id("ladder")
    rows = ladder.get_by_test_id("ladder-row")
    expect(rows).to_have_count(3)
    expect(rows.first).to_contain_text("Alexandra Montgomery-Smythe")
    expect(rows.first).to_contain_text("6")  # two wins, 3 points each
    expect(page.get_by_test_id("season-counts")).to_contain_text("3 club-night matches")
    rows.nth(1).locator("summary").click()
    expect(rows.nth(1).get_by_test_id("why")).to_contain_text("Behind Alexandra")
    fits(page, "season-ladder", 360)
    wide = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_server.url)
    wide.add_cookies(page.context.cookies())
    desk = wide.new_page()
    desk.goto(page.url)
    expect(desk.get_by_test_id("ladder")).to_contain_text("Cara")
    fits(desk, "season-ladder", 1280)
    desk.goto("/clubs/riverside/seasons/")
    expect(desk.get_by_role("link", name="Winter ladder", exact=True)).to_be_visible()
    fits(desk, "season-list", 1280)
    wide.close()
