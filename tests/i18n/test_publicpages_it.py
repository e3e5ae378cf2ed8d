"""The public pages, My event, the projector, the bracket and the printables in Italian.

Pages follow the browser (Accept-Language: it); printed table cards, score sheets,
standings and brackets follow the event's language when it has one, whoever prints them,
and say so in Content-Language. Numbers that feed code (classes, addresses, the QR
codes' SVG) are never written the Italian way ("1,5").

Six players seeded P06 (seed 1) down to P01 (seed 6) make an elimination bracket of 8
(tests.tournaments.test_bracket_pages); four players in list order pair P01 v P02 at
table 1 (tests.tournaments.helpers).
"""

from __future__ import annotations

import html as entities
import re

import pytest
from django.urls import reverse

from tests.tournaments.helpers import actor, new_event, play_round, reg
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

IT = {"HTTP_ACCEPT_LANGUAGE": "it"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}


def get(client, name, event, *args, query="", **headers):
    return client.get(reverse(f"tournaments:{name}", args=[event.slug, *args]) + query, **headers)


def words(response) -> str:
    """The page's text without tags, spaces squeezed."""
    return entities.unescape(
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))
    )


def absent(text: str, *english: str) -> None:
    left = [phrase for phrase in english if phrase in text]
    assert not left, f"English left in the Italian page: {left}"


def comma_numbers_in_tags(html: str) -> list[str]:
    """Tags (attributes, SVG coordinates) holding a number written the Italian way."""
    return [tag for tag in re.findall(r"<[^>]+>", html) if re.search(r"\d,\d", tag)]


def seeded_six(club, organiser) -> Tournament:
    event = new_event(club, organiser, players=6, format="elimination")
    for seed, name in enumerate(["P06", "P05", "P04", "P03", "P02", "P01"], start=1):
        services.set_seed(registration_id=reg(event, name).pk, actor=actor(organiser), seed=seed)
    return event


def running_four(club, organiser) -> Tournament:
    event = new_event(club, organiser, players=4)
    rnd = play_round(event, organiser, play=False, close=False)
    services.start_round_timer(round_id=rnd.pk, actor=actor(organiser))
    return event


def with_language(event: Tournament, language: str) -> Tournament:
    Tournament.objects.filter(pk=event.pk).update(language=language)
    event.refresh_from_db()
    return event


# ------------------------------------------------------------------ public pages


def test_the_public_pairings_page_in_italian(client, club, organiser):
    event = running_four(club, organiser)
    response = get(client, "public", event, **IT)
    assert response.status_code == 200
    html = response.content.decode()
    text = words(response)
    assert '<html lang="it">' in html
    assert "Club Open · abbinamenti" in text  # the title
    assert "Abbinamenti" in text and "Classifica" in text and "Il mio torneo" in text
    assert "Trova il tuo tavolo: giocatori dalla A alla Z" in text
    assert "tavolo 1 contro P02" in text
    assert "Sul tuo telefono" in text and "apri Il mio torneo" in text
    absent(text, "Find your table", "On your phone", "open My event", "Projector", "Standings")
    assert ">My event<" not in html and "QR code: My event" not in html
    assert "Codice QR: Il mio torneo" in html  # the QR code's title
    assert comma_numbers_in_tags(html) == []  # the QR code's SVG too


def test_the_public_standings_in_italian(client, club, organiser):
    event = new_event(club, organiser, players=4)
    play_round(event, organiser)
    text = words(get(client, "public-standings", event, **IT))
    assert "Club Open · classifica" in text and "Classifica" in text
    absent(text, "Final standings", "Pairings", "Bracket")


def test_the_projector_speaks_the_viewers_language_and_its_poll_keeps_them_apart(
    client, club, organiser
):
    event = running_four(club, organiser)
    response = get(client, "projector", event, **IT)
    html = response.content.decode()
    text = words(response)
    assert '<html lang="it">' in html and '<html lang="en">' not in html
    assert "Club Open · proiettore" in text
    assert "Turno 1" in text and "rimanenti" in text
    assert "Abbinamenti del turno 1" in text and "Tavolo Giocatore Partite Giocatore" in text
    absent(text, "Round 1 pairings", " left", "Player", "Standings")
    # an English poll's answer is never a 304 for an Italian viewer
    english = get(client, "projector-board", event, **EN)
    assert "Round 1 pairings" in words(english)
    italian = get(client, "projector-board", event, HTTP_IF_NONE_MATCH=english["ETag"], **IT)
    assert italian.status_code == 200 and "Abbinamenti del turno 1" in words(italian)


def test_my_event_and_its_name_list_in_italian(client, club, organiser):
    event = running_four(club, organiser)
    text = words(get(client, "player-choose", event, **IT))
    assert "Chi sei?" in text and "Cerca giocatori" in text
    assert (
        'placeholder="Scrivi un nome"' in get(client, "player-choose", event, **IT).content.decode()
    )
    absent(text, "Who are you?", "Search players", "No player by that name")

    response = get(client, "player-event", event, reg(event, "P02").pk, **IT)
    text = words(response)
    assert "Tavolo 1 contro P01" in text
    assert "Partite 0–0 (prima le tue)" in text
    assert "Il punteggio del tavolo 1, mano per mano" in text
    assert "La mia posizione" in text and "I miei risultati" in text
    assert "Questa pagina si aggiorna da sola." in text
    absent(text, "My standing", "My results", "hand by hand", "(you first)", " left")


