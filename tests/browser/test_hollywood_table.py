"""Hollywood gin at a table on a 360 px phone: card entry into the one hand sequence,
confirmed by the opponent, and the three games side by side without overflowing."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ginclub.permissions import table_token
from scoring import services
from tests.browser.conftest import ARTIFACTS
from tests.browser.steps import sit_down
from tests.browser.test_table_flow import DEFENDER, KNOCKER, tap
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_hollywood_hand_by_cards_shows_three_games_side_by_side(phone):
    club = ClubFactory()
    organiser = UserFactory()
    club.organisers.add(organiser)
    alice = PlayerFactory(club=club, name="Alexandra Montgomery-Smythe", pin="1111")
    bob = PlayerFactory(club=club, name="Bob", pin="2222")
    match = services.start_match(
        club=club,
        player_a=alice,
        player_b=bob,
        actor=services.Actor(user=organiser),
        profile="hollywood",
    )
    link = f"/t/{table_token(match)}/"
    a, b = phone(), phone()
    sit_down(a, link, "Alexandra Montgomery-Smythe", "1111")
    sit_down(b, link, "Bob", "2222")
    a.get_by_role("link", name="Card by card").click()
    expect(a.locator('[data-grid="knocker"]')).to_be_visible()
    a.locator('label:has(input[name="knocker"][value="A"])').click()  # as a thumb taps it
    tap(a, "knocker", KNOCKER)
    tap(a, "defender", DEFENDER)
    a.get_by_test_id("submit-hand").click()
    expect(a.locator("#scoreboard")).to_contain_text("Pending")
    b.get_by_test_id("confirm-1").click()  # arrives by polling
    # knock 8 - 2 = 6: Alexandra's first win scores in game 1 only
    for page in (a, b):
        games = page.get_by_test_id("hollywood-games")
        expect(games).to_contain_text("each to 100", timeout=10000)
        expect(page.get_by_test_id("scored-in")).to_contain_text("scores in game 1")
        expect(games.locator('tbody tr td[data-game="1"]').first).to_have_text("6")
        expect(games.locator('tbody tr td[data-game="3"]').first).to_have_text("0")
    a.screenshot(path=str(ARTIFACTS / "hollywood-scoreboard.png"), full_page=True)
    for page in (a, b):
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"the Hollywood page is {width} px wide"
        table = page.get_by_test_id("hollywood-games")  # all three games in view, no scrolling
        box = page.evaluate(
            "t => [t.scrollWidth, t.parentElement.clientWidth]", table.element_handle()
        )
        assert box[0] <= box[1], f"the three games need {box[0]} px of {box[1]}"
    hand = match.games.get(number=1).hands.get()
    assert (hand.number, hand.points, hand.winner) == (1, 6, "A")
