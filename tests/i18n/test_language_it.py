"""Which language a page speaks: the browser's Accept-Language, else English; the switch on
every page keeps a choice in a cookie; the offline worker carries both languages."""

from __future__ import annotations

import json

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_english_by_default_and_italian_for_a_browser_that_prefers_it():
    english = Client().get("/accounts/login/")
    assert '<html lang="en-gb">' in english.content.decode()
    assert "Italiano" in english.content.decode()  # the switch offers the other language
    italian = Client().get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="it-IT,it;q=0.9,en;q=0.5")
    body = italian.content.decode()
    assert '<html lang="it">' in body
    assert "Accedi" in body and "Log in" not in body
    assert "English" in body  # and back
    assert "Accept-Language" in italian["Vary"]


def test_the_switch_keeps_the_choice_in_a_cookie_over_the_browser_preference():
    client = Client(HTTP_ACCEPT_LANGUAGE="en-GB")
    client.get("/accounts/login/")
    answer = client.post("/i18n/setlang/", {"language": "it", "next": "/accounts/login/"})
    assert answer.status_code == 302 and answer["Location"] == "/accounts/login/"
    assert client.cookies["django_language"].value == "it"
    assert "Accedi" in client.get("/accounts/login/").content.decode()
    client.post("/i18n/setlang/", {"language": "en-gb", "next": "/"})
    assert "Log in" in client.get("/accounts/login/").content.decode()


def test_an_unknown_language_or_a_foreign_next_changes_nothing_and_goes_home():
    client = Client()
    answer = client.post("/i18n/setlang/", {"language": "xx", "next": "https://evil.example/"})
    assert answer.status_code == 302 and answer["Location"] == "/"
    assert "django_language" not in client.cookies


def test_the_offline_page_of_the_worker_comes_in_every_language():
    first_line = Client().get("/sw.js").content.decode().split("\n", 1)[0]
    config = json.loads(first_line.removeprefix("self.GINCLUB = ").removesuffix(";"))
    assert config["offline"]["en-gb"]["heading"] == "No connection"
    assert config["offline"]["it"]["heading"] == "Nessuna connessione"
    assert "Wi-Fi" in config["offline"]["it"]["text"]
