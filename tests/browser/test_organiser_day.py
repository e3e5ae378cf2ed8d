"""The organiser's day in a real browser: create a tournament, import the players from a
CSV file, publish round 1, two players record their match to its end on their phones,
the organiser decides the other table by hand and closes the round, and the public
standings show the result. Then a correction after the round closed: a score that would
leave the match undecided is refused, the real one is previewed (result, standings lines
that move) and applied, and the public standings say that results changed after round 1
closed. In round 2 the organiser enters one table's result by hand and lets the time
policy decide the other; both players' pages and the club ratings count both matches.
Screenshots of each step at phone width go to test-artifacts/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ginclub.permissions import table_token
from scoring.models import Hand, Match
from tests.browser.conftest import ARTIFACTS
from tests.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

PINS = {"Alice": "1111", "Bob": "2222", "Cara": "3333", "Dan": "4444"}
# Club members with PINs, listed by name and member id; one line is refused.
PLAYERS_CSV = (
    b"name,email,member_id\n"
    b"Alice,alice@example.org,M1\nBob,,M2\nCara,,M3\nDan,,M4\n"
    b"Eve,not-an-email,\n"
)


@pytest.fixture
def desk(browser, live_server, settings):
    """The organiser's browser: a tablet-sized window, logged in."""
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False
    context = browser.new_context(viewport={"width": 900, "height": 1000}, base_url=live_server.url)
    context.set_default_timeout(15000)
    yield context.new_page()
    context.close()


def shot(page, name: str) -> None:
    """A full-page screenshot at phone width, whatever the window was."""
    size = page.viewport_size
    page.set_viewport_size({"width": 360, "height": 740})
    page.screenshot(path=str(ARTIFACTS / f"organiser-day-{name}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, f"{name} overflows"
    page.set_viewport_size(size)


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".who")).to_have_text(username)


