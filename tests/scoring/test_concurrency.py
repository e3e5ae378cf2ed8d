"""Simultaneous phones, with real threads on the real database (SQLite file or PostgreSQL).

Each thread has its own connection; a barrier lines them up so they really collide.
"""

from __future__ import annotations

import json
import threading
import time

import pytest
from django.db import connection, transaction

from ginclub import ledger
from ginclub.errors import Conflict
from scoring import services
from scoring.models import Entry, Game, Hand, LedgerRow, Match
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.scoring.helpers import as_player, quick
from tests.threads import run_together

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table():
    club = ClubFactory()
    organiser = UserFactory()
    club.organisers.add(organiser)
    alice = PlayerFactory(club=club, name="Alice")
    bob = PlayerFactory(club=club, name="Bob")
    return club, organiser, alice, bob


def new_match(table, **options) -> Match:
    club, organiser, alice, bob = table
    return services.start_match(
        club=club, player_a=alice, player_b=bob, actor=services.Actor(user=organiser), **options
    )


@pytest.mark.parametrize("clients", [2, 20])
def test_simultaneous_submissions_of_one_hand_make_exactly_one_hand(table, clients):
    match = new_match(table)
    alice = table[2]
    results = run_together(
        clients,
        lambda i: services.submit_hand(
            match_id=match.pk, actor=as_player(alice), hand=quick(), idempotency_key=f"phone-{i}"
        ),
    )
    successes = [r for r in results if isinstance(r, services.Outcome)]
    conflicts = [r for r in results if isinstance(r, Conflict)]
    assert len(successes) == 1, results
    assert len(conflicts) == clients - 1 and {c.code for c in conflicts} == {"hand_exists"}
    assert Hand.objects.filter(game__match=match).count() == 1


@pytest.mark.parametrize("clients", [2, 20])
def test_retried_request_with_one_key_writes_once_and_answers_alike(table, clients):
    match = new_match(table)
    alice = table[2]
    results = run_together(
        clients,
        lambda i: services.submit_hand(
            match_id=match.pk, actor=as_player(alice), hand=quick(), idempotency_key="same-key"
        ),
    )
    assert all(isinstance(r, services.Outcome) for r in results), results
    # PostgreSQL's jsonb hands a stored response back with its keys reordered: compare values.
    assert len({json.dumps(r.response, sort_keys=True) for r in results}) == 1
    assert sum(not r.replayed for r in results) == 1
    assert Entry.objects.filter(match=match).count() == 1


def test_double_entry_from_both_seats_at_once_gives_one_hand_and_one_entry_per_seat(table):
    match = new_match(table, agreement="double")
    players = table[2:]
    results = run_together(
        2,
        lambda i: services.submit_hand(
            match_id=match.pk,
            actor=as_player(players[i]),
            hand=quick(),
            idempotency_key=f"seat-{i}",
        ),
    )
    assert all(isinstance(r, services.Outcome) for r in results), results
    hand = Hand.objects.get(game__match=match)
    assert hand.state == Hand.State.CONFIRMED
    seats = sorted(Entry.objects.filter(hand=hand, kind="submit").values_list("seat", flat=True))
    assert seats == ["A", "B"]


def naive_add_points(game_id: int, points: int) -> None:
    """Deliberately wrong: read, think, write, with no lock. Shown to lose updates."""
    game = Game.objects.get(pk=game_id)
    total = game.hand_points_a
    time.sleep(0.05)
    Game.objects.filter(pk=game_id).update(hand_points_a=total + points)


def test_naive_read_modify_write_loses_updates(table):
    match = new_match(table)
    game = match.games.get()
    run_together(20, lambda i: naive_add_points(game.pk, 15))
    game.refresh_from_db()
    assert game.hand_points_a < 20 * 15  # updates were lost


