"""Tapping a standings row says why it stands there (issue 9, 'every number explains
itself'), on a 360 px phone, public and organiser pages."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.axe import assert_accessible
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_accessibility import build_event
from tests.factories import PASSWORD
from tournaments import selectors

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_tapped_standings_row_says_why_it_stands_there(phone):
    _club, tournament, _finished, _disputed = build_event()
    rows = selectors.standings(tournament).rows
    first, last = rows[0], rows[-1]
    page = phone()
    page.goto(f"/tournaments/{tournament.slug}/standings/")
    words = page.get_by_test_id("why").first
    expect(words).to_be_hidden()
    page.locator("table.standings summary", has_text=first.name).click()
    expect(words).to_be_visible()
    expect(words).to_have_text(first.why)
    assert first.why.startswith(("Ahead of", "Shares 1st"))
    page.screenshot(path=str(ARTIFACTS / "phone-standings-why.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert_accessible(page, name="public standings with a row explained")

    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"/tournaments/{tournament.slug}/manage/standings/")
    row = page.locator("table.standings tbody tr").last
    expect(row).to_contain_text(last.name)
    row.locator("summary").click()
    expect(row.get_by_test_id("why")).to_have_text(last.why)
    expect(row.get_by_test_id("why")).to_be_visible()
    assert last.why.startswith(("Behind", "Shares"))
