"""Every tournament page fits a 360 px phone: nothing wider than the screen (a wide
standings table scrolls inside its own box). Screenshots go to test-artifacts/."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from playwright.sync_api import expect

from scoring import services as scoring
from scoring.hand_input import HandInput
from tests.browser.conftest import ARTIFACTS
from tests.browser.steps import words_cut
from tests.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Alexandra Montgomery-Smythe", "Bob", "Cara", "Dan", "Eve"]


def build_event(names=NAMES):
    """Five players (a bye), round 1 published: one table finished, one disputed."""
    club = ClubFactory(name="Riverside Gin", slug="riverside")
    organiser = UserFactory(username="olga")
    club.organisers.add(organiser)
    actor = scoring.Actor(user=organiser)
    players = [PlayerFactory(club=club, name=name, pin="1234") for name in names]
    tournament = services.create_tournament(
        club=club,
        actor=actor,
        name="Riverside Autumn Championship",
        date=dt.date(2026, 11, 28),
        venue="The Old Boathouse",
        overrides={"games_to_win": 2, "game_target": 25},
        bye_games=1,
    )
    for player in players:
        services.add_registration(tournament_id=tournament.pk, actor=actor, player_id=player.pk)
    draft = services.draft_round(tournament_id=tournament.pk, actor=actor)
    rnd = services.publish_round(round_id=draft.pk, actor=actor)
    services.start_round_timer(round_id=rnd.pk, actor=actor)
    first, second = rnd.pairings.filter(match__isnull=False).order_by("table")
    for game in (1, 2):
        scoring.submit_hand(
            match_id=first.match_id,
            actor=actor,
            idempotency_key=f"k{game}",
            hand=HandInput(
                game=game,
                number=1,
                outcome="knock",
                knocker="A",
                knocker_deadwood=5,
                defender_deadwood=35,
            ),
        )
    match = second.match
    scoring.submit_hand(
        match_id=match.pk,
        actor=scoring.Actor(player=match.player_a),
        idempotency_key="d1",
        hand=HandInput(
            game=1, number=1, outcome="knock", knocker="A", knocker_deadwood=5, defender_deadwood=20
        ),
    )
    hand = match.games.get().hands.get()
    scoring.dispute_hand(
        hand_id=hand.pk,
        actor=scoring.Actor(player=match.player_b),
        version=hand.version,
        idempotency_key="d2",
        reason="it was 25",
    )
    return tournament, first


def fits(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"phone-{name}.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{name} is {width} px wide"


def test_every_tournament_page_fits_a_phone(phone):
    tournament, finished = build_event()
    base = f"/tournaments/{tournament.slug}/"
    visitor = phone()
    for name, path in [
        ("public-pairings", ""),
        ("public-standings", "standings/"),
        ("match-summary", f"tables/{finished.pk}/"),
    ]:
        visitor.goto(base + path)
        expect(visitor.locator("main")).to_contain_text("Riverside Autumn Championship")
        fits(visitor, name)

    page = phone()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    pages = [("create", "/tournaments/new/"), ("list", "/tournaments/")] + [
        (name, base + "manage/" + path)
        for name, path in [
            ("settings", ""),
            ("players", "players/"),
            ("rounds", "rounds/"),
            ("dashboard", "dashboard/"),
            ("hall", "dashboard/hall/"),
            ("result", f"tables/{finished.pk}/result/"),
            ("standings", "standings/"),
            ("corrections", "corrections/"),
            ("print-cards", "print/cards/"),
            ("print-sheets", "print/sheets/?table=1"),
            ("print-standings", "print/standings/"),
        ]
    ]
    for name, path in pages:
        page.goto(path)
        expect(page.locator("main")).not_to_be_empty()
        fits(page, name)
    page.goto(base + "manage/dashboard/")
    expect(page.get_by_test_id("dispute-2")).to_be_visible()


# Players' names of one long word (67 letters, no space to break at): they wrap wherever
# they are shown, instead of widening the page or running out of their box. Every player
# has one, since round 1's random draw decides who sits where and who has the bye.
LONG_NAME = ("Bartholomew" * 7)[:67]
LONG_NAMES = [LONG_NAME[:-1] + letter for letter in "ABCDE"]

# Every element shown (of a card, a table) wider than its own box, unless it clips on
# purpose (a hall line's names end in "…" at full width, the name whole in the tooltip)
# or, on a phone, scrolls sideways on purpose (the standings' tie-breaks, a score sheet).
SPILLS = """([selector, allowed]) => [...document.querySelectorAll(selector)].flatMap((box) =>
  [box, ...box.querySelectorAll("*")].filter((el) => el.scrollWidth > el.clientWidth + 1
    && el.checkVisibility() && !allowed.includes(getComputedStyle(el).overflowX))
  .map((el) => `${el.tagName.toLowerCase()}.${el.className}: `
    + `${el.scrollWidth} > ${el.clientWidth}`))"""


def log_in(page) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def test_a_long_one_word_name_wraps(browser, live_server, settings):
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False
    tournament, _finished = build_event(LONG_NAMES)
    base = f"/tournaments/{tournament.slug}/"
    pages = [
        ("dashboard", "manage/dashboard/", ".table-row"),
        ("hall", "manage/dashboard/hall/", ".hall-line"),
        ("print-cards", "manage/print/cards/", ".table-card"),
        ("print-sheets", "manage/print/sheets/", ".sheet"),
        ("print-standings", "manage/print/standings/", ".print-standings"),
        ("standings", "manage/standings/", "#standings-table"),
        ("public-standings", "standings/", "#standings-table"),
        ("projector", "projector/", "#projector-board"),
    ]
    problems = []
    for width, allowed in [(360, ["hidden", "clip", "auto"]), (1280, ["hidden", "clip"])]:
        context = browser.new_context(
            viewport={"width": width, "height": 800}, base_url=live_server.url
        )
        page = context.new_page()
        log_in(page)
        for name, path, box in pages:
            page.goto(base + path)
            expect(page.locator("body")).to_contain_text(LONG_NAME[:30])
            page.screenshot(path=str(ARTIFACTS / f"long-name-{name}-{width}.png"), full_page=True)
            page_width = page.evaluate("document.documentElement.scrollWidth")
            if page_width > width:
                problems.append(f"{name} is {page_width} px wide at {width} px")
            problems += [
                f"{name} at {width} px, {spill}" for spill in page.evaluate(SPILLS, [box, allowed])
            ]
        context.close()
    assert not problems, "\n".join(problems)


def test_printables_fit_an_a4_page_without_the_site_chrome(phone):
    tournament, _finished = build_event()
    page = phone()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    page.emulate_media(media="print")
    for name in ("cards", "sheets", "standings"):
        page.goto(f"/tournaments/{tournament.slug}/manage/print/{name}/")
        expect(page.locator(".topbar")).to_be_hidden()
        expect(page.get_by_role("button", name="Print")).to_be_hidden()
        page.screenshot(path=str(ARTIFACTS / f"print-{name}.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 794, f"the printed {name} are {width} px wide"


def test_the_printed_standings_leave_out_what_only_a_screen_does(phone):
    """On paper nobody taps a name or swipes the table: those hints stay on the screen.
    718 px is A4's width inside the browser's own 10 mm margins."""
    tournament, _finished = build_event()
    page = phone()
    log_in(page)
    page.set_viewport_size({"width": 718, "height": 1123})
    page.goto(f"/tournaments/{tournament.slug}/manage/print/standings/")
    tap = page.get_by_text("Tap a name to see why it stands there.")
    expect(tap).to_be_visible()
    page.emulate_media(media="print")
    page.screenshot(path=str(ARTIFACTS / "print-standings-a4.png"), full_page=True)
    expect(tap).to_be_hidden()
    expect(page.get_by_test_id("scroll-hint")).to_be_hidden()
    expect(page.get_by_text("W/M match wins / matches")).to_be_visible()
    # The table, what the sheet is for, is not in smaller type than the words under it.
    table, legend = (
        page.locator(selector).evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
        for selector in ("table.standings td >> nth=0", ".legend")
    )
    assert table > legend, f"the table's type is {table} px, the words under it {legend} px"


def test_a_score_sheet_ends_in_lines_to_sign(phone):
    """The sheet's last lines (winner and games, then both signatures) print each as one
    line on A4, none of its blanks parted from its letter; a walk found the signature
    blanks too short to sign on (about 2 cm): each is now at least 5 cm."""
    tournament, _finished = build_event()
    page = phone()
    log_in(page)
    page.set_viewport_size({"width": 718, "height": 1047})  # A4 inside 10 mm margins
    page.emulate_media(media="print")
    page.goto(f"/tournaments/{tournament.slug}/manage/print/sheets/?table=1")
    ends = page.locator(".sheet-end")
    expect(ends).to_have_count(2)
    expect(ends.nth(1)).to_contain_text("Signatures: A")
    ends.nth(1).screenshot(path=str(ARTIFACTS / "print-sheet-end.png"))
    for n in range(2):
        width, inner, height, line = ends.nth(n).evaluate(
            """el => [el.scrollWidth, el.clientWidth, el.getBoundingClientRect().height,
                      parseFloat(getComputedStyle(el).lineHeight)]"""
        )
        assert width <= inner, f"the sheet's line {n + 1} is {width} px in {inner} px"
        assert height < 1.5 * line, f"the sheet's line {n + 1} wraps: {height} px high"
    # each run of underscores after "A" and "B", measured as printed (96 px an inch)
    blanks = ends.nth(1).evaluate(
        """el => {
            const text = el.firstChild, found = [];
            for (const run of text.data.matchAll(/_+/g)) {
                const range = document.createRange();
                range.setStart(text, run.index);
                range.setEnd(text, run.index + run[0].length);
                found.push(range.getBoundingClientRect().width * 25.4 / 96);
            }
            return found;
        }"""
    )
    assert len(blanks) == 2 and min(blanks) >= 50, f"signature blanks of {blanks} mm"


def test_projector_scrolls_by_itself(browser, live_server):
    tournament, _finished = build_event()
    context = browser.new_context(viewport={"width": 1024, "height": 480}, base_url=live_server.url)
    page = context.new_page()
    page.goto(f"/tournaments/{tournament.slug}/projector/")
    expect(page.locator("#projector-board")).to_contain_text("Round 1 pairings")
    page.screenshot(path=str(ARTIFACTS / "projector.png"))
    # Light words on the room's dark screen: no white box behind the pairings.
    behind = page.locator("#projector-board .scroll-x").first.evaluate(
        "el => getComputedStyle(el).backgroundColor"
    )
    assert behind == "rgb(17, 17, 17)", f"the pairings stand on {behind}"
    assert page.evaluate("window.scrollY") == 0
    # Polled from here, not evaluated in the page: the page's CSP forbids eval.
    deadline = time.monotonic() + 15  # it starts after a 5 s pause
    while page.evaluate("window.scrollY") <= 50 and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    assert page.evaluate("window.scrollY") > 50
    context.close()


# Names of several words: on a 360 px phone they wrap between words, never inside one
# that fits a line ("Zoe Newcome/r" was cut mid-word: the name column let words break
# anywhere, so the table squeezed it below its longest word).
WORDY_NAMES = ["Zoe Newcomer", "Maximiliana Featherstone", "Bartholomew Underwood", "Cy", "Di"]


def test_names_wrap_between_words_in_the_standings_on_a_phone(phone):
    tournament, _finished = build_event(WORDY_NAMES)
    base = f"/tournaments/{tournament.slug}/"
    page = phone()
    log_in(page)
    for name, path in [("standings", "manage/standings/"), ("public-standings", "standings/")]:
        page.goto(base + path)
        expect(page.locator("table.standings")).to_contain_text("Featherstone")
        page.screenshot(path=str(ARTIFACTS / f"wordy-names-{name}.png"), full_page=True)
        broken = words_cut(page, "table.standings td:nth-child(2)")
        assert broken == [], f"{name}: cut mid-word: {broken}"
        fits(page, f"wordy-names-{name}")
