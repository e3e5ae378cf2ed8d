"""The axe helper itself: it finds what it should and names it."""

from __future__ import annotations

import pytest

from tests.browser.axe import assert_accessible, axe_violations

CLEAN = """<!doctype html><html lang="en"><head><title>Clean</title></head>
<body><main><h1>Scores</h1><label for="n">Deadwood</label><input id="n" type="number">
</main></body></html>"""

UNLABELLED = """<!doctype html><html lang="en"><head><title>Bad</title></head>
<body><main><h1>Scores</h1><input type="number">
<p style="color:#aaa;background:#fff">faint text</p></main></body></html>"""


@pytest.fixture
def blank(browser):
    context = browser.new_context()
    yield context.new_page()
    context.close()


def test_a_clean_page_passes(blank):
    blank.set_content(CLEAN)
    assert_accessible(blank)


def test_an_unlabelled_input_and_faint_text_fail_by_name(blank):
    blank.set_content(UNLABELLED)
    ids = {v["id"]: v["impact"] for v in axe_violations(blank)}
    assert ids["label"] == "critical"
    assert ids["color-contrast"] == "serious"
    with pytest.raises(AssertionError) as failure:
        assert_accessible(blank, name="the bad page")
    message = str(failure.value)
    assert "axe on the bad page" in message
    assert "critical label" in message and "serious color-contrast" in message
    assert "input" in message
