"""Words kept English in what is stored or cached, shown in Italian where a page or the API
shows them (issue 13): a standings line's why and head-to-head, a pairing's reason and
the reason a result was decided for, a background job's label, failure and summary, a
statistic's unit; the bracket names a bye box's seed; an event's language is checked.
English readers see the English they saw before."""

from __future__ import annotations

import datetime as dt
import html as entities
import json
import re

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from ginclub.errors import ServiceError
from tests.factories import PlayerFactory, UserFactory
from tests.scoring.helpers import play_hand, quick, start
from tests.tournaments.helpers import actor, new_event, play_round, reg, unsigned
from tournaments import services
from tournaments.models import Job
from tournaments.selectors.exports import tournament_archive
from tournaments.selectors.standings import _named

pytestmark = pytest.mark.django_db

IT = {"HTTP_ACCEPT_LANGUAGE": "it"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
TIME_REASON = "time was called and P01 led on games"


def words(response) -> str:
    assert response.status_code == 200, response.status_code
    return entities.unescape(
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))
    )


def absent(text: str, *english: str) -> None:
    left = [phrase for phrase in english if phrase in text]
    assert not left, f"English left in the Italian page: {left}"


def url(name: str, event, *args) -> str:
    return reverse(f"tournaments:{name}", args=[event.slug, *args])


# ---------------------------------------------------------------- standings


def test_a_standings_lines_why_reads_in_the_readers_language(org, club, organiser):
    event = new_event(club, organiser, players=4)
    play_round(event, organiser)  # P01 and P03 win
    italian = words(org.get(url("standings", event), **IT))
    assert "davanti a P02" in italian
    absent(italian, "Shares 1st", "ahead of P02", "match wins")
    # the lines are cached (by version and language): English is still English
    english = words(org.get(url("standings", event), **EN))
    assert "Shares 1st with P03" in english and "ahead of P02 on match wins" in english
    # the public table, its own cached fragment
    italian = words(org.get(url("standings-table", event), **IT))
    assert "davanti a P02" in italian and "ahead of" not in italian


def test_my_event_says_why_a_player_stands_there_in_italian(client, club, organiser):
    event = new_event(club, organiser, players=4)
    play_round(event, organiser)
    text = words(client.get(url("player-event", event, reg(event, "P02").pk), **IT))
    absent(text, "Shares 3rd", "behind P03")


def test_a_head_to_head_note_is_worded_for_the_reader():
    note = _named("beat #7", {7: {"player__name": "Ada"}})
    assert note == "beat Ada"  # stored and compared as English
    shown = Template("{% load tournament_extras %}{{ note|worded }}")
    with translation.override("it"):
        assert shown.render(Context({"note": note})) == "ha battuto Ada"
        lost = _named("lost to #7", {7: {"player__name": "Ada"}})
        assert shown.render(Context({"note": lost})) == "ha perso contro Ada"
    with translation.override("en"):
        assert shown.render(Context({"note": note})) == "beat Ada"


# ---------------------------------------------------------- pairing reasons


def test_a_draft_rounds_pairing_reasons_read_in_italian(org, club, organiser):
    event = new_event(club, organiser, players=4)
    play_round(event, organiser)
    services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    italian = words(org.get(url("rounds", event), **IT))
    assert "gruppo di punteggio 1" in italian and "gruppo di punteggio 0" in italian
    absent(italian, "score group")
    assert "score group 1" in words(org.get(url("rounds", event), **EN))


def test_a_results_stored_reason_reads_in_italian_on_the_organisers_pages(org, club, organiser):
    event = new_event(club, organiser, players=4)
    rnd = play_round(event, organiser, play=False, close=False)
    table = rnd.pairings.order_by("position").first()
    services.record_result(
        pairing_id=table.pk, actor=actor(organiser), winner="A", reason=TIME_REASON
    )
    italian_reason = "tempo scaduto e P01 era avanti nelle partite"
    for page in (url("dashboard", event), url("result", event, table.pk)):
        italian = words(org.get(page, **IT))
        assert italian_reason in italian, page
        absent(italian, TIME_REASON)
        assert TIME_REASON in words(org.get(page, **EN)), page
    # the corrections page's results set by hand (its ledger rows stay as written)
    by_hand = by_hand_list(org.get(url("corrections", event), **IT))
    assert italian_reason in by_hand and TIME_REASON not in by_hand
    assert TIME_REASON in by_hand_list(org.get(url("corrections", event), **EN))
    # a reason the organiser typed stays as typed
    other = rnd.pairings.order_by("position").last()
    services.record_result(
        pairing_id=other.pk, actor=actor(organiser), winner="B", reason="Ben è andato via"
    )
    assert "Ben è andato via" in by_hand_list(org.get(url("corrections", event), **IT))