def test_my_event_after_a_win_counts_in_italian(client, club, organiser):
    event = new_event(club, organiser, players=4)
    play_round(event, organiser)  # P01 and P03 win 2-0
    text = words(get(client, "player-event", event, reg(event, "P01").pk, **IT))
    assert "1 vittoria su 1 incontro" in text and "partite 2/2" in text
    assert re.search(r"[12]° su 4", text)
    assert "vinto" in text
    absent(text, " win from ", " of 4", "won")


def test_a_knocked_out_player_reads_why_in_italian(client, club, organiser):
    event = seeded_six(club, organiser)
    play_round(event, organiser, {"P03": "2-0", "P01": "2-1"})
    text = words(get(client, "player-event", event, reg(event, "P04").pk, **IT))
    assert "Fuori dal tabellone: hai perso contro P01 al turno 1." in text


# ---------------------------------------------------------------------- bracket


def test_the_bracket_in_italian_before_and_after_round_one(client, club, organiser):
    event = seeded_six(club, organiser)
    response = get(client, "bracket", event, **IT)
    text = words(response)
    assert "Quarti di finale" in text and "Semifinali" in text and "Finale" in text
    assert "Testa di serie 4" in text and "Vincente dell'incontro 3" in text
    assert "Le teste di serie vengono assegnate quando si pubblica il turno 1." in text
    assert "Testa di serie 1" in text  # a semi-final fed by a bye box waits for its seed
    absent(text, "Quarter-finals", "Semi-finals", "Seed 4", "Winner of match 3", "Match 1")
    assert comma_numbers_in_tags(response.content.decode()) == []

    play_round(event, organiser, {"P03": "2-0", "P01": "2-1"})
    play_round(event, organiser, {"P06": "2-0"}, play=False, close=False)
    text = words(get(client, "bracket-board", event, **IT))
    assert text.count("Riposo") == 2
    assert "Vincente del tavolo 1" in text and "P01 , passa il turno" in text
    absent(text, "Bye", "Winner of table", ", through", "playing")


def test_the_bracket_chart_writes_no_comma_decimals(client, club, organiser):
    """The chart's numbers feed classes and links; under Italian formats none reads "1,5"
    (an SVG or attribute with "x=12,5" would break)."""
    event = seeded_six(club, organiser)
    play_round(event, organiser, {"P03": "2-0", "P01": "2-1"})
    for name in ("bracket", "bracket-board", "bracket-print", "projector"):
        html = get(client, name, event, **IT).content.decode()
        assert comma_numbers_in_tags(html) == [], name
        assert 'class="bracket rounds-3"' in html, name


def test_a_format_without_a_bracket_is_refused_in_italian(client, club, organiser):
    event = new_event(club, organiser, players=4)
    response = get(client, "bracket", event, **IT)
    assert response.status_code == 404
    assert "non ha un tabellone" in words(response)


# --------------------------------------------------------------------- printables


def test_an_italian_event_prints_in_italian_for_an_english_browser(org, club, organiser):
    event = with_language(running_four(club, organiser), "it")
    cards = get(org, "print-cards", event, **EN)
    assert cards["Content-Language"] == "it"
    text = words(cards)
    assert "Tavolo 1" in text and "Club Open · turno 1" in text and "P01 contro P02" in text
    assert '<html lang="it">' in cards.content.decode()
    absent(text, "Table cards", "Table 1", "round 1")
    assert comma_numbers_in_tags(cards.content.decode()) == []  # the QR codes' SVG

    sheets = get(org, "print-sheets", event, **EN)
    assert sheets["Content-Language"] == "it"
    text = words(sheets)
    assert "Deadwood di chi bussa" in text and "Partita 1" in text and "Mazziere" in text
    absent(text, "Knocker's deadwood", "Dealer", "Signatures", "Initials")

    standings = get(org, "print-standings", event, **EN)
    assert standings["Content-Language"] == "it"
    assert "Classifica dopo il turno" in words(standings)


def test_an_english_event_prints_in_english_for_an_italian_browser(org, club, organiser):
    event = with_language(running_four(club, organiser), "en-gb")
    cards = get(org, "print-cards", event, **IT)
    assert cards["Content-Language"] == "en-gb"
    assert "Table 1" in words(cards) and "Tavolo" not in words(cards)
    sheets = get(org, "print-sheets", event, **IT)
    assert "Knocker's deadwood" in words(sheets) and "Mazziere" not in words(sheets)


def test_an_event_without_a_language_prints_in_the_viewers(org, club, organiser):
    event = running_four(club, organiser)
    assert event.language == ""
    italian = get(org, "print-cards", event, **IT)
    assert italian["Content-Language"] == "it" and "Tavolo 1" in words(italian)
    english = get(org, "print-cards", event, **EN)
    assert english["Content-Language"] == "en-gb" and "Table 1" in words(english)


def test_the_bracket_print_follows_the_events_language(client, club, organiser):
    event = with_language(seeded_six(club, organiser), "it")
    response = get(client, "bracket-print", event, **EN)
    assert response["Content-Language"] == "it"
    text = words(response)
    assert "Tabellone provvisorio" in text and "Quarti di finale" in text
    absent(text, "Bracket as it stands", "Quarter-finals", "Paper:")
