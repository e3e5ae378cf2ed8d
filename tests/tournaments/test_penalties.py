"""Warnings and penalties (issue 25, docs/rules.md §18): a game or match loss goes
through the result path every decision takes, shows in the standings' why and the
ledger, replays and verifies, and is reversed with a reason back to what the hands say.

QUICK rules (tests.tournaments.helpers): game target 25, first to two games."""

from __future__ import annotations

import pytest

from ginclub.errors import Conflict, Forbidden, ServiceError
from scoring import replay
from scoring import services as scoring
from scoring.models import Match, Penalty
from scoring.words import names_of, summary
from scoring.words import result as result_words
from tests.scoring.helpers import as_player, quick, submit
from tests.tournaments.helpers import actor, new_event, play_hand
from tournaments import services
from tournaments.models import Pairing
from tournaments.selectors.audit import tournament_audit
from tournaments.selectors.standings import standings as standings_of
from tournaments.selectors.verification import verify_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(club, organiser):
    """Cleo (A) v Dev (B), round 1 published; Cleo has knocked once in game 1 for 15."""
    event = new_event(club, organiser, players=["Cleo", "Dev"])
    rnd = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    pairing = Pairing.objects.select_related("match", "round__tournament").get(round=rnd)
    assert pairing.match.player_a.name == "Cleo"
    play_hand(pairing.match, organiser, game=1, number=1, winner="A", kd=5, dd=20)
    return pairing


def penalise(organiser, match, seat, kind, details="looked at the stock"):
    return scoring.record_penalty(
        match_id=match.pk, actor=actor(organiser), seat=seat, kind=kind,
        infraction="cards", details=details,
    )  # fmt: skip


def result(match):
    match.refresh_from_db()
    return (match.state, match.winner, match.games_won_a, match.games_won_b,
            match.points_a, match.points_b, match.decided_by)  # fmt: skip


def why(tournament, name):
    return next(r.why for r in standings_of(tournament).rows if r.name == name)


def actions(match):
    return list(match.ledger.order_by("position").values_list("action", flat=True))


def test_a_game_loss_ends_the_game_for_the_opponent_with_the_game_bonus(table, organiser):
    match = table.match
    penalise(organiser, match, "B", "game_loss")
    game = match.games.get(number=1)
    # Cleo's 15 hand points + 100 game bonus + 1 box of 25; Dev forfeits the game: 0.
    assert (game.state, game.winner, game.total_a, game.total_b) == ("finished", "A", 140, 0)
    assert "game loss penalty against B" in game.explanation
    assert summary(game, names_of(match), match.rules) == (
        "Game to Cleo: Dev lost it by a game loss penalty. Cleo: 15 in hands + 100 game "
        "+ 25 boxes = 140; Dev: 0."
    )
    assert result(match) == ("in_progress", "", 1, 0, 140, 0, "")
    assert match.games.filter(number=2, state="in_progress").exists()


def test_a_second_game_loss_decides_the_match_and_the_standings_say_why(table, organiser):
    match, tournament = table.match, table.round.tournament
    penalise(organiser, match, "B", "game_loss")
    penalise(organiser, match, "B", "game_loss", details="second time")
    assert result(match) == ("finished", "A", 2, 0, 240, 0, "")
    lines = standings_of(tournament).rows
    assert [(r.name, r.standing.match_wins) for r in lines] == [("Cleo", 1), ("Dev", 0)]
    assert "lost a game to Cleo in round 1 by a game loss penalty" in why(tournament, "Dev")
    assert "won a game against Dev in round 1 by a game loss penalty against them" in why(
        tournament, "Cleo"
    )
    assert actions(match)[-3:] == ["penalty_recorded", "penalty_recorded", "match_decided"]
    decided = match.ledger.get(action="match_decided")
    assert decided.after["action"] == "penalty_recorded" and decided.after["winner"] == "A"


