"""The demo's finished event (`manage.py load_demo`): what a newcomer reads after a whole
evening without playing one: standings with their why, a bracket, a corrected hand, a
table decided when time was called, statistics with charts on every player's page, and
the season ladder it counts in.

Terms:
    script   the fixed hands every match is played from (HANDS): knocks, gins, an
             undercut, a big gin, a dead hand and two hands entered card by card, until
             the match is won. In the top cut each hand is entered by one player on their
             phone and confirmed by the other; the Swiss tables' score sheets are typed
             in by the organiser. The same script and the same draws make the same event
             on every load.
    story    the few things an organiser does on the night, each through its service:
             a disputed hand the organiser corrects (with the reason), time called in
             the last Swiss round and one table decided by the time policy.

The event is a Swiss of three rounds then a top cut of four (semi-finals, final) among
the demo club's eight players, earlier on the day it is loaded (its matches are dated
when they were played). Everything goes through the services, so the ledger verifies
(`manage.py verify_ledger`).
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from scoring import services as scoring
from scoring.hand_input import HandInput
from scoring.models import Club, Game, Hand, Match
from scoring.services.ratings import recompute_ratings
from tournaments import services
from tournaments.models import Pairing, Tournament

# Translators: the demo's data: the name of its finished tournament.
FINISHED_NAME = gettext_lazy("Demo Autumn Cup")
# Translators: the demo's data: why the organiser corrected a disputed hand.
CORRECTION_REASON = gettext_lazy(
    "Both players counted the cards again: the defender had 12, not 21"
)
# Translators: the demo's data: why a player disputed a hand.
DISPUTE_REASON = gettext_lazy("I had 12 deadwood, not 21")


def _by_count(outcome: str, knocker: str, knocker_deadwood, defender_deadwood) -> HandInput:
    return HandInput(0, 0, outcome, knocker, knocker_deadwood, defender_deadwood)


def _by_cards(knocker: str, knocker_cards: str, defender_cards: str) -> HandInput:
    return HandInput(
        0, 0, "knock", knocker, knocker_cards=tuple(knocker_cards.split()),
        defender_cards=tuple(defender_cards.split()),
    )  # fmt: skip


# The script's hands (game and hand numbers are filled in as they are played); two are
# entered card by card, so the players' pages count melds and lay-offs.
HANDS = (
    _by_count("knock", "A", 6, 31),
    _by_count("gin", "B", None, 27),
    _by_cards("A", "5H 6H 7H 9C 9D 9S JS QS KS 2D", "8H 9H KD KC KH 3C 4C 5C AS 7D"),
    _by_count("knock", "B", 8, 5),  # an undercut: the defender scores
    _by_count("knock", "A", 3, 44),
    _by_count("big_gin", "B", None, 38),
    _by_count("dead", "", None, None),
    _by_cards("B", "5H 6H 7H 8H 3S 3D 3C AS 2D 4C", "9H 3H QS QD QC KS KD TC 9C 2C"),
    _by_count("knock", "B", 2, 29),
    _by_count("gin", "A", None, 35),
)
SWISS_ROUNDS = 3
CUT = 4
DRAWS = (2611, 2612, 2613, 2614, 2615)  # each round's recorded draw
DISPUTED = (2, 1)  # round 2, table 1: its first hand is disputed, then corrected
TIME_CALLED = (3, 4)  # round 3, table 4: decided by the time policy


def load_finished_event(club: Club, organiser, *, language: str = "") -> Tournament:
    """The finished event of `club` (whose first eight players it seats), played in one
    transaction; `language`: the event's own language, if any. Raises whatever a service
    raises (a demo that cannot load says why)."""
    actor = scoring.Actor(user=organiser)
    with transaction.atomic():
        event = services.create_tournament(
            club=club,
            actor=actor,
            name=str(FINISHED_NAME),
            date=timezone.localdate(),
            format=Tournament.Format.SWISS_CUT,
            rounds=SWISS_ROUNDS,
            cut_size=CUT,
            overrides={"games_to_win": 1, "game_target": 100},
            round_minutes=30,
            bye_games=1,
            **({"language": language} if language else {}),
        )
        for player in club.players.order_by("pk")[:8]:
            registration = services.add_registration(
                tournament_id=event.pk, actor=actor, player_id=player.pk
            )
            services.check_in(registration_id=registration.pk, actor=actor)
        keys = (f"demo-{event.pk}-{n}" for n in itertools.count())
        for number, draw in enumerate(DRAWS, start=1):
            _play_round(event, actor, number, draw, keys)
        event.refresh_from_db()
    # The worker rates the club in the background; the demo's pages show ratings at once.
    recompute_ratings(club_id=club.pk)
    return event


def _play_round(event: Tournament, actor, number: int, draw: int, keys) -> None:
    rnd = services.draft_round(tournament_id=event.pk, actor=actor, draw=draw)
    services.publish_round(round_id=rnd.pk, actor=actor)
    services.start_round_timer(round_id=rnd.pk, actor=actor, minutes=event.round_minutes)
    tables = list(
        Pairing.objects.filter(round=rnd, player_b__isnull=False)
        .select_related("player_a__player", "player_b__player")
        .order_by("table")
    )
    for index, pairing in enumerate(tables):
        start = number * 3 + index  # where in the script this table's hands start
        # The cut and the disputed table play on their phones; the other Swiss tables
        # hand in score sheets the organiser types in (half the services' work).
        phones = number > SWISS_ROUNDS or (number, pairing.table) == DISPUTED
        by = None if phones else actor
        if (number, pairing.table) == DISPUTED:
            _dispute_and_correct(pairing, actor, keys)
        if (number, pairing.table) == TIME_CALLED:
            _play(pairing, keys, start, by=by, most=2)
            services.call_time(round_id=rnd.pk, actor=actor)
            services.apply_time_policy(round_id=rnd.pk, actor=actor, pairing_ids=[pairing.pk])
        else:
            _play(pairing, keys, start, by=by)
    services.close_round(round_id=rnd.pk, actor=actor)


def _hand(game: int, number: int, step: int) -> HandInput:
    return replace(HANDS[step % len(HANDS)], game=game, number=number)


def _play(pairing: Pairing, keys, start: int, *, by=None, most: int = 40) -> None:
    """The script's hands from `start` until the match is won (or `most` hands are
    played): each entered by one player and confirmed by the other, or entered by `by`
    (the organiser, whose entry stands at once)."""
    a, b = pairing.player_a.player, pairing.player_b.player
    for step in range(start, start + most):
        match = Match.objects.get(pk=pairing.match_id)
        if match.state != Match.State.IN_PROGRESS:
            return
        game = match.games.filter(state=Game.State.IN_PROGRESS).order_by("number").first()
        number = game.hands.count() + 1
        player, other = (a, b) if step % 2 else (b, a)
        hand = scoring.submit_hand(
            match_id=match.pk,
            actor=by or scoring.Actor(player=player),
            hand=_hand(game.number, number, step),
            idempotency_key=next(keys),
        ).hand
        if hand.state == Hand.State.PENDING:
            scoring.confirm_hand(
                hand_id=hand.pk,
                actor=scoring.Actor(player=other),
                version=hand.version,
                idempotency_key=next(keys),
            )


def _dispute_and_correct(pairing: Pairing, actor, keys) -> None:
    """Player A enters a knock with the defender's deadwood miscounted; player B disputes
    it; the organiser corrects it, with the reason, as the players agreed."""
    a, b = pairing.player_a.player, pairing.player_b.player
    wrong = HandInput(
        game=1, number=1, outcome="knock", knocker="A", knocker_deadwood=4, defender_deadwood=21
    )
    hand = scoring.submit_hand(
        match_id=pairing.match_id,
        actor=scoring.Actor(player=a),
        hand=wrong,
        idempotency_key=next(keys),
    ).hand
    hand = scoring.dispute_hand(
        hand_id=hand.pk,
        actor=scoring.Actor(player=b),
        version=hand.version,
        reason=str(DISPUTE_REASON),
        idempotency_key=next(keys),
    ).hand
    scoring.correct_hand(
        hand_id=hand.pk,
        actor=actor,
        hand_input=HandInput(
            game=1, number=1, outcome="knock", knocker="A", knocker_deadwood=4, defender_deadwood=12
        ),
        version=hand.version,
        reason=str(CORRECTION_REASON),
        idempotency_key=next(keys),
    )
