"""The card grid built for thumbs (issue 11): as cards are tapped, the melds found so far
and the deadwood of the rest show under the grid, worked out on the phone (melds.js),
with four-colour suits on or off, at 360 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.axe import assert_accessible
from tests.browser.steps import sit_down
from tests.browser.test_table_flow import start, tap
from tests.browser.test_table_traps import choose_knocker

pytestmark = pytest.mark.django_db(transaction=True)

# Alice knocks with 7♠ 8♠ 9♠, 7♣ 7♦ 7♥, A♣ 2♣ 3♣ and K♦ (deadwood 10). After each tap,
# the line under the grid, worked out by hand:
KNOCKS = [
    ("7S", "no melds yet", "deadwood 7: 7♠"),
    ("8S", "no melds yet", "deadwood 15: 7♠ 8♠"),  # 7 + 8
    ("9S", "7♠ 8♠ 9♠", "deadwood 0"),
    ("7H", "7♠ 8♠ 9♠", "deadwood 7: 7♥"),
    # 7♠ could make 7♠ 7♥ 7♦ instead, stranding 8♠ 9♠ = 17; the run strands 7 + 7 = 14
    ("7D", "7♠ 8♠ 9♠", "deadwood 14: 7♦ 7♥"),
    # the third red-and-black seven lets the set and the run both stand
    ("7C", "7♣ 7♦ 7♥ · 7♠ 8♠ 9♠", "deadwood 0"),
    ("AC", "7♣ 7♦ 7♥ · 7♠ 8♠ 9♠", "deadwood 1: A♣"),
    ("2C", "7♣ 7♦ 7♥ · 7♠ 8♠ 9♠", "deadwood 3: A♣ 2♣"),  # 1 + 2
    ("3C", "A♣ 2♣ 3♣ · 7♣ 7♦ 7♥ · 7♠ 8♠ 9♠", "deadwood 0"),
    ("KD", "A♣ 2♣ 3♣ · 7♣ 7♦ 7♥ · 7♠ 8♠ 9♠", "deadwood 10: K♦"),
]
# Bob: K♣ K♥ K♠ and 8♥ 9♥ 10♥ meld; 4 + 5 + 10 + 10 = 29 before lay-offs, and none of
# 4♦ 5♦ J♣ Q♣ fits Alice's melds, so Alice scores 29 − 10 = 19.
DEFENDS = "8H 9H TH KC KH KS 4D 5D QC JC".split()


def line(page, side: str):
    return page.locator(f'[data-melds="{side}"]')


def test_the_grid_shows_the_melds_and_deadwood_so_far_after_each_tap(phone):
    match, link = start()
    alice = phone()
    sit_down(alice, link, "Alice", "1111")
    alice.get_by_role("link", name="Card by card").click()
    choose_knocker(alice, "Alice")
    expect(line(alice, "knocker")).to_contain_text("no cards yet")
    for card, melds, deadwood in KNOCKS:
        tap(alice, "knocker", [card])
        expect(line(alice, "knocker").locator("[data-meld-text]")).to_have_text(melds)
        expect(line(alice, "knocker").locator("[data-dead-text]")).to_have_text(deadwood)
    # the tenth card moved the grid on to Bob's hand; screen readers hear it once
    expect(alice.locator('[data-grid="defender"]')).to_be_visible()
    expect(alice.locator("[data-meld-news]")).to_have_text(
        "Knocker, 10 of 10 cards: A♣ 2♣ 3♣ · 7♣ 7♦ 7♥ · 7♠ 8♠ 9♠; deadwood 10: K♦."
        " Now the defender's cards."
    )
    assert_accessible(alice, name="card grid, two colours, knocker's hand in")

    tap(alice, "defender", DEFENDS)
    defender = line(alice, "defender")
    expect(defender.locator("[data-meld-text]")).to_have_text("K♣ K♥ K♠ · 8♥ 9♥ 10♥")
    expect(defender.locator("[data-dead-text]")).to_have_text(
        "deadwood 29 before lay-offs: 4♦ 5♦ J♣ Q♣"
    )
    expect(alice.locator("[data-card-entry]")).to_contain_text(
        "The defender's lay-offs show in Preview score."
    )
    alice.get_by_role("button", name="Preview score").click()
    expect(alice.locator("#preview")).to_contain_text("29 − 10 = 19")  # the server agrees

    # four-colour suits: the switch is a thumb-sized target, and clubs in the line turn green
    switch = alice.locator(".four-colour-switch")
    box = switch.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44, box
    club = line(alice, "knocker").locator(".s-C").first
    two_colour = club.evaluate("s => getComputedStyle(s).color")
    alice.get_by_label("Four-colour suits").check()
    assert club.evaluate("s => getComputedStyle(s).color") != two_colour
    assert alice.evaluate("document.documentElement.scrollWidth") <= 360
    assert_accessible(alice, name="card grid, four colours, both hands in")


def test_the_melds_line_is_announced_when_the_tapping_pauses_not_after_every_card(phone):
    match, link = start()
    alice = phone()
    sit_down(alice, link, "Alice", "1111")
    alice.get_by_role("link", name="Card by card").click()
    choose_knocker(alice, "Alice")
    alice.locator("[data-meld-news]").evaluate(
        """el => { window.newsChanges = 0;
                   new MutationObserver(() => { window.newsChanges += 1; })
                     .observe(el, {childList: true, characterData: true, subtree: true}); }"""
    )
    tap(alice, "knocker", [card for card, _, _ in KNOCKS[:6]])
    expect(alice.locator("[data-meld-news]")).to_have_text(
        "Knocker, 6 of 10 cards: 7♣ 7♦ 7♥ · 7♠ 8♠ 9♠; deadwood 0."
    )
    # six quick taps: one announcement (two if the machine paused between taps)
    assert alice.evaluate("window.newsChanges") <= 2
    tap(alice, "knocker", ["QH", "KH"])
    tap(alice, "knocker", ["KH"])  # untapped: the same line as before, so nothing new
    alice.wait_for_timeout(1500)
    expect(alice.locator("[data-meld-news]")).to_contain_text("7 of 10 cards")
    expect(line(alice, "knocker").locator("[data-dead-text]")).to_have_text("deadwood 10: Q♥")


def test_a_twelfth_card_asks_for_one_off_instead_of_a_line(phone):
    match, link = start()
    alice = phone()
    sit_down(alice, link, "Alice", "1111")
    alice.get_by_role("link", name="Card by card").click()
    tap(alice, "knocker", [card for card, _, _ in KNOCKS])
    alice.get_by_role("button", name="Knocker 10/10").click()
    tap(alice, "knocker", ["QH", "QS"])
    expect(line(alice, "knocker").locator("[data-meld-text]")).to_have_text(
        "12 cards: a hand has 10, untap the extra"
    )
    expect(line(alice, "knocker").locator("[data-dead-text]")).to_have_text("")


def test_switching_to_the_card_grid_breaks_no_content_security_policy(phone):
    """htmx settles a swapped element's old `style` attribute with setAttribute, which a
    CSP without 'unsafe-inline' styles blocks: a console error for each input that
    something else had styled (browsers' autofill and password managers do, and so does
    Chromium's own full-page screenshot). The site's htmx config settles class, width and
    height only."""
    match, link = start()
    alice = phone()
    blocked = []
    alice.on(
        "console",
        lambda m: "Content Security Policy" in m.text and blocked.append(m.text[:120]),
    )
    sit_down(alice, link, "Alice", "1111")
    # as an autofill extension would (through the CSSOM, which the policy allows)
    alice.evaluate("document.querySelectorAll('input').forEach(i => i.style.outline = '0')")
    alice.get_by_role("link", name="Card by card").click()
    choose_knocker(alice, "Alice")
    tap(alice, "knocker", ["7S", "8S", "9S"])
    expect(line(alice, "knocker").locator("[data-dead-text]")).to_have_text("deadwood 0")
    assert blocked == []