def test_reversing_a_game_loss_returns_the_result_to_what_the_hands_say(table, organiser):
    match, tournament = table.match, table.round.tournament
    penalise(organiser, match, "B", "game_loss")
    second = penalise(organiser, match, "B", "game_loss")
    scoring.reverse_penalty(penalty_id=second.pk, actor=actor(organiser), reason="wrong player")
    assert result(match) == ("in_progress", "", 1, 0, 140, 0, "")
    second.refresh_from_db()
    assert not second.active and second.reversal_reason == "wrong player"
    assert actions(match)[-2:] == ["penalty_reversed", "match_undecided"]
    assert "penalty" not in why(tournament, "Dev")  # an undecided match counts for nobody
    assert verify_tournament(tournament).ok


def test_a_reversal_needs_a_reason_and_happens_once(table, organiser):
    penalty = penalise(organiser, table.match, "B", "warning")
    with pytest.raises(ServiceError) as caught:
        scoring.reverse_penalty(penalty_id=penalty.pk, actor=actor(organiser), reason=" ")
    assert caught.value.code == "reason_required"
    scoring.reverse_penalty(penalty_id=penalty.pk, actor=actor(organiser), reason="misheard")
    with pytest.raises(Conflict) as again:
        scoring.reverse_penalty(penalty_id=penalty.pk, actor=actor(organiser), reason="again")
    assert again.value.code == "already_reversed"
    assert "The warning against Dev was already reversed." == again.value.message


def test_a_game_loss_cannot_be_taken_back_over_a_later_game_with_hands(table, organiser):
    match = table.match
    penalty = penalise(organiser, match, "B", "game_loss")
    play_hand(match, organiser, game=2, number=1, winner="B", kd=5, dd=10)
    with pytest.raises(Conflict) as caught:
        scoring.reverse_penalty(penalty_id=penalty.pk, actor=actor(organiser), reason="oops")
    assert caught.value.code == "game_reopened"
    penalty.refresh_from_db()
    assert penalty.active and result(match)[2:4] == (1, 0)


def test_a_match_loss_sets_the_result_over_the_hands_and_its_reversal_withdraws_it(
    table, organiser
):
    match, tournament = table.match, table.round.tournament
    penalty = penalise(organiser, match, "A", "match_loss", details="marked cards")
    # Dev wins 2-0; the game in play is scored as a game loss: Dev 0 + 100 + no box.
    assert result(match) == ("closed", "B", 0, 2, 0, 100, "penalty")
    assert match.decision_reason == "marked cards"
    assert result_words(match) == ("Dev wins 2–0: a match loss penalty against Cleo (marked cards)")
    assert "lost to Dev in round 1 by a match loss penalty" in why(tournament, "Cleo")
    assert verify_tournament(tournament).ok
    scoring.reverse_penalty(penalty_id=penalty.pk, actor=actor(organiser), reason="appeal won")
    assert result(match) == ("in_progress", "", 0, 0, 0, 0, "")
    assert actions(match)[-2:] == ["penalty_reversed", "decision_withdrawn"]
    assert verify_tournament(tournament).ok


def test_a_match_loss_may_follow_a_match_won_at_the_table(table, organiser):
    match = table.match
    play_hand(match, organiser, game=1, number=2, winner="A", kd=5, dd=20)  # Cleo 30: game
    play_hand(match, organiser, game=2, number=1, winner="A", kd=0, dd=30)
    assert result(match)[:2] == ("finished", "A")
    penalty = penalise(organiser, match, "A", "match_loss", details="cards found later")
    assert result(match)[:4] == ("closed", "B", 1, 2)
    scoring.reverse_penalty(penalty_id=penalty.pk, actor=actor(organiser), reason="appeal")
    assert result(match)[:2] == ("finished", "A")
    assert not replay.replay_match(match)


