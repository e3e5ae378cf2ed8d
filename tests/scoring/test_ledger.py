"""The audit ledger: one row per state change, written with the change, tamper-evident."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ginclub import ledger
from scoring import services
from scoring.models import Entry, Hand, LedgerRow
from scoring.services import results as service_results
from tests.scoring.helpers import as_player, confirm, key, play_hand, quick, start, submit

pytestmark = pytest.mark.django_db


def rows() -> int:
    return LedgerRow.objects.count()


def test_every_transition_writes_exactly_one_ledger_row(club, alice, bob, organiser):
    actor = services.Actor(user=organiser)
    steps = []
    before = rows()
    match = start(club, alice, bob, organiser, overrides={"game_target": 10})
    steps.append(("match_started", rows() - before))

    def step(name, call):
        count = rows()
        result = call()
        steps.append((name, rows() - count))
        return result

    first = step("hand_entered", lambda: submit(match, alice, quick(kd=5, dd=6)).hand)
    step(
        "hand_disputed",
        lambda: services.dispute_hand(
            hand_id=first.pk,
            actor=as_player(bob),
            version=1,
            reason="count again",
            idempotency_key=key(),
        ),
    )
    step(
        "hand_withdrawn",
        lambda: services.withdraw_hand(
            hand_id=first.pk, actor=as_player(alice), version=2, idempotency_key=key()
        ),  # the dispute moved the version
    )
    # a withdrawn hand is entered again under its own number (issue 23, trap 6)
    second = step("hand_entered", lambda: submit(match, alice, quick(number=1, kd=5, dd=6)).hand)
    step("hand_confirmed", lambda: confirm(second, bob))
    step(
        "hand_corrected",
        lambda: services.correct_hand(
            hand_id=second.pk,
            actor=actor,
            hand_input=quick(number=1, kd=0, dd=30, outcome="gin"),
            version=1,
            reason="it was gin",
            idempotency_key=key(),
        ),
    )
    step("match_closed", lambda: services.close_match(match_id=match.pk, actor=actor))
    step(
        "match_reopened",
        lambda: services.reopen_match(match_id=match.pk, actor=actor, reason="typo"),
    )
    # The correction of hand 2 to gin decides the match (target 10): that decision is a
    # row of its own, after the correction's (issue 27: every decision a ledger row).
    decided = {"hand_corrected": 2}
    assert all(delta == decided.get(name, 1) for name, delta in steps), steps
    actions = list(LedgerRow.objects.filter(match=match).values_list("action", flat=True))
    expected = []
    for name, _ in steps:
        expected += [name, "match_decided"] if name in decided else [name]
    assert actions == expected
    row = LedgerRow.objects.get(match=match, action="match_decided")
    # decided by its hands: no decision set over them (the replay reads it so)
    assert (row.before["winner"], row.after["winner"], row.after["decided_by"]) == (
        None,
        "A",
        None,
    )
    assert row.hand_id == second.pk and row.after["action"] == "hand_corrected"
    assert row.reason == "it was gin"


def test_a_correction_that_changes_the_winner_is_a_decision_row(club, alice, bob, organiser):
    match = start(club, alice, bob, organiser, overrides={"game_target": 10})
    hand = submit(match, alice, quick(kd=5, dd=20)).hand
    confirm(hand, bob)
    services.correct_hand(
        hand_id=hand.pk,
        actor=services.Actor(user=organiser),
        hand_input=quick(kd=5, dd=6),  # 1 point: the game goes on, nobody has won
        version=1,
        reason="miscounted",
        idempotency_key=key(),
    )
    actions = list(LedgerRow.objects.filter(match=match).values_list("action", flat=True))
    assert actions[-2:] == ["hand_corrected", "match_undecided"]
    row = LedgerRow.objects.filter(match=match).last()
    assert (row.before["winner"], row.after["winner"], row.reason) == ("A", None, "miscounted")


def test_ledger_rows_name_the_actor_and_the_entry(match, alice):
    outcome = submit(match, alice, quick())
    row = LedgerRow.objects.get(action="hand_entered")
    assert row.actor == "player Alice"
    assert row.entry_id == outcome.entry.pk and row.hand_id == outcome.hand.pk
    assert row.after["points"] == 15


def test_failure_after_the_domain_write_leaves_neither_hand_nor_ledger_row(
    match, alice, monkeypatch
):
    counts = (Hand.objects.count(), Entry.objects.count(), rows())

    def explode(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(ledger, "append", explode)
    with pytest.raises(RuntimeError):
        submit(match, alice, quick())
    assert (Hand.objects.count(), Entry.objects.count(), rows()) == counts


def test_failure_after_the_ledger_row_rolls_both_back(match, alice, bob, monkeypatch):
    hand = submit(match, alice, quick()).hand
    counts = rows()

    def explode(*args, **kwargs):
        raise RuntimeError("crash while recomputing")

    monkeypatch.setattr(service_results, "recompute_match", explode)
    with pytest.raises(RuntimeError):
        confirm(hand, bob)
    hand.refresh_from_db()
    assert hand.state == Hand.State.PENDING and rows() == counts


def test_untouched_chain_verifies(match, alice, bob):
    play_hand(match, alice, bob, quick())
    assert ledger.verify() == []
    call_command("verify_ledger")


def test_row_edited_behind_the_service_is_caught_and_named(match, alice, bob):
    play_hand(match, alice, bob, quick(number=1))
    play_hand(match, alice, bob, quick(number=2))
    target = LedgerRow.objects.filter(match=match, action="hand_confirmed").first()
    LedgerRow.objects.filter(pk=target.pk).update(after={**target.after, "points": 99})
    breaks = ledger.verify()
    assert len(breaks) == 1
    assert (breaks[0].row_id, breaks[0].position) == (target.pk, target.position)
    assert "edited" in breaks[0].problem
    with pytest.raises(CommandError):
        call_command("verify_ledger")


def test_deleted_row_is_caught(match, alice, bob):
    play_hand(match, alice, bob, quick())
    LedgerRow.objects.filter(match=match, action="hand_entered").delete()
    breaks = ledger.verify()
    assert breaks and "missing" in breaks[0].problem


def test_ledger_rows_cannot_be_edited_in_the_admin(admin_client, match):
    row = LedgerRow.objects.first()
    response = admin_client.post(
        f"/admin/scoring/ledgerrow/{row.pk}/change/", {"reason": "rewritten"}
    )
    row.refresh_from_db()
    assert row.reason == "" and response.status_code in (403, 200)
    page = admin_client.get(f"/admin/scoring/ledgerrow/{row.pk}/change/")
    assert page.status_code == 200 and b"Save" not in page.content


def test_each_app_labels_its_own_ledger_actions_with_the_shared_ledger():
    from scoring.apps import LEDGER_ACTIONS as SCORING
    from tournaments.apps import LEDGER_ACTIONS as TOURNAMENTS

    assert "hand_corrected" in SCORING and "round_closed" in TOURNAMENTS
    assert not set(SCORING) & set(TOURNAMENTS)
    assert ledger.action_label("hand_corrected") == "Hand corrected"
    assert ledger.action_label("round_closed") == "Round closed"
    assert ledger.action_label("something_new") == "Something new"
