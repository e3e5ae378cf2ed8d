"""Closed means closed: what a change to a match's result may do once its round is closed.

Registered in scoring.hooks from TournamentsConfig.ready(), so scoring's correct, void
and every other hand action ask here, inside their transaction, whenever a match's
result (state, winner, games won, points) moves. For a match of a round that is not
closed this says nothing: results are still being made. For a match of a closed round
(a finished tournament's rounds are all closed):

- the match must stay decided: a change that would leave it unfinished is refused
  (`would_reopen`), saying what to do instead, unless the table's result was recorded
  by hand (an organiser's result or the time policy), which stands whatever the hands;
- in an elimination round, the winner cannot change once a later round of the bracket
  exists (`bracket_changed`): discard a drafted one first;
- otherwise the change is allowed and described: the match result before and after,
  the standings rows that move, and each later round, and whether it was paired from
  the old standings. scoring writes the description to the match's ledger
  (`result_changed_after_close`), and the standings pages list it.

Lock order: `lock_tournament_of` takes the tournament row before scoring locks the
match, the order the tournament services lock in, so an organiser's correction and the
drafting of the next round are taken one after the other.
"""

from __future__ import annotations

from typing import Any

from ginclub.errors import Conflict
from scoring.hooks import ResultChange
from scoring.models import Game
from tournaments.models import Pairing, Round, Tournament
from tournaments.selectors import standings, standings_moves


