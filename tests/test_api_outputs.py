"""Every JSON response of the API has exactly the keys its output serializer declares.

The output serializers (scoring.serializers and tournaments.serializers, "...Output...")
are what drf-spectacular turns into the OpenAPI schema. These tests build real data
through the services, call the real endpoints over HTTP and walk each response against
its serializer: no key missing, no key extra, recursively through nested objects, lists
and maps; null only where the serializer allows it; a choice only from its choices. A
response and its schema that drift apart fail here.
"""

from __future__ import annotations

import pytest
from rest_framework import serializers
from rest_framework.fields import _UnvalidatedField
from rest_framework.test import APIClient

from scoring import serializers as ss
from scoring import services as scoring_services
from scoring.hand_input import HandInput
from scoring.models import LedgerRow
from tests.factories import PIN, ClubFactory, PlayerFactory, UserFactory
from tests.tournaments.helpers import QUICK, new_event, play_hand, reg
from tournaments import serializers as ts
from tournaments.models import Round

pytestmark = pytest.mark.django_db

# ------------------------------------------------------------------------ the checker


def assert_shape(data, declared, path: str = "$") -> None:
    """`data` (parsed JSON) fits `declared` (a serializer class, serializer or field)."""
    if isinstance(declared, type):
        declared = declared()
    if data is None:
        assert declared.allow_null, f"{path}: null, but the schema does not allow null"
        return
    if isinstance(declared, serializers.ListSerializer):
        assert isinstance(data, list), f"{path}: expected a list, got {data!r}"
        for i, item in enumerate(data):
            assert_shape(item, declared.child, f"{path}[{i}]")
    elif isinstance(declared, serializers.Serializer):
        assert isinstance(data, dict), f"{path}: expected an object, got {data!r}"
        fields = declared.fields
        extra = set(data) - set(fields)
        missing = {name for name, field in fields.items() if field.required} - set(data)
        assert not extra, f"{path}: keys not in {type(declared).__name__}: {sorted(extra)}"
        assert not missing, f"{path}: keys missing from the response: {sorted(missing)}"
        for name, value in data.items():
            assert_shape(value, fields[name], f"{path}.{name}")
    elif isinstance(declared, serializers.ListField):
        assert isinstance(data, list), f"{path}: expected a list, got {data!r}"
        for i, item in enumerate(data):
            assert_shape(item, declared.child, f"{path}[{i}]")
    elif isinstance(declared, serializers.DictField):
        assert isinstance(data, dict), f"{path}: expected an object, got {data!r}"
        if not isinstance(declared.child, _UnvalidatedField):  # a map of anything
            for key, value in data.items():
                assert_shape(value, declared.child, f"{path}.{key}")
    elif isinstance(declared, serializers.ChoiceField):
        allowed = set(declared.choices) | ({""} if declared.allow_blank else set())
        assert data in allowed, f"{path}: {data!r} is not one of {sorted(allowed)}"
    elif isinstance(declared, serializers.BooleanField):
        assert isinstance(data, bool), f"{path}: expected a boolean, got {data!r}"
    elif isinstance(declared, serializers.IntegerField):
        assert isinstance(data, int) and not isinstance(data, bool), f"{path}: {data!r}"
    elif isinstance(declared, serializers.FloatField):
        assert isinstance(data, (int, float)) and not isinstance(data, bool), f"{path}: {data!r}"
    elif isinstance(declared, (serializers.CharField, serializers.DateTimeField)):
        assert isinstance(data, str), f"{path}: expected a string, got {data!r}"
        if isinstance(declared, serializers.CharField) and not declared.allow_blank:
            assert data != "", f"{path}: blank, but the schema does not allow blank"


