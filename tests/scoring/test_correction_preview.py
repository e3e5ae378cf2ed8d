"""An organiser's correction or void is previewed first: the preview runs the real
service and rolls it back, so it shows exactly what applying would do (or gives the very
refusal applying would give) and writes nothing. Result changes pass through the result
guards of scoring.hooks, for organisers' and players' actions alike."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from ginclub.errors import Conflict, ServiceError
from scoring import hooks, services
from scoring import serializers as ss
from scoring.hooks import guards
from scoring.models import Entry, Hand, LedgerRow, Match
from scoring.rules import RulesError
from tests.scoring.helpers import confirm, key, play_hand, quick, submit
from tests.test_api_outputs import assert_shape

pytestmark = pytest.mark.django_db


def org(user) -> services.Actor:
    return services.Actor(user=user)


@pytest.fixture
def ended(match, alice, bob):
    """Alice's gin, 25 + 80 = 105 past the standard target of 100: game and match won."""
    hand = play_hand(match, alice, bob, quick(outcome="gin", kd=0, dd=80))
    match.refresh_from_db()
    assert (match.state, match.winner) == (Match.State.FINISHED, "A")
    return hand


def written() -> tuple[int, int]:
    return LedgerRow.objects.count(), Entry.objects.count()


def test_the_preview_shows_the_hand_and_the_result_before_and_after_and_writes_nothing(
    match, ended, organiser
):
    before = written()
    preview = services.preview_correction(
        hand_id=ended.pk, actor=org(organiser), hand_input=quick(kd=5, dd=20), version=1
    )
    assert (preview.hand_before["outcome"], preview.hand_before["points"]) == ("gin", 105)
    assert (preview.hand_after["outcome"], preview.hand_after["points"]) == ("knock", 15)
    assert preview.hand_after["version"] == 2
    assert preview.result_before["winner"] == "A"
    assert preview.result_after == {
        "state": "in_progress",
        "winner": None,
        "games_won": {"A": 0, "B": 0},
        "points": {"A": 0, "B": 0},
    }
    assert preview.result_changed and preview.tournament is None  # a club match
    assert written() == before
    ended.refresh_from_db()
    match.refresh_from_db()
    assert (ended.points, ended.version, match.state) == (105, 1, Match.State.FINISHED)


def test_the_preview_gives_the_refusal_applying_would_give(match, ended, organiser):
    with pytest.raises(Conflict) as stale:
        services.preview_correction(
            hand_id=ended.pk, actor=org(organiser), hand_input=quick(), version=7
        )
    assert stale.value.code == "stale_version"
    with pytest.raises(RulesError):
        services.preview_correction(
            hand_id=ended.pk, actor=org(organiser), hand_input=quick(kd=30), version=1
        )


def test_a_void_preview_of_a_club_match(match, ended, organiser):
    preview = services.preview_void(hand_id=ended.pk, actor=org(organiser), version=1)
    assert preview.action == "void"
    assert preview.hand_after["state"] == Hand.State.VOIDED
    assert preview.result_after["state"] == Match.State.IN_PROGRESS
    assert Hand.objects.get(pk=ended.pk).state == Hand.State.CONFIRMED


@pytest.fixture
def guard():
    """A result guard of a made-up app above scoring: it records each change, describes
    it, and refuses any change that would leave the match without a winner."""
    seen = []

    def judge(change: hooks.ResultChange):
        seen.append(change)
        if change.after["winner"] is None:
            raise Conflict("would_reopen", "This match must keep a winner.")
        return {"kind": "test", "winner": change.after["winner"]}

    hooks.register_result_guard(judge)
    yield seen
    guards._result_guards.remove(judge)


