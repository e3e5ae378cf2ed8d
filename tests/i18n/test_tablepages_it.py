"""The table's pages in Italian: the match page a seated phone sees, the login and home
pages, the back-in-a-moment page, and the words the match page's scripts show (carried
by the page in a non-executed JSON block that static/js/words.js reads).

English pages carry no such words (the scripts' own English stands), and numbers that
feed code (data-* attributes, form values) are never written the Italian way.
"""

from __future__ import annotations

import html as entities
import json
import re
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.scoring.helpers import seated_phone, start

pytestmark = pytest.mark.django_db

IT = {"HTTP_ACCEPT_LANGUAGE": "it"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}
WORDS = re.compile(r'<script type="application/json" data-words>(.*?)</script>', re.S)


@pytest.fixture
def match(db):
    club = ClubFactory()
    organiser = UserFactory()
    club.organisers.add(organiser)
    alice = PlayerFactory(club=club, name="Alice")
    bob = PlayerFactory(club=club, name="Bob")
    return start(club, alice, bob, organiser)


def words_of(page: str) -> dict:
    """The scripts' words the page carries (every block, as words.js merges them)."""
    found = {}
    for block in WORDS.findall(page):
        found.update(json.loads(block))
    found.pop("", None)
    return found


def visible(page: str) -> str:
    """The page without its JSON word blocks (their keys are the scripts' English)."""
    return entities.unescape(WORDS.sub("", page))


def test_the_match_page_speaks_italian_to_a_seated_phone(match):
    page = seated_phone(match, match.player_a, **IT).get(f"/matches/{match.pk}/").content.decode()
    text = visible(page)
    for italian in (
        "Registra la mano 1",
        "Salva la mano 1",
        "Chi ha bussato?",
        "Anteprima punteggio",
        "Carta per carta",
        "Alice vs Bob",
        "Ancora nessuna mano.",
    ):
        assert italian in text, italian
    for english in (
        "Enter hand",
        "Save hand",
        "Who knocked",
        "Preview score",
        "Card by card",
        "No hands yet",
        "Take 10 from",
        "How to enter the hand",
        "opponent confirms each hand",
    ):
        assert english not in text, english


def test_the_match_page_carries_the_scripts_words_in_italian(match):
    page = seated_phone(match, match.player_a, **IT).get(f"/matches/{match.pk}/").content.decode()
    words = words_of(page)
    assert words["Save hand {number}"] == "Salva la mano {number}"
    assert words["{n} hand"] == ["{n} mano", "{n} mani"]
    assert words["{list} waiting to send"] == "{list} in attesa di invio"
    assert words["Choose who knocked ({names}) before saving: nothing was kept."].startswith(
        "Scegli chi ha bussato ({names})"
    )
    assert words["no cards yet"] == "ancora nessuna carta"
    # every text the block carries is Italian, and keeps the placeholders it fills in
    for english, italian in words.items():
        forms = italian if isinstance(italian, list) else [italian]
        for form in forms:
            assert form != english
            names = set(re.findall(r"\{\w+\}", form))
            assert names == set(re.findall(r"\{\w+\}", english)), (english, form)
    # and the script that reads it is loaded before the scripts that use it
    order = re.findall(r'src="/static/js/(\w+)\.[^"]*js"', page)
    assert order.index("words") < order.index("offline") and order.index("words") < order.index(
        "cards"
    )


def test_an_english_match_page_carries_no_script_words(match):
    page = seated_phone(match, match.player_a, **EN).get(f"/matches/{match.pk}/").content.decode()
    assert WORDS.search(page), "the block is there"
    assert words_of(page) == {}
    assert "Save hand 1" in page and "Salva" not in page


def test_the_login_page_in_italian():
    text = visible(Client(**IT).get("/accounts/login/").content.decode())
    assert "Accedi" in text and "Nome utente" in text
    assert "Username" not in text and "<h1>Log in</h1>" not in text


def test_the_home_page_in_italian():
    text = visible(Client(**IT).get("/").content.decode())
    assert "Il segnapunti del gin rummy" in text
    assert "Giocatori: aprite il link" in text and "Documentazione dell'API" in text
    for english in ("Score-keeping", "Players: open", "API documentation", "pairings, standings"):
        assert english not in text, english


def test_a_logged_in_home_page_in_italian(match):
    client = Client(**IT)
    client.force_login(match.club.organisers.get())
    text = visible(client.get("/").content.decode())
    # an organiser reads the club's matches, not their own
    heading = f"Ultimi incontri di {match.club.name}"
    assert "I tuoi club" in text and heading in text and "Alice vs Bob" in text
    assert "Your clubs" not in text and "Latest matches" not in text


def test_the_back_in_a_moment_page_says_its_language():
    with translation.override("it"):
        page = render_to_string(
            "core/unavailable.html", {"code": "unavailable", "message": "", "retry_after": 10}
        )
    assert '<html lang="it">' in page
    assert "Torniamo tra un attimo" in page and "tra 10 secondi" in page
    assert "Back in a moment" not in page


def test_numbers_that_feed_code_are_never_written_the_italian_way(settings):
    settings.USE_THOUSAND_SEPARATOR = True  # 1234 shows as "1.234" in Italian
    hand = SimpleNamespace(
        pk=1234,
        number=1234,
        version=5678,
        state="pending",
        entered_seats=["B"],
        get_state_display="in attesa",
    )
    context = {
        "hand": hand,
        "differ": True,
        "rows": [],
        "entered_by": "Bob",
        "new_key": "k",
        "seat": "A",
        "match": SimpleNamespace(agreement="confirm"),
    }
    with translation.override("it"):
        page = render_to_string("scoring/_hand_clash.html", context)
    assert 'data-hand-number="1234"' in page
    assert 'name="version" value="5678"' in page and 'value="k-c1234"' in page
    assert "Bob ha già registrato la mano 1.234" in page  # words for people are localised