def sit_down(page, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_label(name, exact=True).check()
    page.get_by_label("PIN").fill(PINS[name])
    page.get_by_role("button", name="This is me").click()
    expect(page.locator("#hand-form")).to_contain_text(f"as {name}")


def test_organiser_day_from_registration_to_public_standings(console, desk, phone):
    # No page of the day logs a console error (issue 23): the desk's and every phone's.
    console.watch(desk)

    def watched():
        return console.watch(phone())

    club = ClubFactory(name="Riverside Gin", slug="riverside")
    club.organisers.add(UserFactory(username="olga"))
    for number, (name, pin) in enumerate(PINS.items(), start=1):
        PlayerFactory(club=club, name=name, pin=pin, member_id=f"M{number}")

    # Create the tournament: short rules, so one knock decides a match.
    log_in(desk, "olga")
    desk.goto("/clubs/riverside/")
    desk.get_by_role("link", name="New tournament").click()
    desk.locator("#id_name").fill("Autumn Open")
    desk.locator("#id_date").fill("2026-11-28")
    desk.get_by_test_id("more-options").locator("summary").click()  # folded options
    desk.locator("#id_overrides").fill("games_to_win = 1\ngame_target = 25")
    desk.locator("#id_rounds").fill("3")
    desk.locator("#id_bye_games").fill("1")
    desk.get_by_role("button", name="Create the tournament").click()
    expect(desk.locator(".messages")).to_contain_text("Autumn Open created")
    tournament = Tournament.objects.get(name="Autumn Open")

    # Import the players: four accepted, one refused with its reason.
    desk.locator("#id_file").set_input_files(
        files=[{"name": "players.csv", "mimeType": "text/csv", "buffer": PLAYERS_CSV}]
    )
    desk.get_by_role("button", name="Import").click()
    report = desk.locator("#import-report")
    expect(report).to_contain_text("4 accepted, 1 refused")
    expect(report).to_contain_text("'not-an-email' is not an email address.")
    shot(desk, "1-import-report")
    for name in PINS:  # check-in swaps the player's row; the counts follow by event
        row = desk.locator(".reg", has_text=name)
        with desk.expect_response(lambda r: r.url.endswith("/check-in/")) as answer:
            row.get_by_role("button", name="Check in").click()
        # the answer first: a refusal or a busy server says what it was, not a timeout
        assert answer.value.status == 200, (name, answer.value.status, answer.value.text())
        expect(row).to_contain_text("checked in")
    expect(desk.locator("#registration-counts")).to_contain_text("4 checked in")

    # Draft round 1, see why each pair was made, publish, start the clock.
    desk.get_by_role("link", name="Rounds").click()
    desk.get_by_role("button", name="Draft round 1").click()
    expect(desk.locator("#draft .pairing")).to_have_count(2)
    shot(desk, "2-draft")
    desk.get_by_role("button", name="Publish round 1").click()
    expect(desk.locator("#dashboard-tables")).to_contain_text("2 playing")
    desk.get_by_role("button", name="Start the clock").click()
    expect(desk.get_by_test_id("clock")).to_contain_text("left")

    # The table cards carry each table's link; Alice's table plays on two phones.
    desk.get_by_role("link", name="Table cards").click()
    card = desk.locator(".table-card", has_text="Alice")
    expect(card.locator("svg")).to_be_visible()
    link = card.locator(".url").inner_text().strip()
    names = card.locator(".names").inner_text()
    opponent = next(n for n in PINS if n != "Alice" and n in names)
    other_table = 1 if "Table 2" in card.locator(".big-table").inner_text() else 2
    shot(desk, "3-table-cards")

    alice, rival = watched(), watched()
    sit_down(alice, link, "Alice")
    sit_down(rival, link, opponent)
    expect(alice.get_by_test_id("round-clock")).to_contain_text("left in the round")
    entry = alice.locator("#hand-form")
    entry.get_by_label("Alice", exact=True).check()
    alice.locator("#id_knocker_deadwood").fill("3")
    alice.locator("#id_defender_deadwood").fill("41")
    alice.get_by_test_id("submit-hand").click()
    expect(alice.locator("#scoreboard")).to_contain_text("Pending")
    confirm = rival.get_by_test_id("confirm-1")
    expect(confirm).to_be_visible(timeout=10000)  # arrives by polling, no reload
    rival.screenshot(path=str(ARTIFACTS / "organiser-day-4-confirm-on-phone.png"), full_page=True)
    confirm.click()
    for page in (alice, rival):
        expect(page.locator("#scoreboard")).to_contain_text("Alice wins 1–0", timeout=10000)
    alice.screenshot(path=str(ARTIFACTS / "organiser-day-5-match-won.png"), full_page=True)
    alices_match = Match.objects.get(
        pairing__round__tournament=tournament,
        player_a__name__in=["Alice", opponent],
        player_b__name__in=["Alice", opponent],
    )
    assert alices_match.winner

    # The dashboard sees the finished table by itself; the other has no phone.
    desk.goto(f"/tournaments/{tournament.slug}/manage/dashboard/")
    tables = desk.locator("#dashboard-tables")
    expect(tables).to_contain_text("1 finished", timeout=10000)
    shot(desk, "6-dashboard")
    desk.get_by_test_id(f"result-{other_table}").click()
    desk.locator('input[name="winner"][value="A"]').check()
    desk.locator("#id_games_a").fill("1")
    desk.get_by_label("Reason (goes in the ledger)").fill("no phone at the table")
    desk.get_by_role("button", name="Record the result").click()
    expect(desk.locator(".messages")).to_contain_text(f"Table {other_table}: result recorded")
    desk.get_by_test_id("close-round").click()
    expect(desk.locator(".messages")).to_contain_text("Round 1 is closed.")
    assert Round.objects.get(tournament=tournament, number=1).state == Round.State.CLOSED

    # Anyone sees the standings on the public page, on a phone, without logging in.
    public = watched()
    public.goto(f"/tournaments/{tournament.slug}/standings/")
    rows = public.locator("#standings-table tbody tr")
    expect(rows).to_have_count(4)
    top_two = {rows.nth(i).locator("td").nth(1).inner_text() for i in range(2)}
    assert "Alice" in top_two
    expect(rows.first).to_contain_text("1/1")
    assert re.search(r"100\.0%", rows.first.inner_text())
    public.screenshot(path=str(ARTIFACTS / "organiser-day-7-public-standings.png"), full_page=True)
    assert public.evaluate("document.documentElement.scrollWidth") <= 360
    public.goto(f"/tournaments/{tournament.slug}/")
    expect(public.locator("#pairings-table")).to_contain_text("Alice wins")
    public.screenshot(path=str(ARTIFACTS / "organiser-day-8-public-pairings.png"), full_page=True)

    # After the round closed Alice's opponent says her knock was an undercut. The
    # organiser opens the hand's correction page from the match: a preview comes first.
    hands = Hand.objects.filter(game__match=alices_match).values_list("points", "version")
    hands_before = list(hands)
    desk.goto(f"/matches/{alices_match.pk}/")
    desk.get_by_test_id("correct-1-1").click()
    fix = desk.locator("#correction-form")
    fix.locator('input[name="reason"]').fill("the defender had 2, not 41")
    # 3 against 10 is a knock for 7: game 1 would no longer end, which a closed round
    # cannot take; the refusal says so, with the names, beside the form.
    fix.locator('input[name="defender_deadwood"]').fill("10")
    desk.get_by_test_id("preview-correction").click()
    refusal = fix.locator(".refusal")
    expect(refusal).to_contain_text("Round 1 is closed, so")
    expect(refusal).to_contain_text("must keep a winner")
    expect(desk.get_by_test_id("apply")).to_have_count(0)
    shot(desk, "9-correction-refused")
    # 3 against 2 is an undercut, 25 + 1 = 26: the opponent wins instead.
    fix.locator('input[name="defender_deadwood"]').fill("2")
    desk.get_by_test_id("preview-correction").click()
    preview = desk.locator("#correction-preview")
    expect(preview).to_contain_text(f"{opponent} wins: ")
    expect(preview).to_contain_text("Alice wins: ")
    expect(preview.get_by_test_id("preview-notes")).to_contain_text("Round 1 is closed")
    expect(preview.get_by_test_id("preview-standings")).to_contain_text(opponent)
    expect(fix.locator(".refusal")).to_have_count(0)
    shot(desk, "10-correction-preview")
    assert list(hands) == hands_before  # the previews wrote nothing
    # A change to the form after the preview takes its Apply button away, which would
    # apply what was previewed, not what the form now says (a walk applied a stale one).
    fix.locator('input[name="defender_deadwood"]').fill("3")
    expect(preview.get_by_test_id("preview-stale")).to_be_visible()
    expect(desk.get_by_test_id("apply")).to_have_count(0)
    fix.locator('input[name="defender_deadwood"]').fill("2")
    desk.get_by_test_id("preview-correction").click()
    expect(preview).to_contain_text(f"{opponent} wins: ")
    desk.get_by_test_id("apply").click()
    expect(desk.locator("#scoreboard")).to_contain_text(f"{opponent} wins 1–0")

    # The public standings follow, and say that a result changed after the round closed.
    public.goto(f"/tournaments/{tournament.slug}/standings/")
    notice = public.get_by_test_id("results-changed")
    expect(notice).to_contain_text("Results changed after round 1 closed")
    expect(notice).to_contain_text("hand 1 of game 1 corrected")
    top_two = {rows.nth(i).locator("td").nth(1).inner_text() for i in range(2)}
    assert opponent in top_two and "Alice" not in top_two
    public.screenshot(
        path=str(ARTIFACTS / "organiser-day-11-standings-after-correction.png"), full_page=True
    )
    assert public.evaluate("document.documentElement.scrollWidth") <= 360

    # Round 2: the organiser decides one table by hand; the other plays a hand that
    # does not end the game, time is called and the time policy decides it.
    desk.goto(f"/tournaments/{tournament.slug}/manage/rounds/")
    desk.get_by_role("button", name="Draft round 2").click()
    desk.get_by_role("button", name="Publish round 2").click()
    expect(desk.locator("#dashboard-tables")).to_contain_text("2 playing")
    by_hand, by_time = Round.objects.get(tournament=tournament, number=2).pairings.order_by("table")
    desk.get_by_test_id(f"result-{by_hand.table}").click()
    desk.locator('input[name="winner"][value="B"]').check()
    desk.locator("#id_games_b").fill("1")
    desk.get_by_label("Reason (goes in the ledger)").fill("score sheet handed in")
    desk.get_by_role("button", name="Record the result").click()
    expect(desk.locator(".messages")).to_contain_text(f"Table {by_hand.table}: result recorded")

    knocker, defender = by_time.player_a.player.name, by_time.player_b.player.name
    first, second = watched(), watched()
    link = f"/t/{table_token(by_time.match)}/"
    sit_down(first, link, knocker)
    sit_down(second, link, defender)
    first.locator("#hand-form").get_by_label(knocker, exact=True).check()
    first.locator("#id_knocker_deadwood").fill("3")
    first.locator("#id_defender_deadwood").fill("10")  # 7 points: game 1 goes on
    first.get_by_test_id("submit-hand").click()
    second.get_by_test_id("confirm-1").click()
    expect(second.get_by_test_id("confirm-1")).to_have_count(0)

    desk.goto(f"/tournaments/{tournament.slug}/manage/dashboard/")
    desk.get_by_text("Call time…").click()
    desk.get_by_role("button", name="Yes, call time now").click()
    desk.get_by_test_id(f"time-policy-{by_time.table}").click()
    expect(desk.locator(".messages")).to_contain_text(
        f"Table {by_time.table}: {knocker} wins: time was called"
    )
    expect(desk.locator("#dashboard-tables")).to_contain_text("2 finished", timeout=10000)
    shot(desk, "12-round-2-decided")

    # Both decisions reach the players' records and the club's ratings.
    for name, result in (
        (by_hand.player_b.player.name, "won"),
        (by_hand.player_a.player.name, "lost"),
        (knocker, "won"),
        (defender, "lost"),
    ):
        desk.goto(f"/players/{club.players.get(name=name).pk}/")
        newest = desk.get_by_test_id("player-matches").locator("tbody tr").first
        expect(newest).to_contain_text(result)
        expect(desk.get_by_test_id("event-record")).to_contain_text("won ")
    shot(desk, "13-player-page")
    desk.goto("/clubs/riverside/ratings/")
    ratings = desk.get_by_test_id("ratings")
    for name in PINS:  # the Matches column: round 1 and round 2
        expect(ratings.locator("tr", has_text=name).locator("td").nth(2)).to_have_text("2")
    shot(desk, "14-ratings")
    console.assert_clean(refusals=True)