def test_a_guard_refusal_rolls_the_whole_correction_back(match, ended, organiser, guard):
    before = written()
    with pytest.raises(Conflict) as refused:
        services.correct_hand(
            hand_id=ended.pk,
            actor=org(organiser),
            hand_input=quick(),
            version=1,
            reason="typo",
            idempotency_key=key(),
        )
    assert refused.value.code == "would_reopen"
    assert written() == before
    assert Hand.objects.get(pk=ended.pk).points == 105
    assert guard[-1].action == "hand_corrected" and guard[-1].hand == "hand 1 of game 1"


def test_a_guard_description_goes_to_the_ledger_with_the_change(match, ended, organiser, guard):
    # Bob's gin instead: still decided, now for Bob.
    outcome = services.correct_hand(
        hand_id=ended.pk,
        actor=org(organiser),
        hand_input=quick(knocker="B", outcome="gin", kd=0, dd=80),
        version=1,
        reason="Bob went gin",
        idempotency_key=key(),
    )
    assert outcome.extra["result"].consequences == [{"kind": "test", "winner": "B"}]
    row = LedgerRow.objects.filter(match=match).order_by("-position").first()
    assert row.action == "result_changed_after_close"
    assert row.reason == "Bob went gin"
    assert row.before == {"result": guard[-1].before}
    assert row.after["winner"] == "B" and row.after["action"] == "hand_corrected"


def test_players_actions_pass_the_guard_too(match, alice, bob, guard):
    outcome = submit(match, alice, quick(outcome="gin", kd=0, dd=80))
    assert guard == []  # pending: the result has not moved
    confirm(outcome.hand, bob)
    assert [(c.action, c.after["winner"]) for c in guard] == [("hand_confirmed", "A")]


def test_no_result_change_asks_no_guard(match, alice, bob, organiser, guard):
    hand = play_hand(match, alice, bob, quick(kd=5, dd=20))
    services.correct_hand(
        hand_id=hand.pk,
        actor=org(organiser),
        hand_input=quick(kd=5, dd=30),
        version=hand.version,
        reason="typo",
        idempotency_key=key(),
    )
    assert guard == []  # mid-game: the match's games and points are still 0


