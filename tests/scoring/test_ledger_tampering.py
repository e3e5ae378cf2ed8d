"""A careful forger against the ledger (docs/audit.md): each tampering case is named by
the verifier, and the untouched ledger passes. The forger here holds the database (and
the project's code), not the ledger directory's keys."""

from __future__ import annotations

import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings

from ginclub import checkpoints, ledger, ledger_keys, seals
from scoring import replay, services
from scoring.models import Game, Hand, LedgerCheckpoint, LedgerRow
from tests.scoring.helpers import play_hand, quick, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(match, alice, bob):
    """A match with three confirmed hands and a correction, checkpointed."""
    for number in (1, 2, 3):
        play_hand(match, alice, bob, quick(number=number))
    hand = Hand.objects.get(game__match=match, number=2)
    services.correct_hand(
        hand_id=hand.pk,
        actor=services.Actor(user=match.created_by),
        hand_input=quick(number=2, kd=2, dd=30),
        version=hand.version,
        reason="miscounted",
        idempotency_key="fix-2",
    )
    checkpoints.write()
    return match


def chain_of(match) -> list[LedgerRow]:
    return list(LedgerRow.objects.filter(chain=f"match:{match.pk}").order_by("position"))


def rehash_from(match, position: int, *, key_id: str | None = None, digest=None) -> None:
    """What a forger does after editing row `position`: every row from there gets a new
    previous hash and hash, made with the project's own hash function."""
    previous = ledger.GENESIS
    for row in chain_of(match):
        if row.position < position:
            previous = row.hash
            continue
        row.prev_hash = previous
        if key_id is not None:
            row.key_id = key_id
        row.hash = (digest or ledger._digest)(row)
        row.save()
        previous = row.hash


def test_an_untouched_ledger_passes_every_check(played):
    found = replay.verify()
    assert found.ok and found.breaks == [] and found.differences == []
    assert found.legacy_rows == 0 and found.checkpoint["seq"] == 1
    assert all(row.key_id == ledger_keys.ring().current for row in chain_of(played))
    call_command("verify_ledger")


def test_an_edited_row_is_named(played):
    row = chain_of(played)[3]
    LedgerRow.objects.filter(pk=row.pk).update(reason="nothing to see")
    [found] = ledger.verify()
    assert (found.chain, found.position, found.row_id) == (row.chain, row.position, row.pk)
    assert "edited" in found.problem


def test_a_deleted_tail_is_named_against_the_checkpoint(played):
    last = chain_of(played)[-1]
    LedgerRow.objects.filter(pk=last.pk).delete()
    [found] = ledger.verify()
    assert (found.chain, found.position) == (last.chain, last.position)
    assert "tail was deleted" in found.problem
    with pytest.raises(CommandError):
        call_command("verify_ledger")


def test_a_chain_rehashed_with_the_plain_hash_is_named(played):
    """Without the key the forger can only make the old plain SHA-256 (a legacy row)."""
    row = chain_of(played)[2]
    LedgerRow.objects.filter(pk=row.pk).update(reason="forged")
    rehash_from(played, row.position, key_id=ledger_keys.LEGACY)
    found, head = ledger.verify()
    assert (found.chain, found.position) == (row.chain, row.position)
    assert "legacy" in found.problem
    assert head.position == chain_of(played)[-1].position and "rewritten" in head.problem


def test_a_whole_chain_rehashed_as_legacy_is_named_by_the_checkpoint(played):
    LedgerRow.objects.filter(pk=chain_of(played)[1].pk).update(reason="forged")
    rehash_from(played, 1, key_id=ledger_keys.LEGACY)
    first, head = ledger.verify()
    last = chain_of(played)[-1]
    assert (first.chain, first.position) == (last.chain, 1)
    assert "written after the ledger had keys" in first.problem
    assert (head.chain, head.position) == (last.chain, last.position)
    assert "rewritten" in head.problem


def test_a_chain_begun_after_the_checkpoint_rehashed_as_legacy_is_named(
    played, club, alice, bob, organiser
):
    """A match started after the last checkpoint has no head in it: a forger who changes
    one of its hands and re-hashes its whole chain with the plain hash (a walk did, on a
    club match) is named, and stays named after the next checkpoint is written."""
    later = start(club, alice, bob, organiser)
    play_hand(later, alice, bob, quick(number=1))
    forged = {"points": 5, "defender_deadwood": 10}  # 20 - 5 = 15 made 10 - 5 = 5
    Hand.objects.filter(game__match=later).update(**forged)
    Game.objects.filter(match=later).update(hand_points_a=5)
    for row in chain_of(later):
        for side in ("before", "after"):
            if (getattr(row, side) or {}).get("points") == 15:
                values = {**getattr(row, side), **forged}
                LedgerRow.objects.filter(pk=row.pk).update(**{side: values})
    rehash_from(later, 1, key_id=ledger_keys.LEGACY)
    assert replay.replay_match(later) == []  # the tables agree with the forged chain
    for _turn in range(2):
        [found] = ledger.verify()
        assert (found.chain, found.position) == (f"match:{later.pk}", 1)
        assert "written after the ledger had keys" in found.problem
        checkpoints.write()  # the worker's next checkpoint does not make it pass
    with pytest.raises(CommandError):
        call_command("verify_ledger")


