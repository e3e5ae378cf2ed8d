"""A hand as it is entered: by cards, the cards decide the score, and a gin or big gin
said of cards that do not make one is refused rather than scored as the knock they make;
a refusal about one player's hand names that player (a walk of the table pages found
a gin of 5 deadwood saved as a knock, and "deadwood 15 is over the knock limit 10" with
no word of whose)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from ginclub.errors import ServiceError
from scoring.hand_input import hand_input_from, score_entered
from scoring.models import Hand
from scoring.rules import RuleProfile
from tests.scoring.helpers import key

pytestmark = pytest.mark.django_db

NAMES = {"A": "Alice", "B": "Bob"}
DEFENDER = "9H 9C 5D 4S 5S 6H KH QH 2H 3D".split()  # RULES.md's worked example
GIN = "AC 2C 3C 7D 7H 7S TD JD QD KD".split()  # deadwood 0
KNOCK_5 = "AC 2C 3C 7D 7H 7S JS QS KS 5H".split()  # deadwood 5
OVER_LIMIT = "AC 2C 3C 7D 7H 7S 9S JH QD KC".split()  # deadwood 39
BIG_GIN = "AC 2C 3C 4C 7H 7S 7D TD JD QD KD".split()  # 11 cards, all melded


def entered(outcome: str, knocker_cards, knocker: str = "B", names=NAMES):
    data = {
        "game": 1,
        "number": 1,
        "outcome": outcome,
        "knocker": knocker,
        "knocker_cards": knocker_cards,
        "defender_cards": DEFENDER,
    }
    return hand_input_from(data, names)


def refusal(hand) -> ServiceError:
    with pytest.raises(ServiceError) as refused:
        score_entered(hand, RuleProfile.from_dict({}))
    return refused.value


@pytest.mark.parametrize(
    ("outcome", "cards", "message"),
    [
        (
            "gin",
            KNOCK_5,
            "A gin needs 0 deadwood: Bob's cards leave 5. Choose knock, or check the cards.",
        ),
        (
            "gin",
            OVER_LIMIT,
            "A gin needs 0 deadwood: Bob's cards leave 39. Choose knock, or check the cards.",
        ),
        (
            "gin",
            BIG_GIN,
            "A gin is 10 cards, after the discard: give Bob's 10, or choose big gin.",
        ),
        (
            "big_gin",
            GIN,
            "A big gin is all 11 cards melded: give Bob's 11 cards, or choose gin.",
        ),
    ],
    ids=["gin of a knock", "gin over the knock limit", "gin of 11 cards", "big gin of 10"],
)
def test_a_gin_said_of_cards_that_make_none_is_refused_naming_the_knocker(outcome, cards, message):
    error = refusal(entered(outcome, cards))
    assert (error.code, error.message) == ("illegal_knock", message)
    assert error.fields == {"outcome": message}


def test_without_names_the_refusal_says_the_knocker():
    error = refusal(entered("gin", KNOCK_5, names=None))
    assert error.message.startswith("A gin needs 0 deadwood: the knocker's cards leave 5.")


@pytest.mark.parametrize(
    ("outcome", "cards", "scored"),
    [("gin", GIN, "gin"), ("knock", GIN, "gin"), ("knock", KNOCK_5, "knock")],
    ids=["gin", "a knock of 0 deadwood is gin", "knock"],
)
def test_cards_that_make_what_was_said_are_scored(outcome, cards, scored):
    result = score_entered(entered(outcome, cards), RuleProfile.from_dict({}))
    assert getattr(result.outcome, "value", result.outcome) == scored


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"outcome": "knock", "knocker": "A", "knocker_deadwood": 15, "defender_deadwood": 30},
            "Alice: deadwood 15 is over the knock limit 10",
        ),
        (
            {"outcome": "gin", "knocker": "B", "knocker_deadwood": 4, "defender_deadwood": 30},
            "Bob: gin means 0 deadwood, not 4",
        ),
        (
            {"outcome": "knock", "knocker": "A", "knocker_deadwood": 4, "defender_deadwood": 120},
            "Bob: defender's deadwood 120 is outside 0..98",
        ),
        (
            {"outcome": "knock", "knocker": "B", "knocker_cards": GIN, "defender_cards": ["AS"]},
            "Alice: the defender's hand has 1 cards: it needs 10",
        ),
    ],
    ids=["knock limit", "quick gin", "defender's deadwood", "defender's card count"],
)
def test_an_engine_refusal_about_one_hand_names_its_player(data, message):
    error = refusal(hand_input_from({"game": 1, "number": 1, **data}, NAMES))
    assert error.message == message


def test_the_api_refuses_a_gin_of_a_knock_and_saves_nothing(organiser, match):
    client = APIClient()
    client.force_authenticate(organiser)
    body = {
        "game": 1,
        "number": 1,
        "outcome": "gin",
        "knocker": "B",
        "knocker_cards": KNOCK_5,
        "defender_cards": DEFENDER,
    }
    said = "A gin needs 0 deadwood: Bob's cards leave 5. Choose knock, or check the cards."
    for url, keyed in [("preview/", {}), ("hands/", {"idempotency_key": key()})]:
        response = client.post(f"/api/matches/{match.pk}/{url}", body | keyed, format="json")
        assert response.status_code == 400, response.content
        assert response.json()["error"] == {
            "code": "illegal_knock",
            "message": said,
            "fields": {"outcome": said},
        }
    assert not Hand.objects.filter(game__match=match).exists()
    body |= {"outcome": "knock", "idempotency_key": key()}
    response = client.post(f"/api/matches/{match.pk}/hands/", body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["hand"]["outcome"] == "knock"
