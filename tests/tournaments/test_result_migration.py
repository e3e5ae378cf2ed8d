"""Existing data moves to one result per table (issue 22, finding 1): a result an
organiser or the time policy set on a pairing becomes its match's result, with who set
it, why and when; a bye keeps the games and points it counts for; a table its hands
decided is left as it was."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("tournaments", "0011_job_words"), ("scoring", "0007_player_language")]
AFTER = [("tournaments", "0012_result_on_the_match")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _latest():
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_results_set_on_pairings_move_to_their_matches():
    old = _migrate(BEFORE)
    try:
        Club, Player, Match = (old.get_model("scoring", n) for n in ("Club", "Player", "Match"))
        Tournament, Round, Registration, Pairing = (
            old.get_model("tournaments", n)
            for n in ("Tournament", "Round", "Registration", "Pairing")
        )
        club = Club.objects.create(name="Old Club", slug="old")
        ada, ben, cleo, dev, eve = (
            Player.objects.create(club=club, name=n) for n in ("Ada", "Ben", "Cleo", "Dev", "Eve")
        )
        event = Tournament.objects.create(
            club=club, name="Old Open", slug="old-open", date=dt.date(2026, 11, 1)
        )
        rnd = Round.objects.create(tournament=event, number=1, stage="swiss", state="closed")
        regs = {p.name: Registration.objects.create(tournament=event, player=p) for p in
                (ada, ben, cleo, dev, eve)}  # fmt: skip
        rules = {"games_to_win": 3}
        by_hand = Match.objects.create(
            club=club, player_a=ada, player_b=ben, rules=rules, first_dealer="A", state="closed"
        )
        by_hands = Match.objects.create(
            club=club, player_a=cleo, player_b=dev, rules=rules, first_dealer="A",
            state="finished", winner="B", games_won_b=3, points_b=400,
        )  # fmt: skip
        when = timezone.now()
        Pairing.objects.create(
            round=rnd, table=1, position=0, player_a=regs["Ada"], player_b=regs["Ben"],
            match=by_hand, result_winner="B", result_reason="time was called",
            result_games_a=1, result_games_b=2, result_points_a=120, result_points_b=240,
            resolved_at=when, result_by="time",
        )  # fmt: skip
        Pairing.objects.create(
            round=rnd, table=2, position=1, player_a=regs["Cleo"], player_b=regs["Dev"],
            match=by_hands,
        )  # fmt: skip
        Pairing.objects.create(
            round=rnd, position=2, player_a=regs["Eve"], reason="bye", result_winner="A",
            result_games_a=3, result_points_a=50, resolved_at=when,
        )  # fmt: skip

        new = _migrate(AFTER)
        Match, Pairing = new.get_model("scoring", "Match"), new.get_model("tournaments", "Pairing")
        decided = Match.objects.get(pk=by_hand.pk)
        assert (decided.winner, decided.state, decided.decided_by) == ("B", "closed", "time")
        assert (decided.games_won_a, decided.games_won_b) == (1, 2)
        assert (decided.points_a, decided.points_b) == (120, 240)
        assert (decided.decision_reason, decided.decided_at) == ("time was called", when)
        played = Match.objects.get(pk=by_hands.pk)
        assert (played.winner, played.decided_by, played.games_won_b) == ("B", "", 3)
        bye = Pairing.objects.get(player_b=None)
        assert (bye.bye_games, bye.bye_points) == (3, 50)
    finally:
        _latest()