def lock_tournament_of(match_id: int) -> None:
    """Lock the tournament a match is played in (no-op for a club match)."""
    tournament_id = (
        Pairing.objects.filter(match_id=match_id)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if tournament_id is not None:
        list(Tournament.objects.select_for_update().filter(pk=tournament_id).values("pk"))


def judge_result_change(change: ResultChange) -> dict[str, Any] | None:
    """Refuse or describe a result change of a match in a closed round (None elsewhere).
    Raises Conflict (`would_reopen`, `bracket_changed`)."""
    pairing = (
        Pairing.objects.select_related("round__tournament", "player_a__player", "player_b__player")
        .filter(match_id=change.match_id)
        .first()
    )
    if pairing is None or pairing.round.state != Round.State.CLOSED:
        return None
    rnd, tournament = pairing.round, pairing.round.tournament
    names = {"A": pairing.player_a.player.name, "B": pairing.player_b.player.name}
    later = list(
        tournament.round_set.filter(number__gt=rnd.number)
        .order_by("number")
        .values("number", "state", "stage")
    )
    if not pairing.resolved:
        _refuse_undecided(change, pairing, names)
        _refuse_bracket_change(change, pairing, names, later)
    moved = [] if pairing.resolved else _moved_rows(tournament, change)
    rounds = [_later_round(row, rnd) for row in later]
    return {
        "kind": "tournament",
        "tournament": {
            "id": tournament.pk,
            "slug": tournament.slug,
            "name": tournament.name,
            "finished": tournament.state == Tournament.State.FINISHED,
        },
        "round": rnd.number,
        "round_closed_at": rnd.closed_at.isoformat() if rnd.closed_at else None,
        "table": pairing.table,
        "pairing": pairing.pk,
        "players": names,
        "hand": change.hand,
        "resolved": pairing.resolved,
        "standings": moved,
        "later_rounds": rounds,
        "notes": _notes(tournament, rnd, pairing, moved, rounds),
    }


def _where(pairing: Pairing, names: dict[str, str]) -> str:
    return f"{names['A']} v {names['B']} (round {pairing.round.number}, table {pairing.table})"


def _refuse_undecided(change: ResultChange, pairing: Pairing, names: dict[str, str]) -> None:
    if change.after["winner"] is not None:
        return
    game = Game.objects.filter(match_id=change.match_id, state=Game.State.IN_PROGRESS).first()
    target = (pairing.match.rules or {}).get("game_target") if pairing.match else None
    reaching = f" (someone reaching {target})" if target else ""
    voiding = change.action == "hand_voided"
    what = {"hand_voided": "voiding", "hand_corrected": "this correction of"}.get(
        change.action, "this change to"
    )
    unfinished = (
        f"game {game.number} unfinished ({names['A']} {game.hand_points_a} – "
        f"{game.hand_points_b} {names['B']}) and "
        if game is not None
        else ""
    )
    ends = f"game {game.number} still ends{reaching}" if game is not None else "a player still wins"
    games = change.after["games_won"]
    instead = (
        f"Correct {change.hand} instead of voiding it, to the score that was played, "
        if voiding
        else f"Correct {change.hand} to the score that was played "
    )
    raise Conflict(
        "would_reopen",
        f"Round {pairing.round.number} is closed, so {_where(pairing, names)} must keep "
        f"a winner, but {what} {change.hand} would leave {unfinished}the match undecided "
        f"(games {names['A']} {games['A']} – {games['B']} {names['B']}). {instead}"
        f"so that {ends}. If the table really stopped before the match was decided, rule "
        "who won, correct the hands to that result and say so in the reason.",
    )


def _refuse_bracket_change(
    change: ResultChange, pairing: Pairing, names: dict[str, str], later: list[dict]
) -> None:
    was, now = change.before["winner"], change.after["winner"]
    if pairing.round.stage != Round.Stage.ELIMINATION or not later or was == now:
        return
    nxt = later[0]
    through = names[was] if was else "nobody"
    message = (
        f"{_where(pairing, names)}: the winner would change from {through} to "
        f"{names[now]}, but round {nxt['number']} of the bracket is already "
    )
    if nxt["state"] == Round.State.DRAFT:
        message += (
            f"drafted with {through} through: discard that draft first (Rounds page), "
            "then make this change and draft it again."
        )
    else:
        message += (
            f"{Round.State(nxt['state']).label} with {through} through, so this result "
            "can no longer change."
        )
    raise Conflict("bracket_changed", message)


def _moved_rows(tournament: Tournament, change: ResultChange) -> list[dict[str, Any]]:
    """The standings lines (organiser's view, every round) the change moves."""
    before = standings(tournament, replace={change.match_id: change.before})
    after = standings(tournament)
    return standings_moves(before, after)


def _later_round(row: dict, rnd: Round) -> dict[str, Any]:
    return {
        "number": row["number"],
        "state": row["state"],
        "paired_from_standings": _paired_from_standings(row["stage"], rnd.stage),
    }


def _paired_from_standings(later_stage: str, stage: str) -> bool:
    """Swiss rounds are paired from the standings, and so is the top cut after them;
    round robin is fixed and a bracket follows its own winners."""
    return later_stage == Round.Stage.SWISS or (
        later_stage == Round.Stage.ELIMINATION and stage == Round.Stage.SWISS
    )


def _notes(tournament, rnd: Round, pairing: Pairing, moved: list, rounds: list) -> list[str]:
    notes = [f"Round {rnd.number} is closed: this changes a result the standings already count."]
    if pairing.resolved:
        notes.append(
            "The table's result was recorded by hand"
            + (f" ({pairing.result_reason})" if pairing.result_reason else "")
            + "; it stands, so the standings do not change."
        )
    elif not moved:
        notes.append("No standings line moves.")
    for later in rounds:
        if not later["paired_from_standings"] or not moved:
            continue
        if later["state"] == Round.State.DRAFT:
            notes.append(
                f"Round {later['number']} is a draft paired from the old standings: discard "
                "it and draft it again to pair from the new ones."
            )
        else:
            notes.append(
                f"Round {later['number']} was already {Round.State(later['state']).label} "
                "from the old standings; its pairings stay as they are."
            )
    if tournament.state == Tournament.State.FINISHED and moved:
        notes.append("The tournament is finished: its final standings change.")
    return notes