# --------------------------------------------------------------------------- the API


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_api_previews_have_their_declared_shape(match, ended, organiser):
    body = {"game": 1, "number": 1, "outcome": "knock", "knocker": "A", "version": 1}
    body |= {"knocker_deadwood": 5, "defender_deadwood": 20}
    response = api(organiser).post(f"/api/hands/{ended.pk}/correct/preview/", body, format="json")
    assert response.status_code == 200, response.content
    assert_shape(response.json(), ss.CorrectionPreviewOutputSerializer)
    assert response.json()["result"]["changed"] is True
    response = api(organiser).post(
        f"/api/hands/{ended.pk}/void/preview/", {"version": 1, "reason": "x"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert_shape(response.json(), ss.CorrectionPreviewOutputSerializer)
    assert response.json()["action"] == "void"
    assert Hand.objects.get(pk=ended.pk).version == 1


def test_api_previews_are_for_organisers_and_check_their_input(match, ended, alice, organiser):
    response = api(alice.user).post(
        f"/api/hands/{ended.pk}/void/preview/", {"version": 1}, format="json"
    )
    assert response.status_code == 403
    assert APIClient().post(f"/api/hands/{ended.pk}/void/preview/", {"version": 1}).status_code in (
        401,
        403,
    )
    response = api(organiser).post(
        f"/api/hands/{ended.pk}/void/preview/", {"version": 0, "what": 1}, format="json"
    )
    assert response.status_code == 400
    assert "version" in response.json()["error"]["fields"]
    response = api(organiser).post(
        f"/api/hands/{ended.pk}/void/preview/", {"version": 1, "what": 1}, format="json"
    )
    assert response.json()["error"]["fields"] == {"what": ["unknown field"]}
    response = api(organiser).post(
        f"/api/hands/{ended.pk}/correct/preview/", {"version": 2, **quick_body()}, format="json"
    )
    assert (response.status_code, response.json()["error"]["code"]) == (409, "stale_version")


def quick_body() -> dict:
    return {
        "game": 1,
        "number": 1,
        "outcome": "knock",
        "knocker": "A",
        "knocker_deadwood": 5,
        "defender_deadwood": 20,
    }


# -------------------------------------------------------------------------- the page


@pytest.fixture
def desk(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def form(**values) -> dict:
    return {"version": 1, "idempotency_key": "preview", "reason": "typo", **quick_body(), **values}


def test_the_correction_page_previews_then_applies(match, ended, desk):
    page = desk.get(f"/hands/{ended.pk}/correction/")
    assert page.status_code == 200
    assert b"Preview the correction" in page.content and b"Preview the void" in page.content
    partial = desk.post(f"/hands/{ended.pk}/correct/preview/", form(), HTTP_HX_REQUEST="true")
    text = partial.content.decode()
    assert partial.status_code == 200 and text.startswith('<section id="correction-preview"')
    assert "gin, Alice knocked, deadwood 0 v 80: Alice +105" in text
    assert "knock, Alice knocked, deadwood 5 v 20: Alice +15" in text
    assert "Alice wins: Alice 1–0 Bob in games" in text and "Undecided: Alice 0–0 Bob" in text
    assert "Apply the correction" in text
    assert Hand.objects.get(pk=ended.pk).version == 1  # nothing written yet
    # Without htmx the whole page comes back, the preview in it.
    full = desk.post(f"/hands/{ended.pk}/correct/preview/", form())
    assert b"<h1>Hand 1 of game 1</h1>" in full.content and b"Apply the correction" in full.content
    applied = desk.post(f"/hands/{ended.pk}/correct/", form(idempotency_key="apply-1"))
    assert applied.status_code == 302
    assert Hand.objects.get(pk=ended.pk).points == 15
    # the match page it lands on says it was done (a walk found no word of it)
    landed = desk.get(applied["Location"]).content.decode()
    assert '<li class="success">Hand 1 of game 1 corrected.</li>' in landed
    voided = desk.post(
        f"/hands/{ended.pk}/void/", {"version": 2, "idempotency_key": "v-1", "reason": "twice"}
    )
    landed = desk.get(voided["Location"]).content.decode()
    assert '<li class="success">Hand 1 of game 1 voided.</li>' in landed


def test_a_refused_preview_answers_with_the_refusal(match, ended, desk):
    response = desk.post(
        f"/hands/{ended.pk}/correct/preview/", form(version=3), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 409 and response["X-Refusal"]
    assert b"has changed" in response.content
    void = desk.post(
        f"/hands/{ended.pk}/void/preview/",
        {"version": 1, "idempotency_key": "p", "reason": "twice"},
        HTTP_HX_REQUEST="true",
    )
    assert void.status_code == 200 and b"Void hand 1" in void.content


def test_the_correction_page_is_for_organisers(match, ended, alice):
    client = Client()
    client.force_login(alice.user)
    assert client.get(f"/hands/{ended.pk}/correction/").status_code == 403
    assert client.post(f"/hands/{ended.pk}/correct/preview/", form()).status_code == 403
    assert Client().get(f"/hands/{ended.pk}/correction/").status_code == 302  # to log in


def test_the_scoreboard_links_each_hand_to_its_correction_page(match, ended, desk):
    page = desk.get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/hands/{ended.pk}/correction/"' in page


def test_a_correction_that_keeps_the_match_result_still_shows_its_game_moving(
    match, alice, bob, organiser
):
    """Issue 23, finding 10: the preview said "(unchanged)" while the game's points
    moved 70 → 60."""
    hand = play_hand(match, alice, bob, quick(kd=5, dd=75))  # Alice +70, game 1 goes on
    preview = services.preview_correction(
        hand_id=hand.pk, actor=org(organiser), hand_input=quick(kd=5, dd=65), version=1
    )
    assert not preview.result_changed
    [(before, after)] = preview.games_changed
    assert (before["number"], before["total_a"], after["total_a"]) == (1, 70, 60)
    staff = Client()
    staff.force_login(organiser)
    page = staff.post(
        f"/hands/{hand.pk}/correct/preview/", form(defender_deadwood=65)
    ).content.decode()
    assert "Game 1" in page and "Alice 70–0 Bob → <strong>Alice 60–0 Bob</strong>" in page
    assert "(the match result does not change)" in page and "(unchanged)" not in page


KNOCKER = "5H 6H 7H 9C 9D 9S JS QS KS 2D"
DEFENDER = "8H 9H KD KC KH 3C 4C 5C AS 7D"


def test_a_card_entry_hand_is_corrected_by_its_cards(match, alice, bob, organiser, desk):
    """Issue 23, finding 10: a card-entry hand could be corrected only by numbers."""
    from scoring.hand_input import HandInput

    hand = play_hand(
        match,
        alice,
        bob,
        HandInput(
            game=1,
            number=1,
            outcome="knock",
            knocker="A",
            knocker_cards=tuple(KNOCKER.split()),
            defender_cards=tuple(DEFENDER.split()),
        ),
    )
    assert (hand.knocker_deadwood, hand.defender_deadwood, hand.points) == (2, 8, 6)
    page = desk.get(f"/hands/{hand.pk}/correction/").content.decode()
    assert 'data-testid="correction-cards"' in page
    assert f'name="defender_cards" value="{DEFENDER}"' in page
    fixed = DEFENDER.replace("7D", "TD")  # the 7 was a 10: deadwood 11, not 8
    body = form(
        knocker_deadwood=2,
        defender_deadwood=8,
        knocker_cards=KNOCKER,
        defender_cards=fixed,
        reason="the 7 of diamonds was the 10",
    )
    preview = desk.post(f"/hands/{hand.pk}/correct/preview/", body).content.decode()
    assert "deadwood 2 v 8: Alice +6 → <strong>knock, Alice knocked, deadwood 2 v 11: Alice +9" in (
        preview
    )
    assert f'name="defender_cards" value="{fixed}"' in preview  # carried to Apply
    desk.post(f"/hands/{hand.pk}/correct/", {**body, "idempotency_key": "apply-cards"})
    hand.refresh_from_db()
    assert (hand.defender_deadwood, hand.points, hand.version) == (11, 9, 2)
    assert "10D" in hand.cards["defender_cards"] or "TD" in hand.cards["defender_cards"]
    refused = desk.post(
        f"/hands/{hand.pk}/correct/preview/",
        {**body, "version": 2, "defender_cards": fixed.replace("TD", "ZZ")},
    )
    assert refused.status_code == 400 and "ZZ" in refused.content.decode()


def test_a_correction_that_changes_nothing_is_refused_before_anything_is_written(
    match, ended, organiser
):
    """A walk applied a correction of a confirmed hand with its own values: a "Corrected"
    badge, a ledger row and an audit exception with the same before and after."""
    before = written()
    same = quick(outcome="gin", kd=0, dd=80)
    for change, keyed in [
        (services.preview_correction, {}),
        (services.correct_hand, {"idempotency_key": key(), "reason": "no change"}),
    ]:
        with pytest.raises(ServiceError) as refused:
            change(hand_id=ended.pk, actor=org(organiser), hand_input=same, version=1, **keyed)
        assert refused.value.code == "no_change"
        assert refused.value.message == (
            "This correction changes nothing: hand 1 already stands so. Change a value to "
            "correct it."
        )
    assert written() == before
    ended.refresh_from_db()
    assert ended.version == 1


def test_an_organiser_may_settle_a_pending_hand_with_its_own_values(match, alice, organiser):
    hand = submit(match, alice, quick()).hand
    outcome = services.correct_hand(
        hand_id=hand.pk,
        actor=org(organiser),
        hand_input=quick(),
        version=hand.version,
        reason="both agree at the desk",
        idempotency_key=key(),
    )
    assert outcome.hand.state == Hand.State.CONFIRMED
