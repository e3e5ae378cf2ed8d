"""Backups are made while the service runs and are checked by restoring them: the
restored copy holds every hand and its ledger verifies (SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from scoring.models import Hand, LedgerRow
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import new_event, play_round

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def played():
    organiser = UserFactory()
    club = ClubFactory()
    club.organisers.add(organiser)
    tournament = new_event(club, organiser, players=4)
    play_round(tournament, organiser)
    return Hand.objects.count(), LedgerRow.objects.count()


def test_a_backup_restores_into_a_scratch_database_with_every_hand_and_a_sound_ledger(
    played, tmp_path, capsys
):
    hands, rows = played
    call_command("backup", str(tmp_path / "club.backup"), "--check")
    out = capsys.readouterr().out
    assert f"ledger OK: {rows} rows verified; {hands} hands" in out
    assert hands > 0


def test_restore_puts_back_what_was_backed_up_and_verifies_it(played, tmp_path, capsys):
    hands, rows = played
    call_command("backup", str(tmp_path / "club.backup"))
    Hand.objects.all().update(points=0)  # a mistake to undo
    call_command("restore", str(tmp_path / "club.backup"), "--yes")
    assert f"ledger OK: {rows} rows verified; {hands} hands" in capsys.readouterr().out
    assert not Hand.objects.filter(points=0, outcome="knock").exists()


def test_a_tampered_backup_is_caught_when_checked(played, tmp_path):
    LedgerRow.objects.filter(position=2).update(reason="edited behind the ledger's back")
    with pytest.raises(CommandError, match="does not verify"):
        call_command("backup", str(tmp_path / "club.backup"), "--check")


def test_restore_asks_for_yes_before_replacing_everything(tmp_path):
    with pytest.raises(CommandError, match="--yes"):
        call_command("restore", str(tmp_path / "club.backup"))
