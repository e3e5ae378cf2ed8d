"""Calls from the table ("Organiser, please"): a seated player calls, staff take and
resolve the call, the match's ledger keeps each step and how long it waited, and the
dashboard, the hall view and the API show it at once (their polls' ETag moves)."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.test import Client
from rest_framework.test import APIClient

from ginclub.errors import Conflict, Forbidden, ServiceError
from ginclub.permissions import table_token
from scoring import services as scoring
from scoring.models import LedgerRow, TableCall
from tests.factories import PIN, UserFactory
from tests.tournaments.helpers import actor, new_event, play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(club, organiser):
    """A private event's round 1 published (P01 v P02 at table 1, P03 v P04 at table 2),
    every player with the PIN, and a scorekeeper of the club ("keeper")."""
    tournament = new_event(club, organiser, players=4, public=False)
    rnd = play_round(tournament, organiser, play=False, close=False)
    for registration in tournament.registrations.select_related("player"):
        registration.player.set_pin(PIN)
        registration.player.save(update_fields=["pin_hash"])
    keeper = UserFactory(username="keeper")
    club.scorekeepers.add(keeper)
    first, second = rnd.pairings.exclude(match=None).order_by("table")
    return {
        "tournament": tournament,
        "round": rnd,
        "first": first,
        "second": second,
        "keeper": keeper,
    }


def seated(match, seat: str = "A") -> Client:
    """A phone that opened the table link and gave the player's PIN."""
    client = Client()
    session = client.session
    session["table_grants"] = {str(match.pk): [time.time() + 3600, match.link_generation]}
    session["seats"] = {str(match.pk): match.player_a_id if seat == "A" else match.player_b_id}
    session.save()
    return client


def player_actor(match, seat: str = "A"):
    return scoring.Actor(player=match.player_a if seat == "A" else match.player_b)


def rows(match, action: str) -> list[LedgerRow]:
    return list(LedgerRow.objects.filter(chain=f"match:{match.pk}", action=action))


# ------------------------------------------------------------------------ services


def test_a_player_calls_once_and_a_second_tap_finds_the_same_call(event):
    match = event["first"].match
    first = scoring.call_staff(
        match_id=match.pk, actor=player_actor(match), reason=TableCall.Reason.RULING
    )
    again = scoring.call_staff(
        match_id=match.pk, actor=player_actor(match, "B"), reason=TableCall.Reason.DISPUTE
    )
    assert first.created and not again.created
    assert again.call.pk == first.call.pk and again.call.reason == "ruling"
    assert TableCall.objects.filter(match=match).count() == 1
    [raised] = rows(match, "call_raised")
    assert raised.after == {"call": first.call.pk, "reason": "ruling", "by": "P01"}
    assert raised.actor == "player P01"


def test_staff_take_then_resolve_and_the_ledger_keeps_the_wait(event):
    match = event["first"].match
    call = scoring.call_staff(
        match_id=match.pk, actor=player_actor(match), reason=TableCall.Reason.SCORING
    ).call
    TableCall.objects.filter(pk=call.pk).update(called_at=call.called_at - dt.timedelta(seconds=90))
    keeper = actor(event["keeper"])
    taken = scoring.take_call(call_id=call.pk, actor=keeper)
    assert taken.state == "taken" and taken.taken_by == event["keeper"]
    assert scoring.take_call(call_id=call.pk, actor=keeper).pk == call.pk  # again: no change
    [took] = rows(match, "call_taken")
    assert 90 <= took.after["waited_seconds"] < 120
    resolved = scoring.resolve_call(call_id=call.pk, actor=keeper, note="deadwood was 7")
    assert resolved.state == "resolved" and resolved.note == "deadwood was 7"
    [done] = rows(match, "call_resolved")
    assert done.after["note"] == "deadwood was 7" and 90 <= done.after["waited_seconds"] < 120
    assert done.after["open_seconds"] >= done.after["waited_seconds"]
    assert len(rows(match, "call_taken")) == 1
    with pytest.raises(Conflict) as refused:
        scoring.take_call(call_id=call.pk, actor=keeper)
    assert refused.value.code == "call_resolved" and "P01 v P02" in refused.value.message
    # once resolved, the table may call again
    assert scoring.call_staff(
        match_id=match.pk, actor=player_actor(match), reason=TableCall.Reason.RULING
    ).created


def test_a_call_taken_by_one_is_not_taken_by_another_but_may_be_resolved(event, organiser):
    match = event["first"].match
    call = scoring.call_staff(match_id=match.pk, actor=player_actor(match), reason="ruling").call
    scoring.take_call(call_id=call.pk, actor=actor(event["keeper"]))
    with pytest.raises(Conflict) as refused:
        scoring.take_call(call_id=call.pk, actor=actor(organiser))
    assert refused.value.code == "call_taken" and "keeper" in refused.value.message
    assert scoring.resolve_call(call_id=call.pk, actor=actor(organiser)).resolved_by == organiser


def test_who_may_call_and_who_may_answer(event, club):
    match, other = event["first"].match, event["second"].match
    with pytest.raises(Forbidden) as refused:  # a player of another table
        scoring.call_staff(match_id=match.pk, actor=player_actor(other), reason="ruling")
    assert "P01 and P02" in refused.value.message
    auditor = UserFactory(username="aud")
    club.auditors.add(auditor)
    with pytest.raises(Forbidden) as refused:
        scoring.call_staff(match_id=match.pk, actor=actor(auditor), reason="ruling")
    assert refused.value.code == "auditor_read_only"
    with pytest.raises(ServiceError) as refused:
        scoring.call_staff(match_id=match.pk, actor=player_actor(match), reason="coffee")
    assert refused.value.code == "invalid" and "reason" in refused.value.fields
    call = scoring.call_staff(match_id=match.pk, actor=player_actor(match), reason="ruling").call
    for who in (player_actor(match), actor(auditor), actor(UserFactory(username="nobody"))):
        with pytest.raises(Forbidden):
            scoring.take_call(call_id=call.pk, actor=who)
    with pytest.raises(Forbidden):
        scoring.resolve_call(call_id=call.pk, actor=player_actor(match))
    # staff may raise a call for the table too (no player named)
    staff_call = scoring.call_staff(
        match_id=other.pk, actor=actor(event["keeper"]), reason="dispute"
    ).call
    assert staff_call.player is None