def test_the_checker_catches_drift():
    """The checker itself: a missing key, an extra key, a bad null, a bad choice."""
    good = {"seat": "A", "player": "Alice"}
    assert_shape(good, ss.SeatOutputSerializer)
    for bad in (
        {"seat": "A"},
        {**good, "extra": 1},
        {**good, "seat": None},
        {**good, "seat": "C"},
    ):
        with pytest.raises(AssertionError):
            assert_shape(bad, ss.SeatOutputSerializer)
    with pytest.raises(AssertionError):  # nested, inside a list
        assert_shape(
            {"ok": False, "breaks": [{"chain": "x", "position": 1, "row": None}]},
            ss.LedgerVerifyOutputSerializer,
        )


def check(response, status: int, declared):
    assert response.status_code == status, response.content
    data = response.json()
    assert_shape(data, declared)
    return data


# --------------------------------------------------------------------------- scoring


def client_for(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def people():
    club = ClubFactory()
    organiser = UserFactory()
    club.organisers.add(organiser)
    alice = PlayerFactory(club=club, name="Alice", user=UserFactory(username="alice"))
    bob = PlayerFactory(club=club, name="Bob", user=UserFactory(username="bob"))
    admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    return club, organiser, alice, bob, admin


_keys = iter(range(1, 10_000))


def quick(number: int, *, kd: int = 5, dd: int = 10, knocker: str = "A", **more) -> dict:
    return {
        "game": 1,
        "number": number,
        "outcome": "knock",
        "knocker": knocker,
        "knocker_deadwood": kd,
        "defender_deadwood": dd,
        **more,
    }


CARDS = {
    "game": 1,
    "number": 1,
    "outcome": "knock",
    "knocker": "A",
    "knocker_cards": "5H 6H 7H 9C 9D 9S JS QS KS 2D".split(),
    "defender_cards": "8H 9H KD KC KH 3C 4C 5C AS 7D".split(),
}


def keyed(payload: dict, **more) -> dict:
    return {**payload, **more, "idempotency_key": f"out-{next(_keys)}"}


def start(organiser_api, club, alice, bob, **more) -> dict:
    body = {"club": club.slug, "player_a": alice.pk, "player_b": bob.pk, "rules": QUICK, **more}
    return check(
        organiser_api.post("/api/matches/", body, format="json"), 201, ss.MatchOutputSerializer
    )


def test_match_list_and_start(people):
    club, organiser, alice, bob, _ = people
    org = client_for(organiser)
    start(org, club, alice, bob)
    rows = check(org.get("/api/matches/"), 200, ss.MatchListItemOutputSerializer(many=True))
    assert len(rows) == 1


def test_preview_quick_and_by_cards(people):
    club, organiser, alice, bob, _ = people
    match = start(client_for(organiser), club, alice, bob)
    api = client_for(alice.user)
    url = f"/api/matches/{match['id']}/preview/"
    by_quick = check(api.post(url, quick(1), format="json"), 200, ss.PreviewOutputSerializer)
    assert "knocker_melds" not in by_quick["preview"]
    by_cards = check(api.post(url, CARDS, format="json"), 200, ss.PreviewOutputSerializer)
    assert {"knocker_melds", "defender_melds", "laid_off"} <= set(by_cards["preview"])


def test_every_hand_action_and_the_match_detail(people):
    club, organiser, alice, bob, _ = people
    org, a, b = client_for(organiser), client_for(alice.user), client_for(bob.user)
    match = start(org, club, alice, bob)
    submit_url = f"/api/matches/{match['id']}/hands/"
    out = ss.HandActionOutputSerializer

    def act(client, hand: dict, action: str, **body):
        url = f"/api/hands/{hand['id']}/{action}/"
        return check(
            client.post(url, keyed(body, version=hand["version"]), format="json"), 200, out
        )

    # card entry, its replay, its confirmation
    payload = keyed(CARDS)
    entered = check(a.post(submit_url, payload, format="json"), 201, out)
    assert entered["hand"]["cards"] is not None and "differences" not in entered
    check(a.post(submit_url, payload, format="json"), 200, out)
    act(b, entered["hand"], "confirm")
    # withdrawn, disputed then corrected, voided
    second = check(a.post(submit_url, keyed(quick(2)), format="json"), 201, out)["hand"]
    act(a, second, "withdraw")
    # entered again under its own number (issue 23, trap 6)
    third = check(a.post(submit_url, keyed(quick(2)), format="json"), 201, out)["hand"]
    third = act(b, third, "dispute", reason="it was 4")["hand"]
    act(org, third, "correct", **quick(2, kd=4), reason="agreed at the table")
    fourth = check(a.post(submit_url, keyed(quick(3)), format="json"), 201, out)["hand"]
    act(org, fourth, "void", reason="entered twice")
    # the organiser's hand ends game 1 (a breakdown), then game 2 begins
    check(org.post(submit_url, keyed(quick(4, dd=35)), format="json"), 201, out)
    detail = check(org.get(f"/api/matches/{match['id']}/"), 200, ss.MatchOutputSerializer)
    first_game = detail["games"][0]
    assert first_game["breakdown"] is not None and len(detail["games"]) == 2
    assert first_game["hands"][0]["cards"] is not None
    assert {h["state"] for h in first_game["hands"]} == {"confirmed", "voided"}


def test_double_entry_disagreement_lists_the_differences(people):
    club, organiser, alice, bob, _ = people
    match = start(client_for(organiser), club, alice, bob, agreement="double")
    url = f"/api/matches/{match['id']}/hands/"
    out = ss.HandActionOutputSerializer
    check(client_for(alice.user).post(url, keyed(quick(1)), format="json"), 201, out)
    second = client_for(bob.user).post(url, keyed(quick(1, kd=3)), format="json")
    data = check(second, 201, out)
    assert data["differences"] == {"knocker_deadwood": [5, 3], "points": [5, 7]}


def test_seat_close_reopen_and_ledger_verification(people):
    club, organiser, alice, bob, admin = people
    org = client_for(organiser)
    match = start(org, club, alice, bob)
    base = f"/api/matches/{match['id']}/"
    seat = client_for(alice.user).post(
        base + "seat/", {"player": alice.pk, "pin": PIN}, format="json"
    )
    check(seat, 200, ss.SeatOutputSerializer)
    for game in (1, 2):  # two one-hand games end the match, which may then be closed
        hand = keyed(quick(1, dd=35), game=game)
        check(org.post(base + "hands/", hand, format="json"), 201, ss.HandActionOutputSerializer)
    check(
        org.post(base + "close/", {"reason": "rain"}, format="json"), 200, ss.MatchOutputSerializer
    )
    check(
        org.post(base + "reopen/", {"reason": "wrong"}, format="json"),
        200,
        ss.MatchOutputSerializer,
    )
    root = client_for(admin)
    assert check(root.get("/api/ledger/verify/"), 200, ss.LedgerVerifyOutputSerializer)["ok"]
    LedgerRow.objects.filter(action="match_closed").update(reason="tampered")
    report = check(root.get("/api/ledger/verify/"), 200, ss.LedgerVerifyOutputSerializer)
    assert report["breaks"]


# ----------------------------------------------------------------------- tournaments


@pytest.fixture
def event_people():
    club = ClubFactory(name="Gin Club", slug="gin-club")
    organiser = UserFactory(username="org")
    club.organisers.add(organiser)
    event = new_event(club, organiser, players=6, rounds=2, public=True)
    return event, organiser


def test_csv_import_report(event_people):
    event, organiser = event_people
    url = f"/api/tournaments/{event.slug}/registrations/import/"
    body = {"csv": "name,email,shoe size\nAda,ada@example.org,9\nP01,,\n"}
    report = check(
        client_for(organiser).post(url, body, format="json"), 200, ts.ImportReportOutputSerializer
    )
    assert (report["accepted"], report["refused"], report["ignored_columns"]) == (
        1,
        1,
        ["shoe size"],
    )


def test_a_round_its_tables_results_standings_and_a_rules_change(
    event_people, django_capture_on_commit_callbacks
):
    event, organiser = event_people
    org, public = client_for(organiser), client_for(None)
    base = f"/api/tournaments/{event.slug}/"
    round_out, viewer_out = ts.RoundOutputSerializer, ts.ViewerRoundOutputSerializer

    rnd = check(org.post(base + "rounds/", {}, format="json"), 201, round_out)
    url = f"/api/rounds/{rnd['id']}/"
    p01, p02, p03, p04 = (reg(event, name).pk for name in ("P01", "P02", "P03", "P04"))
    body = {"first": p01, "second": p03, "reason": "rivals"}
    check(org.post(url + "swap/", body, format="json"), 200, round_out)
    body = {"player_a": p01, "player_b": p02, "reason": "back again"}
    check(org.post(url + "fix/", body, format="json"), 200, round_out)
    check(org.post(url + "publish/", {}, format="json"), 200, round_out)
    check(org.post(url + "timer/", {"minutes": 40}, format="json"), 200, round_out)
    listed = check(org.get(base + "rounds/"), 200, ts.RoundSummaryOutputSerializer(many=True))
    assert [r["id"] for r in listed] == [rnd["id"]]

    mine = check(org.get(url), 200, viewer_out)
    assert set(mine["pairings"][0]) == set(ts.TableOutputSerializer().fields)
    theirs = check(public.get(url), 200, viewer_out)
    assert set(theirs["pairings"][0]) == set(ts.PublicTableOutputSerializer().fields)
    links = check(org.get(url + "tables/"), 200, ts.TableLinkOutputSerializer(many=True))
    assert len(links) == 3

    # table 1 played out (a gin, then a knock), table 2 one game up, table 3 level
    first, second, third = Round.objects.get(pk=rnd["id"]).pairings.order_by("position")
    play_hand(first.match, organiser, game=1, number=1, kd=0)
    play_hand(first.match, organiser, game=2, number=1)
    play_hand(second.match, organiser, game=1, number=1)
    board = check(org.get(url + "dashboard/"), 200, ts.DashboardOutputSerializer)
    assert board["tables"][1]["current_game"] == 2
    check(org.post(url + "call-time/", {}, format="json"), 200, round_out)
    # time called: table 2 plays its hand in play (a dead hand in game 2), then its time
    # is up and it is decided on games; table 3 is still finishing its hand in play
    scoring_services.submit_hand(
        match_id=second.match_id,
        actor=scoring_services.Actor(user=organiser),
        hand=HandInput(game=2, number=1, outcome="dead"),
        idempotency_key="hand-in-play",
    )
    report = check(
        org.post(url + "time-policy/", {}, format="json"), 200, ts.TimePolicyOutputSerializer
    )
    assert report["settled"] and report["waiting"]
    result = f"/api/pairings/{third.pk}/result/"
    check(org.post(result, {"winner": "B", "reason": "forfeit"}, format="json"), 200, round_out)
    check(org.post(result + "clear/", {"reason": "mistake"}, format="json"), 200, round_out)
    check(org.post(result, {"winner": "A", "reason": "forfeit"}, format="json"), 200, round_out)
    check(org.post(url + "close/", {}, format="json"), 200, round_out)

    for client in (org, public):
        standings = check(client.get(base + "standings/"), 200, ts.StandingsOutputSerializer)
        assert len(standings["rows"]) == 6
        check(client.get(base + "pairings/"), 200, viewer_out)

    body = {"profile": event.profile, "overrides": {**QUICK, "box_bonus": 10, "gin_bonus": 20}}
    change_out = ts.RulesChangeOutputSerializer
    preview = check(org.post(base + "rules/preview/", body, format="json"), 200, change_out)
    assert preview["matches"] and preview["standings"]
    assert any(m["hands"] for m in preview["matches"])
    assert any(m["games"] for m in preview["matches"])
    body["reason"] = "club vote"
    with django_capture_on_commit_callbacks(execute=True):  # applied by a background job
        queued = check(
            org.post(base + "rules/apply/", body, format="json"), 202, ts.JobOutputSerializer
        )
    applied = check(org.get(queued["url"]), 200, ts.JobOutputSerializer)
    assert applied["state"] == "done" and applied["result"]["applied"]
