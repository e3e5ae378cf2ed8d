"""Every number explains itself: a game's totals, a game's summary and a match's result in
words with players' names, for the scoreboard, the public match summary and the API.

The words are built here, in the presentation layer, from what is stored: a finished
game's `breakdown` (the engine's GameResult, which speaks of seats "A" and "B":
scoring.rules stays pure) and the match's frozen rules. Nothing is recomputed.

    total       "Ada: 105 in hands + 100 game + 2 boxes × 25 = 255"
    summary     "Game to Ada. Ada: 105 in hands + ... = 255; Ben: 30 in hands + 1 box × 25 = 55"
    result      "Ada wins 2–1: time was called and Ada led on games"; "Ben wins 3–1"
    arithmetic  how the match result came about: who won which games, the target, the
                match points as sums of the game totals.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from ginclub import ledger
from scoring.models import Game, Match

SEATS = ("A", "B")

# A stored field as the ledger page, the audit and the replay's differences name it
# (msgids, said in the reader's language where shown).
FIELD_LABELS = {
    "outcome": gettext_noop("how it ended"),
    "knocker": gettext_noop("knocked"),
    "knocker_deadwood": gettext_noop("knocker's deadwood"),
    "defender_deadwood": gettext_noop("defender's deadwood"),
    "first_dealer": gettext_noop("first dealer"),
    "games": gettext_noop("games"),
    "points": gettext_noop("points"),
    "winner": gettext_noop("winner"),
    "resolved": gettext_noop("decided by hand"),
    "state": gettext_noop("state"),
    "dealer": gettext_noop("dealer"),
    "player": gettext_noop("player"),
    "players": gettext_noop("players"),
    "result": gettext_noop("result"),
    "round": gettext_noop("round"),
    "rounds": gettext_noop("rounds"),
    "rules": gettext_noop("rules"),
    "seed": gettext_noop("seed"),
    "seeds": gettext_noop("seeds"),
    "table": gettext_noop("table"),
    "reason": gettext_noop("reason"),
    "link_generation": gettext_noop("table links"),
    "player_pages_public": gettext_noop("player pages public"),
    "undecided_tables": gettext_noop("undecided tables"),
    "games_won": gettext_noop("games won"),
    "decided_by": gettext_noop("decided by"),
    "decided_at": gettext_noop("decided at"),
    "device": gettext_noop("device"),
    "ip": gettext_noop("address"),
    "action": gettext_noop("by the change"),
    "auditor": gettext_noop("auditor"),
    "audits": gettext_noop("audits"),
    "penalty": gettext_noop("penalty no."),
    "kind": gettext_noop("penalty"),
    "infraction": gettext_noop("infraction"),
    "details": gettext_noop("what happened"),
    "active": gettext_noop("standing"),
    "seat": gettext_noop("against"),
    # a dispute's figures: [the hand's, the disputer's] by field (scoring.hand_input)
    "differences": gettext_noop("figures in dispute"),
}


def names_of(match: Match) -> dict[str, str]:
    return {"A": match.player_a.name, "B": match.player_b.name}


def _other(seat: str) -> str:
    return "B" if seat == "A" else "A"


def _boxes(won: int, each: int) -> str:
    # Translators: the box bonus, hands won times the bonus for each: "2 boxes × 25".
    return ngettext("%(count)s box × %(each)s", "%(count)s boxes × %(each)s", won) % {
        "count": won,
        "each": each,
    }


def _box_each(breakdown: dict[str, Any], seat: str, rules: dict[str, Any]) -> int:
    won = breakdown["hands_won"][seat]
    return breakdown["box_bonus"][seat] // won if won else rules.get("box_bonus", 0)


def total(game: Game, seat: str, names: dict[str, str], rules: dict[str, Any]) -> str:
    """One player's total in a game, as a sum: "Ada: 105 in hands + 100 game + 2 boxes ×
    25 = 255". An unfinished game has no bonuses yet: "Ada: 45 in hands so far"."""
    bd = game.breakdown or {}
    if game.state != Game.State.FINISHED or not bd:
        points = game.hand_points_a if seat == "A" else game.hand_points_b
        return _("%(name)s: %(points)s in hands so far") % {"name": names[seat], "points": points}
    points, won = bd["hand_points"][seat], bd["hands_won"][seat]
    values = {
        "points": points,
        "boxes": _boxes(won, _box_each(bd, seat, rules)),
        "total": bd["totals"][seat],
        "bonus": _game_bonus(bd, seat),
        "extra": rules.get("shutout_bonus", 100),
    }
    if bd["winner"] != seat:
        if values["bonus"]:  # game_bonus_to each_reaching_min: the loser reached it too
            text = _("%(points)s in hands + %(bonus)s game + %(boxes)s = %(total)s") % values
        else:
            text = _("%(points)s in hands + %(boxes)s = %(total)s") % values
        return _("%(name)s: %(sum)s") % {"name": names[seat], "sum": text}
    shutout = rules.get("shutout") if bd.get("shutout") else None
    text = _winner_sum(shutout, bool(values["bonus"])) % values
    floor = rules.get("game_bonus_min")
    if not values["bonus"] and floor is not None and points < floor:
        text = _("%(sum)s (no game bonus: %(points)s in hands, under %(floor)s)") % {
            "sum": text,
            "points": points,
            "floor": floor,
        }
    # Translators: a player's total in a game: "Ada: 105 in hands + … = 255".
    return _("%(name)s: %(sum)s") % {"name": names[seat], "sum": text}


