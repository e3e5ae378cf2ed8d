"""The table keeps working when the Wi-Fi drops (issue 11): two phones offline, entries
kept on each phone, a reload without a connection, and everything sent once, in order."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Entry, Hand
from tests.browser.axe import assert_accessible
from tests.browser.steps import sit_down
from tests.browser.test_table_errors import fill_quick_knock
from tests.browser.test_table_flow import start

pytestmark = pytest.mark.django_db(transaction=True)

# The page the service worker keeps for this browser holds `text` (it keeps the page
# again whenever the table changes, so this is a matter of a poll or two).
KEPT = """async (text) => {
  const hit = await caches.match(location.href);
  return !!hit && (await hit.text()).includes(text);
}"""


def wait_until_kept(page, text: str) -> None:
    for _ in range(60):
        if page.evaluate(KEPT, text):
            return
        page.wait_for_timeout(250)
    raise AssertionError(f"the service worker never kept a copy of the page with {text!r}")


def save_quick_knock(page, knocker_deadwood: str, defender_deadwood: str) -> None:
    fill_quick_knock(page, knocker_deadwood, defender_deadwood)
    page.get_by_test_id("submit-hand").click()


def test_both_phones_offline_three_hands_and_a_confirmation_land_once_in_order(phone):
    match, link = start()
    alice, bob = phone(), phone()
    sit_down(alice, link, "Alice", "1111")
    sit_down(bob, link, "Bob", "2222")
    save_quick_knock(alice, "4", "30")  # hand 1, online: Bob has it to confirm
    expect(bob.get_by_test_id("confirm-1")).to_be_visible(timeout=10000)
    wait_until_kept(alice, "Hand 1")
    wait_until_kept(bob, 'data-testid="confirm-1"')

    alice.context.set_offline(True)
    bob.context.set_offline(True)
    # A knock without its knocker is refused on the phone, and nothing is kept.
    alice.locator("#id_knocker_deadwood").fill("2")
    alice.get_by_test_id("submit-hand").click()
    expect(alice.locator("#hand-form [role=alert]")).to_contain_text(
        "Choose who knocked (Alice or Bob) before saving: nothing was kept."
    )
    expect(alice.get_by_test_id("queue-summary")).to_have_count(0)
    # Alice knocks 2 v 20, 5 v 25, 7 v 15: knock scores 18, 20, 8 once sent. Each is kept
    # before the form moves on to the next hand.
    hands = (("2", "20"), ("5", "25"), ("7", "15"))
    for number, (knocker_deadwood, defender_deadwood) in enumerate(hands, start=2):
        save_quick_knock(alice, knocker_deadwood, defender_deadwood)
        expect(alice.locator("#hand-form h2")).to_contain_text(f"Enter hand {number + 1}")
    expect(alice.get_by_test_id("queue-summary")).to_have_text("3 hands waiting to send")
    expect(alice.locator("#offline-queue")).to_contain_text(
        "Hand 4: knock, Alice knocked, deadwood 7 v 15"
    )
    expect(alice.locator("#hand-form h2")).to_contain_text("Enter hand 5")
    alice.get_by_role("button", name="Preview score").click()
    expect(alice.locator("#preview")).to_contain_text(
        "the score will be shown when the hand is sent"
    )
    bob.get_by_test_id("confirm-1").click()
    expect(bob.get_by_test_id("queue-summary")).to_have_text("1 confirmation waiting to send")
    assert Hand.objects.filter(game__match=match).count() == 1  # nothing left the phones

    # a reload without a connection still opens the page (the service worker's copy),
    # with what is waiting and the form numbered after it
    for page in (alice, bob):
        page.reload()
        expect(page.locator("h1")).to_contain_text("Alice v Bob")
    expect(alice.get_by_test_id("queue-summary")).to_have_text("3 hands waiting to send")
    expect(alice.locator("#hand-form h2")).to_contain_text("Enter hand 5")
    expect(bob.get_by_test_id("confirm-1")).to_be_disabled()
    expect(bob.locator("#scoreboard")).to_contain_text("Waiting to send: Confirm hand 1")
    assert_accessible(alice)
    assert_accessible(bob)

    alice.context.set_offline(False)
    bob.context.set_offline(False)
    for page in (alice, bob):
        expect(page.locator("#offline-queue")).to_be_hidden(timeout=20000)
    # and each phone says so (the box just vanished before)
    expect(alice.get_by_test_id("queue-sent")).to_have_text(
        "3 entries kept on this phone were sent."
    )
    expect(bob.get_by_test_id("queue-sent")).to_have_text("1 entry kept on this phone was sent.")
    expect(alice.locator("#scoreboard")).to_contain_text("Knock: 15 − 7 = 8", timeout=10000)

    hands = list(Hand.objects.filter(game__match=match).order_by("number"))
    assert [(h.number, h.knocker_deadwood, h.defender_deadwood) for h in hands] == [
        (1, 4, 30),
        (2, 2, 20),
        (3, 5, 25),
        (4, 7, 15),
    ]
    assert [h.points for h in hands[1:]] == [18, 20, 8]
    assert hands[0].state == Hand.State.CONFIRMED
    submits = list(Entry.objects.filter(match=match, kind=Entry.Kind.SUBMIT).order_by("id"))
    assert [e.hand.number for e in submits] == [1, 2, 3, 4]  # once each, in order
    assert Entry.objects.filter(match=match, kind=Entry.Kind.CONFIRM).count() == 1
    keys = [e.idempotency_key for e in Entry.objects.filter(match=match)]
    assert len(keys) == len(set(keys))


def test_the_same_hand_entered_offline_on_both_phones_is_shown_side_by_side_to_agree(phone):
    match, link = start()
    alice, bob = phone(), phone()
    sit_down(alice, link, "Alice", "1111")
    sit_down(bob, link, "Bob", "2222")
    alice.context.set_offline(True)
    bob.context.set_offline(True)
    save_quick_knock(alice, "4", "30")  # Alice's figures
    save_quick_knock(bob, "4", "25")  # Bob's: he counted his own deadwood as 25
    expect(bob.get_by_test_id("queue-summary")).to_have_text("1 hand waiting to send")

    alice.context.set_offline(False)
    expect(alice.locator("#offline-queue")).to_be_hidden(timeout=20000)
    bob.context.set_offline(False)
    queue = bob.locator("#offline-queue")
    expect(queue).to_contain_text("Alice already entered hand 1, with other figures", timeout=20000)
    # not "Not saved: ...: the score will be shown when sent." (a walk read both at once)
    expect(queue.locator("p.error")).to_have_text(
        "Not saved: Hand 1: knock, Alice knocked, deadwood 4 v 25"
    )
    clash = queue.get_by_test_id("hand-clash")
    expect(clash).to_contain_text("Alice saved")
    # Alice's 30 beside Bob's 25, and the scores they give: Alice +26 v Alice +21
    differs = clash.locator("tr.differs")
    expect(differs).to_have_count(2)
    expect(differs.first).to_contain_text("Defender's deadwood")
    expect(differs.first).to_contain_text("30")
    expect(differs.first).to_contain_text("25")
    expect(differs.last).to_contain_text("Alice +26")
    expect(differs.last).to_contain_text("Alice +21")
    # within the queue's box on a 360 px phone, both entries are read without scrolling
    # (a walk saw "You entere" and the "differs" marks cut at the edge)
    region = clash.locator(".scroll-x")
    assert region.evaluate("el => el.scrollWidth <= el.clientWidth"), "the clash scrolls"
    advice = clash.get_by_text("change your figures above")
    expect(advice).to_have_count(1)  # the form's advice is in the partial...
    expect(advice).to_be_hidden()  # ...and hidden in the queue: no figures above it
    assert_accessible(bob)
    clash.get_by_test_id("clash-dispute").click()  # "Mine is right: dispute"
    expect(queue).to_be_hidden(timeout=10000)
    for page in (alice, bob):
        expect(page.get_by_test_id("next-step-1")).to_be_visible(timeout=10000)
    hand = Hand.objects.get(game__match=match)
    assert (hand.state, hand.defender_deadwood) == (Hand.State.DISPUTED, 30)
    assert Entry.objects.filter(match=match, kind=Entry.Kind.SUBMIT).count() == 1


def test_a_gin_kept_offline_is_said_as_a_gin_not_with_a_null_deadwood(phone):
    """A gin has no knocker's deadwood to give: kept offline it read "Hand 1: gin, Ada
    knocked, deadwood null v 35" (a walk)."""
    _match, link = start()
    alice = phone()
    sit_down(alice, link, "Alice", "1111")
    alice.context.set_offline(True)
    alice.locator('label:has(input[name="outcome"][value="gin"])').click()
    alice.locator('label:has(input[name="knocker"][value="A"])').click()
    alice.locator("#id_defender_deadwood").fill("35")
    alice.get_by_test_id("submit-hand").click()
    expect(alice.locator("#offline-queue")).to_contain_text(
        "Hand 1: gin by Alice, Bob's deadwood 35: the score will be shown when sent."
    )
    expect(alice.locator("#offline-queue")).not_to_contain_text("null")
