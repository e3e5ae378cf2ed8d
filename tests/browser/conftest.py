"""Playwright against the system Chromium (never a downloaded browser)."""

from __future__ import annotations

import os
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
