"""A game loss penalty at a real table (issue 25): the organiser at 1280 px previews and
records a game loss against Ben, sees the standings change and say why; Ben's phone at
360 px, seated at the table, sees the penalty and the result on its scoreboard.
Screenshots go to test-artifacts/penalty-*.png."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from ginclub.permissions import table_token
from scoring.hand_input import HandInput
from scoring.models import Penalty
from scoring.services import Actor, submit_hand
from tests.browser.conftest import ARTIFACTS
from tests.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db(transaction=True)

PINS = {"Ada": "1111", "Ben": "2222"}


@pytest.fixture
def desk(browser, live_server, settings):
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=live_server.url)
    context.set_default_timeout(15000)
    yield context.new_page()
    context.close()


def _table():
    """Ada v Ben, one game to 100 wins the match; Ada has knocked once for 15."""
    club = ClubFactory(name="Riverside Gin", slug="riverside")
    olga = UserFactory(username="olga")
    club.organisers.add(olga)
    for name, pin in PINS.items():
        PlayerFactory(club=club, name=name, pin=pin)
    who = Actor(user=olga)
    event = services.create_tournament(
        club=club, actor=who, name="Autumn Open", date=dt.date(2026, 11, 28),
        overrides={"games_to_win": 1, "game_target": 100}, bye_games=1, first_round="list",
    )  # fmt: skip
    for name in PINS:
        services.add_registration(tournament_id=event.pk, actor=who, name=name)
    rnd = services.draft_round(tournament_id=event.pk, actor=who)
    services.publish_round(round_id=rnd.pk, actor=who)
    pairing = Pairing.objects.select_related("match").get(round=rnd)
    submit_hand(
        match_id=pairing.match_id, actor=who, idempotency_key="h1",
        hand=HandInput(game=1, number=1, outcome="knock", knocker="A",
                       knocker_deadwood=5, defender_deadwood=20),
    )  # fmt: skip
    return event, pairing.match


def test_the_organiser_records_a_game_loss_and_the_standings_and_the_phone_follow(desk, phone):
    event, match = _table()
    assert match.player_a.name == "Ada"
    ben = phone()
    ben.goto(f"/t/{table_token(match)}/")
    ben.get_by_label("Ben", exact=True).check()
    ben.get_by_label("PIN").fill(PINS["Ben"])
    ben.get_by_role("button", name="This is me").click()
    expect(ben.locator("#hand-form")).to_contain_text("as Ben")
    expect(ben.get_by_test_id("penalties")).to_have_count(0)

    desk.goto("/accounts/login/")
    desk.get_by_label("Username").fill("olga")
    desk.get_by_label("Password").fill(PASSWORD)
    desk.get_by_role("button", name="Log in").click()
    desk.goto(f"/tournaments/{event.slug}/manage/standings/")
    expect(desk.locator("table.standings")).not_to_contain_text("game loss")

    desk.goto(f"/matches/{match.pk}/")
    form = desk.locator("#penalty-form")
    form.locator("label", has_text="Ben").click()
    form.get_by_label("Infraction").select_option("cards")
    form.get_by_label("What happened").fill("Ben looked at the next card of the stock")
    desk.get_by_test_id("penalty-kind").select_option("game_loss")
    desk.get_by_test_id("penalty-preview-button").click()
    preview = desk.get_by_test_id("penalty-preview-result")
    expect(preview).to_contain_text("undecided: games Ada 0 – 0 Ben, points 0 – 0")
    expect(preview).to_contain_text("Ada wins: games Ada 1 – 0 Ben, points 140 – 0")
    assert not Penalty.objects.exists()  # a preview writes nothing
    desk.screenshot(path=str(ARTIFACTS / "penalty-desk-preview.png"), full_page=True)
    desk.get_by_test_id("penalty-record").click()
    expect(desk.get_by_test_id("penalty-staff-list")).to_contain_text("Game loss · Ben")
    expect(desk.get_by_test_id("match-result")).to_contain_text("Ada wins 1–0")

    desk.goto(f"/tournaments/{event.slug}/manage/standings/")
    first = desk.locator("table.standings tbody tr").first
    expect(first).to_contain_text("Ada")
    first.locator("summary").click()
    expect(first.get_by_test_id("why")).to_contain_text(
        "won a game against Ben in round 1 by a game loss penalty against them"
    )
    desk.screenshot(path=str(ARTIFACTS / "penalty-desk-standings.png"), full_page=True)

    # Ben's phone polls its scoreboard: the penalty and the result appear on their own.
    expect(ben.get_by_test_id("penalties")).to_contain_text(
        "Game loss against Ben (drawing or looking at extra cards, game 1)"
    )
    expect(ben.get_by_test_id("match-result")).to_contain_text("Ada wins 1–0")
    ben.screenshot(path=str(ARTIFACTS / "penalty-phone.png"), full_page=True)
    assert ben.evaluate("document.documentElement.scrollWidth") <= 360
