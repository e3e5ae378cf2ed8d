"""Two phones at one table: enter, confirm, dispute, as players really would."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ginclub.permissions import table_token
from scoring import services
from scoring.models import Hand
from tests.browser.conftest import ARTIFACTS
from tests.browser.steps import sit_down
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

KNOCKER = "5H 6H 7H 9C 9D 9S JS QS KS 2D".split()
DEFENDER = "8H 9H KD KC KH 3C 4C 5C AS 7D".split()


def start(agreement: str = "confirm"):
    club = ClubFactory()
    organiser = UserFactory()
    club.organisers.add(organiser)
    alice = PlayerFactory(club=club, name="Alice", pin="1111")
    bob = PlayerFactory(club=club, name="Bob", pin="2222")
    match = services.start_match(
        club=club,
        player_a=alice,
        player_b=bob,
        actor=services.Actor(user=organiser),
        agreement=agreement,
    )
    return match, f"/t/{table_token(match)}/"


def tap(page, grid: str, cards: list[str]) -> None:
    for card in cards:
        page.locator(f'[data-grid="{grid}"] label:has(input[value="{card}"])').click()


def test_card_entry_knock_confirmed_by_the_opponent_shows_the_same_score(phone):
    match, link = start()
    alice, bob = phone(), phone()
    sit_down(alice, link, "Alice", "1111")
    sit_down(bob, link, "Bob", "2222")

    alice.get_by_role("link", name="Card by card").click()
    expect(alice.locator('[data-grid="knocker"]')).to_be_visible()
    alice.locator('label:has(input[name="knocker"][value="A"])').click()  # as a thumb taps it
    tap(alice, "knocker", KNOCKER)
    tap(alice, "defender", DEFENDER)
    # a card the knocker holds is greyed out in the defender's grid
    expect(alice.locator('[data-grid="defender"] input[value="5H"]')).to_be_disabled()
    alice.get_by_role("button", name="Preview score").click()
    expect(alice.locator("#preview")).to_contain_text("8 − 2 = 6")
    alice.screenshot(path=str(ARTIFACTS / "card-entry.png"), full_page=True)
    alice.get_by_test_id("submit-hand").click()
    expect(alice.locator("#scoreboard")).to_contain_text("Pending")

    confirm = bob.get_by_test_id("confirm-1")
    expect(confirm).to_be_visible(timeout=10000)  # arrives by polling, no reload
    confirm.click()

    for page in (alice, bob):
        scoreboard = page.locator("#scoreboard")
        expect(scoreboard).to_contain_text("Confirmed", timeout=10000)
        expect(scoreboard).to_contain_text("Alice +6")
    assert Hand.objects.get(game__match=match).state == Hand.State.CONFIRMED
    texts = [re.sub(r"\s+", " ", p.locator(".scoreline").nth(1).inner_text()) for p in (alice, bob)]
    assert texts[0] == texts[1] and "6" in texts[0]


def test_conflicting_double_entries_show_the_dispute_on_both_phones(phone):
    match, link = start(agreement="double")
    alice, bob = phone(), phone()
    sit_down(alice, link, "Alice", "1111")
    sit_down(bob, link, "Bob", "2222")
    for page, knocker_deadwood in ((alice, "5"), (bob, "7")):
        page.locator('label:has(input[name="knocker"][value="A"])').click()  # as a thumb taps it
        page.locator("#id_knocker_deadwood").fill(knocker_deadwood)
        page.locator("#id_defender_deadwood").fill("20")
        page.get_by_test_id("submit-hand").click()
        expect(page.locator("#scoreboard")).to_contain_text("Hand 1")
    for page in (alice, bob):
        expect(page.locator("#scoreboard")).to_contain_text(
            "knocker's deadwood: 5 (Alice) vs 7 (Bob)", timeout=10000
        )
    assert Hand.objects.get(game__match=match).state == Hand.State.DISPUTED