def _game_bonus(bd: dict[str, Any], seat: str) -> int:
    """A player's game bonus; a game stored before `game_bonuses` gave it to the winner."""
    if "game_bonuses" in bd:
        return bd["game_bonuses"][seat]
    return bd["game_bonus"] if bd["winner"] == seat else 0


def _winner_sum(shutout: str | None, bonus: bool) -> str:
    """The winner's sum as a template: with or without the game bonus, and the shutout."""
    if shutout == "double":
        if bonus:
            return _("(%(points)s in hands + %(bonus)s game + %(boxes)s) × 2 shutout = %(total)s")
        return _("(%(points)s in hands + %(boxes)s) × 2 shutout = %(total)s")
    if shutout == "double_points":
        if bonus:
            return _("%(points)s in hands × 2 shutout + %(bonus)s game + %(boxes)s = %(total)s")
        return _("%(points)s in hands × 2 shutout + %(boxes)s = %(total)s")
    if shutout == "bonus":
        if bonus:
            return _(
                "%(points)s in hands + %(bonus)s game + %(boxes)s + %(extra)s shutout = %(total)s"
            )
        return _("%(points)s in hands + %(boxes)s + %(extra)s shutout = %(total)s")
    if bonus:
        return _("%(points)s in hands + %(bonus)s game + %(boxes)s = %(total)s")
    return _("%(points)s in hands + %(boxes)s = %(total)s")


def totals(game: Game, names: dict[str, str], rules: dict[str, Any]) -> dict[str, str]:
    return {seat: total(game, seat, names, rules) for seat in SEATS}


def _why(bd: dict[str, Any], rules: dict[str, Any]) -> str:
    """Why the winner of a fixed-length game won (docs/rules.md §7); blank to a target.
    The figure compared is hand points and boxes, plus under `game_bonus_to`
    `each_reaching_min` the game bonuses (they do not depend on who wins)."""
    if rules.get("game_hands") is None:
        return ""
    each = rules.get("game_bonus_to") == "each_reaching_min"
    compared = {
        s: bd["hand_points"][s] + bd["box_bonus"][s] + (_game_bonus(bd, s) if each else 0)
        for s in SEATS
    }
    winner = bd["winner"]
    loser = _other(winner)
    if compared[winner] != compared[loser]:
        if each:
            text = _("higher total with boxes and game bonuses, %(winner)s to %(loser)s")
        else:
            text = _("higher total with boxes, %(winner)s to %(loser)s")
        return text % {"winner": compared[winner], "loser": compared[loser]}
    if bd["hands_won"][winner] != bd["hands_won"][loser]:
        if each:
            text = _("level at %(points)s with boxes and game bonuses, more hands won")
        else:
            text = _("level at %(points)s with boxes, more hands won")
        return text % {"points": compared[winner]}
    if each:
        text = _("level at %(points)s with boxes, game bonuses and hands won, won the last hand")
    else:
        text = _("level at %(points)s with boxes and hands won, won the last hand")
    return text % {"points": compared[winner]}


def summary(game: Game, names: dict[str, str], rules: dict[str, Any]) -> str:
    """A finished game in words with names, winner first (blank while it is played)."""
    bd = game.breakdown or {}
    if game.state != Game.State.FINISHED or not bd:
        return ""
    if bd.get("forfeited_by") and bd.get("winner"):
        return _forfeited(game, bd, names)
    if not bd.get("winner"):
        said = "; ".join(total(game, s, names, rules) for s in SEATS)
        return _("Game drawn: nobody won a hand. %(totals)s") % {"totals": said}
    winner = bd["winner"]
    said = "; ".join(total(game, seat, names, rules) for seat in (winner, _other(winner)))
    values = {"name": names[winner], "why": _why(bd, rules), "totals": said}
    if values["why"]:
        # Translators: a fixed-length game's winner, why they won, then both totals.
        return _("Game to %(name)s (%(why)s). %(totals)s") % values
    return _("Game to %(name)s. %(totals)s") % values


