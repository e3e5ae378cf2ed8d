"""The tournament API end to end: shapes, error bodies, uploads, files."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from scoring.models import Club, Match
from tests.tournaments.helpers import QUICK, new_event, play_round, reg, win
from tournaments.models import Registration, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(organiser):
    client = APIClient()
    client.force_authenticate(organiser)
    return client


@pytest.fixture
def event(club, organiser):
    return new_event(club, organiser, players=4, rounds=2)


def error(response) -> dict:
    return response.json()["error"]


def test_create_and_update_a_tournament(api, club):
    response = api.post(
        "/api/tournaments/",
        {
            "club": club.slug,
            "name": "Spring Cup",
            "date": "2027-03-01",
            "format": "swiss_cut",
            "rounds": 3,
            "cut_size": 4,
            "overrides": QUICK,
            "bye_games": 2,
            "tiebreaks": ["game_win_pct", "points"],
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["slug"], body["format"], body["rounds_planned"], body["rules"]) == (
        "spring-cup-2027",
        "swiss_cut",
        5,
        None,
    )
    response = api.patch(
        f"/api/tournaments/{body['slug']}/", {"venue": "Library", "public": False}, format="json"
    )
    assert response.status_code == 200 and response.json()["venue"] == "Library"


def test_bad_settings_give_the_services_error(api, club):
    response = api.post(
        "/api/tournaments/",
        {"club": club.slug, "name": "X", "date": "2027-03-01", "bye_games": 9},
        format="json",
    )
    assert response.status_code == 400
    assert error(response) == {
        "code": "invalid",
        "message": "bye games: a whole number from 0 to 3",
        "fields": {"bye_games": "a whole number from 0 to 3"},
    }
    response = api.post(
        "/api/tournaments/",
        {"club": club.slug, "name": "X", "date": "2027-03-01", "colour": "red"},
        format="json",
    )
    assert response.status_code == 400 and error(response)["fields"] == {
        "colour": ["unknown field"]
    }
    response = api.post(
        "/api/tournaments/", {"club": "nope", "name": "X", "date": "2027-03-01"}, format="json"
    )
    assert error(response)["fields"] == {"club": "not found"}
    assert not Tournament.objects.exists()


def test_frozen_settings_are_a_conflict(api, event, organiser):
    play_round(event, organiser, play=False, close=False)
    response = api.patch(f"/api/tournaments/{event.slug}/", {"profile": "classic"}, format="json")
    assert response.status_code == 409 and error(response)["code"] == "frozen"


def test_registrations_add_list_and_actions(api, event):
    base = f"/api/tournaments/{event.slug}/registrations/"
    response = api.post(base, {"name": "Ada", "email": "ada@example.org"}, format="json")
    assert response.status_code == 201
    ada = response.json()
    assert (ada["name"], ada["email"], ada["late"]) == ("Ada", "ada@example.org", False)
    response = api.post(base, {"name": "Bob", "email": "bob@"}, format="json")
    assert response.status_code == 400 and error(response)["code"] == "bad_email"
    assert [r["name"] for r in api.get(base).json()] == ["Ada", "P01", "P02", "P03", "P04"]
    assert api.post(f"/api/registrations/{ada['id']}/check-in/", {}, format="json").json()[
        "checked_in"
    ]
    assert not api.post(
        f"/api/registrations/{ada['id']}/check-in/", {"checked_in": False}, format="json"
    ).json()["checked_in"]
    assert (
        api.post(f"/api/registrations/{ada['id']}/seed/", {"seed": 1}, format="json").json()["seed"]
        == 1
    )
    assert api.post(
        f"/api/registrations/{ada['id']}/withdraw/", {"reason": "flu"}, format="json"
    ).json()["withdrawn"]
    assert not api.post(
        f"/api/registrations/{ada['id']}/reinstate/", {"reason": "better"}, format="json"
    ).json()["withdrawn"]
    assert api.delete(f"/api/registrations/{ada['id']}/").status_code == 204
    assert not Registration.objects.filter(pk=ada["id"]).exists()


def test_csv_upload_returns_the_row_by_row_report(api, event):
    url = f"/api/tournaments/{event.slug}/registrations/import/"
    upload = SimpleUploadedFile(
        "players.csv", b"name,email\nAda,\nP01,\n,x@example.org\n", content_type="text/csv"
    )
    response = api.post(url, {"file": upload}, format="multipart")
    assert response.status_code == 200, response.content
    report = response.json()
    assert (report["accepted"], report["refused"]) == (1, 2)
    assert [(r["line"], r["accepted"], r["code"]) for r in report["rows"]] == [
        (2, True, None),
        (3, False, "already_registered"),
        (4, False, "empty_name"),
    ]
    response = api.post(url, {"csv": "email\nx@example.org\n"}, format="json")
    assert response.status_code == 400 and error(response)["code"] == "no_name_column"
    response = api.post(url, {}, format="json")
    assert response.status_code == 400 and "`file` upload" in error(response)["message"]


def test_rules_preview_and_apply(api, event, organiser, django_capture_on_commit_callbacks):
    play_round(event, organiser)
    body = {"profile": "tournament", "overrides": {**QUICK, "box_bonus": 10}}
    url = f"/api/tournaments/{event.slug}/rules/"
    preview = api.post(url + "preview/", body, format="json").json()
    assert preview["applied"] is False and preview["options"] == {"box_bonus": [25, 10]}
    assert Match.objects.first().rules["box_bonus"] == 25
    response = api.post(url + "apply/", body, format="json")
    assert response.status_code == 400 and response.json()["error"]["fields"] == {
        "reason": ["This field is required."]
    }
    with django_capture_on_commit_callbacks(execute=True):  # applied by a background job
        queued = api.post(url + "apply/", {**body, "reason": "club vote"}, format="json")
    assert queued.status_code == 202
    applied = api.get(queued["Location"]).json()["result"]
    assert applied["applied"] and applied["results_changed"] == 2
    assert Match.objects.first().rules["box_bonus"] == 10


def test_a_round_from_draft_to_close(api, event, organiser):
    base = f"/api/tournaments/{event.slug}/"
    draft = api.post(base + "rounds/", {}, format="json")
    assert draft.status_code == 201
    rnd = draft.json()
    assert [
        (p["table"], p["player_a"]["name"], p["player_b"]["name"]) for p in rnd["pairings"]
    ] == [(None, "P01", "P02"), (None, "P03", "P04")]
    p01, p03 = reg(event, "P01").pk, reg(event, "P03").pk
    swapped = api.post(
        f"/api/rounds/{rnd['id']}/swap/",
        {"first": p01, "second": p03, "reason": "rivals"},
        format="json",
    )
    assert swapped.json()["pairings"][0]["reason"] == "set by organiser: rivals"
    response = api.post(
        f"/api/rounds/{rnd['id']}/fix/", {"player_a": p01, "player_b": 999}, format="json"
    )
    assert response.status_code == 400 and error(response)["code"] == "not_in_round"
    published = api.post(f"/api/rounds/{rnd['id']}/publish/", {}, format="json").json()
    assert [p["table"] for p in published["pairings"]] == [1, 2]
    timer = api.post(f"/api/rounds/{rnd['id']}/timer/", {"minutes": 40}, format="json").json()
    assert 39 * 60 < timer["clock"]["seconds_left"] <= 40 * 60
    tables = api.get(f"/api/rounds/{rnd['id']}/tables/").json()
    assert tables[0]["link"].startswith("http://testserver/t/")
    qr = api.get(f"/api/pairings/{tables[0]['pairing']}/qr.svg")
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"
    assert qr.content.startswith(b"<svg")
    first, second = (
        Round.objects.get(pk=rnd["id"])
        .pairings.select_related("player_a__player", "player_b__player", "match")
        .order_by("position")
    )
    win(first, organiser, first.player_a.player.name)
    board = api.get(f"/api/rounds/{rnd['id']}/dashboard/").json()
    assert board["counts"] == {"playing": 1, "pending": 0, "disputed": 0, "finished": 1, "bye": 0}
    assert board["can_close"] is False
    response = api.post(f"/api/rounds/{rnd['id']}/close/", {}, format="json")
    assert response.status_code == 409 and error(response)["code"] == "round_unfinished"
    assert api.post(f"/api/rounds/{rnd['id']}/call-time/", {}, format="json").status_code == 200
    report = api.post(
        f"/api/rounds/{rnd['id']}/time-policy/", {"pairing_ids": [second.pk]}, format="json"
    ).json()
    assert report == {
        "settled": [],
        "waiting": [
            {
                "pairing": second.pk,
                "table": 2,
                "reason": "table 2: level on games and points; record the result by hand",
            }
        ],
    }
    response = api.post(
        f"/api/pairings/{second.pk}/result/", {"winner": "B", "reason": "forfeit"}, format="json"
    )
    assert response.status_code == 200
    assert api.post(f"/api/rounds/{rnd['id']}/close/", {}, format="json").json()["state"] == (
        "closed"
    )
    standings = api.get(base + "standings/").json()
    assert [row["match_wins"] for row in standings["rows"]] == [1, 1, 0, 0]


def test_public_reads_and_files(club, event, organiser):
    play_round(event, organiser)
    client = APIClient()
    base = f"/api/tournaments/{event.slug}/"
    assert client.get(base + "pairings/?round=1").json()["number"] == 1
    assert client.get(base + "pairings/?round=7").status_code == 404
    response = client.get(base + "standings/?round=x")
    assert response.status_code == 400 and error(response)["fields"] == {"round": "a whole number"}
    csv_response = client.get(base + "export/standings.csv", HTTP_ACCEPT="text/csv")
    assert csv_response.status_code == 200
    assert csv_response["Content-Type"].startswith("text/csv")
    assert csv_response.content.decode().startswith("rank,player,")
    assert client.get("/api/tournaments/nope/").status_code == 404


def test_archive_export_and_import_over_http(
    api, event, organiser, other_organiser, django_capture_on_commit_callbacks
):
    play_round(event, organiser)
    archive = api.get(f"/api/tournaments/{event.slug}/archive/")
    assert archive.status_code == 200 and 'filename="' in archive["Content-Disposition"]
    other = APIClient()
    other.force_authenticate(other_organiser)
    target = Club.objects.get(slug="other-club")
    upload = SimpleUploadedFile("event.json", json.dumps(archive.json()).encode())
    with django_capture_on_commit_callbacks(execute=True):  # the import is a background job
        response = other.post(
            f"/api/clubs/{target.slug}/tournaments/import/", {"file": upload}, format="multipart"
        )
    assert response.status_code == 202, response.content
    job = other.get(response["Location"]).json()
    assert job["state"] == "done", job
    copy_slug = job["tournament"]
    theirs = other.get(f"/api/tournaments/{copy_slug}/standings/").json()["rows"]
    ours = api.get(f"/api/tournaments/{event.slug}/standings/").json()["rows"]
    strip = ("registration", "player")
    assert [{k: v for k, v in r.items() if k not in strip} for r in theirs] == [
        {k: v for k, v in r.items() if k not in strip} for r in ours
    ]
    response = other.post(
        f"/api/clubs/{target.slug}/tournaments/import/",
        {"file": SimpleUploadedFile("x.json", b"\xff\xfe")},
        format="multipart",
    )
    assert response.status_code == 400 and error(response)["code"] == "bad_archive"
    hands = api.get(f"/api/tournaments/{event.slug}/export/hands.csv")
    assert hands.content.decode().splitlines()[0].startswith("round,table,player_a")
