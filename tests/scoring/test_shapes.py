"""API shapes with serializers made once (ginclub.shapes): an output written by one
instance per class is what a serializer made for the object writes, object after object
and thread beside thread, without the fields being made again; a body checked by a
thread's own instance is checked as a fresh serializer checks it, keeping nothing of
the body before."""

from __future__ import annotations

import threading

import pytest
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from ginclub.shapes import represent, valid
from scoring import serializers as s
from scoring.models import Game, Hand, Player
from tests.factories import ClubFactory, PlayerFactory

CARDS = {
    "knocker_cards": ["AS", "2S", "3S", "4H", "5H", "6H", "7C", "8C", "9C", "5D"],
    "defender_cards": ["KD", "QC", "JH", "9S", "8D", "7S", "6D", "4C", "3D", "2C"],
    "knocker_melds": [["AS", "2S", "3S"], ["4H", "5H", "6H"], ["7C", "8C", "9C"]],
    "defender_melds": [],
    "laid_off": [],
    "upcard": None,
}


def a_hand(number: int, *, cards: bool) -> Hand:
    return Hand(
        id=100 + number,
        game=Game(number=1 + number % 3),
        number=number,
        version=number,
        state=Hand.State.CONFIRMED if number % 2 else Hand.State.PENDING,
        dealer="AB"[number % 2],
        outcome=Hand.Outcome.KNOCK,
        knocker="A",
        knocker_deadwood=5,
        defender_deadwood=20 + number,
        points=15 + number,
        winner="A",
        explanation=f"Knock: {20 + number} - 5",
        cards=CARDS if cards else None,
    )


def made_per_object(serializer_class, instance, **options):
    return serializer_class(instance, **options).data


def test_a_hand_answer_is_what_a_serializer_made_for_it_gives():
    for number, cards, extra in [
        (1, True, {}),
        (2, False, {"differences": {"points": [17, 20]}}),
        (3, False, {}),  # after one with differences: none carried over
        (4, True, {}),
    ]:
        answer = {"hand": a_hand(number, cards=cards), **extra}
        written = represent(s.HandActionOutputSerializer, answer)
        assert written == made_per_object(s.HandActionOutputSerializer, answer)
        assert ("differences" in written) == bool(extra)
        assert written["hand"]["id"] == 100 + number


@pytest.mark.django_db
def test_many_rows_from_a_queryset_are_written_as_a_list():
    club = ClubFactory()
    for name in ("Ann", "Bob"):
        PlayerFactory(club=club, name=name)
    rows = Player.objects.filter(club=club).order_by("name")

    written = represent(s.PlayerSerializer, rows, many=True)

    assert written == made_per_object(s.PlayerSerializer, rows, many=True)
    assert [row["name"] for row in written] == ["Ann", "Bob"]


def test_the_fields_are_made_once_per_class(monkeypatch):
    represent(s.HandActionOutputSerializer, {"hand": a_hand(1, cards=True)})
    made = []
    original = s.HandActionOutputSerializer.get_fields

    def counting(self):
        made.append(self)
        return original(self)

    monkeypatch.setattr(s.HandActionOutputSerializer, "get_fields", counting)
    for number in range(5):
        represent(s.HandActionOutputSerializer, {"hand": a_hand(number, cards=True)})
    assert made == []


def test_threads_writing_at_once_each_get_their_own_object():
    answers = {number: {"hand": a_hand(number, cards=bool(number % 2))} for number in range(40)}
    expected = {n: made_per_object(s.HandActionOutputSerializer, a) for n, a in answers.items()}
    written, start = {}, threading.Barrier(8)

    def write(numbers):
        start.wait()
        for _ in range(20):
            for number in numbers:
                written[number] = represent(s.HandActionOutputSerializer, answers[number])

    threads = [threading.Thread(target=write, args=(range(i, 40, 8),)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert written == expected


def a_request(body, *, form: bool = False) -> Request:
    factory = APIRequestFactory()
    if form:
        made = factory.post("/", body)  # multipart: every value is text
        return Request(made, parsers=[MultiPartParser(), FormParser()])
    return Request(factory.post("/", body, format="json"), parsers=[JSONParser()])


def submitted(**values):
    return {"game": 1, "number": 2, "outcome": "knock", "idempotency_key": "k", **values}


def refusal(body, *, form: bool = False) -> dict:
    with pytest.raises(ValidationError) as caught:
        valid(s.SubmitHandSerializer, a_request(body, form=form))
    return caught.value.detail


def test_bodies_checked_one_after_another_keep_nothing_of_each_other():
    first = valid(s.SubmitHandSerializer, a_request(submitted(knocker="A", knocker_deadwood=4)))
    assert first == submitted(knocker="A", knocker_deadwood=4)

    assert set(refusal(submitted(number=0, colour="red"))) == {"number"}
    assert set(refusal(submitted(colour="red"))) == {"colour"}  # unknown, after the rest

    third = valid(s.SubmitHandSerializer, a_request(submitted(outcome="gin", number=3)))
    assert third == submitted(outcome="gin", number=3)


def test_a_form_body_and_a_json_body_are_each_read_as_what_they_are():
    # In a form everything is text: "3" is a number there, not in JSON.
    form = valid(s.SubmitHandSerializer, a_request(submitted(number="3"), form=True))
    assert form["number"] == 3
    assert set(refusal(submitted(number="3"))) == {"number"}
    again = valid(s.SubmitHandSerializer, a_request(submitted(number="4"), form=True))
    assert again["number"] == 4


def test_threads_checking_at_once_each_get_their_own_body():
    bodies = {n: submitted(number=n, knocker_deadwood=n % 11) for n in range(1, 41)}
    checked, refused, start = {}, {}, threading.Barrier(8)

    def check(numbers):
        start.wait()
        for _ in range(10):
            for number in numbers:
                body = bodies[number] if number % 5 else {**bodies[number], "colour": "red"}
                try:
                    checked[number] = valid(s.SubmitHandSerializer, a_request(body))
                except ValidationError as error:
                    refused[number] = set(error.detail)

    threads = [threading.Thread(target=check, args=(range(i, 41, 8),)) for i in range(1, 9)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert checked == {n: body for n, body in bodies.items() if n % 5}
    assert refused == {n: {"colour"} for n in bodies if not n % 5}
