"""Helpers shared by the scoring tests."""

from __future__ import annotations

import itertools

from django.test import Client

from ginclub.permissions import table_token
from scoring import services
from scoring.hand_input import HandInput

_keys = itertools.count()


def key() -> str:
    return f"key-{next(_keys)}"


def start(club, a, b, organiser, **options):
    return services.start_match(
        club=club, player_a=a, player_b=b, actor=services.Actor(user=organiser), **options
    )


def as_player(player) -> services.Actor:
    return services.Actor(user=player.user, player=player)


def quick(number=1, game=1, *, knocker="A", kd=5, dd=20, outcome="knock") -> HandInput:
    return HandInput(
        game=game,
        number=number,
        outcome=outcome,
        knocker=knocker,
        knocker_deadwood=kd,
        defender_deadwood=dd,
    )


def submit(match, player, hand, idempotency_key=None):
    return services.submit_hand(
        match_id=match.pk,
        actor=as_player(player),
        hand=hand,
        idempotency_key=idempotency_key or key(),
    )


def confirm(hand, player):
    hand.refresh_from_db()
    return services.confirm_hand(
        hand_id=hand.pk, actor=as_player(player), version=hand.version, idempotency_key=key()
    )


def play_hand(match, enterer, confirmer, hand_input):
    outcome = submit(match, enterer, hand_input)
    confirm(outcome.hand, confirmer)
    outcome.hand.refresh_from_db()
    return outcome.hand


def seated_phone(match, player, pin: str = "1234", **client_options) -> Client:
    """A phone that opened the table's link (which sets the CSRF cookie) and sat down as
    `player` with the PIN; `client_options` as Client takes them (headers, CSRF checks)."""
    phone = Client(**client_options)
    phone.get(f"/t/{table_token(match)}/", follow=True)
    phone.post(
        f"/matches/{match.pk}/seat/",
        {"player": player.pk, "pin": pin},
        headers={"X-CSRFToken": phone.cookies["csrftoken"].value},
    )
    return phone
