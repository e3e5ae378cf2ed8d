"""Helpers shared by the tournament tests: events built and played through the services.

QUICK rules make every game one hand long: a knock with deadwood 5 against 35 scores
30, past the game target of 25. A game won that way is a shutout, worth
(30 + 100 game bonus + 25 box) × 2 = 310 to the winner and 0 to the loser; a match is
the first to two games.
"""

from __future__ import annotations

import datetime as dt
import itertools
from contextlib import contextmanager

from django.db import transaction

from scoring import services as scoring
from scoring.hand_input import HandInput
from scoring.models import Hand, Match
from tournaments import services
from tournaments.models import Pairing, Registration, Round, Tournament

QUICK = {"game_target": 25, "games_to_win": 2}
GAME = 310  # what a one-hand game is worth to its winner under QUICK

_keys = itertools.count()


@contextmanager
def built_once(django_db_blocker):
    """For a module-scoped fixture: what it builds inside stands for the whole module, in
    a transaction never committed. Each test's own transaction (pytest-django's) is a
    savepoint inside it, rolled back after the test, so every test meets the same world;
    the module's end rolls the world back too."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


def actor(user) -> scoring.Actor:
    return scoring.Actor(user=user)


def new_event(club, organiser, *, players: int | list[str] = 4, **settings) -> Tournament:
    """A tournament with QUICK rules and `players` registered (names P01, P02...).
    Round 1 pairs in list order (P01 v P02, ...) so hand-worked cases stay readable."""
    settings.setdefault("first_round", "list")
    settings.setdefault("overrides", dict(QUICK))
    settings.setdefault("bye_games", 2)
    settings.setdefault("round_minutes", 30)
    tournament = services.create_tournament(
        club=club,
        actor=actor(organiser),
        name=settings.pop("name", "Club Open"),
        date=settings.pop("date", dt.date(2026, 11, 28)),
        **settings,
    )
    names = players if isinstance(players, list) else [f"P{n:02d}" for n in range(1, players + 1)]
    for name in names:
        services.add_registration(tournament_id=tournament.pk, actor=actor(organiser), name=name)
    return tournament


def reg(tournament: Tournament, name: str) -> Registration:
    return tournament.registrations.get(player__name=name)


def name_of(registration_id: int | None) -> str | None:
    if registration_id is None:
        return None
    return Registration.objects.select_related("player").get(pk=registration_id).player.name


def pairs_of(rnd: Round) -> list[tuple[str, str | None]]:
    """(player A, player B or None) for each pairing of a round, in order."""
    return [
        (p.player_a.player.name, p.player_b.player.name if p.player_b else None)
        for p in rnd.pairings.select_related("player_a__player", "player_b__player").order_by(
            "position"
        )
    ]


def play_hand(
    match: Match, organiser, *, game: int, number: int, winner: str = "A", kd: int = 5, dd: int = 35
) -> None:
    """One hand entered by the organiser (agreed at once): `winner` knocks."""
    scoring.submit_hand(
        match_id=match.pk,
        actor=actor(organiser),
        hand=HandInput(
            game=game,
            number=number,
            outcome="knock",
            knocker=winner,
            knocker_deadwood=kd,
            defender_deadwood=dd,
        ),
        idempotency_key=f"t-{next(_keys)}",
    )


def play_match(pairing: Pairing, organiser, games: str) -> None:
    """Play a match game by game: games="ABA" means A wins game 1, B game 2, A game 3."""
    for number, seat in enumerate(games, start=1):
        play_hand(pairing.match, organiser, game=number, number=1, winner=seat)


def win(pairing: Pairing, organiser, winner_name: str, score: str = "2-0") -> None:
    """Make `winner_name` win the pairing's match 2-0 or 2-1."""
    seat = "A" if pairing.player_a.player.name == winner_name else "B"
    loser = "B" if seat == "A" else "A"
    play_match(pairing, organiser, seat * 2 if score == "2-0" else seat + loser + seat)


def play_round(
    tournament: Tournament,
    organiser,
    results: dict[str, str] | None = None,
    *,
    play: bool = True,
    close: bool = True,
) -> Round:
    """Draft, publish and play a round: `results` maps a winner's name to "2-0"/"2-1";
    tables not named go to player A 2-0. Closes the round unless told not to; with
    play=False the round is only drafted and published."""
    rnd = services.draft_round(tournament_id=tournament.pk, actor=actor(organiser))
    services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    results = results or {}
    pairings = rnd.pairings.select_related("player_a__player", "player_b__player", "match")
    for pairing in pairings if play else []:
        if pairing.is_bye:
            continue
        names = (pairing.player_a.player.name, pairing.player_b.player.name)
        winner = next((n for n in names if n in results), names[0])
        win(pairing, organiser, winner, results.get(winner, "2-0"))
    if close:
        services.close_round(round_id=rnd.pk, actor=actor(organiser))
    rnd.refresh_from_db()
    return rnd


def unsigned(archive: dict) -> dict:
    """`archive` as written before archives were signed (version 1, no ledger, manifest or
    seal): the only kind a person may edit by hand and still import (docs/audit.md)."""
    for key in ("ledger", "manifest", "seal"):
        archive.pop(key, None)
    archive["version"] = 1
    return archive


def eventful_event(club, organiser) -> Tournament:
    """Five players, two rounds closed and a third running; a card-entry hand, a voided
    hand, a pending hand, byes, an organiser's result, a withdrawal and a late entry."""
    event = new_event(club, organiser, players=5, rounds=4, bye_points=50)
    first = play_round(event, organiser, play=False, close=False)
    t1, t2 = first.pairings.exclude(match=None).select_related("match").order_by("position")
    scoring.submit_hand(
        match_id=t1.match_id,
        actor=actor(organiser),
        idempotency_key="k1",
        hand=HandInput(
            game=1,
            number=1,
            outcome="knock",
            knocker="A",
            knocker_cards=tuple("5H 6H 7H 9C 9D 9S JS QS KS 2D".split()),
            defender_cards=tuple("8H 9H KD KC KH 3C 4C 5C AS 7D".split()),
        ),
    )
    hand = Hand.objects.get(game__match=t1.match)
    scoring.void_hand(
        hand_id=hand.pk,
        actor=actor(organiser),
        version=hand.version,
        reason="misdeal",
        idempotency_key="v1",
    )
    for game in (1, 2):
        play_hand(t1.match, organiser, game=game, number=2 if game == 1 else 1, winner="B")
    play_hand(t2.match, organiser, game=1, number=1, winner="A", kd=3, dd=30)
    services.record_result(
        pairing_id=t2.pk, actor=actor(organiser), winner="B", games_b=1, reason="A had to leave"
    )
    services.close_round(round_id=first.pk, actor=actor(organiser))
    play_round(event, organiser, {"P05": "2-1"})
    services.withdraw_registration(
        registration_id=reg(event, "P04").pk, actor=actor(organiser), reason="went home"
    )
    services.add_registration(tournament_id=event.pk, actor=actor(organiser), name="Late Liz")
    third = play_round(event, organiser, play=False, close=False)
    table = third.pairings.exclude(match=None).select_related("match").first()
    scoring.submit_hand(
        match_id=table.match_id,
        actor=scoring.Actor(player=table.player_a.player),
        idempotency_key="p1",
        hand=HandInput(
            game=1, number=1, outcome="knock", knocker="A", knocker_deadwood=4, defender_deadwood=9
        ),
    )
    event.refresh_from_db()
    return event
