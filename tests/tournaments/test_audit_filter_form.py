"""A bad filter in the audit page's address is marked on the page's own filter form: a
walk typed ?kind=nonsense and got a page of its own saying 'Not done', with only Home.
The page answers 400 with the form, the bad field marked in words, and the list the
other filters keep, as the site's other refused forms do."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.tournaments.audit_world import audited_event, auditor_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(club, organiser):
    return audited_event(club, organiser)


@pytest.fixture
def auditor(club, organiser):
    client = Client()
    client.force_login(auditor_of(club))
    return client


def rows(text: str) -> list[str]:
    """The kinds of the exceptions listed."""
    return re.findall(r'class="card-box ledger-row audit-row[^"]*"[^>]*data-kind="([a-z_]+)"', text)


def field(text: str, name: str) -> str:
    return re.search(
        rf'<div class="field[^"]*"><label>[^<]*<select name="{name}".*?</div>', text, re.S
    ).group(0)


def test_an_unknown_kind_is_marked_on_the_audit_page_and_the_list_stays(event, auditor):
    whole = auditor.get(f"/tournaments/{event.slug}/manage/audit/").content.decode()
    page = auditor.get(f"/tournaments/{event.slug}/manage/audit/?kind=nonsense")
    text = page.content.decode()
    assert page.status_code == 400
    assert "Not done" not in text
    assert 'data-testid="audit-verified"' in text  # the rest of the page is there
    kind = field(text, "kind")
    assert 'class="field has-error"' in kind and 'aria-invalid="true"' in kind
    assert "There is no kind of exception called “nonsense”." in kind
    assert 'data-testid="audit-filter-refused"' in text
    assert rows(text) == rows(whole) and len(rows(text)) == 8  # every kind: none refused
    # the downloads offer the list as shown, not the refused filter
    assert "audit.csv?kind" not in text and "nonsense" not in text.split("Download this")[1]


def test_a_bad_round_is_marked_and_the_good_filters_still_apply(event, auditor):
    page = auditor.get(f"/tournaments/{event.slug}/manage/audit/?kind=dispute&round=two")
    text = page.content.decode()
    assert page.status_code == 400
    assert "A round is a whole number, not &#x27;two&#x27;." in field(text, "round")
    assert 'class="field has-error"' not in field(text, "kind")
    assert rows(text) == ["dispute"]
    assert '<option value="dispute" selected>' in field(text, "kind")
    assert 'audit.csv?kind=dispute"' in text


def test_good_filters_answer_200_as_before(event, auditor):
    page = auditor.get(f"/tournaments/{event.slug}/manage/audit/?kind=dispute&round=1")
    assert page.status_code == 200
    assert set(rows(page.content.decode())) == {"dispute"}
    assert 'data-testid="audit-filter-refused"' not in page.content.decode()


def test_the_audit_writes_its_moments_as_the_ledger_does_in_italian(event, auditor):
    """A walk read 'sab 28 Nov 2026' on the Italian audit (a literal format whose 'M'
    capitalises the month) where the ledger page writes 'nov': both now say a moment the
    same way, by the language's own short date."""
    page = auditor.get(f"/tournaments/{event.slug}/manage/audit/", HTTP_ACCEPT_LANGUAGE="it")
    moments = re.findall(
        r'<time class="small" datetime="[^"]+">([^<]+)</time>', page.content.decode()
    )
    assert moments
    for moment in moments:
        weekday, day, month, rest = moment.split(" ", 3)
        assert month == month.lower() and weekday == weekday.lower(), moment
