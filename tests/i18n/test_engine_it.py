"""The rules engine's words in Italian (issue 13): the engine stays English and pure; its
refusals (a template and values) and its hand explanations (parts) are said in Italian
where people read them, and so are a game's totals and summary, a match's result, the
ledger's rows and the recompute's refusals. The English (API, CLI) is unchanged."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.http import Http404
from django.test import Client
from django.utils import translation

from ginclub.errors import Conflict, refusal_of
from scoring import words
from scoring.models import Game, Hand, Match, Player
from scoring.rules import RulesError, make_profile, parse_card, parse_cards, score_quick
from scoring.rules.games import score_game
from scoring.templatetags.ledger_extras import action_label, ledger_changes
from scoring.templatetags.scoring_extras import explained, profile_title
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.scoring.helpers import play_hand, quick, start

NAMES = {"A": "Ada", "B": "Ben"}


def refusal(call):
    with pytest.raises(RulesError) as caught:
        call()
    return caught.value, refusal_of(caught.value)


def test_a_rules_error_is_said_in_italian_and_stays_english_for_programs():
    error, said = refusal(lambda: parse_cards(["7H", "QS", "7H"]))
    assert error.message == "7H appears twice"  # the CLI's and the API tests' English
    with translation.override("it"):
        said = refusal_of(error)
    assert (said.code, said.message) == ("duplicate_card", "7H compare due volte")


def test_a_rule_option_refusal_names_its_field_in_italian():
    error, _ = refusal(lambda: make_profile("standard", {"game_target": 0}))
    with translation.override("it"):
        said = refusal_of(error)
    expected = "game_target deve essere un numero intero da 1 a 1000000, non 0"
    assert said.message == expected
    assert said.fields == {"game_target": expected}
    assert said.status == 400


def test_the_default_refusals_are_italian():
    with translation.override("it"):
        assert refusal_of(Http404()).message == "Qui non c'è niente."


def test_a_hand_explanation_in_italian_from_the_engine_and_from_the_stored_text():
    profile = make_profile("standard")
    knock = score_quick(outcome="knock", knocker_deadwood=5, defender_deadwood=30, profile=profile)
    undercut = score_quick(
        outcome="knock", knocker_deadwood=9, defender_deadwood=4, profile=profile
    )
    assert knock.explanation == "Knock: 30 − 5 = 25"
    with translation.override("it"):
        assert explained(knock) == "Bussata: 30 − 5 = 25"
        assert explained(undercut.explanation) == "Undercut: 25 di bonus + (9 − 4) = 30"
        assert explained(Hand(explanation="Gin: 25 bonus + 12 = 37")) == (
            "Gin: 25 di bonus + 12 = 37"
        )
        assert explained("Dead hand: nobody scores") == "Mano nulla: nessuno segna punti"
        assert explained("typed by hand") == "typed by hand"  # not the engine's: as it is
        assert profile_title("tournament") == "torneo"
    assert explained(knock) == "Knock: 30 − 5 = 25"  # English as before


def test_an_oklahoma_spade_double_in_italian():
    profile = make_profile("oklahoma", {"oklahoma_spade_double": True})
    result = score_quick(
        outcome="knock",
        knocker_deadwood=3,
        defender_deadwood=20,
        profile=profile,
        upcard=parse_card("7S"),
    )
    assert result.explanation == "Knock: 20 − 3 = 17, × 2 (spade upcard) = 34"
    with translation.override("it"):
        assert explained(result.explanation) == (
            "Bussata: 20 − 3 = 17, × 2 (carta scoperta di picche) = 34"
        )


def finished_game(profile, hands) -> Game:
    result = score_game(hands, profile).as_dict()
    return Game(
        number=1,
        state=Game.State.FINISHED,
        winner=result["winner"] or "",
        hand_points_a=result["hand_points"]["A"],
        hand_points_b=result["hand_points"]["B"],
        total_a=result["totals"]["A"],
        total_b=result["totals"]["B"],
        breakdown=result,
    )


def test_a_game_summary_and_a_match_result_in_italian():
    profile = make_profile("standard", {"game_hands": 3})
    game = finished_game(profile, [("A", 50), ("B", 15), ("B", 10)])
    with translation.override("it"):
        said = words.summary(game, NAMES, profile.as_dict())
    assert said == (
        "Partita vinta da Ben (pari a 75 con i box, più mani vinte). "
        "Ben: 25 nelle mani + 100 bonus partita + 2 box × 25 = 175; "
        "Ada: 50 nelle mani + 1 box × 25 = 75"
    )
    match = Match(
        player_a=Player(name="Ada"),
        player_b=Player(name="Ben"),
        rules={"games_to_win": 3},
        state=Match.State.FINISHED,
        winner="B",
        games_won_a=1,
        games_won_b=3,
    )
    games = [
        Game(number=n, state=Game.State.FINISHED, winner=w, total_a=a, total_b=b)
        for n, w, a, b in [(1, "B", 40, 300), (2, "A", 280, 10), (3, "B", 0, 310), (4, "B", 5, 290)]
    ]
    with translation.override("it"):
        assert words.result(match) == "Ben vince 3–1"
        arithmetic = words.arithmetic(match, games)
    assert arithmetic.startswith(
        "Ada ha vinto la partita 2, Ben ha vinto le partite 1, 3 e 4; "
        "vince chi arriva per primo a 3 partite. Punti dell'incontro (totali delle partite):"
    )
    for english in ("won", "wins", "in hands", "game", "boxes", "Match points"):
        assert english not in said + arithmetic


def test_the_ledger_and_a_recompute_refusal_in_italian():
    with translation.override("it"):
        assert action_label("hand_corrected") == "Mano corretta"
        assert action_label("something_new") == "Something new"  # unknown: as before
        error = Conflict("game_reopened", "x")
        assert refusal_of(error).message == "x"  # the services' own words pass as they are


@pytest.mark.django_db
def test_the_scoreboard_and_the_ledger_page_in_italian():
    club = ClubFactory()
    organiser = UserFactory()
    club.organisers.add(organiser)
    alice = PlayerFactory(club=club, name="Alice", user=UserFactory(username="alice"))
    bob = PlayerFactory(club=club, name="Bob", user=UserFactory(username="bob"))
    match = start(club, alice, bob, organiser)
    play_hand(match, alice, bob, quick(kd=5, dd=20))
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Bussata: 20 − 5 = 15" in page
    assert "Knock: 20" not in page
    ledger = client.get(f"/matches/{match.pk}/ledger/", HTTP_ACCEPT_LANGUAGE="it")
    text = ledger.content.decode()
    assert "Mano registrata" in text and "Mano confermata" in text
    assert "Hand entered" not in text and "how it ended" not in text
    english = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Knock: 20 − 5 = 15" in english


def test_the_ledgers_rules_say_each_choice_in_italian():
    """An admin read the Italian ledger's rules as '…; cappotto double; … prossimo
    mazziere alternate' and 'nome torneo', 'bonus partita a al vincitore': the choices'
    codes in English, the rule set called a name."""
    row = SimpleNamespace(before={}, after={"rules": make_profile("tournament").as_dict()})
    with translation.override("it"):
        (line,) = ledger_changes(row)
    assert "cappotto raddoppia il totale" in line["after"]
    assert "prossimo mazziere a turno" in line["after"]
    assert "bonus partita assegnato al vincitore" in line["after"]
    assert line["after"].startswith("set di regole torneo;")
    assert not re.search(r"\b(double|alternate|winner|nome)\b", line["after"]), line["after"]
