"""A player's page and the club's ratings on a phone: they fit 360 px (wide tables scroll
in their own labelled boxes), both charts load as images under the page's CSP with no
violation reported, and axe finds nothing serious. Screenshots go to test-artifacts/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.hand_input import HandInput
from tests.browser.axe import assert_accessible
from tests.browser.conftest import ARTIFACTS
from tests.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

CARD_HAND = HandInput(
    game=1,
    number=1,
    outcome="knock",
    knocker="A",
    knocker_cards=("5H", "6H", "7H", "8H", "3S", "3D", "3C", "AS", "2D", "4C"),
    defender_cards=("9H", "3H", "QS", "QD", "QC", "KS", "KD", "TC", "9C", "2C"),
)


def build_history():
    """Alexandra plays six matches against three opponents, one hand entered by cards."""
    club = ClubFactory(name="Riverside Gin", slug="riverside")
    organiser = UserFactory(username="olga")
    club.organisers.add(organiser)
    actor = services.Actor(user=organiser)
    me = PlayerFactory(
        club=club, name="Alexandra Montgomery-Smythe", user=UserFactory(username="alex")
    )
    rivals = [PlayerFactory(club=club, name=name) for name in ("Bob", "Cara", "Dan")]
    keys = iter(range(10_000))
    for n in range(6):
        rival = rivals[n % 3]
        a, b = (me, rival) if n % 2 == 0 else (rival, me)
        match = services.start_match(
            club=club, player_a=a, player_b=b, actor=actor, overrides={"game_target": 50}
        )
        hands = [CARD_HAND] if n == 0 else []
        for number in range(len(hands) + 1, 4):
            knocker = "A" if (n + number) % 3 else "B"
            hands.append(
                HandInput(
                    game=1,
                    number=number,
                    outcome="knock",
                    knocker=knocker,
                    knocker_deadwood=(n + number) % 10,
                    defender_deadwood=30,
                )
            )
        for hand in hands:
            services.submit_hand(
                match_id=match.pk, actor=actor, hand=hand, idempotency_key=f"k{next(keys)}"
            )
            match.refresh_from_db()
            if match.state != "in_progress":
                break  # a game to 50 may end before the third hand
    return club, me


def test_the_player_page_on_a_phone(phone):
    _club, me = build_history()
    page = phone()
    violations = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("alex")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"/players/{me.pk}/")
    expect(page.get_by_role("heading", name="Alexandra Montgomery-Smythe")).to_be_visible()
    expect(page.get_by_test_id("player-figures")).to_contain_text("too few")
    expect(page.get_by_test_id("head-to-head")).to_contain_text("Cara")
    for chart in ("chart-results", "chart-deadwood"):
        image = page.get_by_test_id(chart)
        image.scroll_into_view_if_needed()
        expect(image).to_be_visible()
        # Loaded (a broken image has no natural width) and drawn at the phone's width.
        assert image.evaluate("img => img.complete && img.naturalWidth > 0")
        assert image.bounding_box()["width"] <= 360
    page.screenshot(path=str(ARTIFACTS / "phone-player-page.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # Each chart's table of figures (three columns) reads whole in its box, caption and
    # headers included: a walk found "Rated matches" and the rating table's caption cut
    # 19 px short at the box's edge, with nothing wide enough to need scrolling.
    for table in ("table-rating", "table-results", "table-deadwood"):
        box = page.locator(".scroll-x").filter(has=page.get_by_test_id(table))
        widths = box.evaluate("b => [b.scrollWidth, b.clientWidth]")
        assert widths[0] <= widths[1], f"{table}: {widths[0]} px in a box of {widths[1]}"
    assert not violations, violations
    assert_accessible(page)
    # Finished matches were rated in the background as they ended (the test backend runs
    # the task at once): the page says so, and the club's rated list fits a phone too.
    expect(page.get_by_test_id("player-rating")).to_contain_text("Club rating")
    page.goto("/clubs/riverside/ratings/")
    expect(page.get_by_test_id("ratings")).to_contain_text("Alexandra Montgomery-Smythe")
    page.screenshot(path=str(ARTIFACTS / "phone-club-ratings.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # The list is wider than the phone: its box scrolls, with a shadow at the side the
    # hidden columns are on (a walk found columns cut off with no hint of them).
    box = page.locator(".scroll-x").filter(has=page.get_by_test_id("ratings"))
    assert box.evaluate("b => b.scrollWidth > b.clientWidth")
    assert "radial-gradient" in box.evaluate("b => getComputedStyle(b).backgroundImage")
    assert_accessible(page)
    # The chart on its own, as the browser draws the image (its styles are its own).
    chart = phone()
    chart.context.add_cookies(page.context.cookies())
    chart.goto(f"/players/{me.pk}/charts/deadwood.svg")
    chart.screenshot(path=str(ARTIFACTS / "phone-player-chart.png"))
