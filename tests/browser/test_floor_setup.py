"""The floor on a 360 px phone (issue 9, trap 10): each rule profile is offered with its
rules in words, the common options are typed fields, the round length follows the rules,
and round 1 is paired by seed (or a recorded random draw), not registration neighbours."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring import services as scoring
from tests.browser.axe import assert_accessible
from tests.browser.conftest import ARTIFACTS
from tests.factories import PASSWORD, ClubFactory, UserFactory
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def olga_logged_in(phone):
    """Riverside Gin's organiser Olga, logged in on a phone: (club, organiser, page)."""
    club = ClubFactory(name="Riverside Gin", slug="riverside")
    organiser = UserFactory(username="olga")
    club.organisers.add(organiser)
    page = phone()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    return club, organiser, page


def test_an_organiser_sets_up_an_event_and_round_one_pairs_by_seed(phone):
    club, organiser, page = olga_logged_in(phone)
    page.goto("/tournaments/new/")
    standard = page.get_by_label("standard: Games to 100, one game a match", exact=False)
    expect(standard).to_be_visible()
    expect(page.get_by_text("Rounds of about 150 minutes.")).to_be_visible()  # tournament
    page.get_by_label("Name", exact=True).fill("Winter Open")
    standard.check()
    page.get_by_label("Pair only players who checked in").uncheck()  # on for a new event
    page.get_by_test_id("more-options").locator("summary").click()  # the folded options
    page.get_by_label("Game target (points)", exact=True).fill("150")
    page.get_by_label("Lay-offs", exact=True).select_option("false")
    page.get_by_label("Round 1 of a Swiss").select_option("seed")
    page.get_by_label("A bye counts as games won").fill("1")
    assert page.get_by_label("Round length (minutes)").input_value() == ""
    page.screenshot(path=str(ARTIFACTS / "phone-create-floor.png"), full_page=True)
    assert_accessible(page, name="create")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.get_by_text("Winter Open created")).to_be_visible()

    tournament = Tournament.objects.get(name="Winter Open")
    assert tournament.overrides == {"game_target": 150, "layoffs": False}
    assert tournament.first_round == "seed"
    assert tournament.round_minutes == 35  # 9 hands of 2.5 minutes, plus 10, rounded up
    page.goto(f"/tournaments/{tournament.slug}/manage/")
    expect(page.get_by_label("Game target (points)", exact=True)).to_have_value("150")
    expect(page.get_by_label("Other rule options")).to_have_value("")
    # Blank: it follows the rules (a profile change fits it again); it shows what that is.
    expect(page.get_by_label("Round length (minutes)")).to_have_value("")
    expect(page.get_by_label("Round length (minutes)")).to_have_attribute("placeholder", "35")
    assert_accessible(page, name="settings")

    actor = scoring.Actor(user=organiser)
    for name in ["Ada", "Ben", "Cleo", "Dev", "Eve"]:
        services.add_registration(tournament_id=tournament.pk, actor=actor, name=name)
    page.goto(f"/tournaments/{tournament.slug}/manage/rounds/")
    page.get_by_role("button", name="Draft round 1").click()
    draft = page.locator("#draft")
    expect(draft).to_contain_text("round 1 by seed: 1 v 3")
    expect(draft).to_contain_text("bye: lowest seed")
    expect(draft.locator("li").first).to_contain_text("Ada")
    expect(draft.locator("li").first).to_contain_text("Cleo")
    assert_accessible(page, name="rounds with a draft")


def test_a_refused_option_folded_away_is_unfolded_and_marked(phone):
    """A walk chose "Swiss then top cut" and left the cut at none: the refusal named the
    top cut, which stayed folded under "More options"."""
    club, organiser, page = olga_logged_in(phone)
    page.goto("/tournaments/new/")
    page.get_by_label("Name", exact=True).fill("Cut Cup")
    page.get_by_label("Format").select_option("swiss_cut")
    more = page.get_by_test_id("more-options")
    expect(more).not_to_have_attribute("open", "")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.locator("form .refusal")).to_contain_text("a cut of 4 or 8 players")
    expect(more).to_have_attribute("open", "")
    cut = page.get_by_label("Top cut")
    expect(cut).to_be_visible()
    expect(cut).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_label("Name", exact=True)).to_have_value("Cut Cup")  # kept