def test_cautions_and_warnings_change_no_result_but_are_on_the_ledger(table, organiser):
    match = table.match
    before = result(match)
    penalise(organiser, match, "A", "caution", details="shuffled too little")
    penalise(organiser, match, "A", "warning", details="slow again")
    assert result(match) == before
    row = match.ledger.filter(action="penalty_recorded").last()
    assert (row.after["kind"], row.after["player"], row.reason) == ("warning", "Cleo", "slow again")
    assert Penalty.objects.filter(match=match).count() == 2


def test_a_tournament_with_penalties_verifies_and_a_forged_game_is_caught(table, organiser):
    match, tournament = table.match, table.round.tournament
    penalise(organiser, match, "B", "game_loss")
    penalise(organiser, match, "A", "warning")
    assert verify_tournament(tournament).ok
    # the penalty row deleted behind the service's back: the replay still has the ledger's
    Penalty.objects.filter(match=match, kind="game_loss").update(kind="caution")
    Match.objects.filter(pk=match.pk).update(games_won_a=0)
    differences = verify_tournament(tournament).differences
    assert any(d.field == "games_won" for d in differences)


@pytest.mark.parametrize(("kind", "code"), [("game_loss", "hand_unsettled")])
def test_a_game_loss_waits_for_an_unsettled_hand(club, organiser, kind, code):
    event = new_event(club, organiser, players=["Cleo", "Dev"], agreement="confirm")
    rnd = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    match = Pairing.objects.get(round=rnd).match
    submit(match, match.player_a, quick(kd=5, dd=20))  # entered by Cleo, not confirmed
    with pytest.raises(Conflict) as caught:
        penalise(organiser, match, "B", kind)
    assert caught.value.code == code
    assert caught.value.message == (
        "Hand 1 of game 1 is not confirmed: settle it before the game loss."
    )


def test_only_staff_may_penalise_and_the_refusal_names_the_players(table):
    match = table.match
    with pytest.raises(Forbidden) as caught:
        scoring.record_penalty(
            match_id=match.pk, actor=as_player(match.player_a), seat="B",
            kind="game_loss", infraction="cards", details="he peeked",
        )  # fmt: skip
    assert "Cleo or Dev" in caught.value.message
    assert not Penalty.objects.exists()


def test_a_closed_round_refuses_a_game_loss_that_moves_its_result(table, organiser):
    match = table.match
    penalise(organiser, match, "B", "game_loss")
    penalise(organiser, match, "B", "game_loss")
    services.close_round(round_id=table.round_id, actor=actor(organiser))
    second = match.penalties.last()
    with pytest.raises(Conflict) as caught:
        scoring.reverse_penalty(penalty_id=second.pk, actor=actor(organiser), reason="late")
    assert caught.value.code == "would_reopen"
    assert "the game loss of Dev" in caught.value.message
    second.refresh_from_db()
    assert second.active


def test_the_preview_says_what_a_game_loss_would_do_and_writes_nothing(table, organiser):
    match = table.match
    rows = match.ledger.count()
    preview = scoring.preview_penalty(
        match_id=match.pk, actor=actor(organiser), seat="B", kind="game_loss"
    )
    assert preview.result_before["games_won"] == {"A": 0, "B": 0}
    assert preview.result_after["games_won"] == {"A": 1, "B": 0}
    assert preview.game == 1 and "140" in preview.explanation
    assert match.ledger.count() == rows and not Penalty.objects.exists()


def test_the_audit_page_lists_each_penalty_and_its_reversal_as_an_exception(table, organiser):
    match, tournament = table.match, table.round.tournament
    penalty = penalise(organiser, match, "B", "game_loss", details="peeked")
    scoring.reverse_penalty(penalty_id=penalty.pk, actor=actor(organiser), reason="misread")
    audit = tournament_audit(tournament, kind="penalty")
    said = [(f.before, f.after, f.why) for f in audit.exceptions]
    assert said == [
        ("no penalty", "game loss against Dev: peeked", "peeked"),
        ("game loss against Dev: peeked", "no penalty", "misread"),
    ]
    assert all(check.ok for check in audit.chains)
