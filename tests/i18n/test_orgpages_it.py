"""The organiser's pages in Italian (issue 13): a browser that prefers Italian gets the
tournament list, the new tournament form, players, rounds, the dashboard, the standings
and a season ladder in Italian, with none of the English phrases those pages say; the
standings and ladder tables, cached per worker, are cached per language too."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.tournaments.helpers import actor, new_event, play_round
from tournaments import services
from tournaments.services import seasons

pytestmark = pytest.mark.django_db

IT = {"HTTP_ACCEPT_LANGUAGE": "it"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def event(club, organiser):
    """Round 1 played and closed, round 2 published and under way."""
    tournament = new_event(club, organiser, players=4)
    play_round(tournament, organiser)
    rnd = services.draft_round(tournament_id=tournament.pk, actor=actor(organiser))
    services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    return tournament


def page(client, url, **headers):
    response = client.get(url, **(headers or IT))
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def assert_italian(html, italian, english):
    for words in italian:
        assert words in html, words
    for words in english:
        assert words not in html, words


def test_the_tournament_list_and_the_new_tournament_form(org, event):
    html = page(org, reverse("tournaments:list"))
    assert_italian(
        html,
        ["Tornei", "Nuovo torneo", "Importa un archivio", "Impostazioni"],
        ["New tournament", "Import an archive", "Setup</a>", "No tournaments yet"],
    )
    html = page(org, reverse("tournaments:create"))
    assert_italian(html, ["Crea il torneo"], ["Create the tournament", "New tournament"])


def test_the_players_page(org, event):
    html = page(org, reverse("tournaments:players", args=[event.slug]))
    assert_italian(
        html,
        ["Cerca un giocatore", "Scrivi parte di un nome", "iscritti", "Iscrizione tardiva"],
        [
            "Find a player",
            "Type part of a name",
            "Check in everyone",
            "registered ·",
            "would be paired",
            "Late entry",
            "Table PIN for",
            "Yes, withdraw",
            "Organiser pages",
        ],
    )


def test_the_rounds_page(org, event):
    html = page(org, reverse("tournaments:rounds", args=[event.slug]))
    assert_italian(
        html,
        ["Turno 1", "Il turno 2 è in corso", "Apri il pannello", "giocatori da abbinare"],
        ["Round 2 is being played", "Open the dashboard", "player(s) to pair", "planned."],
    )


def test_the_dashboard(org, event):
    html = page(org, reverse("tournaments:dashboard", args=[event.slug]))
    assert_italian(
        html,
        ["Orologio del turno 2", "Chiama il tempo", "Revoca i link di tutti i tavoli", "in gioco"],
        [
            "Round 2 clock",
            "Call time",
            "Start the clock",
            "Revoke table links",
            " playing<",
            "clock not started",
            "Close the round once every table",
            "Table cards",
        ],
    )
    # The polled part keeps polling the same address, whatever the language.
    assert f'hx-get="/tournaments/{event.slug}/manage/dashboard/tables/?round=2"' in html


def test_the_standings_page(org, event):
    html = page(org, reverse("tournaments:standings", args=[event.slug]))
    assert_italian(
        html,
        ["Dopo il turno", "Classifica", "Partite vinte / giocate", "Scarica il CSV"],
        [
            "After round <select",
            "Organisers see everything",
            "Games won / played",
            "Download CSV",
            "Tap a name",
            "then the tie-breaks in order",
        ],
    )


def test_the_cached_standings_table_is_cached_per_language(client, event):
    cache.clear()
    url = reverse("tournaments:standings-table", args=[event.slug])
    english = page(client, url, **EN)
    italian = page(client, url, **IT)
    assert "Games won / played" in english and "Partite vinte / giocate" not in english
    assert "Partite vinte / giocate" in italian and "Games won / played" not in italian
    # and back: the English table was not overwritten by the Italian one
    assert "Games won / played" in page(client, url, **EN)


def test_a_season_and_its_cached_ladder(org, club, organiser, event):
    season = seasons.create_season(
        club=club,
        actor=actor(organiser),
        name="Autunno",
        starts_on=dt.date(2026, 9, 1),
        ends_on=dt.date(2026, 12, 31),
    )
    url = reverse("tournaments:season", args=[club.slug, season.slug])
    english = page(org, url, **EN)
    assert "Counted: " in english and "Match wins / matches played" in english
    html = page(org, url)
    assert_italian(
        html,
        ["Contati: ", "Tornei della stagione", "Incontri vinti / incontri giocati", "Giocatore"],
        [
            "Counted:",
            "tournament match",
            "Tournaments in the season",
            "Match wins / matches played",
            "Download CSV",
            "Change the season",
            "All seasons of",
        ],
    )
    html = page(org, reverse("tournaments:seasons", args=[club.slug]))
    assert_italian(html, ["Nuova stagione", "stagioni"], ["New season", ": seasons"])
