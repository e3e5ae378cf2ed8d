"""The signed tournament archive (docs/audit.md): it carries its ledger rows, the chain
heads and a seal; `verify_archive` checks it without the database and names a changed
row; the import refuses a signed archive changed by hand and still takes unsigned ones.
And a tournament's verification: its own chain and its matches'."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from rest_framework.test import APIClient

from ginclub import checkpoints, ledger, ledger_keys, seals
from ginclub.errors import ServiceError
from scoring.models import Hand, LedgerRow
from tests.factories import ClubFactory
from tests.tournaments.helpers import actor, new_event, play_round, unsigned
from tournaments import selectors, services
from tournaments.selectors.exports import tournament_archive

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(club, organiser):
    event = new_event(club, organiser, players=4, rounds=2)
    play_round(event, organiser)
    return event


def written(archive: dict, tmp_path: Path) -> Path:
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(archive, indent=1), encoding="utf-8")
    return path


def public_key_file(tmp_path: Path) -> Path:
    ledger_keys.signing_key()  # writes its public half beside it
    return ledger_keys.ledger_dir() / ledger_keys.PUBLIC_FILE


def test_the_archive_carries_the_ledger_of_its_event_and_matches_and_their_heads(event):
    archive = tournament_archive(event)
    chains = {row["chain"] for row in archive["ledger"]["rows"]}
    matches = {f"match:{p.match_id}" for r in event.round_set.all() for p in r.pairings.all()}
    assert chains == {event.chain} | matches
    assert archive["ledger"]["heads"] == checkpoints.heads(sorted(chains))
    assert archive["version"] == 2 and archive["seal"]["algorithm"] == "ed25519"


def test_verify_archive_passes_a_fresh_archive_with_the_servers_public_key(event, tmp_path, capsys):
    path = written(tournament_archive(event), tmp_path)
    call_command("verify_archive", str(path), public_key=str(public_key_file(tmp_path)))
    out = capsys.readouterr().out
    fingerprint = seals.fingerprint(ledger_keys.signing_key().public_key())
    assert "archive OK" in out and f"trusted key {fingerprint}" in out


def test_verify_archive_names_a_changed_ledger_row(event, tmp_path, capsys):
    archive = json.loads(json.dumps(tournament_archive(event)))
    row = next(r for r in archive["ledger"]["rows"] if r["action"] == "hand_entered")
    row["after"]["points"] += 10
    with pytest.raises(CommandError):
        call_command("verify_archive", str(written(archive, tmp_path)))
    err = capsys.readouterr().err
    assert f"ledger {row['chain']} row {row['position']} (hand_entered) was changed" in err


def test_verify_archive_names_a_changed_part_and_a_removed_row(event, tmp_path, capsys):
    archive = json.loads(json.dumps(tournament_archive(event)))
    archive["rounds"][0]["pairings"][0]["table"] = 9
    removed = archive["ledger"]["rows"].pop()
    with pytest.raises(CommandError):
        call_command("verify_archive", str(written(archive, tmp_path)))
    err = capsys.readouterr().err
    assert "part 'rounds' was changed after signing" in err
    assert f"{removed['chain']} row {removed['position']}" in err and "removed" in err


def test_verify_archive_refuses_an_archive_resigned_by_another_key(event, tmp_path, capsys):
    archive = json.loads(json.dumps(tournament_archive(event)))
    archive["rounds"][0]["pairings"][0]["table"] = 9
    forged = seals.seal_archive(archive, Ed25519PrivateKey.generate())
    path = written(forged, tmp_path)
    call_command("verify_archive", str(path))  # consistent in itself, under another key...
    with pytest.raises(CommandError):  # ...which the server's public key shows
        call_command("verify_archive", str(path), public_key=str(public_key_file(tmp_path)))
    assert "not by the trusted key" in capsys.readouterr().err


def test_an_archive_is_checked_on_a_machine_without_django_or_a_database(event, tmp_path):
    """`python -m ginclub.seals` imports neither Django nor a database driver."""
    good = written(tournament_archive(event), tmp_path)
    key = public_key_file(tmp_path)
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(settings.BASE_DIR)}
    code = (
        "import sys; from ginclub import seals; assert 'django' not in sys.modules; "
        "sys.exit(seals.main(sys.argv[1:]))"
    )
    check = [sys.executable, "-c", code]
    ok = subprocess.run([*check, str(good), str(key)], env=env, capture_output=True, text=True)
    assert ok.returncode == 0 and "archive OK" in ok.stdout, ok.stderr
    archive = json.loads(good.read_text())
    archive["ledger"]["rows"][0]["reason"] = "forged"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(archive))
    refused = subprocess.run([*check, str(bad), str(key)], env=env, capture_output=True, text=True)
    assert refused.returncode == 1 and archive["ledger"]["rows"][0]["chain"] in refused.stderr


def test_the_import_refuses_a_signed_archive_changed_by_hand_naming_the_change(event, club):
    archive = json.loads(json.dumps(tournament_archive(event)))
    row = archive["ledger"]["rows"][0]
    row["reason"] = "forged"
    other = ClubFactory(name="Elsewhere", slug="elsewhere")
    user = other.organisers.create(username="elsewhere-org")
    with pytest.raises(ServiceError) as caught:
        services.import_archive(club=other, actor=actor(user), archive=archive)
    assert caught.value.code == "bad_archive"
    assert f"{row['chain']} row {row['position']}" in caught.value.message


def test_the_import_still_takes_an_unsigned_archive(event):
    archive = unsigned(json.loads(json.dumps(tournament_archive(event))))
    other = ClubFactory(name="Elsewhere", slug="elsewhere")
    user = other.organisers.create(username="elsewhere-org")
    copy_ = services.import_archive(club=other, actor=actor(user), archive=archive)
    assert copy_.round_set.count() == 1 and selectors.verify_tournament(copy_).ok


def test_a_tournament_verifies_clean_then_names_a_forged_event_row_and_a_hand(event):
    assert selectors.verify_tournament(event).ok
    row = LedgerRow.objects.filter(chain=event.chain).order_by("position")[1]
    LedgerRow.objects.filter(pk=row.pk).update(after={"winner": "Dev"})
    hand = Hand.objects.filter(game__match__pairing__round__tournament=event).first()
    Hand.objects.filter(pk=hand.pk).update(points=hand.points + 1)
    found = selectors.verify_tournament(event)
    assert [(b.chain, b.position) for b in found.breaks] == [(event.chain, row.position)]
    assert [(d.chain, d.field) for d in found.differences][:1] == [
        (f"match:{hand.game.match_id}", "points")
    ]
    assert not found.ok and ledger.verify(event.chain) == found.breaks


def test_the_downloads_of_the_page_and_the_api_verify_as_written(event, organiser, client):
    """Whatever renders it (the page's JSON encoder, the API's renderer), the archive
    downloaded is the archive signed."""
    client.force_login(organiser)
    page = client.get(reverse("tournaments:export-archive", args=[event.slug]))
    api = APIClient()
    api.force_authenticate(organiser)
    response = api.get(f"/api/tournaments/{event.slug}/archive/")
    for body in (page.content, response.content):
        assert seals.archive_problems(json.loads(body)) == []


def test_closing_a_round_checkpoints_the_ledger(
    club, organiser, django_capture_on_commit_callbacks, settings
):
    # Every LEDGER_CHECKPOINT_EVERY-th row (by id) checkpoints too: on PostgreSQL the ids
    # go on from earlier tests, so one of this round's rows could be such a row.
    settings.LEDGER_CHECKPOINT_EVERY = 10**9
    event = new_event(club, organiser, players=4, rounds=2)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(event, organiser, close=False)
    assert not (ledger_keys.ledger_dir() / checkpoints.FILE).exists()
    rnd = event.round_set.get()
    with django_capture_on_commit_callbacks(execute=True):
        services.close_round(round_id=rnd.pk, actor=actor(organiser))
    checkpoint = json.loads((ledger_keys.ledger_dir() / checkpoints.FILE).read_bytes())
    assert checkpoint["heads"][event.chain] == checkpoints.heads([event.chain])[event.chain]
    assert ledger.verify() == []
