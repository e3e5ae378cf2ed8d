"""The organiser's day and a table's match in Italian, in a real browser (issue 13).

A browser that prefers Italian (Accept-Language: it-IT) goes from the home page to a
finished two-round tournament: log in, create the tournament, import the players, check
them in, draft and publish round 1, start the clock, print the table cards; two players
sit down on their phones, one enters a knock, the other confirms, the match is won; the
organiser records the other table by hand and closes the round; round 2 is decided at
the desk and closing it finishes the tournament; the public standings and pairings show
the results. On every page: it fits a 360 px phone with the longer Italian words, and
no English word is left (see `english_words`). Screenshots: test-artifacts/italian-*.png.

Then the language switch: an English browser taps "Italiano", and "English" brings it
back; a seated player's phone keeps the player's language.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ginclub.permissions import table_token
from scoring import services
from scoring.models import Match
from tests.browser.conftest import ARTIFACTS
from tests.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

PINS = {"Alice": "1111", "Bruno": "2222", "Carla": "3333", "Dario": "4444"}
PLAYERS_CSV = (
    b"name,email,member_id\n"
    b"Alice,alice@example.org,M1\nBruno,,M2\nCarla,,M3\nDario,,M4\n"
    b"Elena,not-an-email,\n"
)
CLUB, EVENT, ORGANISER = "Circolo Trastevere", "Torneo d'Autunno", "olga"

# Common English words that are not Italian words too. Not here on purpose: words
# Italian shares or keeps ("a", "in", "no", "come", "per", "set", "bonus", "club", "box",
# "file", "link", "email", "password", "online", "offline", "data", "note", "fine",
# "dove", "ha", "me", "so", "do", "pure", "top", "reset", "standard", "bye", "date",
# "decide", "semi", "state", "code").
ENGLISH = set(
    """
    the and of to is are was were be been being with your you yours this that these those
    from for by on at an or not yes all any each every has have had will can cannot may must
    should would there their they them he she his her its we our us if then than when where
    which who what why how here now only more less one two three four five first last after
    before until into out up down off over under again still yet already also just but about
    round rounds table tables player players hand hands game games match matches win wins
    won winner winners lost loss lose loses draw drawn points point score scores scored save
    saved confirm confirmed dispute disputed disputes standings standing log login logout
    logged open opened close closed draft drafted publish published check checked start
    started clock left time results result name names reason next back new tournament
    tournaments rules rule settings cards card sheet sheets print printed public import
    imported export pairing pairings paired playing played play pending finished finish
    dashboard home help see show view edit delete remove add create created cancel enter
    entered submit send undo seat seated sit my mine knock knocks knocked knocker defender
    deal dealer total rank minutes seconds hours day season seasons members member username
    change changed record recorded decided ready waiting wait refresh loading language
    search everyone nobody nothing something people page please sorry thanks welcome sign
    projector bracket rating ratings ledger correction corrections history status live final
    quarter swiss elimination schedule robin withdraw withdrawn registered registration
    entries entry accepted refused upload tie break tiebreak opponent opponents versus
    undecided phone phones links codes planned called call corrected tap type who way
    yourself word words without within while row rows field fields line lines
    """.split()
)


# Italian elides before a vowel ("all'italiana"): that "all" is Italian.
ELISION = re.compile(r"\b(?:all|dall|dell|nell|sull|coll|quell|quest|tutt|senz|anch)['’]", re.I)


def known_words(*texts: str) -> set[str]:
    """The words of the texts, lower case; numbers and codes (snake_case) aside."""
    words = set()
    for text in texts:
        for word in re.findall(r"\w+", ELISION.sub(" ", text)):
            if "_" not in word and not any(c.isdigit() for c in word):
                words.add(word.lower())
    return words


# Data on the pages, not words of ginclub: names, the club, the event, the game's terms
# Italians keep (docs/glossary-it.md), the language switch's own name.
DATA = known_words(
    *PINS,
    "Elena",
    CLUB,
    EVENT,
    ORGANISER,
    "PIN Gin Big Gin undercut deadwood meld box ginclub Hollywood Oklahoma vs Elo CSV QR",
    "English",
    "not-an-email",  # a refused line of the CSV, quoted
)

# Everything a person reads or hears: the text, the title, what buttons, fields and
# images say to a screen reader, the options of a list.
PAGE_WORDS = """() => {
  const all = (selector) => [...document.querySelectorAll(selector)];
  const parts = [document.title, document.body.innerText];
  for (const el of all("[placeholder]")) parts.push(el.placeholder);
  for (const name of ["aria-label", "title"]) {
    for (const el of all(`[${name}]`)) parts.push(el.getAttribute(name));
  }
  for (const el of all("img[alt]")) parts.push(el.alt);
  for (const el of all("input[type=submit], input[type=button]")) parts.push(el.value);
  for (const el of all("option, svg title")) parts.push(el.textContent);
  const codes = all("code, kbd, samp").map((el) => el.textContent);
  return {text: parts.join("\\n"), codes: codes.join(" ")};
}"""


def english_words(page, *extra_data: str) -> list[str]:
    """The English words a person would read on the page (data aside), each with the
    line it was found in, so a failure says where to look."""
    seen = page.evaluate(PAGE_WORDS)
    text = seen["text"]
    # what the page marks as code (a CSV column's name, an option) is typed, not read
    data = DATA | known_words(*extra_data, seen["codes"])
    found = []
    for line in text.splitlines():
        english = sorted((known_words(line) - data) & ENGLISH)
        if english:
            found.append(f"{'/'.join(english)} in {line.strip()[:160]!r}")
    return found


class Visit:
    """Checks each page: a full-page screenshot at 360 px, the width, and no English."""

    def __init__(self):
        self.count = 0
        self.found: dict[str, list[str]] = {}

    def __call__(self, page, name: str, *extra_data: str) -> None:
        self.count += 1
        size = page.viewport_size
        if size["width"] != 360:
            page.set_viewport_size({"width": 360, "height": 740})
        path = ARTIFACTS / f"italian-{self.count:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{name} ({page.url}) is {width} px wide at 360 px"
        english = english_words(page, *extra_data)
        if english:
            self.found[f"{name} ({page.url})"] = english
        if size["width"] != 360:
            page.set_viewport_size(size)

    def assert_italian(self) -> None:
        lines = [f"{page}: {word}" for page, words in self.found.items() for word in words]
        assert not lines, "English words on Italian pages:\n" + "\n".join(lines)


def context_for(browser, live_server, settings, *, width: int, locale: str = "it-IT"):
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False
    phone = width <= 400
    context = browser.new_context(
        viewport={"width": width, "height": 740 if phone else 1000},
        is_mobile=phone,
        has_touch=phone,
        locale=locale,
        base_url=live_server.url,
    )
    context.set_default_timeout(15000)
    return context


@pytest.fixture
def contexts(browser, live_server, settings):
    made = []

    def make(width: int, locale: str = "it-IT"):
        context = context_for(browser, live_server, settings, width=width, locale=locale)
        made.append(context)
        return context.new_page()

    yield make
    for context in made:
        context.close()


def log_in(page, visit) -> None:
    page.goto("/")
    visit(page, "home")
    page.goto("/accounts/login/")
    visit(page, "login")
    page.get_by_label("Nome utente").fill(ORGANISER)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Accedi").click()
    expect(page.locator(".who")).to_have_text(ORGANISER)


def sit_down(page, link: str, name: str, visit) -> None:
    page.goto(link)
    visit(page, "seat")
    page.get_by_label(name, exact=True).check()
    page.get_by_label("PIN").fill(PINS[name])
    page.get_by_role("button", name="Sono io").click()
    expect(page.locator("#hand-form")).to_contain_text(f"come {name}")


def record_by_hand(desk, table: int, reason: str, visit=None) -> None:
    """The organiser decides a table at the desk: player A wins one game to none."""
    desk.get_by_test_id(f"result-{table}").click()
    if visit:
        visit(desk, "result-form", reason)
    desk.locator('input[name="winner"][value="A"]').check()
    desk.locator("#id_games_a").fill("1")
    desk.get_by_label("Motivo (va nel registro)").fill(reason)
    desk.get_by_role("button", name="Registra il risultato").click()
    expect(desk.locator(".messages")).to_contain_text(f"Tavolo {table}: ")


def test_italian_day_from_home_page_to_finished_tournament(contexts):
    club = ClubFactory(name=CLUB, slug="trastevere")
    club.organisers.add(UserFactory(username=ORGANISER))
    for number, (name, pin) in enumerate(PINS.items(), start=1):
        PlayerFactory(club=club, name=name, pin=pin, member_id=f"M{number}")
    visit = Visit()
    desk = contexts(1280)

    log_in(desk, visit)
    desk.goto("/clubs/trastevere/")
    visit(desk, "club")
    desk.get_by_role("link", name="Nuovo torneo").click()
    visit(desk, "new-tournament")
    desk.locator("#id_name").fill(EVENT)
    desk.locator("#id_date").fill("2026-11-28")
    desk.get_by_test_id("more-options").locator("summary").click()  # folded options
    desk.locator("#id_overrides").fill("games_to_win = 1\ngame_target = 25")
    desk.locator("#id_rounds").fill("2")
    desk.locator("#id_bye_games").fill("1")
    desk.get_by_role("button", name="Crea il torneo").click()
    expect(desk.locator(".messages")).to_contain_text(EVENT)
    tournament = Tournament.objects.get(name=EVENT)
    visit(desk, "created")

    desk.locator("#id_file").set_input_files(
        files=[{"name": "players.csv", "mimeType": "text/csv", "buffer": PLAYERS_CSV}]
    )
    desk.get_by_role("button", name="Importa").click()
    report = desk.locator("#import-report")
    expect(report).to_contain_text("4 accettati")
    visit(desk, "import-report")
    for name in PINS:
        row = desk.locator(".reg", has_text=name)
        row.get_by_role("button", name="Segna presente").click()
        expect(desk.locator(".reg", has_text=name)).to_contain_text("presente")
    expect(desk.locator("#registration-counts")).to_contain_text("4")
    visit(desk, "checked-in")

    desk.get_by_role("link", name="Turni").click()
    visit(desk, "rounds")
    desk.get_by_role("button", name=re.compile("turno 1", re.I)).click()
    expect(desk.locator("#draft .pairing")).to_have_count(2)
    visit(desk, "draft")
    desk.locator("#draft").get_by_role("button", name=re.compile("turno 1", re.I)).click()
    expect(desk.locator("#dashboard-tables")).to_contain_text("2 ")
    visit(desk, "published")
    desk.get_by_role("button", name="Avvia l'orologio").click()
    expect(desk.get_by_test_id("clock")).to_be_visible()
    visit(desk, "clock-started")

    desk.get_by_role("link", name="Cartellini dei tavoli").click()
    card = desk.locator(".table-card", has_text="Alice")
    expect(card.locator("svg")).to_be_visible()
    link = card.locator(".url").inner_text().strip()
    names = card.locator(".names").inner_text()
    opponent = next(n for n in PINS if n != "Alice" and n in names)
    other_table = 1 if "Tavolo 2" in card.locator(".big-table").inner_text() else 2
    visit(desk, "table-cards", link)

    alice, rival = contexts(360), contexts(360)
    sit_down(alice, link, "Alice", visit)
    sit_down(rival, link, opponent, visit)
    visit(alice, "seated")
    entry = alice.locator("#hand-form")
    entry.get_by_label("Alice", exact=True).check()
    alice.locator("#id_knocker_deadwood").fill("3")
    alice.locator("#id_defender_deadwood").fill("41")
    visit(alice, "hand-filled")
    alice.get_by_test_id("submit-hand").click()
    expect(alice.get_by_test_id("confirm-1")).to_have_count(0)
    confirm = rival.get_by_test_id("confirm-1")
    expect(confirm).to_be_visible(timeout=10000)  # arrives by polling
    visit(alice, "hand-entered")
    visit(rival, "to-confirm")
    confirm.click()
    for page in (alice, rival):
        expect(page.locator("#scoreboard")).to_contain_text("Alice vince 1–0", timeout=10000)
    visit(alice, "match-won")
    alices_match = Match.objects.get(
        pairing__round__tournament=tournament,
        pairing__round__number=1,
        player_a__name__in=["Alice", opponent],
    )
    assert alices_match.winner

    desk.goto(f"/tournaments/{tournament.slug}/manage/dashboard/")
    expect(desk.locator("#dashboard-tables")).to_contain_text("1 ", timeout=10000)
    visit(desk, "dashboard")
    record_by_hand(desk, other_table, "nessun telefono al tavolo", visit)
    visit(desk, "result-recorded")
    desk.get_by_test_id("close-round").click()
    expect(desk.locator(".messages")).to_contain_text("1")
    assert Round.objects.get(tournament=tournament, number=1).state == Round.State.CLOSED
    visit(desk, "round-1-closed")

    public = contexts(360)
    public.goto(f"/tournaments/{tournament.slug}/standings/")
    rows = public.locator("#standings-table tbody tr")
    expect(rows).to_have_count(4)
    top_two = {rows.nth(i).locator("td").nth(1).inner_text() for i in range(2)}
    assert "Alice" in top_two
    visit(public, "standings-1")
    public.goto(f"/tournaments/{tournament.slug}/")
    expect(public.locator("#pairings-table")).to_contain_text("vince Alice")
    visit(public, "pairings-1")

    # Round 2 at the desk; closing the last round finishes the tournament.
    desk.get_by_role("link", name="Turni").click()
    desk.get_by_role("button", name=re.compile("turno 2", re.I)).click()
    expect(desk.locator("#draft .pairing")).to_have_count(2)
    visit(desk, "draft-2")
    desk.locator("#draft").get_by_role("button", name=re.compile("turno 2", re.I)).click()
    expect(desk.locator("#dashboard-tables")).to_be_visible()
    for table in (1, 2):
        record_by_hand(desk, table, "deciso al banco")
    visit(desk, "round-2-results")
    desk.get_by_test_id("close-round").click()
    tournament.refresh_from_db()
    expect(desk.locator(".messages")).to_contain_text("2")
    assert Tournament.objects.get(pk=tournament.pk).state == Tournament.State.FINISHED
    visit(desk, "finished-dashboard")
    desk.get_by_role("link", name="Turni").click()
    visit(desk, "finished-rounds")
    tabs = desk.get_by_role("navigation", name="Pagine dell'organizzatore")
    for tab in ("Impostazioni", "Giocatori", "Classifica", "Correzioni"):
        tabs.get_by_role("link", name=tab, exact=True).click()
        visit(desk, f"finished-{tab.lower()}")
    desk.goto(f"/tournaments/{tournament.slug}/manage/dashboard/?round=1")
    for printed in ("Fogli segnapunti", "Proiettore"):
        desk.get_by_role("link", name=printed).click()
        visit(desk, printed.split()[0].lower())
        desk.go_back()
    desk.goto(f"/matches/{alices_match.pk}/")
    visit(desk, "match-at-the-desk")
    desk.goto(f"/matches/{alices_match.pk}/ledger/")
    visit(desk, "ledger")

    public.goto(f"/tournaments/{tournament.slug}/standings/")
    expect(rows).to_have_count(4)
    visit(public, "final-standings")
    public.goto(f"/tournaments/{tournament.slug}/")
    expect(public.locator("#pairings-table")).to_contain_text("vince")
    visit(public, "final-pairings")
    public.get_by_role("link", name="Il mio torneo", exact=True).click()
    visit(public, "who-are-you")
    public.get_by_role("link", name="Alice").click()
    visit(public, "my-event")
    visit.assert_italian()


def test_language_switch_and_a_seated_players_language(contexts):
    club = ClubFactory(name=CLUB, slug="trastevere")
    club.organisers.add(UserFactory(username=ORGANISER))
    page = contexts(360, locale="en-GB")
    page.goto("/accounts/login/")
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    page.get_by_role("button", name="Italiano").click()
    expect(page.get_by_role("heading", name="Accedi")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "it")
    page.get_by_label("Nome utente").fill(ORGANISER)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Accedi").click()
    page.goto("/clubs/trastevere/")
    expect(page.get_by_role("link", name="Nuovo torneo")).to_be_visible()
    page.get_by_role("button", name="English", exact=True).click()
    expect(page.get_by_role("link", name="New tournament")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en-gb")
    page.goto("/accounts/login/")
    expect(page.get_by_role("button", name="Log in")).to_be_visible()

    # At a table: Alice's phone (an English browser) switches to Italian; Alice's table
    # keeps it, even on another English phone she sits down with; Bob's stays English.
    alice_player = PlayerFactory(club=club, name="Alice", pin="1111")
    bob_player = PlayerFactory(club=club, name="Bruno", pin="2222")
    match = services.start_match(
        club=club,
        player_a=alice_player,
        player_b=bob_player,
        actor=services.Actor(user=club.organisers.get()),
    )
    link = f"/t/{table_token(match)}/"
    alice, bruno = contexts(360, locale="en-GB"), contexts(360, locale="en-GB")
    for page, name in ((alice, "Alice"), (bruno, "Bruno")):
        page.goto(link)
        page.get_by_label(name, exact=True).check()
        page.get_by_label("PIN").fill(PINS[name])
        page.get_by_role("button", name="This is me").click()
        expect(page.locator("#hand-form")).to_contain_text(f"as {name}")
    alice.get_by_role("button", name="Italiano").click()
    expect(alice.locator("#hand-form")).to_contain_text("come Alice")
    alice_player.refresh_from_db()
    assert alice_player.language == "it"
    another = contexts(360, locale="en-GB")
    another.goto(link)
    another.get_by_label("Alice", exact=True).check()
    another.get_by_label("PIN").fill(PINS["Alice"])
    another.get_by_role("button", name="This is me").click()
    expect(another.locator("#hand-form")).to_contain_text("come Alice")
    expect(another.locator("html")).to_have_attribute("lang", "it")
    bruno.reload()
    expect(bruno.locator("#hand-form")).to_contain_text("as Bruno")
