"""The tournament forms, choices, organiser messages, API refusals, the event language
setting and the Italian demo, in Italian (issue 13).

Labels and errors follow the request's language (Accept-Language: it); error codes stay
English; the event language is saved through the settings page and the API; `load_demo
--language it` names the demo in Italian and leaves the English demo as it was.
"""

from __future__ import annotations

import datetime as dt
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import translation

from scoring import services as scoring
from tournaments import selectors, services
from tournaments.forms import CreateTournamentForm, TournamentForm
from tournaments.models import Job, Round, Season, Tournament
from tournaments.season_forms import SeasonForm

pytestmark = pytest.mark.django_db

IT = {"HTTP_ACCEPT_LANGUAGE": "it"}


@pytest.fixture
def event(club, organiser) -> Tournament:
    return services.create_tournament(
        club=club,
        actor=scoring.Actor(user=organiser),
        name="Club Open",
        date=dt.date(2026, 11, 28),
    )


def absent(text: str, *english: str) -> None:
    left = [phrase for phrase in english if phrase in text]
    assert not left, f"English left in Italian: {left}"


def test_the_tournament_form_speaks_italian_labels_help_and_errors(club):
    with translation.override("it"):
        form = CreateTournamentForm(
            {"club": club.slug, "name": "Open", "date": "domani", "overrides": "nonsense"},
            clubs=[club],
        )
        assert not form.is_valid()
        labels = {name: str(field.label) for name, field in form.fields.items()}
        assert labels["name"] == "Nome" and labels["format"] == "Formula"
        assert labels["rounds"] == "Turni del sistema svizzero"
        assert labels["language"] == "Lingua del torneo"
        assert "cartellini dei tavoli" in str(form.fields["language"].help_text)
        assert labels["tiebreak_1"] == "Spareggio 1"
        assert labels["rule_gin_bonus"] == "Bonus Gin"
        assert form.errors["date"] == ["Scrivi la data come AAAA-MM-GG."]
        assert form.non_field_errors()[0].startswith("Riga 1 ('nonsense'): scrivi un'opzione")
        profiles = dict(form.fields["profile"].choices)
        assert "Turni di circa" in profiles["tournament"]
        shown = " ".join([*labels.values(), *(str(f.help_text) for f in form.fields.values())])
    absent(shown, "Swiss rounds", "Event language", "Rule profile", "Tie-break", "Round length")


def test_a_season_form_names_its_problems_in_italian(club):
    with translation.override("it"):
        form = SeasonForm(
            {
                "name": "Inverno",
                "starts_on": "2026-12-31",
                "ends_on": "2026-12-01",
                "events": "all",
                "points_per_win": 1,
                "min_matches": 0,
            }
        )
        assert not form.is_valid()
        assert form.errors["ends_on"] == [
            "La stagione finisce (2026-12-01) prima di cominciare (2026-12-31)."
        ]
        assert str(form.fields["min_matches"].label) == "Incontri per entrare in classifica"


def test_choices_are_labelled_in_italian_and_stay_english_by_default():
    with translation.override("it"):
        assert dict(Tournament.Format.choices) == {
            "round_robin": "girone all'italiana",
            "swiss": "sistema svizzero",
            "elimination": "eliminazione diretta",
            "swiss_cut": "sistema svizzero con fase finale",
        }
        assert str(Tournament.State.RUNNING.label) == "in corso"
        assert str(Round.State.DRAFT.label) == "bozza"
        assert str(Job.State.DONE.label) == "completata"
        assert str(Season.Events.CHOSEN.label) == "solo i tornei scelti"
        form = TournamentForm()
        assert dict(form.fields["cut_size"].choices)[0] == "nessuna fase finale"
    with translation.override("en-gb"):
        assert str(Tournament.Format.ROUND_ROBIN.label) == "round robin"
        assert str(Tournament.FirstRound.RANDOM.label) == "at random (a recorded draw)"


