"""An organiser on a phone changes the rules from round 2 on (issue 8, finding 4): the
preview fits 360 px and says which rounds are re-scored and kept; round 1 keeps its rules."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.factories import PASSWORD, ClubFactory, UserFactory
from tests.tournaments.helpers import new_event, play_round
from tournaments.models import Round

pytestmark = pytest.mark.django_db(transaction=True)


def fits(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"phone-{name}.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{name} is {width} px wide"


def test_an_organiser_changes_the_rules_from_round_2_on_a_phone(phone):
    club = ClubFactory(name="Riverside Gin", slug="riverside")
    organiser = UserFactory(username="olga")
    club.organisers.add(organiser)
    event = new_event(club, organiser, players=4, rounds=3)
    play_round(event, organiser)  # round 1 played and closed
    second = play_round(event, organiser, play=False, close=False)

    page = phone()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"/tournaments/{event.slug}/manage/")
    form = page.locator("#rules-change")
    # QUICK (game target 25, two games to win) comes back in its fields; gin 20 is new.
    expect(form.get_by_label("Game target (points)", exact=True)).to_have_value("25")
    expect(form.get_by_label("Games to win the match", exact=True)).to_have_value("2")
    form.get_by_label("Gin bonus", exact=True).fill("20")
    form.get_by_label("Apply to").select_option("2")
    form.get_by_role("button", name="Preview the change").click()
    scope = page.locator("#rules-change-scope")
    expect(scope).to_contain_text("From round 2 on.")
    expect(scope).to_contain_text("Round 1 keeps the rules it was played under.")
    fits(page, "rules-change-from-round")
    page.get_by_label("Reason (goes in the ledger)").fill("club vote")
    page.get_by_role("button", name="Apply the change").click()
    # A background job applies it (the suite runs jobs as the request commits); its page
    # shows what it did, and the setup page lists it beside the rules.
    expect(page.locator(".job")).to_contain_text("Rules changed: from round 2 on")
    fits(page, "rules-change-job")
    page.goto(f"/tournaments/{event.slug}/manage/")
    expect(page.locator("#rules-change .job")).to_contain_text("Rules changed: from round 2 on")
    expect(page.locator("main")).to_contain_text("Round 1 played under other rules")
    first = Round.objects.get(tournament=event, number=1)
    assert {p.match.rules["gin_bonus"] for p in first.pairings.select_related("match")} == {25}
    assert {p.match.rules["gin_bonus"] for p in second.pairings.select_related("match")} == {20}
