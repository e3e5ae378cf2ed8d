"""No input makes a 500, and an unreachable database is a 503 that says so (issue 10).

Input: JSON nested deeper than any request needs, bodies over the size limit, and whole
numbers larger than a database column holds (ids in the address and in bodies) are
refused with a code and a message before anything reaches the database. Outage: every
request answers 503 with Retry-After, JSON for the API and a page that needs no database
for people, whether the view or a middleware before it met the dead connection.
"""

from __future__ import annotations

import json
from importlib import import_module
from unittest import mock

import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import InterfaceError, OperationalError, connection
from django.test import Client, override_settings
from rest_framework.test import APIClient

from ginclub.inputs import ID_MAX, JSON_MAX_DEPTH
from tests.factories import PIN, ClubFactory, PlayerFactory, UserFactory
from tests.scoring.helpers import key, start
from tests.tournaments.helpers import new_event, play_round

pytestmark = pytest.mark.django_db

HUGE = 2**70


@pytest.fixture
def club(db):
    return ClubFactory(name="Gin Club", slug="gin-club")


@pytest.fixture
def organiser(club):
    user = UserFactory(username="org")
    club.organisers.add(user)
    return user


@pytest.fixture
def alice(club):
    return PlayerFactory(club=club, name="Alice")


@pytest.fixture
def bob(club):
    return PlayerFactory(club=club, name="Bob")


@pytest.fixture
def match(club, alice, bob, organiser):
    return start(club, alice, bob, organiser)


@pytest.fixture
def organiser_api(organiser):
    client = APIClient()
    client.force_authenticate(organiser)
    return client


def hand_body(**changes):
    body = {
        "game": 1,
        "number": 1,
        "outcome": "knock",
        "knocker": "A",
        "knocker_deadwood": 5,
        "defender_deadwood": 20,
        "idempotency_key": key(),
    }
    return {**body, **changes}


def refusal(response, status, code):
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["code"] == code and error["message"], error
    return error


# ------------------------------------------------------------------- JSON bodies


@pytest.mark.parametrize("depth", [JSON_MAX_DEPTH + 1, 100_000])
def test_json_nested_too_deep_is_refused_with_too_deep(organiser_api, match, depth):
    """100 000 levels was a RecursionError in the JSON parser (a 500)."""
    body = "[" * depth + "]" * depth
    response = organiser_api.post(
        f"/api/matches/{match.pk}/hands/", body, content_type="application/json"
    )
    error = refusal(response, 400, "too_deep")
    assert f"more than {JSON_MAX_DEPTH} levels" in error["message"]


def test_json_as_deep_as_allowed_is_read(organiser_api, match):
    nested = "[" * (JSON_MAX_DEPTH - 1) + "]" * (JSON_MAX_DEPTH - 1)
    body = json.dumps(hand_body(knocker_cards="X"))[:-1] + f', "pad": {nested}}}'
    response = organiser_api.post(
        f"/api/matches/{match.pk}/hands/", body, content_type="application/json"
    )
    refusal(response, 400, "invalid")  # read, then refused for its fields


def test_a_deep_archive_file_is_refused_not_a_500(organiser_api, club):
    from django.core.files.uploadedfile import SimpleUploadedFile

    deep = ("[" * 100_000 + "]" * 100_000).encode()
    response = organiser_api.post(
        f"/api/clubs/{club.slug}/tournaments/import/",
        {"file": SimpleUploadedFile("deep.json", deep, "application/json")},
        format="multipart",
    )
    refusal(response, 400, "too_deep")


def test_a_json_body_over_the_size_limit_is_a_413(organiser_api, match):
    body = json.dumps(hand_body(idempotency_key="x" * 2000))
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000):
        response = organiser_api.post(
            f"/api/matches/{match.pk}/hands/", body, content_type="application/json"
        )
    refusal(response, 413, "too_large")


def test_a_form_body_over_the_size_limit_is_a_413(organiser_api, match):
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000):
        multipart = organiser_api.post(
            f"/api/matches/{match.pk}/hands/",
            hand_body(idempotency_key="x" * 2000),
            format="multipart",
        )
        urlencoded = organiser_api.post(
            f"/api/matches/{match.pk}/hands/",
            "idempotency_key=" + "x" * 2000,
            content_type="application/x-www-form-urlencoded",
        )
    refusal(multipart, 413, "too_large")
    refusal(urlencoded, 413, "too_large")


