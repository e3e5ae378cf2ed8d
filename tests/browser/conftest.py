"""Playwright against the system Chromium (never a downloaded browser)."""

from __future__ import annotations

import os
import re
import threading
import warnings
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# between browser steps are ordinary synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
            if not CHROMIUM.exists():
                item.add_marker(
                    pytest.mark.skip(
                        reason="system Chromium not installed (apt-get install -y chromium)"
                    )
                )


# A refusal is an answer (400 or 409): Chromium logs its status as it logs any 4xx. Only
# these lines are let through, and only where a test expects a refusal.
REFUSED_STATUS = re.compile(
    r"Failed to load resource: the server responded with a status of 4(00|09)"
)
# A change refused to a role (403) is an answer too, where a test tries one on purpose.
FORBIDDEN_STATUS = re.compile(r"Failed to load resource: the server responded with a status of 403")


class Console:
    """The console errors and uncaught exceptions of every page watched, each with its
    page's address, collected as they come."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page):
        page.on(
            "console",
            lambda m: self.errors.append(f"{page.url}: {m.text}") if m.type == "error" else None,
        )
        page.on("pageerror", lambda e: self.errors.append(f"{page.url}: {e}"))
        return page

    def assert_clean(self, *, refusals: bool = False, forbidden: bool = False) -> None:
        """No error; with `refusals`, a 400 or 409 status line is not one; with
        `forbidden`, a 403 status line is not one."""
        left = [
            e
            for e in self.errors
            if not (refusals and REFUSED_STATUS.search(e))
            and not (forbidden and FORBIDDEN_STATUS.search(e))
        ]
        assert not left, "\n".join(left)


@pytest.fixture
def console() -> Console:
    return Console()


def in_italian(page) -> None:
    """Switch the page to Italian with the language switch, as a person does."""
    from playwright.sync_api import expect

    page.get_by_test_id("language-it").click()
    expect(page.locator("html")).to_have_attribute("lang", "it")


class InFlight:
    """The threads answering a request right now, from Django's own request signals (a
    request is finished when its response is closed, after its last byte is sent)."""

    def __init__(self) -> None:
        self._threads: set[int] = set()
        self._changed = threading.Condition()

    def started(self, **kwargs) -> None:
        with self._changed:
            self._threads.add(threading.get_ident())

    def finished(self, **kwargs) -> None:
        with self._changed:
            self._threads.discard(threading.get_ident())
            self._changed.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: not self._threads, timeout)


@pytest.fixture(scope="session")
def _in_flight():
    from django.core.signals import request_finished, request_started

    in_flight = InFlight()
    request_started.connect(in_flight.started, weak=False)
    request_finished.connect(in_flight.finished, weak=False)
    yield in_flight
    request_started.disconnect(in_flight.started)
    request_finished.disconnect(in_flight.finished)


@pytest.fixture(autouse=True)
def _live_server_drained(request, _in_flight):
    """Before the test's database is emptied, every page is closed and the live server has
    answered what it was still answering. A request still running while PostgreSQL
    truncates the tables (a poll, the last click's answer) can deadlock with the TRUNCATE,
    and the database is then left unflushed ("couldn't be flushed", seen in CI).

    Set up after pytest-django's own live-server helper, which asks for the test's
    database first, so this runs before that database is emptied."""
    yield
    if "live_server" not in request.fixturenames:
        return
    browser = request.getfixturevalue("browser") if "browser" in request.fixturenames else None
    if browser is not None:
        for context in list(browser.contexts):
            context.close()
    if not _in_flight.wait_idle(timeout=60):
        warnings.warn("the live server was still answering a request after 60 s", stacklevel=1)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def phone(browser, live_server, settings):
    """A factory of phone-sized browser contexts, one per player."""
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False
    contexts = []

    def make():
        context = browser.new_context(
            viewport={"width": 360, "height": 740},
            is_mobile=True,
            has_touch=True,
            base_url=live_server.url,
        )
        context.set_default_timeout(15000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