def by_hand_list(response) -> str:
    html = response.content.decode()
    start = html.index('data-testid="results-by-hand"')
    return entities.unescape(html[start : html.index("</ul>", start)])


# ---------------------------------------------------------------------- jobs


def test_a_jobs_label_and_summary_on_its_page_and_in_the_api(
    org, club, organiser, django_capture_on_commit_callbacks
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
    italian = words(org.get(reverse("tournaments:job", args=[job.pk]), **IT))
    assert "Cambio delle regole di Club Open: più corto" in italian
    assert "Regole cambiate: tutto il torneo" in italian
    absent(italian, "Rules change of", "Rules changed:")
    settings = words(org.get(url("settings", event), **IT))
    assert "Cambio delle regole di Club Open" in settings and "Rules changed:" not in settings
    english = words(org.get(reverse("tournaments:job", args=[job.pk]), **EN))
    assert job.label in english and "Rules changed: the whole event" in english

    api = APIClient()
    api.force_login(organiser)
    body = api.get(f"/api/jobs/{job.pk}/", **IT).json()
    assert body["label"] == "Cambio delle regole di Club Open: più corto"
    assert body["result"]["summary"].startswith("Regole cambiate: tutto il torneo")
    body = api.get(f"/api/jobs/{job.pk}/", **EN).json()
    assert body["label"] == job.label and body["result"] == job.result


def test_a_failed_jobs_message_in_the_api_and_on_its_page(org, club, organiser):
    job = Job.objects.create(kind="rules_change", club=club, requested_by=organiser)
    services.jobs._fail(job.pk, "worker_lost", services.jobs.Phrase(services.jobs.WORKER_LOST))
    job.refresh_from_db()
    italian = words(org.get(reverse("tournaments:job", args=[job.pk]), **IT))
    assert "Il processo che eseguiva questa operazione si è fermato" in italian
    absent(italian, "The worker running this job stopped")
    api = APIClient()
    api.force_login(organiser)
    error = api.get(f"/api/jobs/{job.pk}/", **IT).json()["error"]
    assert error["code"] == "worker_lost"
    assert error["message"].startswith("Il processo che eseguiva questa operazione")
    error = api.get(f"/api/jobs/{job.pk}/", **EN).json()["error"]
    assert error["message"] == job.message


# ------------------------------------------------------------------- bracket


def test_a_semi_final_fed_by_a_bye_waits_for_its_seed(client, club, organiser):
    event = new_event(club, organiser, players=6, format="elimination")
    italian = words(client.get(url("bracket", event), **IT))
    assert "Testa di serie 1" in italian and "Testa di serie 2" in italian
    absent(italian, "None", "Seed 1", "Winner of match")
    english = words(client.get(url("bracket", event), **EN))
    assert "Winner of match None" not in english and "Seed 1" in english


# ------------------------------------------------------------ event language


def test_an_unknown_event_language_is_refused_in_italian(club, organiser):
    with translation.override("it"), pytest.raises(ServiceError) as refused:
        services.create_tournament(
            club=club, actor=actor(organiser), name="X", date=dt.date(2026, 11, 28), language="fr"
        )
    assert refused.value.message == (
        "language: deve essere uno tra en-gb, it, oppure vuoto (nessuna scelta)"
    )


def test_an_archive_without_an_event_language_imports(club, organiser):
    event = new_event(club, organiser, players=4)
    play_round(event, organiser)
    # an archive written before the setting existed, so before archives were signed
    archive = unsigned(json.loads(json.dumps(tournament_archive(event))))
    del archive["tournament"]["language"]
    copy_ = services.import_archive(club=club, actor=actor(organiser), archive=archive)
    assert copy_.language == ""


# ------------------------------------------------------------ rules, units


def test_the_settings_page_names_the_rule_options_in_italian(org, club, organiser):
    event = new_event(club, organiser, players=4)
    html = org.get(url("settings", event), **IT).content.decode()
    assert "<dt>obiettivo della partita</dt><dd>25</dd>" in html
    assert "<dt>set di regole</dt><dd>torneo</dd>" in html
    assert "<dt>Oklahoma</dt><dd>no</dd>" in html and "<dt>cappotto</dt>" in html
    for code in ("game_target", "knock_limit", "shutout_bonus", "next_dealer"):
        assert f"<dt>{code}</dt>" not in html, code
    absent(html, "<dd>False</dd>", "<dd>True</dd>", "<dd>alternate</dd>")
    english = org.get(url("settings", event), **EN).content.decode()
    assert "<dt>game target</dt><dd>25</dd>" in english and "<dd>no</dd>" in english
    assert "<dt>rule set</dt><dd>tournament</dd>" in english
    for code in ("game_target", "knock_limit", "shutout_bonus", "next_dealer"):
        assert f"<dt>{code}</dt>" not in english, code


def test_the_rules_preview_names_options_and_outcomes_in_italian(org, club, organiser):
    event = new_event(club, organiser, players=4, rounds=3)
    play_round(event, organiser)
    data = {
        "profile": "tournament",
        "rule_game_target": "20",
        "rule_games_to_win": "2",
        "rule_layoffs": "false",
        "reason": "più corto",
        "preview": "1",
    }
    html = org.post(url("rules-change", event), data, **IT).content.decode()
    assert "<strong>obiettivo della partita</strong>: 25 → 20" in html, html[-3000:]
    assert "<strong>carte attaccate</strong>: sì → no" in html
    absent(html, "<strong>game_target</strong>", "True → False")
    english = org.post(url("rules-change", event), data, **EN).content.decode()
    assert "<strong>game target</strong>: 25 → 20" in english
    assert "<strong>lay-offs</strong>: yes → no" in english


def test_a_hand_outcome_code_is_worded_for_the_reader():
    shown = Template("{% load tournament_extras %}{{ a|outcome_code }} → {{ b|outcome_code }}")
    context = Context({"a": "knock", "b": "big_gin"})
    with translation.override("it"):
        assert shown.render(context) == "bussata → Big Gin"
    with translation.override("en"):
        assert shown.render(context) == "knock → big_gin"


def test_a_statistics_unit_on_the_player_page_is_italian(client, club, organiser):
    alice = PlayerFactory(club=club, name="Alice", user=UserFactory(username="alice"))
    bob = PlayerFactory(club=club, name="Bob", user=UserFactory(username="bob"))
    match = start(club, alice, bob, organiser, overrides={"game_target": 50})
    play_hand(match, alice, bob, quick(1, kd=4, dd=30))
    play_hand(match, alice, bob, quick(2, kd=2, dd=40))
    client.force_login(organiser)
    page = reverse("scoring:player", args=[alice.pk])
    italian = words(client.get(page, **IT))
    assert "su 2 mani" in italian and "su 1 partita" in italian
    absent(italian, "from 2 hands", " hands ", "from 1 games")
    english = words(client.get(page, **EN))
    assert "from 2 hands" in english and "from 1 games" in english


def test_the_tournament_ledger_names_settings_and_rule_options_in_italian(org, club, organiser):
    event = new_event(club, organiser, players=4)
    play_round(event, organiser)
    italian = words(org.get(url("corrections", event), **IT))
    assert "limite per bussare 10" in italian and "obiettivo della partita 25" in italian
    assert "minuti per turno" in italian and "presenza richiesta no" in italian
    absent(italian, "knock limit", "game target", "round minutes", "check in required")
    english = words(org.get(url("corrections", event), **EN))
    assert "knock limit 10" in english and "round minutes" in english