# ------------------------------------------------------------------------ pages


def test_the_phone_calls_and_a_second_tap_says_the_call_waits(event):
    match = event["first"].match
    phone = seated(match)
    page = phone.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-testid="call-staff-open"' in page and "Organiser, please" in page
    answer = phone.post(f"/matches/{match.pk}/call/", {"reason": "dispute"}, follow=True)
    body = answer.content.decode()
    assert "The organiser is called for a dispute" in body
    assert 'data-testid="call-status"' in body
    again = phone.post(f"/matches/{match.pk}/call/", {"reason": "ruling"}, follow=True)
    assert "no second call was made" in again.content.decode()
    assert TableCall.objects.filter(match=match).count() == 1
    # a stranger's browser may not call
    assert Client().post(f"/matches/{match.pk}/call/", {"reason": "ruling"}).status_code == 403


def test_the_dashboard_shows_the_call_at_once_and_staff_answer_it(event, client):
    tournament, match = event["tournament"], event["second"].match
    client.force_login(event["keeper"])
    tables = f"/tournaments/{tournament.slug}/manage/dashboard/tables/"
    before = client.get(tables)
    assert 'data-testid="calls-count">0<' in before.content.decode()
    assert client.get(tables, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 304
    scoring.call_staff(match_id=match.pk, actor=player_actor(match), reason="ruling")
    after = client.get(tables, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    body = after.content.decode()
    assert 'data-testid="calls-count">1<' in body and 'data-testid="call-2"' in body
    assert 'data-testid="calling-2"' in body and 'data-testid="count-calling"' in body
    hall = client.get(f"/tournaments/{tournament.slug}/manage/dashboard/hall/?state=calling")
    hall_body = hall.content.decode()
    assert (
        'data-testid="hall-table-2"' in hall_body and 'data-testid="hall-table-1"' not in hall_body
    )
    assert 'data-testid="filter-calling"' in hall_body
    call = TableCall.objects.get(match=match)
    back = f"/tournaments/{tournament.slug}/manage/dashboard/?round=1"
    taken = client.post(f"/calls/{call.pk}/take/", {"next": back})
    assert taken.status_code == 302 and taken["Location"] == back
    client.post(f"/calls/{call.pk}/resolve/", {"next": back, "note": "played on"})
    call.refresh_from_db()
    assert call.state == "resolved" and call.resolved_by == event["keeper"]
    assert 'data-testid="calls-count">0<' in client.get(tables).content.decode()


# ------------------------------------------------------------------------ the API


def test_the_api_calls_lists_takes_and_resolves(event, organiser):
    match, tournament = event["first"].match, event["tournament"]
    phone = APIClient()
    phone.get(f"/t/{table_token(match)}/")  # the table link's QR code, scanned
    url = f"/api/matches/{match.pk}/calls/"
    body = {"reason": "scoring", "player": match.player_b_id, "pin": PIN}
    first = phone.post(url, body, format="json")
    assert first.status_code == 201, first.content
    assert first.json()["state"] == "open" and first.json()["player"] == "P02"
    again = phone.post(url, body, format="json")
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    wrong_pin = phone.post(url, {**body, "pin": "9999"}, format="json")
    assert wrong_pin.status_code == 403
    keeper = APIClient()
    keeper.force_authenticate(event["keeper"])
    waiting = keeper.get(f"/api/tournaments/{tournament.slug}/calls/").json()
    assert [(w["table"], w["call"]["reason"], w["player_a"]) for w in waiting] == [
        (1, "scoring", "P01")
    ]
    call_id = first.json()["id"]
    player = APIClient()
    player.force_authenticate(UserFactory(username="someone"))
    assert player.post(f"/api/calls/{call_id}/take/").status_code == 403
    taken = keeper.post(f"/api/calls/{call_id}/take/")
    assert taken.status_code == 200 and taken.json()["taken_by"] == "keeper"
    resolved = keeper.post(f"/api/calls/{call_id}/resolve/", {"note": "ok"}, format="json")
    assert resolved.json()["state"] == "resolved" and resolved.json()["resolved_by"] == "keeper"
    assert keeper.post(f"/api/calls/{call_id}/resolve/", {}, format="json").status_code == 409
    assert keeper.get(f"/api/tournaments/{tournament.slug}/calls/").json() == []
    listed = keeper.get(url).json()
    assert [c["state"] for c in listed] == ["resolved"]
    bad = keeper.post(url, {"reason": "coffee"}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["code"]


def test_the_call_reads_in_italian(event):
    match = event["first"].match
    phone = seated(match)
    phone.cookies["django_language"] = "it"
    page = phone.get(f"/matches/{match.pk}/").content.decode()
    assert "Organizzatore, per favore" in page and "Una decisione arbitrale" in page
    answer = phone.post(f"/matches/{match.pk}/call/", {"reason": "ruling"}, follow=True)
    body = answer.content.decode()
    assert "L&#x27;organizzatore è stato chiamato per una decisione arbitrale" in body
    assert "Organizzatore chiamato" in body
