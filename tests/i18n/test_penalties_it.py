"""Penalties in Italian (issue 25): the organiser's form, the players' list, the
forfeited game in words, the standings' why and a refusal naming the players."""

from __future__ import annotations

import pytest
from django.utils import translation

from ginclub.errors import Forbidden
from ginclub.permissions import Actor
from scoring import services
from tests.factories import PlayerFactory
from tests.scoring.helpers import as_player, start
from tests.tournaments.helpers import actor, new_event, play_hand
from tournaments import services as tournaments
from tournaments.models import Pairing
from tournaments.selectors.standings import in_reader_language, standings

pytestmark = pytest.mark.django_db

IT = {"HTTP_ACCEPT_LANGUAGE": "it"}


def test_the_match_page_says_the_penalty_and_the_forfeited_game_in_italian(org, club, organiser):
    alice = PlayerFactory(club=club, name="Alice")
    bob = PlayerFactory(club=club, name="Bob", user=None)
    match = start(club, alice, bob, organiser)
    play_hand(match, organiser, game=1, number=1, winner="A", kd=5, dd=20)  # Alice 15
    services.record_penalty(
        match_id=match.pk, actor=Actor(user=organiser), seat="B", kind="game_loss",
        infraction="slow_play", details="lentissimo",
    )  # fmt: skip
    page = org.get(f"/matches/{match.pk}/", **IT).content.decode()
    assert "Ammonizioni e penalità" in page and "Anteprima dell'effetto" in page
    assert "Penalità a questo tavolo" in page
    assert "<strong>Partita persa</strong> contro Bob (gioco lento, partita 1): lentissimo" in page
    assert (
        "Partita vinta da Alice: Bob l&#x27;ha persa per penalità. Alice: 15 nelle mani + 100 "
        "partita + 25 box = 140; Bob: 0."
    ) in page


def test_the_standings_why_and_a_refusal_in_italian(club, organiser):
    event = new_event(club, organiser, players=["Cleo", "Dev"])
    rnd = tournaments.draft_round(tournament_id=event.pk, actor=actor(organiser))
    tournaments.publish_round(round_id=rnd.pk, actor=actor(organiser))
    match = Pairing.objects.get(round=rnd).match
    play_hand(match, organiser, game=1, number=1, winner="A", kd=5, dd=20)
    for _ in range(2):
        services.record_penalty(
            match_id=match.pk, actor=actor(organiser), seat="B", kind="game_loss",
            infraction="cards", details="x",
        )  # fmt: skip
    with translation.override("it"):
        rows = standings(event).rows
        dev = next(r for r in rows if r.name == "Dev")
        assert "ha perso una partita contro Cleo al turno 1 per penalità" in (
            in_reader_language(dev.why)
        )
        with pytest.raises(Forbidden) as caught:
            services.record_penalty(
                match_id=match.pk, actor=as_player(match.player_a), seat="B",
                kind="warning", infraction="cards", details="x",
            )  # fmt: skip
        assert caught.value.message == (
            "Solo lo staff di Gin Club può registrare o annullare una penalità contro Cleo o Dev."
        )
