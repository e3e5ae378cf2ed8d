"""Steps people take in the browser tests, one home each: log in at the desk, sign up on
a phone, sit down at a table; and what they would see cut (words broken over lines)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.factories import PASSWORD


def log_in(page, username: str) -> None:
    """Log in with the factories' password; the header then names the user."""
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".who")).to_have_text(username)


def sign_up(page, name: str, pin: str) -> None:
    """On an open sign-up form: the player's name and the PIN they choose."""
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Your PIN (4 to 8 digits)").fill(pin)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_test_id("signup-where")).to_be_visible()


def sit_down(page, link: str, name: str, pin: str) -> None:
    """Open a table's link and take `name`'s seat with their PIN."""
    page.goto(link)
    page.get_by_label(name, exact=True).check()
    page.get_by_label("PIN").fill(pin)
    page.get_by_role("button", name="This is me").click()
    expect(page.locator("#hand-form")).to_contain_text(f"as {name}")


# The visible words of the cells `selector` finds that the browser laid over more than
# one line (a name or a label cut mid-word where it could have wrapped between words).
_CUT_WORDS = """(selector) => [...document.querySelectorAll(selector)]
  .flatMap((cell) => {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    const cut = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.parentElement.checkVisibility()) continue;
      for (const match of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) cut.push(match[0]);
      }
    }
    return cut;
  })"""


def words_cut(page, selector: str) -> list[str]:
    """The words in the cells `selector` finds that the page shows cut over two lines."""
    return page.evaluate(_CUT_WORDS, selector)
