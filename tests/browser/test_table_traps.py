"""Issue 9's phone traps, each as a person at the table would meet it (360 px)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Hand
from tests.browser.steps import sit_down
from tests.browser.test_table_errors import fill_quick_knock
from tests.browser.test_table_flow import DEFENDER, KNOCKER, start, tap

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_double_tap_on_save_saves_one_hand_and_leaves_the_next_form_clean(phone):
    """Trap 5: the second tap of a double tap lands on hand 2's fresh form."""
    match, link = start()
    alice = phone()
    sit_down(alice, link, "Alice", "1111")
    refused = []
    alice.on(
        "response",
        lambda r: (
            refused.append(r.status)
            if r.request.method == "POST" and r.url.endswith("/hands/") and r.status >= 400
            else None
        ),
    )
    fill_quick_knock(alice, "4", "30")
    save = alice.get_by_test_id("submit-hand")
    save.click()
    expect(alice.locator("#hand-form h2")).to_contain_text("Enter hand 2")
    box = save.bounding_box()  # the fresh form's Save, just arrived under the thumb
    alice.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    alice.wait_for_timeout(800)
    assert refused == []  # the second tap sent an empty hand 2, refused
    expect(alice.locator("#hand-form [role=alert]")).to_have_count(0)
    expect(alice.locator("#hand-form h2")).to_contain_text("Enter hand 2")
    assert Hand.objects.filter(game__match=match).count() == 1
    # a moment later the new Save works as usual
    expect(save).to_be_enabled(timeout=3000)


def test_live_updates_keep_the_hand_list_numbered_as_the_hands_are(phone):
    """Trap 4: after a save the list read '2. Hand 1'."""
    match, link = start()
    alice = phone()
    sit_down(alice, link, "Alice", "1111")
    for number in (1, 2):
        fill_quick_knock(alice, "4", "30")
        alice.get_by_test_id("submit-hand").click()
        expect(alice.locator("#hand-form h2")).to_contain_text(f"Enter hand {number + 1}")
    alice.wait_for_timeout(3500)  # a poll as well
    markers = alice.locator("ol.hands > li").evaluate_all(
        "items => items.map(li => getComputedStyle(li).listStyleType)"
    )
    assert markers and set(markers) == {"none"}, markers
    texts = alice.locator("ol.hands > li strong").all_inner_texts()
    assert texts[:2] == ["Hand 2", "Hand 1"], texts


def test_a_wrong_pin_keeps_the_chosen_name(phone):
    """Trap 6, first half."""
    match, link = start()
    alice = phone()
    alice.goto(link)
    alice.get_by_label("Alice", exact=True).check()
    alice.get_by_label("PIN").fill("9999")
    alice.get_by_role("button", name="This is me").click()
    expect(alice.locator("#seat-form [role=alert]")).to_contain_text("PIN")
    expect(alice.get_by_label("Alice", exact=True)).to_be_checked()
    alice.get_by_label("PIN").fill("1111")
    alice.get_by_role("button", name="This is me").click()
    expect(alice.locator("#hand-form")).to_contain_text("as Alice")


def test_errors_start_with_a_capital_and_name_the_players(phone):
    """Trap 7: no 'say who knocked (seat A or B)'."""
    match, link = start()
    alice = phone()
    sit_down(alice, link, "Alice", "1111")
    alice.locator("#id_knocker_deadwood").fill("4")
    alice.get_by_test_id("submit-hand").click()
    alert = alice.locator("#hand-form [role=alert]")
    expect(alert).to_be_visible()
    text = alert.inner_text().strip()
    assert text[0].isupper(), text
    assert "seat" not in text.lower(), text
    assert "Alice" in text and "Bob" in text, text


def test_the_preview_writes_cards_as_the_grid_does(phone):
    """Trap 7: '9♣', not '9C', and no trailing '·'."""
    match, link = start()
    alice = phone()
    sit_down(alice, link, "Alice", "1111")
    alice.get_by_role("link", name="Card by card").click()
    choose_knocker(alice, "Alice")
    tap(alice, "knocker", KNOCKER)
    tap(alice, "defender", DEFENDER)
    alice.get_by_role("button", name="Preview score").click()
    preview = alice.locator("#preview")
    expect(preview).to_contain_text("9♣")
    text = preview.inner_text()
    assert not re.search(r"\b(9C|KS|5H)\b", text), text
    assert not re.search(r"·\s*$", text, re.M), text


