"""The scoring app and the core in Italian: refusals over the API and on pages, a chart's
words, the statistics' words, the language a seated phone keeps for its player, and the
polls' ETags, which differ by language (an Italian and an English viewer never share a
304)."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from ginclub.errors import ServiceError, refusal_of
from ginclub.permissions import table_token
from scoring import charts
from scoring.models import Player
from scoring.stats import MonthResults
from scoring.stats.figures import game_figures, hand_figures
from scoring.stats.summaries import Tally
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.scoring.helpers import quick, start, submit

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


@pytest.fixture
def club(db):
    return ClubFactory()


@pytest.fixture
def organiser(club):
    user = UserFactory()
    club.organisers.add(user)
    return user


@pytest.fixture
def alice(club):
    return PlayerFactory(club=club, name="Alice", user=UserFactory(username="alice"))


@pytest.fixture
def bob(club):
    return PlayerFactory(club=club, name="Bob", user=UserFactory(username="bob"))


@pytest.fixture
def match(club, alice, bob, organiser):
    return start(club, alice, bob, organiser)


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def phone_at(match, language: str = "en") -> Client:
    phone = Client(HTTP_ACCEPT_LANGUAGE=language)
    phone.get(f"/t/{table_token(match)}/")
    return phone


# ------------------------------------------------------------------------- refusals


def test_a_wrong_pin_over_the_api_is_refused_in_italian(match, alice):
    response = Client().post(
        f"/api/matches/{match.pk}/seat/",
        {"token": table_token(match), "player": alice.pk, "pin": "0000"},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert response.status_code == 403
    error = response.json()["error"]
    assert error["code"] == "wrong_pin"  # codes stay English
    assert error["message"] == ("PIN sbagliato per Alice: restano 4 tentativi su questo telefono.")


def test_a_wrong_pin_on_the_page_is_refused_in_italian(match, alice):
    phone = phone_at(match, "it")
    response = phone.post(f"/matches/{match.pk}/seat/", {"player": alice.pk, "pin": "0000"})
    assert response.status_code == 403
    page = text(response)
    assert "PIN sbagliato per Alice: restano 4 tentativi su questo telefono." in page
    assert "Wrong PIN" not in page and "tries left" not in page


def test_confirming_your_own_hand_is_refused_in_italian(match, alice):
    hand = submit(match, alice, quick()).hand
    phone = phone_at(match, "it")
    phone.post(f"/matches/{match.pk}/seat/", {"player": alice.pk, "pin": "1234"})
    response = phone.post(
        f"/hands/{hand.pk}/confirm/",
        {"version": hand.version, "idempotency_key": "k-own"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 403
    assert response["X-Refusal"] == "own_entry"
    page = text(response)
    assert "Hai registrato tu questa mano; la conferma il tuo avversario." in page
    assert "You entered this hand" not in page


def test_the_services_refusals_follow_the_active_language(match, alice):
    with translation.override("it"):
        with pytest.raises(ServiceError) as caught:
            submit(match, alice, quick(number=3))
        refusal = refusal_of(caught.value)
    assert refusal.message == "La prossima mano della partita 1 è la mano 1, non la mano 3."
    with translation.override("en-gb"):
        with pytest.raises(ServiceError) as caught:
            submit(match, alice, quick(number=3))
    assert refusal_of(caught.value).message == "The next hand of game 1 is hand 1, not hand 3."


# --------------------------------------------------------------------------- charts


def test_a_chart_speaks_italian():
    with translation.override("it"):
        svg = charts.knock_deadwood([(3, 2), (7, 1)])
        months = charts.results_per_month([MonthResults(date(2026, 1, 1), 2, 1)])
        empty = charts.rating_over_time([])
    assert "Deadwood alla bussata" in svg and "bussate" in svg
    assert "Deadwood when knocking" not in svg and ">knocks<" not in svg
    assert "Incontri vinti e persi ogni mese" in months and "gen 2026" in months
    assert "Vinti" in months and "Persi" in months and "Jan 2026" not in months
    assert "Valutazione del club a fine mese" in empty and "Ancora niente" in empty
    with translation.override("en-gb"):  # English is unchanged
        assert "Deadwood when knocking" in charts.knock_deadwood([(3, 2)])


def test_the_statistics_are_said_in_the_readers_language():
    tally = Tally()
    figures = hand_figures(tally) + game_figures(tally)
    with translation.override("it"):
        labels = [str(f.label) for f in figures]
        assert "Mani vinte" in labels and "Cappotti subiti" in labels
        assert figures[0].text == "ancora nessuno"
        assert figures[0].unit_text == "mani"
    with translation.override("en-gb"):
        assert str(figures[0].label) == "Hands won" and figures[0].text == "none yet"


# ----------------------------------------------------------------- a player's language


def test_a_seated_phone_that_chooses_italian_keeps_it_for_its_player(match, alice):
    phone = phone_at(match, "en")
    phone.post(f"/matches/{match.pk}/seat/", {"player": alice.pk, "pin": "1234"})
    alice.refresh_from_db()
    assert alice.language == ""  # the browser's Accept-Language alone chooses nothing
    response = phone.post("/i18n/setlang/", {"language": "it", "next": f"/matches/{match.pk}/"})
    assert response.status_code == 302 and response.cookies[COOKIE].value == "it"
    alice.refresh_from_db()
    assert alice.language == "it"
    # A fresh request from that phone, even without its cookie and with an English
    # browser, shows the table in Alice's language, and gives the phone its cookie back.
    phone.cookies.pop(COOKIE)
    response = phone.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    page = text(response)
    assert '<html lang="it">' in page
    assert response.cookies[COOKIE].value == "it"
    # The scoreboard it polls speaks Italian too.
    board = phone.get(f"/matches/{match.pk}/scoreboard/", HTTP_ACCEPT_LANGUAGE="en")
    assert board["Content-Language"] == "it"


def test_another_phone_seated_for_the_player_takes_their_language(match, alice, bob):
    Player.objects.filter(pk=alice.pk).update(language="it")
    phone = phone_at(match, "en")
    response = phone.post(f"/matches/{match.pk}/seat/", {"player": alice.pk, "pin": "1234"})
    assert response.status_code == 302 and response.cookies[COOKIE].value == "it"
    page = text(phone.get(response["Location"]))
    assert '<html lang="it">' in page
    assert "Ora questo telefono registra i risultati per Alice." in page
    assert "This phone now enters results" not in page
    # Bob chose nothing: his phone follows its browser.
    other = phone_at(match, "en")
    other.post(f"/matches/{match.pk}/seat/", {"player": bob.pk, "pin": "1234"})
    assert '<html lang="en-gb">' in text(other.get(f"/matches/{match.pk}/"))


def test_a_phone_that_chose_a_language_gives_it_to_the_player_it_sits_for(match, bob):
    phone = phone_at(match, "en")
    phone.cookies[COOKIE] = "it"
    phone.post(f"/matches/{match.pk}/seat/", {"player": bob.pk, "pin": "1234"})
    bob.refresh_from_db()
    assert bob.language == "it"


def test_the_switch_without_a_seat_changes_no_player(match, alice):
    response = Client().post("/i18n/setlang/", {"language": "it", "next": "/"})
    assert response.status_code == 302 and response.cookies[COOKIE].value == "it"
    alice.refresh_from_db()
    assert alice.language == ""


# ---------------------------------------------------------------------------- polls


def test_the_scoreboard_etag_differs_by_language(match, alice):
    phone = phone_at(match, "en")
    url = f"/matches/{match.pk}/scoreboard/"
    english = phone.get(url, HTTP_ACCEPT_LANGUAGE="en")
    italian = phone.get(url, HTTP_ACCEPT_LANGUAGE="it")
    assert english.status_code == italian.status_code == 200
    assert english["ETag"] != italian["ETag"]
    # An Italian viewer holding the English copy gets the Italian one, not a 304.
    again = phone.get(url, HTTP_ACCEPT_LANGUAGE="it", HTTP_IF_NONE_MATCH=english["ETag"])
    assert again.status_code == 200 and again["ETag"] == italian["ETag"]
    same = phone.get(url, HTTP_ACCEPT_LANGUAGE="it", HTTP_IF_NONE_MATCH=italian["ETag"])
    assert same.status_code == 304
