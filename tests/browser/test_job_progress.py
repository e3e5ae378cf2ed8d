"""An organiser watches a background job on a phone (issue 8, finding 5): the bar moves
while the job runs (htmx polls it every second), the page says plainly when it is done
or failed, and the polling stops then. The job's progress is written by its own
ProgressBoard, as the worker writes it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.factories import PASSWORD, ClubFactory, UserFactory
from tests.tournaments.helpers import new_event, play_round
from tournaments.models import Job
from tournaments.services.jobs import ProgressBoard

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_progress_bar_moves_then_stops_when_the_job_is_done(phone):
    club = ClubFactory(name="Riverside Gin", slug="riverside")
    organiser = UserFactory(username="olga")
    club.organisers.add(organiser)
    event = new_event(club, organiser, players=4)
    play_round(event, organiser)  # the rules freeze: a rules change can be asked for
    job = Job.objects.create(
        kind=Job.Kind.RULES_CHANGE,
        club=club,
        tournament=event,
        requested_by=organiser,
        label="Rules change of Club Open: club vote",
        state=Job.State.RUNNING,
        total=8,
    )
    board = ProgressBoard(job)
    board.report(3, 8)

    page = phone()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"/tournaments/jobs/{job.pk}/")
    bar = page.locator(f"#job-{job.pk} progress")
    expect(bar).to_have_attribute("value", "3")
    expect(page.locator(f"#job-{job.pk}")).to_contain_text("3 of 8 match(es), 37%.")
    board.report(6, 8)  # the next poll shows it, with no reload
    expect(bar).to_have_attribute("value", "6", timeout=5000)
    page.screenshot(path=str(ARTIFACTS / "phone-job-running.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    Job.objects.filter(pk=job.pk).update(
        state=Job.State.FAILED,
        error_code="game_reopened",
        message="Round 1, table 1 (P01 v P02): This change would leave game 1 unfinished.",
    )
    section = page.locator(f"#job-{job.pk}")
    expect(section.get_by_role("alert")).to_contain_text("would leave game 1 unfinished")
    expect(section).to_contain_text("Nothing was changed.")
    expect(section).not_to_have_attribute("hx-trigger", "every 1s")  # polling stopped
    page.screenshot(path=str(ARTIFACTS / "phone-job-failed.png"), full_page=True)
    page.goto(f"/tournaments/{event.slug}/manage/")
    expect(page.locator("#rules-change")).to_contain_text("would leave game 1 unfinished")