def choose_knocker(page, name: str) -> None:
    fieldset = page.locator("#hand-entry fieldset", has_text="Who knocked")
    fieldset.get_by_label(name, exact=True).check()


def test_a_reload_keeps_the_half_entered_card_hand(phone):
    """Trap 13: the mode is in the address, the taps in the browser, until saved."""
    match, link = start()
    alice = phone()
    sit_down(alice, link, "Alice", "1111")
    alice.get_by_role("link", name="Card by card").click()
    expect(alice).to_have_url(re.compile(r"mode=cards"))
    choose_knocker(alice, "Alice")
    tap(alice, "knocker", KNOCKER[:7])
    alice.reload()
    expect(alice.locator('[data-grid="knocker"]')).to_be_attached()
    for card in KNOCKER[:7]:
        expect(alice.locator(f'[data-grid="knocker"] input[value="{card}"]')).to_be_checked()
    expect(alice.locator('input[name="knocker"][value="A"]')).to_be_checked()
    tap(alice, "knocker", KNOCKER[7:])
    tap(alice, "defender", DEFENDER)
    alice.get_by_test_id("submit-hand").click()
    expect(alice.locator("#hand-form h2")).to_contain_text("Enter hand 2")
    alice.reload()
    expect(alice.locator('[data-grid="knocker"] input:checked')).to_have_count(0)
    assert Hand.objects.get(game__match=match).knocker_deadwood == 2


def test_two_phones_saving_one_hand_with_other_figures_see_both_and_settle_it(phone):
    """Trap 12: the second phone's figures stay, both entries side by side, then settled."""
    match, link = start()
    alice, bob = phone(), phone()
    sit_down(alice, link, "Alice", "1111")
    sit_down(bob, link, "Bob", "2222")
    fill_quick_knock(bob, "5", "30")
    fill_quick_knock(alice, "4", "30")
    alice.get_by_test_id("submit-hand").click()
    expect(alice.locator("#hand-form h2")).to_contain_text("Enter hand 2")
    bob.get_by_test_id("submit-hand").click()
    alert = bob.locator("#hand-form [role=alert]")
    expect(alert).to_contain_text("Alice already entered hand 1")
    expect(alert).to_be_in_viewport()
    clash = bob.get_by_test_id("hand-clash")
    expect(clash).to_contain_text("Alice saved")
    expect(clash.locator("tr.differs", has_text="Knocker's deadwood")).to_contain_text("4")
    expect(clash.locator("tr.differs", has_text="Knocker's deadwood")).to_contain_text("5")
    bob.wait_for_timeout(3500)  # a poll: Bob's entry must still be there
    expect(bob.locator("#id_knocker_deadwood")).to_have_value("5")
    expect(bob.locator("#hand-form h2")).to_contain_text("Enter hand 1")
    bob.get_by_test_id("clash-confirm").click()
    expect(bob.locator("#hand-form h2")).to_contain_text("Enter hand 2")
    expect(bob.locator("#scoreboard")).to_contain_text("Confirmed")
    assert Hand.objects.get(game__match=match).state == Hand.State.CONFIRMED


def test_two_phones_saving_the_same_figures_confirm_the_hand(phone):
    """Trap 12: an identical second entry simply confirms."""
    match, link = start()
    alice, bob = phone(), phone()
    sit_down(alice, link, "Alice", "1111")
    sit_down(bob, link, "Bob", "2222")
    fill_quick_knock(bob, "4", "30")
    fill_quick_knock(alice, "4", "30")
    alice.get_by_test_id("submit-hand").click()
    expect(alice.locator("#hand-form h2")).to_contain_text("Enter hand 2")
    bob.get_by_test_id("submit-hand").click()
    expect(bob.locator("#hand-form h2")).to_contain_text("Enter hand 2")
    expect(bob.locator("#scoreboard")).to_contain_text("Confirmed")
    assert Hand.objects.get(game__match=match).state == Hand.State.CONFIRMED