def test_legacy_rows_from_before_the_first_checkpoint_keep_verifying(match, alice, bob):
    """Rows re-hashed by the keys' migration: the first checkpoint holds them, every later
    one carries them on."""
    play_hand(match, alice, bob, quick(number=1))
    rehash_from(match, 1, key_id=ledger_keys.LEGACY)
    legacy = len(chain_of(match))
    checkpoints.write()
    play_hand(match, alice, bob, quick(number=2))
    checkpoints.write()
    assert checkpoints.last().checkpoint["legacy"] == {f"match:{match.pk}": legacy}
    assert ledger.verify() == [] and replay.verify().legacy_rows == legacy


def test_a_chain_rehashed_with_a_guessed_key_is_named(played, tmp_path):
    row = chain_of(played)[2]
    LedgerRow.objects.filter(pk=row.pk).update(reason="forged")
    current = ledger_keys.ring().current
    # the forger's own key under the real key id: the MAC does not match ours
    with override_settings(LEDGER_KEYS=f"{current}:{'ab' * 32}"):
        rehash_from(played, row.position)
    breaks = ledger.verify()
    assert (breaks[0].chain, breaks[0].position) == (row.chain, row.position)
    assert "edited" in breaks[0].problem


def test_an_edited_hands_table_is_named_by_the_replay(played):
    """The hand's points and its game's figures changed together: every chain holds,
    the replay names the hand and the game."""
    hand = Hand.objects.get(game__match=played, number=1)
    Hand.objects.filter(pk=hand.pk).update(points=hand.points + 20)
    game = Game.objects.get(match=played, number=1)
    Game.objects.filter(pk=game.pk).update(
        hand_points_a=game.hand_points_a + 20, total_a=game.total_a + 20
    )
    found = replay.verify()
    assert found.breaks == []
    named = {(d.what, d.field) for d in found.differences}
    assert ("hand 1 of game 1", "points") in named
    assert ("game 1", "hand_points") in named
    points = next(d for d in found.differences if d.field == "points")
    assert (points.ledger, points.table) == (hand.points, hand.points + 20)
    with pytest.raises(CommandError, match="1 difference|difference"):
        call_command("verify_ledger")


def test_a_forged_result_and_a_hand_missing_from_the_ledger_are_named(played):
    type(played).objects.filter(pk=played.pk).update(winner="B", points_b=500)
    played.refresh_from_db()
    hand = Hand.objects.get(game__match=played, number=3)
    LedgerRow.objects.filter(hand=hand).update(hand=None)  # chain broken too, but also:
    differences = replay.replay_match(played)
    named = {(d.what, d.field) for d in differences}
    assert ("the result", "winner") in named and ("the result", "points") in named
    assert ("hand 3 of game 1", "row") in named


def test_each_difference_reads_in_words_with_the_players_names(played):
    """A walk forged a hand and read on the audit page 'hand 5 of game 1
    defender_deadwood is 55 in the tables, 35 on the ledger' and 'the result points is
    {'A': 188, 'B': 288} in the tables': the field's code and Python's spelling."""
    hand = Hand.objects.get(game__match=played, number=1)
    Hand.objects.filter(pk=hand.pk).update(defender_deadwood=hand.defender_deadwood + 20)
    type(played).objects.filter(pk=played.pk).update(winner="B", points_b=500)
    played.refresh_from_db()
    said = {(d.what, d.field): str(d) for d in replay.replay_match(played)}
    chain = f"match:{played.pk}"
    assert said[("hand 1 of game 1", "defender_deadwood")] == (
        f"{chain}: hand 1 of game 1, defender's deadwood: "
        f"{hand.defender_deadwood + 20} in the tables, {hand.defender_deadwood} on the ledger"
    )
    assert said[("the result", "winner")].endswith(
        "the result, winner: Bob in the tables, missing on the ledger"
    )
    points = said[("the result", "points")]
    assert "the result, points: Alice " in points and ", Bob 500 in the tables, Alice " in points
    assert "{" not in points and "'" not in points


def test_an_edited_checkpoint_is_named(played):
    path = ledger_keys.ledger_dir() / checkpoints.FILE
    checkpoint = json.loads(path.read_bytes())
    chain = f"match:{played.pk}"
    checkpoint["heads"][chain][0] -= 1  # the forger deleted the last row and fixes the file
    path.write_bytes(seals.canonical(checkpoint))
    LedgerRow.objects.filter(pk=chain_of(played)[-1].pk).delete()
    [found] = ledger.verify()
    assert found.chain == ledger.CHECKPOINT and "changed after signing" in found.problem