def test_a_form_body_of_too_many_fields_is_a_400_with_the_limit(organiser_api, match):
    fields = [("tournaments", str(n)) for n in range(50)]
    with override_settings(DATA_UPLOAD_MAX_NUMBER_FIELDS=20):
        multipart = organiser_api.post(
            f"/api/matches/{match.pk}/hands/",
            dict(hand_body(), pad=list(range(50))),
            format="multipart",
        )
        urlencoded = organiser_api.post(
            f"/api/matches/{match.pk}/hands/",
            "&".join(f"{k}={v}" for k, v in fields),
            content_type="application/x-www-form-urlencoded",
        )
    refusal(multipart, 400, "too_many_fields")
    refusal(urlencoded, 400, "too_many_fields")
    assert "more than 20 fields" in multipart.json()["error"]["message"]


def test_the_limit_is_set_for_an_archive(settings):
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 20 * 1024 * 1024


# ---------------------------------------------------------------- whole numbers


@pytest.mark.parametrize("field", ["player", "version"])
def test_a_huge_number_in_a_hand_action_is_refused(organiser_api, match, bob, field):
    hand = organiser_api.post(f"/api/matches/{match.pk}/hands/", hand_body(), format="json").json()
    body = {"version": 1, "idempotency_key": key(), "player": bob.pk, "pin": PIN, field: HUGE}
    response = organiser_api.post(f"/api/hands/{hand['hand']['id']}/confirm/", body, format="json")
    error = refusal(response, 400, "invalid")
    assert set(error["fields"]) == {field}


@pytest.mark.parametrize("value", [HUGE, ID_MAX + 1, 0, -1])
def test_a_player_id_out_of_range_is_refused_before_the_database(organiser_api, match, value):
    """2**70 was an OverflowError on SQLite (a 500) when the submit looked the player up."""
    response = organiser_api.post(
        f"/api/matches/{match.pk}/hands/", hand_body(player=value, pin=PIN), format="json"
    )
    error = refusal(response, 400, "invalid")
    assert set(error["fields"]) == {"player"}


@pytest.mark.parametrize(
    ("field", "value"),
    [("game", HUGE), ("number", 40_000), ("knocker_deadwood", HUGE)],
)
def test_hand_numbers_are_bounded_to_their_columns(organiser_api, match, field, value):
    response = organiser_api.post(
        f"/api/matches/{match.pk}/hands/", hand_body(**{field: value}), format="json"
    )
    error = refusal(response, 400, "invalid")
    assert set(error["fields"]) == {field}


def test_starting_a_match_with_a_huge_player_id_is_refused(organiser_api, club, alice):
    response = organiser_api.post(
        "/api/matches/",
        {"club": club.slug, "player_a": alice.pk, "player_b": HUGE},
        format="json",
    )
    assert set(refusal(response, 400, "invalid")["fields"]) == {"player_b"}


def test_taking_a_seat_with_a_huge_player_id_is_refused(client, match):
    from ginclub.permissions import table_token

    client.get(f"/t/{table_token(match)}/")
    response = client.post(
        f"/api/matches/{match.pk}/seat/",
        json.dumps({"player": HUGE, "pin": PIN}),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value if "csrftoken" in client.cookies else "",
    )
    assert response.status_code in (400, 403), response.content
    assert response.status_code != 500


@pytest.mark.parametrize("number", [HUGE, 2**63, ID_MAX + 1, 10**10])
@pytest.mark.parametrize(
    "path",
    [
        "/api/matches/{n}/",
        "/api/matches/{n}/hands/",
        "/api/hands/{n}/confirm/",
        "/api/rounds/{n}/",
        "/api/pairings/{n}/result/",
        "/api/registrations/{n}/check-in/",
        "/matches/{n}/",
        "/matches/{n}/scoreboard/",
    ],
)
def test_an_id_in_the_address_larger_than_the_database_holds_is_a_404(organiser_api, path, number):
    """/api/matches/2**70/ was an OverflowError on SQLite (a 500)."""
    url = path.format(n=number)
    response = (
        organiser_api.post(url, {}, format="json")
        if "/hands/" in url or url.endswith(("confirm/", "result/", "check-in/"))
        else organiser_api.get(url)
    )
    assert response.status_code == 404, (url, response.status_code)


