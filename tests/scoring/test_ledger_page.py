"""The ledger page as an auditor reads it (issue 9, trap 11): what changed field by field
with names, the date with the time, the row's hash, the chain's check, and a card-entry
hand's cards."""

from __future__ import annotations

import re

import pytest

from scoring import services
from scoring.hand_input import HandInput
from scoring.models import Hand, LedgerRow
from tests.scoring.helpers import confirm, key, submit

pytestmark = pytest.mark.django_db

KNOCKER = tuple("5H 6H 7H 9C 9D 9S JS QS KS 2D".split())
DEFENDER = tuple("8H 9H KD KC KH 3C 4C 5C AS 7D".split())


@pytest.fixture
def audited(match, alice, bob, organiser):
    """Alice knocks by cards (2 v 8 after lay-offs: 6), Bob confirms; the organiser then
    corrects it to a quick entry: Alice knocked with 2, Bob had 30."""
    hand = submit(
        match,
        alice,
        HandInput(
            game=1,
            number=1,
            outcome="knock",
            knocker="A",
            knocker_cards=KNOCKER,
            defender_cards=DEFENDER,
        ),
    ).hand
    confirm(hand, bob)
    hand.refresh_from_db()
    services.correct_hand(
        hand_id=hand.pk,
        actor=services.Actor(user=organiser),
        hand_input=HandInput(
            game=1, number=1, outcome="knock", knocker="A", knocker_deadwood=2, defender_deadwood=30
        ),
        version=hand.version,
        reason="Bob's hand was read wrong",
        idempotency_key=key(),
    )
    return match


def page(client, organiser, match) -> str:
    client.force_login(organiser)
    response = client.get(f"/matches/{match.pk}/ledger/")
    assert response.status_code == 200
    return re.sub(r"\s+", " ", response.content.decode())


def row_of(text: str, action: str) -> str:
    return next(part for part in text.split('<li class="card-box ledger-row"') if action in part)


def test_a_correction_reads_field_by_field_with_names(client, organiser, audited):
    text = row_of(page(client, organiser, audited), "Hand corrected")
    assert "Hand corrected · hand 1 of game 1, version 2" in text
    assert "Bob&#x27;s hand was read wrong" in text or "Bob's hand was read wrong" in text
    # only what changed, before and after: 8 → 30 deadwood, 6 → 28 points
    assert (
        '<th scope="row">defender&#x27;s deadwood</th><td>8</td><td>30</td>' in text
        or '<th scope="row">defender\'s deadwood</th><td>8</td><td>30</td>' in text
    )
    assert '<th scope="row">points</th><td>6</td><td>28</td>' in text
    assert '<th scope="row">knocked</th>' not in text  # unchanged: not listed
    # no Python dicts, no seat letters as values
    assert "{&#x27;" not in text and "True" not in text and "None" not in text


def test_a_card_entry_hands_cards_are_on_its_rows(client, organiser, audited):
    text = page(client, organiser, audited)
    assert "Alice (knocked)</dt><dd>5♥ 6♥ 7♥ 9♣ 9♦ 9♠ J♠ Q♠ K♠ 2♦</dd>" in text
    assert "<dt>Bob</dt><dd>8♥ 9♥ K♦ K♣ K♥ 3♣ 4♣ 5♣ A♠ 7♦</dd>" in text


def test_each_row_shows_its_date_and_hash_and_the_chain_is_checked(client, organiser, audited):
    text = page(client, organiser, audited)
    row = LedgerRow.objects.filter(match=audited).order_by("position").last()
    assert row.hash[:16] in text and f'title="{row.hash}"' in text
    assert row.created_at.strftime("%Y") in text
    assert "Verified: all 4 rows fit the chain." in text


def test_a_tampered_row_is_named_on_the_page(client, organiser, audited):
    row = LedgerRow.objects.filter(match=audited).order_by("position")[1]
    LedgerRow.objects.filter(pk=row.pk).update(reason="nothing to see")
    text = page(client, organiser, audited)
    assert "The chain does not verify: row 2:" in text
    assert "Verified:" not in text


def test_a_hands_table_edited_behind_a_fitting_chain_is_named_on_the_page(
    client, organiser, audited
):
    """The page asks the audit's verifier, which replays the match: every row still fits
    its chain, but the hand's points in the tables differ from the ledger's."""
    hand = Hand.objects.get(game__match=audited, number=1)
    Hand.objects.filter(pk=hand.pk).update(points=hand.points + 20)
    text = page(client, organiser, audited)
    assert "The chain does not verify" not in text
    assert "The match's tables differ from its ledger:" in text
    assert f"hand 1 of game 1, points: {hand.points + 20} in the tables, {hand.points} on" in text
    assert "Verified:" not in text