def test_a_checkpoint_signed_by_another_key_is_named(played):
    path = ledger_keys.ledger_dir() / checkpoints.FILE
    checkpoint = json.loads(path.read_bytes())
    path.write_bytes(seals.canonical(seals.seal(checkpoint, Ed25519PrivateKey.generate())))
    [found] = ledger.verify()
    assert found.chain == ledger.CHECKPOINT and "not by the trusted key" in found.problem


def test_a_checkpoint_swapped_for_an_older_one_is_named(played, alice, bob):
    path = ledger_keys.ledger_dir() / checkpoints.FILE
    older = path.read_bytes()
    play_hand(played, alice, bob, quick(number=4))
    checkpoints.write()
    LedgerRow.objects.filter(pk=chain_of(played)[-1].pk).delete()  # after checkpoint 2
    path.write_bytes(older)  # checkpoint 1 does not know that row
    breaks = ledger.verify()
    assert [b.chain for b in breaks] == [ledger.CHECKPOINT]
    assert "checkpoint 1" in breaks[0].problem and "checkpoint 2" in breaks[0].problem


def test_a_deleted_checkpoint_file_is_named(played):
    (ledger_keys.ledger_dir() / checkpoints.FILE).unlink()
    [found] = ledger.verify()
    assert found.chain == ledger.CHECKPOINT and "missing" in found.problem


def test_rows_keep_verifying_across_a_key_rotation(match, alice, bob):
    play_hand(match, alice, bob, quick(number=1))
    old = ledger_keys.ring().current
    new = ledger_keys.rotate()
    play_hand(match, alice, bob, quick(number=2))
    assert {row.key_id for row in chain_of(match)} == {old, new}
    assert ledger.verify() == []


def test_a_row_of_a_key_the_server_lost_is_named(match, alice, bob):
    play_hand(match, alice, bob, quick(number=1))
    with override_settings(LEDGER_KEYS=f"other:{'cd' * 32}"):
        [found] = ledger.verify()
    assert found.position == 1 and "does not hold" in found.problem


def test_legacy_rows_verify_with_their_plain_hash_and_are_counted(match, alice, bob):
    """Rows written before keys existed (the migration marks them legacy) still verify."""
    rehash_from(match, 1, key_id=ledger_keys.LEGACY)
    found = replay.verify()
    assert found.ok and found.legacy_rows == len(chain_of(match))
    LedgerRow.objects.filter(pk=chain_of(match)[0].pk).update(reason="x")
    assert ledger.verify()[0].position == 1


def test_the_worker_checkpoints_every_n_rows(match, alice, bob, django_capture_on_commit_callbacks):
    with override_settings(LEDGER_CHECKPOINT_EVERY=1):
        with django_capture_on_commit_callbacks(execute=True):
            play_hand(match, alice, bob, quick(number=1))
    assert LedgerCheckpoint.objects.exists()
    checkpoint = json.loads((ledger_keys.ledger_dir() / checkpoints.FILE).read_bytes())
    assert checkpoint["heads"][f"match:{match.pk}"][0] == len(chain_of(match))


def test_checkpoint_ledger_writes_a_signed_checkpoint_at_once(match, capsys):
    (ledger_keys.ledger_dir() / ledger_keys.MAC_FILE).unlink()  # a new deployment's
    call_command("checkpoint_ledger")
    assert ledger_keys.configured()
    out = capsys.readouterr().out
    assert "checkpoint 1 written" in out and "1 chains" in out
    checkpoint = json.loads((ledger_keys.ledger_dir() / checkpoints.FILE).read_bytes())
    trusted = ledger_keys.signing_key().public_key()
    assert seals.seal_problem(checkpoint, trusted) == ""
    assert LedgerCheckpoint.objects.get().digest == seals.digest(checkpoint)


def test_keys_are_kept_out_of_the_database_in_private_files(match):
    path = ledger_keys.ledger_dir() / ledger_keys.MAC_FILE
    assert path.exists() and path.stat().st_mode & 0o077 == 0
    secret = ledger_keys.ring().keys[ledger_keys.ring().current].hex()
    assert not LedgerRow.objects.filter(hash__contains=secret).exists()


def test_deploy_check_warns_while_no_key_exists(tmp_path):
    from ginclub.ledger_keys import check_ledger_keys

    with override_settings(LEDGER_DIR=tmp_path / "empty", LEDGER_KEYS=""):
        [warning] = check_ledger_keys()
        assert warning.id == "ginclub.W003"
        ledger_keys.ring()
        assert check_ledger_keys() == []