def test_an_id_in_range_still_resolves(organiser_api, match):
    assert organiser_api.get(f"/api/matches/{match.pk}/").status_code == 200
    assert organiser_api.get(f"/api/matches/{ID_MAX}/").status_code == 404


@pytest.fixture
def event(club, organiser):
    event = new_event(club, organiser, players=4)
    play_round(event, organiser, play=False, close=False)
    return event


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("registrations", {"player_id": HUGE}, "player_id"),
        ("registrations", {"name": "Zed", "seed": HUGE}, "seed"),
    ],
)
def test_tournament_numbers_are_bounded(organiser_api, event, path, body, field):
    response = organiser_api.post(f"/api/tournaments/{event.slug}/{path}/", body, format="json")
    assert field in refusal(response, 400, "invalid")["fields"]


def test_settings_numbers_are_bounded(organiser_api, event):
    response = organiser_api.patch(
        f"/api/tournaments/{event.slug}/", {"bye_points": HUGE}, format="json"
    )
    assert "bye_points" in refusal(response, 400, "invalid")["fields"]


def test_round_actions_with_huge_ids_are_refused(organiser_api, event):
    rnd = event.round_set.get()
    swap = organiser_api.post(
        f"/api/rounds/{rnd.pk}/swap/", {"first": HUGE, "second": 1}, format="json"
    )
    assert "first" in refusal(swap, 400, "invalid")["fields"]
    policy = organiser_api.post(
        f"/api/rounds/{rnd.pk}/time-policy/", {"pairing_ids": [HUGE]}, format="json"
    )
    assert "pairing_ids" in refusal(policy, 400, "invalid")["fields"]


# ------------------------------------------------------------------------ outage


def database_down(error=OperationalError):
    """Every new cursor fails as if the server were gone."""
    return mock.patch(
        "django.db.backends.base.base.BaseDatabaseWrapper.ensure_connection",
        side_effect=error("could not connect to server: Connection refused"),
    )


def assert_unavailable_json(response):
    error = refusal(response, 503, "unavailable")
    assert "nothing was saved" in error["message"]
    assert response["Retry-After"] == "10"


def assert_unavailable_page(response):
    assert response.status_code == 503, response.content[:300]
    assert response["Retry-After"] == "10"
    assert response["Content-Type"].startswith("text/html")
    text = response.content.decode()
    assert "Back in a moment" in text and "nothing was saved" in text
    assert "Server Error" not in text
    # it tries again by script (axe: a <meta refresh> cannot be stopped by the reader)
    assert 'data-retry-after="10"' in text and "js/retry" in text and "http-equiv" not in text


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_the_api_answers_503_while_the_database_is_down(organiser_api, match, error):
    with database_down(error):
        read = organiser_api.get(f"/api/matches/{match.pk}/")
        write = organiser_api.post(f"/api/matches/{match.pk}/hands/", hand_body(), format="json")
    assert_unavailable_json(read)
    assert_unavailable_json(write)


def test_an_api_request_authenticated_by_token_answers_503(organiser, match):
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=organiser)
    client = APIClient(HTTP_AUTHORIZATION=f"Token {token.key}")
    with database_down():
        response = client.get("/api/matches/")
    assert_unavailable_json(response)


def test_pages_answer_a_plain_503_page_while_the_database_is_down(client, organiser, match):
    client.force_login(organiser)
    with database_down():
        page = client.get(f"/matches/{match.pk}/")
        home = client.get("/")
        htmx = client.get(f"/matches/{match.pk}/scoreboard/", HTTP_HX_REQUEST="true")
    assert_unavailable_page(page)
    assert_unavailable_page(home)
    assert htmx.status_code == 503 and htmx["Retry-After"] == "10"


def test_anonymous_pages_and_the_health_check_answer_503(client, match):
    with database_down():
        page = client.get("/tournaments/")
        health = client.get("/healthz")
    assert_unavailable_page(page)
    assert health.status_code == 503 and health["Retry-After"] == "10"


