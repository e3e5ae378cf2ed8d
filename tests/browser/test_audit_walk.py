"""An auditor walks a tournament's audit in the browser (issue 27): from the club's page
to the private event's organiser pages, the audit verifies every chain, a filter keeps
the disputes, the exception list and the event's archive download, and every change the
auditor tries, on a page or through the API, is refused with a 403 that names the role.
The audit fits 1280 px and 360 px, in English and in Italian; axe finds nothing serious.
Screenshots go to test-artifacts/."""

from __future__ import annotations

import csv
import io
import json

import pytest
from playwright.sync_api import expect

from scoring.models import Hand
from tests.browser.axe import assert_accessible
from tests.browser.conftest import ARTIFACTS
from tests.factories import PASSWORD, ClubFactory, UserFactory
from tests.tournaments.audit_world import audited_event, auditor_of, match_of

pytestmark = pytest.mark.django_db(transaction=True)


def fits(page, name: str, width: int) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert_accessible(page)


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def api_writes(event) -> list[tuple[str, str, dict]]:
    """Changes of every kind an organiser makes, as the API takes them."""
    base = f"/api/tournaments/{event.slug}/"
    round2 = event.round_set.get(number=2)
    pairing = round2.pairings.order_by("table").last()
    match = match_of(event, 1, 1)
    hand = Hand.objects.filter(game__match=match).first()
    registration = event.registrations.first()
    return [
        ("PATCH", base, {"venue": "Elsewhere"}),
        ("POST", base + "registrations/", {"name": "Newcomer"}),
        ("POST", f"/api/registrations/{registration.pk}/withdraw/", {"reason": "ill"}),
        ("POST", f"/api/rounds/{round2.pk}/close/", {}),
        ("POST", f"/api/pairings/{pairing.pk}/result/", {"winner": "A", "reason": "forfeit"}),
        ("POST", f"/api/hands/{hand.pk}/void/", {"version": hand.version, "reason": "x",
                                                 "idempotency_key": "audit-walk-1"}),
        ("POST", f"/api/matches/{match.pk}/reopen/", {"reason": "x"}),
        ("POST", f"/api/clubs/{event.club.slug}/auditors/", {"username": "friend"}),
        ("POST", base + "rules/apply/", {"profile": "tournament", "reason": "x"}),
    ]  # fmt: skip


def test_an_auditor_walks_the_audit_and_changes_nothing(browser, live_server, settings):
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False
    club = ClubFactory(name="Gin Club", slug="gin-club")
    organiser = UserFactory(username="org")
    club.organisers.add(organiser)
    event = audited_event(club, organiser)
    auditor_of(club)
    UserFactory(username="friend")
    wide = browser.new_context(
        viewport={"width": 1280, "height": 800}, base_url=live_server.url, accept_downloads=True
    )
    wide.set_default_timeout(15000)
    page = wide.new_page()
    log_in(page, "audrey")
    page.goto(f"/clubs/{club.slug}/")
    expect(page.get_by_text("You audit this club")).to_be_visible()
    page.get_by_role("link", name="Audit Open").click()  # the private event's dashboard
    page.get_by_role("link", name="Audit", exact=True).click()
    expect(page.get_by_test_id("audit-verified")).to_contain_text("all 5 chains")
    exceptions = page.get_by_test_id("audit-exceptions").locator("> li")
    expect(exceptions).to_have_count(8)
    expect(page.get_by_text("P02's phone · 10.0.0.2")).to_be_visible()
    fits(page, "audit", 1280)

    page.get_by_label("Kind").select_option("dispute")
    page.get_by_role("button", name="Show").click()
    expect(exceptions).to_have_count(1)
    expect(exceptions.first).to_contain_text("count again")
    expect(exceptions.first).to_contain_text("Hand corrected by user org")
    page.get_by_label("Kind").select_option("")
    page.get_by_role("button", name="Show").click()
    expect(exceptions).to_have_count(8)

    with page.expect_download() as download:
        page.get_by_test_id("audit-csv").click()
    rows = list(csv.DictReader(io.StringIO(open(download.value.path(), encoding="utf-8").read())))
    assert len(rows) == 8 and {len(row["hash"]) for row in rows} == {64}
    assert "P04 left ill" in {row["why"] for row in rows}

    page.goto(f"/tournaments/{event.slug}/manage/standings/")
    with page.expect_download() as download:
        page.get_by_role("link", name="JSON archive").click()
    archive = json.loads(open(download.value.path(), encoding="utf-8").read())
    assert archive["tournament"]["name"] == "Audit Open"

    # The setup page is read-only for an auditor; its form, posted anyway, is refused,
    # naming the role.
    page.goto(f"/tournaments/{event.slug}/manage/")
    expect(page.get_by_test_id("read-only-setup")).to_be_visible()
    expect(page.get_by_role("button", name="Save settings")).to_have_count(0)
    token = next(c["value"] for c in wide.cookies() if c["name"] == "csrftoken")
    answer = page.request.post(
        f"/tournaments/{event.slug}/manage/",
        form={"name": "Renamed", "venue": "Elsewhere", "csrfmiddlewaretoken": token},
        headers={"Referer": page.url},
    )
    assert answer.status == 403 and "Auditors can read but not change" in answer.text()
    # Every change tried through the API is a 403 naming the role.
    for method, url, body in api_writes(event):
        answer = page.request.fetch(url, method=method, data=body, headers={"X-CSRFToken": token})
        assert answer.status == 403, (method, url, answer.status, answer.text())
        assert answer.json()["error"]["code"] == "auditor_read_only", (method, url)
    event.refresh_from_db()
    assert event.venue != "Elsewhere" and not club.auditors.filter(username="friend").exists()

    # The same audit on a phone, and in Italian.
    phone = browser.new_context(
        viewport={"width": 360, "height": 740}, base_url=live_server.url, locale="it-IT"
    )
    phone.add_cookies(wide.cookies())
    small = phone.new_page()
    small.goto(f"/tournaments/{event.slug}/manage/audit/")
    expect(small.get_by_role("heading", name="Eccezioni")).to_be_visible()
    expect(small.get_by_test_id("audit-verified")).to_contain_text("Verificato")
    fits(small, "audit-it", 360)
    phone.close()
    wide.close()