def test_a_disputed_hand_gives_both_players_a_next_step(phone):
    """Trap 6: the disputer had no buttons, the enterer only 'Withdraw my entry'."""
    match, link = start()
    alice, bob = phone(), phone()
    sit_down(alice, link, "Alice", "1111")
    sit_down(bob, link, "Bob", "2222")
    fill_quick_knock(alice, "4", "30")
    alice.get_by_test_id("submit-hand").click()
    expect(bob.get_by_test_id("confirm-1")).to_be_visible(timeout=10000)
    bob.get_by_label("What is wrong with hand 1?").fill("I had 31")
    bob.get_by_role("button", name="Dispute").click()
    for page in (alice, bob):
        step = page.get_by_test_id("next-step-1")
        expect(step).to_contain_text("ask the organiser to correct it", timeout=10000)
    expect(alice.get_by_test_id("withdraw-1")).to_contain_text("enter it again")
    expect(bob.get_by_test_id("settle-1")).to_contain_text("Alice's entry is right")
    bob.get_by_test_id("settle-1").click()
    for page in (alice, bob):
        expect(page.locator("#hand-1, ol.hands > li").first).to_contain_text(
            "Confirmed", timeout=10000
        )
    assert Hand.objects.get(game__match=match).state == Hand.State.CONFIRMED


def test_the_confirming_player_sees_the_cards_melds_and_marks(phone):
    """Trap 14: cards and melds before confirming; corrections and organiser entries marked."""
    match, link = start()
    alice, bob = phone(), phone()
    sit_down(alice, link, "Alice", "1111")
    sit_down(bob, link, "Bob", "2222")
    alice.get_by_role("link", name="Card by card").click()
    choose_knocker(alice, "Alice")
    tap(alice, "knocker", KNOCKER)
    tap(alice, "defender", DEFENDER)
    alice.get_by_test_id("submit-hand").click()
    expect(bob.get_by_test_id("confirm-1")).to_be_visible(timeout=10000)
    cards = bob.locator("ol.hands > li .hand-cards")
    expect(cards).to_contain_text("5♥ 6♥ 7♥")  # a meld of Alice's
    expect(cards).to_contain_text("Laid off")
    expect(cards).to_contain_text("8♥")
    bob.get_by_test_id("confirm-1").click()
    hand = Hand.objects.get(game__match=match)
    services.correct_hand(
        hand_id=hand.pk,
        actor=services.Actor(user=match.club.organisers.first()),
        hand_input=_quick(kd=2, dd=9),
        version=hand.version + 0 if hand.state == "confirmed" else hand.version,
        reason="a card was misread",
        idempotency_key="fix-1",
    )
    services.submit_hand(
        match_id=match.pk,
        actor=services.Actor(user=match.club.organisers.first()),
        hand=_quick(number=2),
        idempotency_key="org-2",
    )
    for page in (alice, bob):
        corrected = page.get_by_test_id("corrected-1")
        expect(corrected).to_contain_text("Corrected", timeout=10000)
        expect(corrected).to_contain_text("Alice +6")
        expect(corrected).to_contain_text("a card was misread")
        expect(page.get_by_test_id("by-organiser-2")).to_contain_text("Entered by the organiser")


def _quick(number=1, kd=4, dd=30):
    from scoring.hand_input import HandInput

    return HandInput(
        game=1, number=number, outcome="knock", knocker="A", knocker_deadwood=kd,
        defender_deadwood=dd,
    )  # fmt: skip


def test_the_card_by_card_page_is_short_with_big_cards_counts_and_a_clear_button(phone):
    """Trap 8: it was about 2,500-2,800 px tall at 360 px, with no count or clear button."""
    match, link = start()
    alice = phone()
    sit_down(alice, link, "Alice", "1111")
    alice.get_by_role("link", name="Card by card").click()
    expect(alice.locator('[data-grid="knocker"]')).to_be_visible()
    expect(alice.locator('[data-grid="defender"]')).to_be_hidden()  # one grid at a time
    # 1,900: the page now ends with the "Organiser, please" button (issue 25).
    assert alice.evaluate("document.documentElement.scrollHeight") < 1900
    assert alice.evaluate("document.documentElement.scrollWidth") <= 360
    sizes = alice.locator('[data-grid="knocker"] label').evaluate_all(
        "ls => ls.map(l => [l.getBoundingClientRect().width, l.getBoundingClientRect().height,"
        " l.getBoundingClientRect().right])"
    )
    assert len(sizes) == 52
    assert all(w >= 44 and h >= 44 and right <= 360 for w, h, right in sizes), sizes
    choose_knocker(alice, "Alice")
    tap(alice, "knocker", KNOCKER[:7])
    expect(alice.locator('[data-count="knocker"]')).to_have_text("7/10")
    alice.get_by_role("button", name="Clear knocker's cards").click()
    expect(alice.locator('[data-count="knocker"]')).to_have_text("0/10")
    tap(alice, "knocker", KNOCKER)  # a full hand moves on to the defender's grid
    expect(alice.locator('[data-grid="defender"]')).to_be_visible()
    expect(alice.locator('[data-count="knocker"]')).to_have_text("10/10")

    # clubs and spades are told apart, and more so with four-colour suits
    def colour(card: str) -> str:
        return alice.locator(f'[data-grid="defender"] input[value="{card}"] + span').evaluate(
            "s => getComputedStyle(s).backgroundColor + getComputedStyle(s).color"
        )

    assert colour("3C") != colour("3S")
    plain = colour("3C")
    alice.get_by_label("Four-colour suits").check()
    assert colour("3C") != plain
    alice.reload()
    expect(alice.get_by_label("Four-colour suits")).to_be_checked()


