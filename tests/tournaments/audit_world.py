"""An event with one of every exception an audit must list (issue 27), built through the
services, for the audit's API, page and browser tests.

Round 1 (closed): table 1, P01 v P02: P01 enters hand 1 on their phone, P02 disputes it
on theirs, the organiser corrects it; the organiser enters game 2; after the round
closed the organiser corrects game 2's hand again (the result's points move). Table 2,
P03 v P04: the organiser sets the result by hand. Then the rules change from round 2.
Round 2 (published): table 1: a hand voided, one played, time called and the time
policy decides it; table 2 plays on.
"""

from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model

from scoring import services as scoring
from scoring.hand_input import HandInput
from scoring.models import Hand, Match
from tests.factories import UserFactory
from tests.tournaments.helpers import QUICK, actor, new_event, play_hand
from tournaments import services
from tournaments.models import Tournament

_keys = itertools.count()


def _key() -> str:
    return f"audit-{next(_keys)}"


def phone(player, device: str, ip: str) -> scoring.Actor:
    return scoring.Actor(player=player, device=device, ip=ip)


def knock(game: int, number: int, knocker: str = "A", kd: int = 5, dd: int = 35) -> HandInput:
    return HandInput(
        game=game,
        number=number,
        outcome="knock",
        knocker=knocker,
        knocker_deadwood=kd,
        defender_deadwood=dd,
    )


def audited_event(club, organiser) -> Tournament:
    event = new_event(club, organiser, players=4, rounds=3, public=False, name="Audit Open")
    org = actor(organiser)
    rnd = services.draft_round(tournament_id=event.pk, actor=org)
    services.publish_round(round_id=rnd.pk, actor=org)
    table1, table2 = rnd.pairings.order_by("table").select_related("match")
    match = table1.match
    p01, p02 = match.player_a, match.player_b
    entered = scoring.submit_hand(
        match_id=match.pk,
        actor=phone(p01, "P01's phone", "10.0.0.1"),
        hand=knock(1, 1, dd=30),
        idempotency_key=_key(),
    ).hand
    scoring.dispute_hand(
        hand_id=entered.pk,
        actor=phone(p02, "P02's phone", "10.0.0.2"),
        version=1,
        reason="count again",
        idempotency_key=_key(),
    )
    scoring.correct_hand(
        hand_id=entered.pk,
        actor=scoring.Actor(user=organiser, device="Organiser laptop", ip="10.0.0.9"),
        hand_input=knock(1, 1),
        version=2,
        reason="recounted at the table",
        idempotency_key=_key(),
    )
    play_hand(match, organiser, game=2, number=1)
    services.record_result(
        pairing_id=table2.pk, actor=org, winner="A", reason="P04 left ill", games_a=2, games_b=0
    )
    services.close_round(round_id=rnd.pk, actor=org)
    second = Hand.objects.get(game__match=match, game__number=2)
    scoring.correct_hand(
        hand_id=second.pk,
        actor=org,
        hand_input=knock(2, 1, dd=40),
        version=second.version,
        reason="deadwood was 40",
        idempotency_key=_key(),
    )
    services.apply_rules_change(
        tournament_id=event.pk,
        actor=org,
        profile="tournament",
        overrides={**QUICK, "box_bonus": 10},
        from_round=2,
        reason="agreed at the meeting",
    )
    rnd2 = services.draft_round(tournament_id=event.pk, actor=org)
    services.publish_round(round_id=rnd2.pk, actor=org)
    first = rnd2.pairings.order_by("table").select_related("match").first()
    play_hand(first.match, organiser, game=1, number=1)
    scoring.submit_hand(
        match_id=first.match.pk, actor=org, hand=knock(2, 1, knocker="B"), idempotency_key=_key()
    )
    voided = Hand.objects.get(game__match=first.match, game__number=2)
    scoring.void_hand(
        hand_id=voided.pk,
        actor=org,
        version=voided.version,
        reason="entered at the wrong table",
        idempotency_key=_key(),
    )
    services.call_time(round_id=rnd2.pk, actor=org)
    services.apply_time_policy(round_id=rnd2.pk, actor=org, pairing_ids=[first.pk])
    return event


def auditor_of(club, username: str = "audrey"):
    """A user made an auditor of `club` by its organiser."""
    user = UserFactory(username=username)
    organiser = club.organisers.first()
    scoring.grant_auditor(club=club, username=user.username, actor=actor(organiser))
    return get_user_model().objects.get(pk=user.pk)


def match_of(event: Tournament, round_number: int, table: int) -> Match:
    return Match.objects.get(pairing__round__tournament=event, pairing__round__number=round_number,
                             pairing__table=table)  # fmt: skip
