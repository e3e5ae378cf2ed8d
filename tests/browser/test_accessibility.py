"""axe-core on every organiser, public and print page (issue 9, trap 9): no serious or
critical violation, at 360 px and at 1280 px. The public standings at 360 px keep every
column and scroll sideways by keyboard."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from scoring import services as scoring
from scoring.hand_input import HandInput
from tests.browser.axe import assert_accessible
from tests.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Alexandra Montgomery-Smythe", "Bob", "Cara", "Dan", "Eve", "Fay", "Gil", "Hal"]


def build_event():
    """Eight players, one withdrawn (a bye), round 1 published and running: one table
    finished, one disputed, one playing."""
    club = ClubFactory(name="Riverside Gin", slug="riverside")
    organiser = UserFactory(username="olga")
    club.organisers.add(organiser)
    actor = scoring.Actor(user=organiser)
    players = [PlayerFactory(club=club, name=name, pin="1234") for name in NAMES]
    tournament = services.create_tournament(
        club=club,
        actor=actor,
        name="Riverside Autumn Championship",
        date=dt.date(2026, 11, 28),
        venue="The Old Boathouse",
        overrides={"games_to_win": 2, "game_target": 25},
        bye_games=1,
    )
    registrations = [
        services.add_registration(tournament_id=tournament.pk, actor=actor, player_id=p.pk)
        for p in players
    ]
    services.withdraw_registration(
        registration_id=registrations[-1].pk, actor=actor, reason="unwell"
    )
    draft = services.draft_round(tournament_id=tournament.pk, actor=actor)
    rnd = services.publish_round(round_id=draft.pk, actor=actor)
    services.start_round_timer(round_id=rnd.pk, actor=actor)
    first, second, _third = rnd.pairings.filter(match__isnull=False).order_by("table")
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
            game=1,
            number=1,
            outcome="knock",
            knocker="A",
            knocker_deadwood=5,
            defender_deadwood=20,
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
    return club, tournament, first, second


def log_in(page) -> None:
    page.goto("/accounts/login/")
    assert_accessible(page, name="login")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="Riverside Gin").first).to_be_visible()


def check(page, name: str, path: str) -> None:
    page.goto(path)
    expect(page.locator("main").first).not_to_be_empty()
    assert_accessible(page, name=f"{name} ({page.viewport_size['width']} px)")


@pytest.mark.parametrize("width", [360, 1280])
def test_no_serious_violations_on_public_and_organiser_pages(browser, live_server, settings, width):
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False
    club, tournament, finished, _disputed = build_event()
    context = browser.new_context(
        viewport={"width": width, "height": 800}, base_url=live_server.url
    )
    context.set_default_timeout(15000)
    page = context.new_page()
    base = f"/tournaments/{tournament.slug}/"
    for name, path in [
        ("home", "/"),
        ("public pairings", base),
        ("public standings", base + "standings/"),
        ("match summary", f"{base}tables/{finished.pk}/"),
        ("projector", base + "projector/"),
    ]:
        check(page, name, path)
    log_in(page)
    for name, path in [
        ("home", "/"),
        ("club", f"/clubs/{club.slug}/"),
        ("tournament list", "/tournaments/"),
        ("create", "/tournaments/new/"),
        ("import", "/tournaments/import/"),
        ("settings", base + "manage/"),
        ("players", base + "manage/players/"),
        ("rounds", base + "manage/rounds/"),
        ("dashboard", base + "manage/dashboard/"),
        ("hall view", base + "manage/dashboard/hall/"),
        ("hall view, disputed", base + "manage/dashboard/hall/?state=disputed"),
        ("result", f"{base}manage/tables/{finished.pk}/result/"),
        ("standings", base + "manage/standings/"),
        ("corrections", base + "manage/corrections/"),
        ("print cards", base + "manage/print/cards/"),
        ("print sheets", base + "manage/print/sheets/"),
        ("print standings", base + "manage/print/standings/"),
        ("ledger", f"/matches/{finished.match_id}/ledger/"),
    ]:
        check(page, name, path)
    page.goto(base + "manage/")
    page.locator("#rules-change").get_by_label("Gin bonus", exact=True).fill("30")
    page.get_by_role("button", name="Preview the change").click()
    expect(page.get_by_label("Reason (goes in the ledger)")).to_be_visible()
    assert_accessible(page, name=f"rules change preview ({width} px)")
    context.close()


def test_public_standings_on_a_phone_keep_every_column_and_scroll_by_keyboard(phone):
    _club, tournament, _finished, _disputed = build_event()
    page = phone()
    page.goto(f"/tournaments/{tournament.slug}/standings/")
    region = page.get_by_role("region", name="Standings")
    expect(region).to_be_visible()
    games = page.locator("table.standings th.games")
    expect(games).to_have_count(1)
    assert games.evaluate("th => getComputedStyle(th).display") != "none"
    assert region.evaluate("box => box.scrollWidth > box.clientWidth"), "nothing to scroll"
    page.keyboard.press("Tab")
    for _ in range(20):  # to the region, however many links come first
        if region.evaluate("box => box === document.activeElement"):
            break
        page.keyboard.press("Tab")
    assert region.evaluate("box => box === document.activeElement")
    for _ in range(30):  # arrow keys scroll the focused box sideways
        page.keyboard.press("ArrowRight")
    page.wait_for_timeout(300)
    assert region.evaluate("box => box.scrollLeft") > 0
    box, cell = region.bounding_box(), games.bounding_box()
    assert box["x"] <= cell["x"] and cell["x"] + cell["width"] <= box["x"] + box["width"] + 1