class TouchesTheDatabase:
    """A middleware that queries before any view runs (as session or user lookups do)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return self.get_response(request)


def test_an_outage_met_before_the_view_is_a_503_too(match):
    """Django turns an error raised in a middleware into a response at that middleware
    (through handler500), so no middleware further out ever sees it: handler500 answers
    the 503. (The test client would re-raise what it signals as a request exception.)"""
    client = Client(raise_request_exception=False)
    position = settings.MIDDLEWARE.index("django.contrib.sessions.middleware.SessionMiddleware")
    middleware = list(settings.MIDDLEWARE)
    middleware.insert(position + 1, f"{__name__}.TouchesTheDatabase")
    with override_settings(MIDDLEWARE=middleware), database_down():
        page = client.get(f"/matches/{match.pk}/")
        api = client.get(f"/api/matches/{match.pk}/")
    assert_unavailable_page(page)
    assert_unavailable_json(api)


def test_an_outage_met_in_the_session_middleware_is_a_503(client, organiser, match):
    """A logged-in page whose session is read from the database meets the outage there.
    On SQLite sessions are cached_db: this one's cached copy is dropped first, so its
    read goes to the database as a session not yet in the cache does."""
    client.force_login(organiser)
    store = import_module(settings.SESSION_ENGINE).SessionStore(client.session.session_key)
    if hasattr(store, "cache_key"):
        caches[settings.SESSION_CACHE_ALIAS].delete(store.cache_key)
    with mock.patch(
        "django.contrib.sessions.backends.db.SessionStore._get_session_from_db",
        side_effect=OperationalError("server closed the connection unexpectedly"),
    ):
        page = client.get("/")
    assert_unavailable_page(page)


def test_the_outage_page_needs_no_database(rf):
    from ginclub.middleware import unavailable_response

    request = rf.get("/matches/1/")
    with database_down():
        response = unavailable_response(request)
    assert_unavailable_page(response)


def test_a_bug_is_still_a_500_not_a_503(organiser, match):
    client = Client(raise_request_exception=False)
    client.force_login(organiser)
    with mock.patch("scoring.views.selectors.match_view", side_effect=RuntimeError("bug")):
        page = client.get(f"/matches/{match.pk}/")
        api = client.get(f"/api/matches/{match.pk}/")
    assert page.status_code == 500 and "Retry-After" not in page
    assert api.status_code == 500 and api.json()["error"]["code"] == "server_error"


# ---------------------------------------------------------------- archive import


@pytest.mark.parametrize(
    ("where", "value", "message"),
    [
        ("seed", -1, "registrations[0].seed must be a whole number from 1 to 9999"),
        ("seed", HUGE, "registrations[0].seed must be a whole number from 1 to 9999"),
        ("table", -1, "rounds[0].pairings[0].table must be a whole number from 1 to 32767"),
        ("first_dealer", "True", "rounds[0].pairings[0].match.first_dealer must be one of"),
        ("date", "2026-13-45", "tournament.date must be a date (YYYY-MM-DD)"),
    ],
)
def test_a_bad_archive_sent_to_the_api_is_a_400_naming_the_path(
    organiser_api, event, where, value, message
):
    """Each was an IntegrityError, OverflowError or DataError (a 500), or stored as is on
    SQLite."""
    from tournaments.models import Tournament
    from tournaments.selectors.exports import tournament_archive

    archive = json.loads(json.dumps(tournament_archive(event)))
    if where == "seed":
        archive["registrations"][0]["seed"] = value
    elif where == "date":
        archive["tournament"]["date"] = value
    else:
        pairing = next(p for p in archive["rounds"][0]["pairings"] if p["match"])
        archive["rounds"][0]["pairings"] = [pairing]
        (pairing if where == "table" else pairing["match"])[where] = value
    before = Tournament.objects.count()
    response = organiser_api.post(
        f"/api/clubs/{event.club.slug}/tournaments/import/", archive, format="json"
    )
    error = refusal(response, 400, "bad_archive")
    assert message in error["message"]
    assert Tournament.objects.count() == before


def test_page_forms_bound_their_numbers(client, match):
    """Page forms bound their whole numbers as the API does: the seat form refuses a
    player id no column holds as bad input (400). (Before, it was a 403 only because the
    service compared it with the match's players before any lookup.)"""
    from ginclub.permissions import table_token

    client.get(f"/t/{table_token(match)}/")
    page = client.post(f"/matches/{match.pk}/seat/", {"player": HUGE, "pin": PIN})
    assert page.status_code == 400, page.status_code
    htmx = client.post(
        f"/matches/{match.pk}/seat/", {"player": str(HUGE), "pin": PIN}, HTTP_HX_REQUEST="true"
    )
    assert htmx.status_code == 400, htmx.status_code
