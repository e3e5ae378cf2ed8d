"""Refusals from the scoring pages and API: the views raise, the middleware (pages) and
DRF's handler (API) answer. Nothing a visitor sends is a 500."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from ginclub.permissions import table_token
from scoring.models import Hand
from tests.scoring.helpers import key, quick, seated_phone, submit

pytestmark = pytest.mark.django_db

NOT_ALLOWED = "Open this match from its table link, or log in."


def hand_post(**changes) -> dict:
    return {
        "game": 1,
        "number": 1,
        "idempotency_key": key(),
        "mode": "quick",
        "outcome": "knock",
        "knocker": "A",
        "knocker_deadwood": 4,
        "defender_deadwood": 30,
        **changes,
    }


@pytest.fixture
def seated(match, alice):
    return seated_phone(match, alice)


# ------------------------------------------------------- anonymous visitors (were 500s)


def test_anonymous_hand_form_is_a_403_page_that_says_why(match):
    response = Client().get(f"/matches/{match.pk}/hands/new/")
    assert response.status_code == 403
    text = response.content.decode()
    assert NOT_ALLOWED in text
    assert 'class="refusal"' in text and "<!doctype html>" in text.lower()


def test_anonymous_hand_post_is_a_403_page_and_saves_nothing(match):
    response = Client().post(f"/matches/{match.pk}/hands/", hand_post())
    assert response.status_code == 403
    assert NOT_ALLOWED in response.content.decode()
    assert not Hand.objects.exists()


# ------------------------------------------------------------- htmx: the partial


def test_htmx_refusal_is_the_partial_with_its_status_and_code(seated, match):
    response = seated.post(
        f"/matches/{match.pk}/hands/", hand_post(knocker_deadwood=15), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    assert response["X-Refusal"] == "illegal_knock"
    text = response.content.decode()
    assert text.lstrip().startswith('<div class="refusal"')
    assert "deadwood 15 is over the knock limit 10" in text
    assert "<html" not in text and not Hand.objects.exists()


def test_htmx_invalid_form_names_the_fields(seated, match):
    response = seated.post(
        f"/matches/{match.pk}/hands/", hand_post(outcome="fold", game=""), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400 and response["X-Refusal"] == "invalid"
    text = response.content.decode()
    assert 'data-fields="game outcome"' in text or 'data-fields="outcome game"' in text
    assert "Check the hand" in text


def test_htmx_refused_hand_action_is_the_partial_too(seated, match, alice):
    hand = submit(match, alice, quick()).hand
    response = seated.post(
        f"/hands/{hand.pk}/confirm/",
        {"version": 1, "idempotency_key": key()},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code in (403, 409) and response["X-Refusal"]
    assert 'class="refusal"' in response.content.decode()
    hand.refresh_from_db()
    assert hand.state == "pending"


def test_htmx_success_still_answers_the_hand_form_and_the_event(seated, match):
    response = seated.post(f"/matches/{match.pk}/hands/", hand_post(), HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response["HX-Trigger"] == "hand-recorded"
    assert "Enter hand 2" in response.content.decode()


# --------------------------------------------------------- plain posts: the page


def test_plain_refusal_is_the_page_in_the_layout(seated, match):
    response = seated.post(f"/matches/{match.pk}/hands/", hand_post(knocker_deadwood=15))
    assert response.status_code == 400
    text = response.content.decode()
    assert "<!doctype html>" in text.lower() and "<h1>Not done</h1>" in text
    assert "deadwood 15 is over the knock limit 10" in text
    assert "X-Refusal" not in response


def test_wrong_pin_on_the_seat_form_is_a_403_naming_the_player(match, alice):
    client = Client()
    client.get(f"/t/{table_token(match)}/")
    response = client.post(f"/matches/{match.pk}/seat/", {"player": alice.pk, "pin": "0000"})
    assert (
        response.status_code == 403
        and "Wrong PIN for Alice: 4 tries left on this phone." in response.content.decode()
    )


@pytest.mark.parametrize(
    "body",
    [{"player": "x", "pin": "1234"}, {"pin": "1234"}, {"player": 999999, "pin": "1234"}, {}],
)
def test_bad_seat_input_is_a_refusal_never_a_500(match, body):
    client = Client()
    client.get(f"/t/{table_token(match)}/")
    response = client.post(f"/matches/{match.pk}/seat/", body)
    assert response.status_code in (400, 403)
    assert 'class="refusal"' in response.content.decode()


def test_hand_action_by_someone_else_on_the_phone_needs_a_player_of_the_match(
    seated, match, alice, club
):
    from tests.factories import PlayerFactory

    stranger = PlayerFactory(club=club, name="Mallory")
    hand = submit(match, alice, quick()).hand
    response = seated.post(
        f"/hands/{hand.pk}/confirm/",
        {"version": 1, "idempotency_key": key(), "player": stranger.pk, "pin": "1234"},
    )
    assert response.status_code == 403
    assert "only they play in this match" in response.content.decode()


def test_unknown_hand_action_or_hand_is_a_404(seated, match, alice):
    hand = submit(match, alice, quick()).hand
    assert seated.post(f"/hands/{hand.pk}/explode/", {}).status_code == 404
    missing = seated.post("/hands/999999/confirm/", {"version": 1, "idempotency_key": key()})
    assert missing.status_code == 404 and 'class="refusal"' in missing.content.decode()


def test_the_ledger_is_refused_to_a_player_with_the_clubs_name(match, alice, club):
    client = Client()
    client.force_login(alice.user)
    response = client.get(f"/matches/{match.pk}/ledger/")
    assert response.status_code == 403
    assert (
        f"Only the organisers and auditors of {club.name} may read that"
        in response.content.decode()
    )


def test_close_refused_by_the_state_is_a_409_page(client, organiser, match):
    client.force_login(organiser)
    response = client.post(f"/matches/{match.pk}/close/", {})
    assert response.status_code == 409 and 'class="refusal"' in response.content.decode()


def test_invalid_new_match_form_is_a_400_naming_the_fields(client, organiser, club, alice):
    client.force_login(organiser)
    response = client.post(f"/clubs/{club.slug}/matches/new/", {"player_a": alice.pk})
    assert response.status_code == 400
    text = response.content.decode()
    assert "Check the new match" in text and "player b" in text


# ------------------------------------------------------------------ wrong methods


def test_a_wrong_method_is_a_405_that_says_so(seated, match):
    """A form's address visited (a reload, a bookmark: a walk opened /manage/rules/) is
    said in a person's words, with a way back up to a page; other methods in the
    technical ones."""
    response = seated.get(f"/matches/{match.pk}/hands/")
    assert response.status_code == 405
    page = response.content.decode()
    assert "This address takes what a form sends, not a visit" in page
    assert f'href="/matches/{match.pk}/"' in page  # Back: the match, above it
    assert "POST" in response["Allow"]
    put = seated.put(f"/matches/{match.pk}/hands/")
    assert put.status_code == 405 and "does not take PUT" in put.content.decode()


def test_a_wrong_method_on_the_api_is_a_405_in_the_error_shape(match):
    response = APIClient().delete(f"/api/matches/{match.pk}/")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


# --------------------------------------------------------------------------- API


def test_api_refusal_is_the_error_shape(match):
    response = APIClient().post(
        f"/api/matches/{match.pk}/hands/",
        {k: v for k, v in hand_post().items() if k != "mode"},
        format="json",
    )
    assert response.status_code == 403
    assert response.json() == {"error": {"code": "not_allowed", "message": NOT_ALLOWED}}


def test_api_engine_refusal_keeps_its_code(organiser, match):
    client = APIClient()
    client.force_authenticate(organiser)
    body = {k: v for k, v in hand_post(knocker_deadwood=15).items() if k != "mode"}
    response = client.post(f"/api/matches/{match.pk}/hands/", body, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "illegal_knock" and "knock limit 10" in error["message"]


def test_api_seat_for_a_stranger_is_refused_not_a_500(match):
    client = APIClient()
    body = {"token": table_token(match), "player": 999999, "pin": "1234"}
    response = client.post(f"/api/matches/{match.pk}/seat/", body, format="json")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "not_in_match"


def test_api_unknown_club_or_player_is_a_refusal(organiser, alice):
    client = APIClient()
    client.force_authenticate(organiser)
    body = {"club": "nowhere", "player_a": alice.pk, "player_b": 999999}
    response = client.post("/api/matches/", body, format="json")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
