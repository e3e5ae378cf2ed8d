"""How many statements a hand submission and a confirmation cost over the API (issue 26:
a leaner submit), each with every guarantee it keeps checked in the same test: the
entry and its idempotency key, the ledger row on the match's chain, the seat summaries,
the match row saved (its updated_at is the version the polls and player pages read).

Counted: every statement the request sends (who is asking included: on SQLite the user,
its session coming from the sessions cache's file; on PostgreSQL the session with its
user in one statement, ginclub.sessions) but the transaction's own boundaries (BEGIN and
COMMIT in production, a savepoint here). The counts do not grow with the hands already
in the match.

Issue 26 asks for at most 12 for a submission and 10 for a confirmation. On either
database a logged-in player's submission takes 8 (a seated phone without a login, 7,
and one more on PostgreSQL, its session), an organiser's hand, confirmed and recomputed
at once, 11 (16 before), and a logged-in player's confirmation 10 (17 before; on
PostgreSQL 11 while the session and the user were two reads). The pins below are those
figures, so that no change adds a statement unnoticed. After the
locking statement, one read brings the games with their hands and game-loss penalties,
the entry already made with the idempotency key and the ledger chain's head
(services.base.under_lock; sent after the lock, because on PostgreSQL the locking
statement, after waiting, still sees the rows as they were when it began). What is left
that a leaner design might save: the view's read of the match (or hand) before the
service locks it, and for a new hand the entry's update with its hand and answer (the
entry and the hand each point at the other)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from ginclub import ledger
from scoring.models import Entry, Hand, Match, SeatSummary
from tests.scoring.helpers import key

pytestmark = pytest.mark.django_db

PLAYER_SUBMIT_MAX = 8
ORGANISER_SUBMIT_MAX = 11
CONFIRM_MAX = 10
BOUNDARIES = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK")

CARDS = {  # a knock by A with 5 deadwood against 73
    "knocker_cards": ["AS", "2S", "3S", "4H", "5H", "6H", "7C", "8C", "9C", "5D"],
    "defender_cards": ["KD", "QC", "JH", "9S", "8D", "7S", "6D", "4C", "3D", "2C"],
}


def statements(captured) -> list[str]:
    return [q["sql"] for q in captured if not q["sql"].lstrip().upper().startswith(BOUNDARIES)]


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(client, url, body):
    with CaptureQueriesContext(connection) as captured:
        response = client.post(url, body, content_type="application/json")
    return response, statements(captured.captured_queries)


def submit_body(number, **values):
    return {"game": 1, "number": number, "outcome": "knock", "knocker": "A", **values}


def play_some(client, match, count):
    """`count` hands entered by the organiser first, so the counts are not those of an
    empty match."""
    for number in range(1, count + 1):
        body = submit_body(number, knocker_deadwood=5, defender_deadwood=9)
        response = client.post(
            f"/api/matches/{match.pk}/hands/",
            {**body, "idempotency_key": key()},
            content_type="application/json",
        )
        assert response.status_code == 201, response.content


def chain_fits(match) -> bool:
    return not ledger.verify(chain=f"match:{match.pk}", checkpoint=False)


@pytest.mark.parametrize("by_cards", [False, True], ids=["deadwood", "cards"])
def test_an_organisers_hand_is_at_most_11_statements(match, organiser, by_cards):
    client = logged_in(organiser)
    play_some(client, match, 3)
    values = CARDS if by_cards else {"knocker_deadwood": 5, "defender_deadwood": 20}
    body = {**submit_body(4, **values), "idempotency_key": "organiser-4"}
    changed = Match.objects.get(pk=match.pk).updated_at

    response, sent = post(client, f"/api/matches/{match.pk}/hands/", body)

    assert response.status_code == 201, response.content
    assert len(sent) <= ORGANISER_SUBMIT_MAX, "\n".join(sent)
    hand = Hand.objects.get(pk=response.json()["hand"]["id"])
    assert hand.state == Hand.State.CONFIRMED  # an organiser's hand counts at once
    entry = Entry.objects.get(idempotency_key="organiser-4")
    assert (entry.hand_id, entry.response) == (hand.pk, response.json())
    assert hand.accepted_entry_id == entry.pk
    assert match.ledger.filter(hand=hand, entry=entry, action="hand_entered").exists()
    assert chain_fits(match)
    summaries = {s.seat: s.hands for s in SeatSummary.objects.filter(match=match)}
    assert summaries == {"A": 4, "B": 4}
    assert Match.objects.get(pk=match.pk).updated_at > changed
    replay, _sent = post(client, f"/api/matches/{match.pk}/hands/", body)
    assert (replay.status_code, replay.json()) == (200, response.json())


@pytest.mark.parametrize("by_cards", [False, True], ids=["deadwood", "cards"])
def test_a_players_hand_is_at_most_8_statements(match, organiser, alice, by_cards):
    play_some(logged_in(organiser), match, 3)
    values = CARDS if by_cards else {"knocker_deadwood": 5, "defender_deadwood": 20}
    body = {**submit_body(4, **values), "idempotency_key": "alice-4"}

    response, sent = post(logged_in(alice.user), f"/api/matches/{match.pk}/hands/", body)

    assert response.status_code == 201, response.content
    assert len(sent) <= PLAYER_SUBMIT_MAX, "\n".join(sent)
    hand = Hand.objects.get(pk=response.json()["hand"]["id"])
    assert hand.state == Hand.State.PENDING
    entry = Entry.objects.get(idempotency_key="alice-4")
    assert (entry.hand_id, entry.seat, entry.response) == (hand.pk, "A", response.json())
    assert match.ledger.filter(hand=hand, entry=entry, action="hand_entered").exists()
    assert chain_fits(match)


def test_a_confirmation_is_at_most_10_statements(match, organiser, alice, bob):
    play_some(logged_in(organiser), match, 3)
    body = {**submit_body(4, knocker_deadwood=5, defender_deadwood=20), "idempotency_key": key()}
    submitted, _sent = post(logged_in(alice.user), f"/api/matches/{match.pk}/hands/", body)
    hand = submitted.json()["hand"]
    changed = Match.objects.get(pk=match.pk).updated_at
    body = {"version": hand["version"], "idempotency_key": "bob-confirms-4"}

    response, sent = post(logged_in(bob.user), f"/api/hands/{hand['id']}/confirm/", body)

    assert response.status_code == 200, response.content
    assert len(sent) <= CONFIRM_MAX, "\n".join(sent)
    assert Hand.objects.get(pk=hand["id"]).state == Hand.State.CONFIRMED
    entry = Entry.objects.get(idempotency_key="bob-confirms-4")
    assert (entry.kind, entry.seat, entry.response) == ("confirm", "B", response.json())
    assert match.ledger.filter(entry=entry, action="hand_confirmed").exists()
    assert chain_fits(match)
    summaries = {s.seat: (s.hands, s.won) for s in SeatSummary.objects.filter(match=match)}
    assert summaries == {"A": (4, 4), "B": (4, 0)}
    assert Match.objects.get(pk=match.pk).updated_at > changed