def test_twenty_simultaneous_organiser_entries_lose_nothing(table):
    club, organiser, alice, bob = table
    match = new_match(table, overrides={"game_target": 100000})

    def enter(i: int):
        for _attempt in range(200):  # like a phone: on conflict, reload and enter again
            number = Hand.objects.filter(game__match=match).count() + 1
            try:
                return services.submit_hand(
                    match_id=match.pk,
                    actor=services.Actor(user=organiser),
                    hand=quick(number=number),
                    idempotency_key=f"org-{i}-{number}",
                )
            except Conflict:
                time.sleep(0.005 * (i % 5))
        raise AssertionError("never got a turn")

    results = run_together(20, enter)
    assert all(isinstance(r, services.Outcome) for r in results), results
    numbers = sorted(Hand.objects.filter(game__match=match).values_list("number", flat=True))
    assert numbers == list(range(1, 21))
    game = match.games.get()
    assert game.hand_points_a == 20 * 15
    assert not ledger.verify(chain=f"match:{match.pk}", checkpoint=False)


@pytest.mark.parametrize("first", ["confirm", "dispute"])
def test_confirm_and_dispute_of_one_hand_at_once_leave_exactly_one_standing(table, first):
    """Bob's two taps on a pending hand (confirm and dispute, both sent at version 1)
    arrive together, in either order: one wins, the other is a Conflict."""
    match = new_match(table)
    alice, bob = table[2], table[3]
    hand = services.submit_hand(
        match_id=match.pk, actor=as_player(alice), hand=quick(), idempotency_key="enter"
    ).hand
    actions = {
        "confirm": lambda: services.confirm_hand(
            hand_id=hand.pk, actor=as_player(bob), version=1, idempotency_key="tap-confirm"
        ),
        "dispute": lambda: services.dispute_hand(
            hand_id=hand.pk, actor=as_player(bob), version=1, reason="4?", idempotency_key="tap-d"
        ),
    }
    order = [first, next(name for name in actions if name != first)]

    def tap(i: int):
        time.sleep(0.3 * i)  # the second tap reaches the lock after the first one took it
        return actions[order[i]]()

    results = run_together(2, tap)
    assert isinstance(results[0], services.Outcome), results
    assert isinstance(results[1], Conflict), results
    hand.refresh_from_db()
    expected = Hand.State.CONFIRMED if first == "confirm" else Hand.State.DISPUTED
    assert hand.state == expected
    kinds = set(Entry.objects.filter(hand=hand).values_list("kind", flat=True))
    assert kinds == {"submit", first}


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="SQLite's IMMEDIATE transaction takes the lock before any read: nothing to see",
)
def test_a_hand_that_waited_for_the_lock_chains_after_the_row_written_meanwhile(table):
    """The ledger head and the idempotency key's entry are read with the games after the
    match's lock is taken (services.base.under_lock). Folded into the locking statement,
    on PostgreSQL they would be the rows as they were before it waited: Alice's hand would
    take the position of the organiser's row, written while she waited, and be refused."""
    club, organiser, alice, bob = table
    match = new_match(table)
    holding, release = threading.Event(), threading.Event()

    def organiser_acts():
        with transaction.atomic():
            locked = services.base.lock_match(match.pk)
            services.base.log(locked, "note", services.Actor(user=organiser), reason="meanwhile")
            holding.set()
            assert release.wait(timeout=60)
        return "committed"

    def alice_enters():
        assert holding.wait(timeout=60)
        return services.submit_hand(
            match_id=match.pk, actor=as_player(alice), hand=quick(), idempotency_key="waits"
        )

    def waiting_for_the_lock() -> bool:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = current_database()"
            )
            return cursor.fetchone()[0] > 0

    def releaser(index: int):
        if index == 0:
            return organiser_acts()
        if index == 1:
            return alice_enters()
        assert holding.wait(timeout=60)
        while not waiting_for_the_lock():  # Alice's submit is queued behind the lock
            time.sleep(0.01)
        release.set()
        return "released"

    results = run_together(3, releaser)
    assert results[0] == "committed" and results[2] == "released", results
    assert isinstance(results[1], services.Outcome), results
    actions = list(
        LedgerRow.objects.filter(chain=f"match:{match.pk}")
        .order_by("position")
        .values_list("action", flat=True)
    )
    assert actions[-2:] == ["note", "hand_entered"]
    assert not ledger.verify(chain=f"match:{match.pk}", checkpoint=False)
