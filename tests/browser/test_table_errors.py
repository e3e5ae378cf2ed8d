"""What a phone shows when an entry is refused or the Wi-Fi drops: never a silent tap."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Hand
from tests.browser.steps import sit_down
from tests.browser.test_table_flow import start

pytestmark = pytest.mark.django_db(transaction=True)


def fill_quick_knock(page, knocker_deadwood: str, defender_deadwood: str) -> None:
    # Tap the name, as a player does: the segmented choice's radio is a 1 px input, and a
    # click aimed at it can land on the fieldset when the page below it grows.
    knocker = page.locator('input[name="knocker"][value="A"]')
    page.locator('label:has(input[name="knocker"][value="A"])').click()
    expect(knocker).to_be_checked()
    page.locator("#id_knocker_deadwood").fill(knocker_deadwood)
    page.locator("#id_defender_deadwood").fill(defender_deadwood)


def test_an_illegal_knock_is_explained_on_the_phone_and_the_entry_kept(phone):
    match, link = start()
    alice = phone()
    sit_down(alice, link, "Alice", "1111")
    fill_quick_knock(alice, "15", "30")
    alice.get_by_test_id("submit-hand").click()
    expect(alice.locator("#hand-form [role=alert]")).to_contain_text(
        "deadwood 15 is over the knock limit 10"
    )
    # the engine's message reads as a sentence: shown with a capital (issue 9, trap 7)
    first_letter = alice.locator("#hand-form [role=alert] .error").evaluate(
        "p => getComputedStyle(p, '::first-letter').textTransform"
    )
    assert first_letter == "uppercase"
    expect(alice.locator("#id_knocker_deadwood")).to_have_value("15")
    assert not Hand.objects.filter(game__match=match).exists()


def test_a_dropped_connection_keeps_the_hand_on_the_phone_and_sends_it_once_when_back(phone):
    """Issue 11: no longer "nothing was saved, tap again": the hand waits on the phone."""
    match, link = start()
    alice = phone()
    sit_down(alice, link, "Alice", "1111")
    fill_quick_knock(alice, "4", "30")
    alice.context.set_offline(True)
    alice.get_by_test_id("submit-hand").click()
    expect(alice.get_by_test_id("queue-summary")).to_have_text("1 hand waiting to send")
    expect(alice.locator("#connection")).to_contain_text("kept on this phone", timeout=10000)
    expect(alice.locator("#hand-form h2")).to_contain_text("Enter hand 2")
    alice.context.set_offline(False)
    expect(alice.locator("#scoreboard")).to_contain_text("Knock: 30 − 4 = 26", timeout=15000)
    expect(alice.locator("#offline-queue")).to_be_hidden()
    expect(alice.locator("#connection")).to_be_hidden(timeout=10000)
    assert Hand.objects.filter(game__match=match).count() == 1


def test_an_untouched_hand_form_moves_on_when_the_opponent_enters_a_hand(phone):
    match, link = start()
    alice, bob = phone(), phone()
    sit_down(alice, link, "Alice", "1111")
    sit_down(bob, link, "Bob", "2222")
    fill_quick_knock(alice, "4", "30")
    alice.get_by_test_id("submit-hand").click()
    # Bob's phone learns of hand 1 by polling and offers hand 2, without a reload
    expect(bob.locator("#hand-form h2")).to_contain_text("Enter hand 2", timeout=10000)
    expect(bob.locator("#hand-form")).to_contain_text("as Bob")


def test_a_half_filled_hand_form_is_never_replaced_under_the_players_thumb(phone):
    match, link = start()
    alice, bob = phone(), phone()
    sit_down(alice, link, "Alice", "1111")
    sit_down(bob, link, "Bob", "2222")
    bob.locator("#id_defender_deadwood").fill("17")
    fill_quick_knock(alice, "4", "30")
    alice.get_by_test_id("submit-hand").click()
    expect(bob.get_by_test_id("confirm-1")).to_be_visible(timeout=10000)
    bob.wait_for_timeout(3500)  # another poll: the form must still hold what Bob typed
    expect(bob.locator("#id_defender_deadwood")).to_have_value("17")
    expect(bob.locator("#hand-form h2")).to_contain_text("Enter hand 1")