def test_outcome_and_knocker_are_big_labelled_buttons_and_deadwood_is_quick_to_enter(phone):
    """Trap 8: bare radio circles apart from their labels; 30 was 30 taps."""
    match, link = start()
    alice = phone()
    sit_down(alice, link, "Alice", "1111")
    for name in ("Knock", "Gin", "Big gin", "Dead hand", "Alice", "Bob"):
        control = alice.locator("#hand-entry").get_by_label(name, exact=True)
        box = control.locator("xpath=ancestor::label").bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, (name, box)
    alice.locator("#hand-entry").get_by_text("Bob", exact=True).click()
    expect(alice.locator('input[name="knocker"][value="B"]')).to_be_checked()
    plus_ten = alice.get_by_role(
        "button", name="Add 10 to defender's deadwood (after lay-offs)", exact=True
    )
    for _ in range(3):
        plus_ten.click()
    expect(alice.get_by_label("Defender's deadwood (after lay-offs)", exact=True)).to_have_value(
        "30"
    )
    alice.get_by_label("Knocker's deadwood", exact=True).fill("7")
    alice.get_by_test_id("submit-hand").click()
    expect(alice.locator("#scoreboard")).to_contain_text("Knock: 30 − 7 = 23")


class Taps:
    """Counts a player's taps on the phone (each click is one tap)."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def on(self, locator) -> None:
        locator.click()
        self.count += 1


def test_taps_for_a_quick_hand_and_for_a_card_entry_knock(phone, record_property):
    """docs/players.md states these numbers: a quick knock (Ada 4, Ben 30, with the steppers)
    and a card-entry knock (both hands tapped), from an empty form to saved."""
    match, link = start()
    alice = phone()
    sit_down(alice, link, "Alice", "1111")
    quick = Taps(alice)
    quick.on(alice.locator("#hand-entry").get_by_text("Alice", exact=True))
    for _ in range(4):
        quick.on(alice.get_by_role("button", name="Add 1 to knocker's deadwood", exact=True))
    for _ in range(3):
        quick.on(
            alice.get_by_role(
                "button", name="Add 10 to defender's deadwood (after lay-offs)", exact=True
            )
        )
    quick.on(alice.get_by_test_id("submit-hand"))
    expect(alice.locator("#scoreboard")).to_contain_text("Knock: 30 − 4 = 26")
    assert quick.count == 9

    cards = Taps(alice)
    expect(alice.get_by_test_id("submit-hand")).to_be_enabled()
    cards.on(alice.get_by_role("link", name="Card by card"))
    expect(alice.locator('[data-grid="knocker"]')).to_be_visible()
    cards.on(alice.locator("#hand-entry").get_by_text("Alice", exact=True))
    for card in KNOCKER:
        cards.on(alice.locator(f'[data-grid="knocker"] label:has(input[value="{card}"])'))
    for card in DEFENDER:  # the defender's grid came up by itself after the tenth card
        cards.on(alice.locator(f'[data-grid="defender"] label:has(input[value="{card}"])'))
    cards.on(alice.get_by_test_id("submit-hand"))
    expect(alice.locator("#hand-form h2")).to_contain_text("Enter hand 3")
    assert cards.count == 23
    record_property("taps", {"quick knock": quick.count, "card-entry knock": cards.count})
    hands = Hand.objects.filter(game__match=match).order_by("number")
    assert [(h.knocker_deadwood, h.defender_deadwood) for h in hands] == [(4, 30), (2, 8)]