def test_an_api_refusal_is_in_italian_with_its_code_unchanged(client, event):
    response = client.get("/api/tournaments/no-such-event/", **IT)
    assert response.status_code == 404
    error = response.json()["error"]
    assert (error["code"], error["message"]) == ("not_found", "Questo torneo non esiste.")
    response = client.post(
        "/api/tournaments/", data=json.dumps({}), content_type="application/json", **IT
    )
    error = response.json()["error"]
    assert error["code"] == "not_allowed"
    assert error["message"] == "Accedi come organizzatore per creare un torneo."
    english = client.get("/api/tournaments/no-such-event/").json()["error"]
    assert english["message"] == "No such tournament."


def test_the_event_language_is_saved_through_the_settings_page(org, event):
    url = f"/tournaments/{event.slug}/manage/"
    page = org.get(url, **IT).content.decode()
    assert "Lingua del torneo" in page and "La lingua dell&#x27;organizzatore" in page
    response = org.post(
        url,
        {
            "name": "Club Open",
            "date": "2026-11-28",
            "profile": "tournament",
            "format": "swiss",
            "rounds": 5,
            "cut_size": 0,
            "bye_games": 3,
            "bye_points": 0,
            "agreement": event.agreement,
            "hide_last_rounds": 0,
            "public": "on",
            "language": "it",
            "tiebreak_1": "head_to_head",
        },
        follow=True,
        **IT,
    )
    assert "Impostazioni salvate." in response.content.decode()
    event.refresh_from_db()
    assert event.language == "it"
    assert services.settings_of(event)["language"] == "it"


def test_the_api_reads_and_sets_the_event_language(org, event):
    response = org.patch(
        f"/api/tournaments/{event.slug}/",
        data=json.dumps({"language": "it"}),
        content_type="application/json",
    )
    assert response.status_code == 200 and response.json()["language"] == "it"
    refused = org.patch(
        f"/api/tournaments/{event.slug}/",
        data=json.dumps({"language": "xx"}),
        content_type="application/json",
    )
    assert refused.status_code == 400


def test_organiser_messages_and_worded_values_in_italian(org, event):
    services.add_registration(
        tournament_id=event.pk, actor=scoring.Actor(user=event.created_by), name="Ada"
    )
    response = org.post(
        f"/tournaments/{event.slug}/manage/players/check-in-all/", follow=True, **IT
    )
    assert "1 giocatore segnato presente: Ada." in response.content.decode()
    refused = org.get(f"/tournaments/{event.slug}/manage/standings/?round=x", **IT)
    assert refused.status_code == 400
    assert "Il turno: serve un numero intero, non &#x27;x&#x27;." in refused.content.decode()
    with translation.override("it"):
        view = selectors.StandingsView(event, [], (), None, 3, rounds_closed=2)
        assert view.caption == "Dopo il turno 2, con i tavoli del turno 3 finiti finora."


def test_load_demo_in_italian_names_the_demo_in_italian():
    call_command("load_demo", "--language", "it", stdout=StringIO())
    tournament = Tournament.objects.get(state="running")
    assert (tournament.name, tournament.venue, tournament.language) == (
        "Open dimostrativo",
        "Sala del club",
        "it",
    )
    assert tournament.club.name == "Gin Club dimostrativo"
    assert tournament.club.seasons.get().name == "Stagione dimostrativa"
    finished = Tournament.objects.get(state="finished")
    assert (finished.name, finished.language) == ("Coppa d'autunno dimostrativa", "it")
    call_command("load_demo", stdout=StringIO())  # loaded once, whatever the language
    assert Tournament.objects.count() == 2


def test_load_demo_by_default_is_the_english_demo():
    call_command("load_demo", stdout=StringIO())
    tournament = Tournament.objects.get(state="running")
    assert (tournament.name, tournament.venue, tournament.language) == (
        "Demo Open",
        "Club room",
        "",
    )
    assert tournament.club.name == "Demo Gin Club"
    assert tournament.club.seasons.get().name == "Demo season"
