"""Running the room, the whole day (issue 25's "Done when"): an organiser and a
scorekeeper at 1280 px, players on 360 px phones. The organiser opens sign-ups with
three places; four players sign up on their phones, the fourth waits and moves up when
one leaves; they check in from their phones; the organiser drafts and publishes round 1
on the rounds page; one table plays its hand on the phones (entered and confirmed),
after one of its players called the organiser from the table and the scorekeeper (in
Italian) took and resolved the call on the dashboard; one player drops from her phone;
the scorekeeper records a game loss at the other table on its match page; every
settings change the scorekeeper tries, on the pages and through the API with the
scorekeeper's session, is refused naming the role. No console errors. Screenshots:
test-artifacts/room-day-*.png."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from ginclub.permissions import table_token
from scoring import services as scoring
from scoring.models import LedgerRow, Penalty, TableCall
from tests.browser.conftest import ARTIFACTS, in_italian
from tests.browser.steps import log_in, sign_up, sit_down
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import actor, new_event, pairs_of
from tournaments import services
from tournaments.models import Registration, Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

PINS = {"Ada": "1357", "Ben": "2468", "Cleo": "3579", "Dan": "4680"}


@pytest.fixture
def wide(browser, live_server, settings):
    """A factory of 1280 px browser contexts, one per member of staff."""
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False
    contexts = []

    def make():
        context = browser.new_context(
            viewport={"width": 1280, "height": 900}, base_url=live_server.url
        )
        context.set_default_timeout(15000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def shot(page, name: str) -> None:
    """A full-page screenshot; nothing wider than the window."""
    page.screenshot(path=str(ARTIFACTS / f"room-day-{name}.png"), full_page=True)
    width = page.viewport_size["width"]
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"{name} is {wide} px wide in a {width} px window"


def pairing_with(rnd, name: str):
    return rnd.pairings.select_related("match", "player_a__player", "player_b__player").get(
        **{"match__isnull": False},
        **(
            {"player_a__player__name": name}
            if rnd.pairings.filter(player_a__player__name=name).exists()
            else {"player_b__player__name": name}
        ),
    )


def test_a_day_run_by_an_organiser_and_a_scorekeeper(wide, phone, console):
    club = ClubFactory(name="Harbour Gin", slug="harbour")
    orla = UserFactory(username="orla")
    club.organisers.add(orla)
    UserFactory(username="sam")
    UserFactory(username="kim")
    scoring.grant_scorekeeper(club=club, username="sam", actor=actor(orla))
    event = new_event(
        club,
        orla,
        players=0,
        name="Harbour Open",
        overrides={"game_target": 25, "games_to_win": 1},
        bye_games=1,
    )

    # --- The organiser opens sign-ups: three places, check-in by phone from an hour before.
    desk = console.watch(wide())
    log_in(desk, "orla")
    desk.goto(f"/tournaments/{event.slug}/manage/players/")
    desk.get_by_test_id("signup-settings-open").click()  # closed: the player list first
    form = desk.get_by_test_id("signup-settings")
    form.get_by_label("Players may sign up").check()
    form.get_by_label("Places").fill("3")
    starts = timezone.localtime(timezone.now() + dt.timedelta(minutes=30))
    form.get_by_label("Round 1 starts at").fill(starts.strftime("%Y-%m-%dT%H:%M"))
    form.get_by_label("Phones may check in this many minutes before").fill("60")
    form.get_by_role("button", name="Save").click()
    expect(desk.get_by_test_id("signups-state")).to_have_text("sign-ups open")
    link = desk.get_by_test_id("signup-link").get_attribute("href")
    shot(desk, "organiser-signups")

    # --- Four players sign up on their phones; Dan is fourth and waits.
    ada, ben, cleo, dan = (console.watch(phone()) for _ in range(4))
    for page, name in ((ada, "Ada"), (ben, "Ben"), (cleo, "Cleo"), (dan, "Dan")):
        page.goto(link)
        sign_up(page, name, PINS[name])
    expect(ada.get_by_test_id("signup-where")).to_contain_text("You have a place")
    expect(dan.get_by_test_id("signup-where")).to_contain_text(
        "You are number 1 on the waiting list"
    )
    shot(dan, "phone-waiting")

    # Ben leaves with his PIN; Dan's page, reloaded, says he moved up.
    ben.locator("#leave summary").click()
    ben.get_by_label("Your PIN").fill(PINS["Ben"])
    ben.get_by_test_id("leave").click()
    expect(ben.get_by_test_id("signup-where")).to_contain_text("Ben left Harbour Open")
    dan.reload()
    expect(dan.get_by_test_id("signup-where")).to_contain_text("You moved up from the waiting list")
    shot(dan, "phone-moved-up")

    # --- Ada, Cleo and Dan check in from their own event pages.
    my_event = {}
    for page, name in ((ada, "Ada"), (cleo, "Cleo"), (dan, "Dan")):
        page.get_by_test_id("my-event-link").click()
        my_event[name] = page.url
        check_in = page.get_by_test_id("my-check-in")
        check_in.get_by_label("Your PIN").fill(PINS[name])
        check_in.get_by_role("button", name="Check in: I am here").click()
        expect(page.get_by_test_id("my-checked-in")).to_be_visible()
    shot(cleo, "phone-checked-in")
    desk.goto(f"/tournaments/{event.slug}/manage/players/")
    for name in ("Ada", "Cleo", "Dan"):
        expect(desk.locator(".reg", has_text=name)).to_contain_text("checked in")
    expect(desk.locator(".reg", has_text="Ben")).to_have_count(0)

    # Eve registers at the desk; the organiser drafts and publishes round 1 on the rounds page.
    eve = services.add_registration(tournament_id=event.pk, actor=actor(orla), name="Eve")
    services.check_in(registration_id=eve.pk, actor=actor(orla))
    desk.goto(f"/tournaments/{event.slug}/manage/rounds/")
    desk.get_by_role("button", name="Draft round 1").click()
    expect(desk.locator("#draft .pairing")).to_have_count(2)
    desk.get_by_role("button", name="Publish round 1").click()
    expect(desk.locator("#dashboard-tables")).to_contain_text("2 playing")
    one = Round.objects.get(tournament=event, number=1)
    ada_table = pairing_with(one, "Ada")
    other_table = one.pairings.exclude(pk=ada_table.pk).get(match__isnull=False)
    opponent = (
        ada_table.player_b if ada_table.player_a.player.name == "Ada" else ada_table.player_a
    ).player.name

    # --- The scorekeeper, at 1280 px and in Italian, watches the dashboard.
    keeper = console.watch(wide())
    log_in(keeper, "sam")
    keeper.goto(f"/tournaments/{event.slug}/manage/dashboard/")
    in_italian(keeper)
    expect(keeper.get_by_test_id("scorekeeper-note")).to_be_visible()
    expect(keeper.get_by_test_id("calls-count")).to_have_text("0")

    # Ada and her opponent sit down; Ada calls the organiser for a ruling.
    link = f"/t/{table_token(ada_table.match)}/"
    table = {"Ada": ada, opponent: cleo if opponent == "Cleo" else dan}
    for name, page in table.items():
        sit_down(page, link, name, PINS[name])
    ada.get_by_test_id("call-staff-open").click()
    ada.get_by_role("button", name="A ruling").click()
    expect(ada.get_by_text("The organiser is called for a ruling.")).to_be_visible()
    expect(ada.get_by_test_id("call-status")).to_contain_text("Organiser called")
    shot(ada, "phone-called")

    n = ada_table.table
    keeper.reload()  # rather than wait for the dashboard's poll
    expect(keeper.get_by_test_id("calls-count")).to_have_text("1")
    expect(keeper.get_by_role("heading", name="Chiamate dai tavoli")).to_be_visible()
    expect(keeper.get_by_test_id(f"call-{n}")).to_contain_text("una decisione arbitrale")
    expect(keeper.get_by_test_id(f"call-{n}")).to_contain_text("chiamata da Ada")
    shot(keeper, "scorekeeper-call-it")
    keeper.get_by_test_id(f"take-call-{n}").click()
    expect(keeper.get_by_test_id(f"call-{n}")).to_contain_text("presa in carico da sam")
    ada.reload()
    expect(ada.get_by_test_id("call-status")).to_contain_text("on the way")
    keeper.get_by_test_id(f"resolve-call-{n}").click()
    keeper.get_by_test_id(f"call-{n}").locator('input[name="note"]').fill("the knock stands")
    keeper.get_by_test_id(f"resolve-call-now-{n}").click()
    expect(keeper.get_by_test_id("calls-count")).to_have_text("0")
    shot(keeper, "scorekeeper-resolved-it")
    ada.reload()
    expect(ada.get_by_test_id("call-status")).to_have_count(0)
    call = TableCall.objects.get(match=ada_table.match)
    assert (call.state, call.note) == ("resolved", "the knock stands")
    assert list(
        LedgerRow.objects.filter(chain=f"match:{ada_table.match_id}", action__startswith="call_")
        .order_by("position")
        .values_list("action", flat=True)
    ) == ["call_raised", "call_taken", "call_resolved"]
    keeper.get_by_test_id("language-en-gb").click()
    expect(keeper.locator("html")).to_have_attribute("lang", "en-gb")

    # --- Ada's table plays its hand on the phones: Ada knocks 5 against 35, her opponent
    # confirms; one game decides the match.
    seat = "A" if ada_table.player_a.player.name == "Ada" else "B"
    ada.locator(f'label:has(input[name="knocker"][value="{seat}"])').click()  # as a thumb taps it
    ada.locator("#id_knocker_deadwood").fill("5")
    ada.locator("#id_defender_deadwood").fill("35")
    ada.get_by_test_id("submit-hand").click()
    expect(ada.locator("#scoreboard")).to_contain_text("Pending")
    other = table[opponent]
    other.reload()
    other.get_by_test_id("confirm-1").click()
    expect(other.get_by_test_id("match-result")).to_contain_text("Ada wins 1–0")
    shot(other, "phone-result")

    # --- Cleo drops after this round, from her event page, with her PIN.
    cleo.goto(my_event["Cleo"])
    cleo.locator("#my-drop summary").click()
    cleo.locator("#my-drop").get_by_label("Your PIN").fill(PINS["Cleo"])
    cleo.get_by_test_id("my-drop-button").click()
    expect(cleo.locator(".my-name")).to_contain_text("withdrawn")
    shot(cleo, "phone-dropped")
    desk.goto(f"/tournaments/{event.slug}/manage/dashboard/")
    expect(desk.get_by_test_id("entries-dropped")).to_contain_text("Cleo")

    # --- The scorekeeper records a game loss at the other table, on its match page.
    a, b = other_table.player_a.player.name, other_table.player_b.player.name
    keeper.goto(f"/matches/{other_table.match_id}/")
    penalty = keeper.locator("#penalty-form")
    penalty.locator("label", has_text=b).click()
    penalty.get_by_label("Infraction").select_option("cards")
    penalty.get_by_label("What happened").fill(f"{b} looked at the next card of the stock")
    keeper.get_by_test_id("penalty-kind").select_option("game_loss")
    keeper.get_by_test_id("penalty-record").click()
    expect(keeper.get_by_test_id("penalty-staff-list")).to_contain_text(f"Game loss · {b}")
    expect(keeper.get_by_test_id("match-result")).to_contain_text(f"{a} wins 1–0")
    shot(keeper, "scorekeeper-penalty")
    recorded = Penalty.objects.select_related("recorded_by").get()
    assert (recorded.kind, recorded.seat, recorded.recorded_by.username) == (
        "game_loss",
        "B",
        "sam",
    )

    # --- Every settings change the scorekeeper tries is refused, naming the role. The
    # setup and players pages (reached by address: their tabs are not shown) are read-only,
    # saying who changes them; their forms, posted anyway, are refused...
    keeper.goto(f"/tournaments/{event.slug}/manage/")
    expect(keeper.get_by_test_id("read-only-setup")).to_contain_text("Only the club's organisers")
    expect(keeper.get_by_role("button", name="Save settings")).to_have_count(0)
    shot(keeper, "scorekeeper-setup-read-only")
    token = next(c["value"] for c in keeper.context.cookies() if c["name"] == "csrftoken")

    def post_anyway(path: str, form: dict) -> None:
        answer = keeper.request.post(
            path, form={**form, "csrfmiddlewaretoken": token}, headers={"Referer": keeper.url}
        )
        assert answer.status == 403, (path, answer.status)
        assert "Scorekeepers run the rounds" in answer.text(), path

    post_anyway(f"/tournaments/{event.slug}/manage/", {"name": "Renamed", "venue": "Elsewhere"})
    keeper.goto(f"/tournaments/{event.slug}/manage/players/")
    expect(keeper.get_by_test_id("read-only-players")).to_be_visible()
    expect(keeper.locator("#add-player")).to_have_count(0)
    # the sign-up settings are not offered to a scorekeeper either
    expect(keeper.get_by_test_id("signup-settings")).to_have_count(0)
    post_anyway(f"/tournaments/{event.slug}/manage/signups/", {"open": "on", "capacity": "10"})
    post_anyway(f"/tournaments/{event.slug}/manage/players/add/", {"name": "Newcomer"})

    # ... and through the API with the scorekeeper's session.
    base = f"/api/tournaments/{event.slug}/"
    tries = [
        ("PATCH", base, {"venue": "Elsewhere"}),
        ("PATCH", base + "signups/", {"capacity": 10}),
        ("POST", base + "rules/apply/", {"profile": "tournament", "reason": "faster"}),
        ("POST", base + "registrations/", {"name": "Newcomer"}),
        ("POST", f"/api/clubs/{club.slug}/scorekeepers/", {"username": "kim"}),
        ("POST", f"/api/clubs/{club.slug}/auditors/", {"username": "kim"}),
    ]
    for method, url, body in tries:
        answer = keeper.request.fetch(url, method=method, data=body, headers={"X-CSRFToken": token})
        assert answer.status == 403, (method, url, answer.status, answer.text())
        assert answer.json()["error"]["code"] == "scorekeeper_not_allowed", (method, url)
    event = Tournament.objects.get(pk=event.pk)
    assert event.venue != "Elsewhere" and event.signup_capacity == 3
    assert not Registration.objects.filter(tournament=event, player__name="Newcomer").exists()
    assert not club.scorekeepers.filter(username="kim").exists()
    assert not club.auditors.filter(username="kim").exists()

    # --- The round closes; round 2 leaves Cleo out.
    services.close_round(round_id=one.pk, actor=actor(orla))
    two = services.draft_round(tournament_id=event.pk, actor=actor(orla))
    assert {name for pair in pairs_of(two) for name in pair if name} == {"Ada", "Dan", "Eve"}
    console.assert_clean(forbidden=True)
