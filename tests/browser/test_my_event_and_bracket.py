"""My event and the bracket in a real browser: a 360 px phone finds its player by the
search box and follows its own table as it finishes; the bracket scrolls inside its own
box on the phone, fills the projector and prints on one landscape A4 sheet; axe finds
nothing serious on any of them. Screenshots go to test-artifacts/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.axe import assert_accessible
from tests.browser.conftest import ARTIFACTS
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import actor, new_event, play_round, reg, win
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Alexandra Montgomery-Smythe",
    "Bob",
    "Cara",
    "Dan",
    "Evangeline Featherstonehaugh",
    "Fin",
]


def build_bracket():
    """Six players in a single elimination: round 1 played (two byes), the semi-finals
    published with the clock running and one table finished."""
    club = ClubFactory(name="Riverside Gin", slug="riverside")
    organiser = UserFactory(username="olga")
    club.organisers.add(organiser)
    event = new_event(
        club, organiser, players=NAMES, format="elimination", name="Riverside Knockout"
    )
    play_round(event, organiser)
    semis = play_round(event, organiser, play=False, close=False)
    services.start_round_timer(round_id=semis.pk, actor=actor(organiser))
    first = semis.pairings.select_related("player_a__player", "player_b__player", "match")
    win(first.get(table=1), organiser, first.get(table=1).player_a.player.name)
    return event, organiser, first.get(table=2)


def fits(page, name: str, width: int = 360) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"{name} is {wide} px wide"


def test_a_player_finds_their_name_and_follows_their_table(phone):
    event, organiser, playing = build_bracket()
    me = playing.player_b.player.name
    page = phone()
    page.goto(f"/tournaments/{event.slug}/")
    expect(page.locator(".my-event-qr svg")).to_be_visible()
    page.get_by_role("link", name="open My event").click()
    page.get_by_label("Search players").fill(me[:4].lower())
    expect(page.locator("#player-list li:visible")).to_have_count(1)
    fits(page, "phone-my-event-choose")
    assert_accessible(page)
    page.get_by_role("link", name=me).click()
    expect(page).to_have_url(
        f"{page.url.split('/tournaments/')[0]}/tournaments/{event.slug}/"
        f"players/{reg(event, me).pk}/"
    )
    now = page.get_by_test_id("my-now")
    expect(now).to_contain_text(f"Table 2 v {playing.player_a.player.name}")
    expect(page.get_by_test_id("my-clock")).to_contain_text("left")
    expect(page.get_by_test_id("my-results")).to_contain_text("Round 1")
    fits(page, "phone-my-event")
    assert_accessible(page)
    win(playing, organiser, me, "2-1")  # the page's own poll brings the result
    expect(now).to_contain_text("You won 2–1", timeout=20000)
    expect(page.get_by_test_id("my-next")).to_contain_text("round 3")


def test_the_bracket_scrolls_in_its_own_box_on_a_phone_and_prints_on_a4(
    phone, browser, live_server
):
    event, _organiser, _playing = build_bracket()
    page = phone()
    page.goto(f"/tournaments/{event.slug}/bracket/")
    boxes = page.get_by_test_id("bracket-box")
    expect(boxes).to_have_count(7)  # 4 quarter-finals (2 byes), 2 semi-finals, the final
    expect(page.locator("#bracket-board")).to_contain_text("Winner of table 2")
    fits(page, "phone-bracket")
    scroller = page.locator(".bracket-scroll")
    assert scroller.evaluate("el => el.scrollWidth > el.clientWidth")  # scrolls inside
    # and says so: a walk saw "Final rou…" cut at the edge, with nothing to say it scrolls
    expect(page.get_by_test_id("bracket-scroll-hint")).to_be_visible()
    assert_accessible(page)

    page.set_viewport_size({"width": 1123, "height": 794})  # A4 landscape at 96 dpi
    page.emulate_media(media="print")
    for paper, width in (("a4", 1123), ("a3", 1587)):
        page.set_viewport_size({"width": width, "height": 794})
        page.goto(f"/tournaments/{event.slug}/bracket/print/?paper={paper}")
        expect(page.locator(".topbar")).to_be_hidden()
        expect(page.get_by_role("button", name="Print")).to_be_hidden()
        expect(page.get_by_test_id("bracket-box")).to_have_count(7)
        expect(page.get_by_test_id("bracket-scroll-hint")).to_be_hidden()
        fits(page, f"print-bracket-{paper}", width)
        assert_accessible(page)

    projector = browser.new_context(
        viewport={"width": 1280, "height": 720}, base_url=live_server.url
    ).new_page()
    projector.goto(f"/tournaments/{event.slug}/projector/")
    expect(projector.locator("#projector-board .bracket")).to_be_visible()
    expect(projector.get_by_test_id("bracket-scroll-hint")).to_be_hidden()
    fits(projector, "projector-bracket", 1280)
    # nobody can scroll a projector sideways: the whole chart shows, the final included
    assert projector.locator(".bracket-scroll").evaluate("el => el.scrollWidth <= el.clientWidth")
    assert_accessible(projector)
    projector.context.close()
