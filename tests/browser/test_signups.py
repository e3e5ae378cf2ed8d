"""Players sign themselves up, check in and drop, in real browsers: the organiser opens
sign-ups at 1280 px with two places; three players sign up on 360 px phones (one by
typing the short code), the third lands on the waiting list; one leaves with her PIN and
the waiting one moves up, her own page saying so; the players check in from their
phones; one drops during round 1, and round 2's pairing leaves her out."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.steps import log_in, sign_up
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import actor, new_event, pairs_of, win
from tournaments import services
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

PINS = {"Ada": "1357", "Ben": "2468", "Cleo": "3579"}


@pytest.fixture
def desk(browser, live_server, settings):
    """The organiser's browser at 1280 px, logged in."""
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False
    context = browser.new_context(
        viewport={"width": 1280, "height": 1000}, base_url=live_server.url
    )
    context.set_default_timeout(15000)
    yield context.new_page()
    context.close()


def fits(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"signups-{name}.png"), full_page=True)
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 360, f"{name} is {wide} px wide"


def test_players_sign_up_wait_move_up_check_in_and_drop(desk, phone):
    club = ClubFactory(name="Harbour Gin", slug="harbour")
    organiser = UserFactory(username="orla")
    club.organisers.add(organiser)
    event = new_event(club, organiser, players=0, name="Harbour Open")

    # The organiser opens sign-ups: two places, round 1 in half an hour, check-in by
    # phone from an hour before.
    log_in(desk, "orla")
    desk.goto(f"/tournaments/{event.slug}/manage/players/")
    desk.get_by_test_id("signup-settings-open").click()  # closed: the player list first
    settings = desk.get_by_test_id("signup-settings")
    settings.get_by_label("Players may sign up").check()
    settings.get_by_label("Places").fill("2")
    starts = timezone.localtime(timezone.now() + dt.timedelta(minutes=30))
    settings.get_by_label("Round 1 starts at").fill(starts.strftime("%Y-%m-%dT%H:%M"))
    settings.get_by_label("Phones may check in this many minutes before").fill("60")
    settings.get_by_role("button", name="Save").click()
    expect(desk.get_by_test_id("signups-state")).to_have_text("sign-ups open")
    code = desk.get_by_test_id("signup-code").inner_text()
    link = desk.get_by_test_id("signup-link").get_attribute("href")
    assert link == f"/join/{code}/"
    expect(desk.locator("#signups .qr svg")).to_be_visible()

    # Ada types the code from the poster; Ben and Cleo follow the link.
    ada, ben, cleo = phone(), phone(), phone()
    ada.goto("/join/")
    ada.get_by_label("Sign-up code").fill(code.lower())
    ada.get_by_role("button", name="Go to the sign-up form").click()
    fits(ada, "form")
    sign_up(ada, "Ada", PINS["Ada"])
    expect(ada.get_by_test_id("signup-where")).to_contain_text("You have a place")
    ben.goto(link)
    sign_up(ben, "Ben", PINS["Ben"])
    cleo.goto(link)
    sign_up(cleo, "Cleo", PINS["Cleo"])
    expect(cleo.get_by_test_id("signup-where")).to_contain_text(
        "You are number 1 on the waiting list"
    )
    fits(cleo, "waiting")

    # Ben leaves, with his PIN; Cleo's page says she moved up (it refreshes itself every
    # few seconds; reloaded here, so the test does not wait on the clock).
    ben.locator("#leave summary").click()
    ben.get_by_label("Your PIN").fill(PINS["Ben"])
    ben.get_by_test_id("leave").click()
    expect(ben.get_by_test_id("signup-where")).to_contain_text("Ben left Harbour Open")
    cleo.reload()
    expect(cleo.get_by_test_id("signup-where")).to_contain_text(
        "You moved up from the waiting list"
    )
    fits(cleo, "moved-up")

    # Ada and Cleo check in from their own event pages.
    for page, name in ((ada, "Ada"), (cleo, "Cleo")):
        page.get_by_test_id("my-event-link").click()
        form = page.get_by_test_id("my-check-in")
        form.get_by_label("Your PIN").fill(PINS[name])
        form.get_by_role("button", name="Check in: I am here").click()
        expect(page.get_by_test_id("my-checked-in")).to_be_visible()
        fits(page, f"checked-in-{name.lower()}")
    desk.goto(f"/tournaments/{event.slug}/manage/players/")
    for name in ("Ada", "Cleo"):
        expect(desk.locator(".reg", has_text=name)).to_contain_text("checked in")
    expect(desk.locator(".reg", has_text="Ben")).to_have_count(0)

    # Two more players at the desk; round 1 is published; Ada drops during it.
    for name in ("Dan", "Eve"):
        registration = services.add_registration(
            tournament_id=event.pk, actor=actor(organiser), name=name
        )
        services.check_in(registration_id=registration.pk, actor=actor(organiser))
    one = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    services.publish_round(round_id=one.pk, actor=actor(organiser))
    ada.reload()
    ada.locator("#my-drop summary").click()
    ada.locator("#my-drop").get_by_label("Your PIN").fill(PINS["Ada"])
    ada.get_by_test_id("my-drop-button").click()
    expect(ada.locator(".my-name")).to_contain_text("withdrawn")
    fits(ada, "dropped")

    desk.goto(f"/tournaments/{event.slug}/manage/dashboard/")
    expect(desk.get_by_test_id("entries-dropped")).to_contain_text("Ada")
    desk.goto(f"/tournaments/{event.slug}/manage/players/")
    expect(desk.locator(".reg", has_text="Ada")).to_contain_text("withdrawn")

    # Ada's table of round 1 plays on; round 2 leaves her out.
    for pairing in one.pairings.select_related("player_a__player", "player_b__player"):
        if not pairing.is_bye:
            win(pairing, organiser, pairing.player_a.player.name)
    services.close_round(round_id=one.pk, actor=actor(organiser))
    two = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    names = {name for pair in pairs_of(two) for name in pair if name}
    assert names == {"Cleo", "Dan", "Eve"}
    assert Round.objects.get(pk=one.pk).pairings.filter(player_a__player__name="Ada").exists() or (
        Round.objects.get(pk=one.pk).pairings.filter(player_b__player__name="Ada").exists()
    )
    assert Tournament.objects.get(pk=event.pk).signups.filter(state="left").count() == 1
