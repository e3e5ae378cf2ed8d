"""The tournaments' services, pure pairing words and jobs in Italian (issue 13): refusals,
a standings line's "why", stored reasons and a background job's words, each worded in the
reader's language while what is stored stays English."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from ginclub.errors import ServiceError
from tests.tournaments.helpers import actor, new_event, play_round
from tournaments import services
from tournaments.models import Job
from tournaments.pairing import (
    MatchRecord,
    PairingError,
    compute_standings,
    explain_standings,
    round_robin,
)
from tournaments.selectors.exports import tournament_archive
from tournaments.translated import error_text, reason_text, worded

NAMES = {1: "Ada", 2: "Ben", 3: "Cleo", 4: "Dev"}


def why_in(language: str) -> dict[str, str]:
    records = [
        MatchRecord(1, 3, 1, 3, 2, 0, 0),
        MatchRecord(2, 4, 2, 3, 2, 0, 0),
        MatchRecord(1, 4, 1, 4, 2, 0, 0),
        MatchRecord(2, 3, 2, 3, 3, 0, 0),
    ]
    lines = compute_standings(sorted(NAMES), records, ("game_win_pct",))
    words = explain_standings(lines, NAMES, ("game_win_pct",))
    with translation.override(language):
        return {NAMES[line.id]: worded(words[line.id]) for line in lines}


def test_a_standings_why_reads_in_italian_and_stays_english_for_english_readers():
    italian = why_in("it")
    assert italian["Ada"] == "Davanti a Ben per % di partite vinte: 7 su 11 contro 6 su 11."
    assert italian["Ben"].startswith("Dietro a Ada per % di partite vinte")
    assert "incontri vinti: 2 contro 0" in italian["Ben"]
    assert not any(word in italian["Ben"] for word in ("Behind", "ahead", "match wins", " of "))
    english = why_in("en")
    assert english["Ada"] == "Ahead of Ben on game-win %: 7 of 11 against 6 of 11."


def test_a_shared_rank_and_a_head_to_head_read_in_italian():
    records = [MatchRecord(1, 2, 1, 2, 0, 50, 0), MatchRecord(3, 4, 3, 2, 0, 50, 0)]
    lines = compute_standings(sorted(NAMES), records, ("game_win_pct", "margin"))
    words = explain_standings(lines, NAMES, ("game_win_pct", "margin"))
    with translation.override("it"):
        ada = worded(words[1])
    assert ada.startswith("È 1° a pari merito con Cleo: pari negli incontri vinti")
    assert "Shares" not in ada and "1st" not in ada


def test_pure_pairing_refusals_and_stored_reasons_read_in_italian():
    with pytest.raises(PairingError) as refused:
        round_robin([1])
    assert refused.value.message == "A round robin needs at least two players."
    with translation.override("it"):
        assert (
            error_text(refused.value)
            == "Un girone all'italiana ha bisogno di almeno due giocatori."
        )
        assert reason_text("score group 2") == "gruppo di punteggio 2"
        assert reason_text("round 1 by club rating: 1 (rated 1512.30) v 3 (unrated)") == (
            "turno 1 per valutazione del club: 1 (valutazione 1512.30) contro 3 (senza valutazione)"
        )
        assert reason_text("set by organiser: Ada asked") == "deciso dall'organizzatore: Ada asked"
        assert reason_text("my own words") == "my own words"  # typed by an organiser
        # a knockout's later rounds, by the tables of the round before (and as drafts
        # before them stored it, by place in the round)
        assert reason_text("winners of tables 1 and 2 of round 3") == (
            "vincenti dei tavoli 1 e 2 del turno 3"
        )
        assert (
            reason_text("the winner of table 2 of round 1 and a player through without playing")
            == "il vincente del tavolo 2 del turno 1 e un giocatore passato senza giocare"
        )
        assert (
            reason_text("a player through without playing and the winner of table 1 of round 1")
            == "un giocatore passato senza giocare e il vincente del tavolo 1 del turno 1"
        )
        assert reason_text("two players through round 1 without playing") == (
            "due giocatori passati dal turno 1 senza giocare"
        )
        assert reason_text("winners of matches 1 and 2") == "vincitori degli incontri 1 e 2"


@pytest.mark.django_db
def test_pairing_a_round_twice_is_refused_in_italian(club, organiser):
    event = new_event(club, organiser, players=4)
    services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    with translation.override("it"), pytest.raises(ServiceError) as refused:
        services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    assert refused.value.code == "round_open"
    message = refused.value.message
    assert message.startswith("Il turno 1 è in stato")
    assert "prima di preparare il prossimo" in message
    assert "close it" not in message and "Round" not in message


@pytest.mark.django_db
def test_a_refused_registration_and_a_bye_refusal_are_in_italian(club, organiser):
    event = new_event(club, organiser, players=["Ada", "Ben", "Cleo"])
    with translation.override("it"), pytest.raises(ServiceError) as refused:
        services.add_registration(tournament_id=event.pk, actor=actor(organiser), name="Ada")
    assert refused.value.message == "Ada è già iscritto."


@pytest.mark.django_db
def test_a_jobs_label_failure_and_summary_read_in_the_readers_language(
    club, organiser, django_capture_on_commit_callbacks
):
    event = new_event(club, organiser, players=4, rounds=3)
    play_round(event, organiser)
    archive = json.loads(json.dumps(tournament_archive(event)))
    # Asked by an Italian reader: stored in English all the same.
    with translation.override("it"), django_capture_on_commit_callbacks(execute=True):
        job = services.start_archive_import(club=club, actor=actor(organiser), archive=archive)
    job.refresh_from_db()
    assert job.state == "done" and job.label == "Import of Club Open"
    with translation.override("it"):
        assert services.progress_of(job).label == "Importazione di Club Open"
    with translation.override("en"):
        assert services.progress_of(job).label == "Import of Club Open"

    failed = Job.objects.create(kind="import_archive", club=club, requested_by=None, label="x")
    services.run_job(failed.pk)  # nobody asked for it any more: refused
    failed.refresh_from_db()
    assert failed.state == "failed"
    worker_lost = Job.objects.create(kind="rules_change", club=club, requested_by=organiser)
    services.jobs._fail(
        worker_lost.pk, "worker_lost", services.jobs.Phrase(services.jobs.WORKER_LOST)
    )
    worker_lost.refresh_from_db()
    assert worker_lost.message.startswith("The worker running this job stopped")
    with translation.override("it"):
        shown = services.progress_of(worker_lost).message
    assert shown.startswith("Il processo che eseguiva questa operazione si è fermato")
    assert "nothing was changed" not in shown


@pytest.mark.django_db
def test_a_rules_change_jobs_summary_reads_in_italian(
    club, organiser, django_capture_on_commit_callbacks
):
    event = new_event(club, organiser, players=4, rounds=3)
    play_round(event, organiser)
    with django_capture_on_commit_callbacks(execute=True):
        job = services.start_rules_change(
            tournament_id=event.pk,
            actor=actor(organiser),
            reason="più corto",
            profile="tournament",
            overrides={"game_target": 20, "games_to_win": 2},
        )
    job.refresh_from_db()
    assert job.state == "done", job.message
    assert job.result["summary"].startswith("Rules changed: the whole event: ")
    with translation.override("it"):
        view = services.progress_of(job)
        assert view.summary.startswith("Regole cambiate: tutto il torneo: mani cambiate ")
        assert view.label == "Cambio delle regole di Club Open: più corto"
