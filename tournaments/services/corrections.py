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

from django.utils.translation import gettext as _

from ginclub.errors import Conflict
from scoring.hooks import ResultChange
from scoring.models import Game
from tournaments.models import Pairing, Round, Tournament
from tournaments.selectors.standings import standings, standings_moves
from tournaments.translated import reason_text


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
        Pairing.objects.select_related(
            "round__tournament", "match", "player_a__player", "player_b__player"
        )
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
    # Translators: a table of a tournament: "Ada v Ben (round 2, table 3)".
    return _("%(a)s v %(b)s (round %(round)s, table %(table)s)") % {
        "a": names["A"],
        "b": names["B"],
        "round": pairing.round.number,
        "table": pairing.table,
    }


def _refuse_undecided(change: ResultChange, pairing: Pairing, names: dict[str, str]) -> None:
    if change.after["winner"] is not None:
        return
    game = Game.objects.filter(match_id=change.match_id, state=Game.State.IN_PROGRESS).first()
    target = (pairing.match.rules or {}).get("game_target") if pairing.match else None
    reaching = _(" (someone reaching %(target)s)") % {"target": target} if target else ""
    voiding = change.action == "hand_voided"
    # Translators: completes "..., but voiding hand 3 of game 2 would leave ...".
    what = {"hand_voided": _("voiding"), "hand_corrected": _("this correction of")}.get(
        change.action, _("this change to")
    )
    unfinished = (
        # Translators: completes "would leave game 2 unfinished (Ada 40 – 35 Ben) and the
        # match undecided".
        _("game %(number)s unfinished (%(a)s %(points_a)s – %(points_b)s %(b)s) and ")
        % {
            "number": game.number,
            "a": names["A"],
            "points_a": game.hand_points_a,
            "points_b": game.hand_points_b,
            "b": names["B"],
        }
        if game is not None
        else ""
    )
    ends = (
        _("game %(number)s still ends%(reaching)s") % {"number": game.number, "reaching": reaching}
        if game is not None
        else _("a player still wins")
    )
    games = change.after["games_won"]
    instead = (
        _("Correct %(hand)s instead of voiding it, to the score that was played, ")
        if voiding
        else _("Correct %(hand)s to the score that was played ")
    ) % {"hand": change.hand}
    raise Conflict(
        "would_reopen",
        _(
            "Round %(round)s is closed, so %(where)s must keep a winner, but %(what)s "
            "%(hand)s would leave %(unfinished)sthe match undecided (games %(a)s "
            "%(games_a)s – %(games_b)s %(b)s). %(instead)sso that %(ends)s. If the table "
            "really stopped before the match was decided, rule who won, correct the hands "
            "to that result and say so in the reason."
        )
        % {
            "round": pairing.round.number,
            "where": _where(pairing, names),
            "what": what,
            "hand": change.hand,
            "unfinished": unfinished,
            "a": names["A"],
            "games_a": games["A"],
            "games_b": games["B"],
            "b": names["B"],
            "instead": instead,
            "ends": ends,
        },
    )


def _refuse_bracket_change(
    change: ResultChange, pairing: Pairing, names: dict[str, str], later: list[dict]
) -> None:
    was, now = change.before["winner"], change.after["winner"]
    if pairing.round.stage != Round.Stage.ELIMINATION or not later or was == now:
        return
    nxt = later[0]
    through = names[was] if was else _("nobody")
    values = {
        "where": _where(pairing, names),
        "through": through,
        "now": names[now],
        "round": nxt["number"],
        "state": Round.State(nxt["state"]).label,
    }
    if nxt["state"] == Round.State.DRAFT:
        message = _(
            "%(where)s: the winner would change from %(through)s to %(now)s, but round "
            "%(round)s of the bracket is already drafted with %(through)s through: discard "
            "that draft first (Rounds page), then make this change and draft it again."
        )
    else:
        # Translators: %(state)s is the round's state ("published", "closed").
        message = _(
            "%(where)s: the winner would change from %(through)s to %(now)s, but round "
            "%(round)s of the bracket is already %(state)s with %(through)s through, so "
            "this result can no longer change."
        )
    raise Conflict("bracket_changed", message % values)


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
    notes = [
        _("Round %(number)s is closed: this changes a result the standings already count.")
        % {"number": rnd.number}
    ]
    if pairing.resolved and pairing.match.decision_reason:
        notes.append(
            _(
                "The table's result was recorded by hand (%(reason)s); it stands, so the "
                "standings do not change."
            )
            % {"reason": reason_text(pairing.match.decision_reason)}
        )
    elif pairing.resolved:
        notes.append(
            _("The table's result was recorded by hand; it stands, so the standings do not change.")
        )
    elif not moved:
        notes.append(_("No standings line moves."))
    for later in rounds:
        if not later["paired_from_standings"] or not moved:
            continue
        if later["state"] == Round.State.DRAFT:
            notes.append(
                _(
                    "Round %(number)s is a draft paired from the old standings: discard it "
                    "and draft it again to pair from the new ones."
                )
                % {"number": later["number"]}
            )
        else:
            notes.append(
                # Translators: %(state)s is the round's state ("published", "closed").
                _(
                    "Round %(number)s was already %(state)s from the old standings; its "
                    "pairings stay as they are."
                )
                % {"number": later["number"], "state": Round.State(later["state"]).label}
            )
    if tournament.state == Tournament.State.FINISHED and moved:
        notes.append(_("The tournament is finished: its final standings change."))
    return notes
