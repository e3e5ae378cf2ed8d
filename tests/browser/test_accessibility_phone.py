"""axe-core on the phone's match page (issue 9, trap 9): the seat chooser, the quick
form, card-by-card entry and the opponent's confirm view, at 360 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ginclub.permissions import table_token
from scoring import services
from scoring.hand_input import HandInput
from tests.browser.axe import assert_accessible
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_phone_match_page_has_no_serious_violations(phone):
    club = ClubFactory()
    organiser = UserFactory()
    club.organisers.add(organiser)
    ada = PlayerFactory(club=club, name="Ada", pin="1111")
    ben = PlayerFactory(club=club, name="Ben", pin="2222")
    match = services.start_match(
        club=club, player_a=ada, player_b=ben, actor=services.Actor(user=organiser)
    )
    link = f"/t/{table_token(match)}/"
    page = phone()
    page.goto(link)
    assert_accessible(page, name="seat chooser")
    page.get_by_label("Ada", exact=True).check()
    page.get_by_label("PIN").fill("1111")
    page.get_by_role("button", name="This is me").click()
    expect(page.locator("#hand-form")).to_contain_text("as Ada")
    assert_accessible(page, name="quick entry")
    page.get_by_role("link", name="Card by card").click()
    expect(page.locator("[data-card-entry]")).to_be_visible()
    assert_accessible(page, name="card-by-card entry")
    services.submit_hand(
        match_id=match.pk,
        actor=services.Actor(player=ada),
        idempotency_key="a11y-1",
        hand=HandInput(
            game=1,
            number=1,
            outcome="knock",
            knocker="A",
            knocker_deadwood=5,
            defender_deadwood=20,
        ),
    )
    other = phone()
    other.goto(link)
    other.get_by_label("Ben", exact=True).check()
    other.get_by_label("PIN").fill("2222")
    other.get_by_role("button", name="This is me").click()
    expect(other.get_by_role("button", name="Confirm").first).to_be_visible()
    assert_accessible(other, name="confirm view")