def _forfeited(game: Game, bd: dict[str, Any], names: dict[str, str]) -> str:
    """A game a game loss penalty ended (docs/rules.md §18), winner first."""
    winner, loser = bd["winner"], bd["forfeited_by"]
    return _(
        "Game to %(name)s: %(loser)s lost it by a game loss penalty. %(name)s: %(points)s "
        "in hands + %(bonus)s game + %(boxes)s boxes = %(total)s; %(loser)s: 0."
    ) % {
        "name": names[winner],
        "loser": names[loser],
        "points": bd["hand_points"][winner],
        "bonus": bd["game_bonus"],
        "boxes": bd["box_bonus"][winner],
        "total": bd["totals"][winner],
    }


def decision_why(match: Match) -> str:
    """Why a result set over the hands stands, for the players ("time was called and Ada
    led on games", "result set by the organiser (no phone at the table)"); blank when
    the hands decide. The stored reason is worded in the reader's language by the app
    that wrote it (ginclub.ledger's field text), where it registered one."""
    if not match.overruled or not match.winner:
        return ""
    stored = match.decision_reason.strip()
    reason = ledger.field_text("decision_reason", stored) or stored
    if match.decided_by == Match.DecidedBy.TIME:
        return reason
    if match.decided_by == Match.DecidedBy.PENALTY:
        loser = match.player("B" if match.winner == "A" else "A").name
        return _("a match loss penalty against %(name)s (%(reason)s)") % {
            "name": loser,
            "reason": reason,
        }
    if reason:
        return _("result set by the organiser (%(reason)s)") % {"reason": reason}
    return _("set by the organiser")


def result(match: Match) -> str:
    """How the match ended, winner's games first ("Ben wins 3–1"; set over the hands:
    "Ada wins 2–1: time was called and Ada led on games"; with games level, "Cleo wins:
    time was called with games level and Cleo led game 1 45–20"); blank while played."""
    names = names_of(match)
    if why := decision_why(match):
        w, games = match.winner, {"A": match.games_won_a, "B": match.games_won_b}
        values = {"name": names[w], "won": games[w], "lost": games[_other(w)], "why": why}
        if values["won"] == values["lost"]:  # not "Cleo wins 0–0": the why says it
            return _("%(name)s wins: %(why)s") % values
        return _("%(name)s wins %(won)s–%(lost)s: %(why)s") % values
    if not match.winner:
        if match.state == Match.State.CLOSED:
            return _("The match was stopped by an organiser; no result yet.")
        return ""
    w = match.winner
    games = {"A": match.games_won_a, "B": match.games_won_b}
    return _("%(name)s wins %(won)s–%(lost)s") % {
        "name": names[w],
        "won": games[w],
        "lost": games[_other(w)],
    }


def _won(name: str, numbers: list[int]) -> str:
    if len(numbers) == 1:
        return _("%(name)s won game %(number)s") % {"name": name, "number": numbers[0]}
    return _("%(name)s won games %(numbers)s and %(last)s") % {
        "name": name,
        "numbers": ", ".join(map(str, numbers[:-1])),
        "last": numbers[-1],
    }


def _drawn(numbers: list[int]) -> str:
    if len(numbers) == 1:
        return _("game %(number)s drawn") % {"number": numbers[0]}
    return _("games %(numbers)s and %(last)s drawn") % {
        "numbers": ", ".join(map(str, numbers[:-1])),
        "last": numbers[-1],
    }


def arithmetic(match: Match, games: list[Game]) -> str:
    """The match result's arithmetic in words: who won which games against what the
    match asks, and each player's match points as the sum of their game totals."""
    names, rules = names_of(match), match.rules
    finished = [g for g in games if g.state == Game.State.FINISHED]
    won = {s: [g.number for g in finished if g.winner == s] for s in SEATS}
    drawn = [g.number for g in finished if not g.winner]
    said = [_won(names[s], won[s]) for s in SEATS if won[s]] or [_("No game finished")]
    if drawn:
        said.append(_drawn(drawn))
    if rules.get("hollywood"):
        goal = _("three games at once: the match goes to whoever wins more of them")
    else:
        to_win = rules.get("games_to_win", 1)
        goal = ngettext(
            "the first to %(count)s game wins", "the first to %(count)s games wins", to_win
        ) % {"count": to_win}
    # Translators: who won which games, then what the match asks ("the first to 3 games wins").
    text = _("%(games)s; %(goal)s.") % {"games": ", ".join(said), "goal": goal}
    if finished:
        sums = []
        for s in SEATS:
            parts = [str(g.total_a if s == "A" else g.total_b) for g in finished]
            shown = " + ".join(parts) + (f" = {sum(map(int, parts))}" if len(parts) > 1 else "")
            sums.append(f"{names[s]} {shown}")
        text += " " + _("Match points (game totals): %(sums)s.") % {"sums": "; ".join(sums)}
    if why := decision_why(match):
        text += " " + _("The match did not run to its end: %(why)s.") % {"why": why}
    return text
