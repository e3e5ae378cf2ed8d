"""The ledger replayed: a match's chain read back into the hands, games and result it
describes, and compared with the tables, naming every difference (docs/audit.md).

A forger who edits the hands table (a hand's points, then the game totals to match)
leaves the chain intact; the replay finds the hand differing from what its last ledger
row says, and games or a result that the ledger's hands do not give.

Terms:
    snapshot   a hand as a ledger row's `after` records it (scoring.services.base.snapshot):
               number, game, state, version, outcome, knocker, deadwoods, points, winner.
               Every hand row carries one; a re-score and an import carry the snapshot of
               each hand they wrote (`after["hands"]`, with its id).
    unknown    a match with a row written before re-scores and imports recorded their
               hands (legacy): its hands' values cannot be replayed; their existence still is.
    decision   the last row whose `after` says who set the result over the hands
               (`decided_by`): that result stands instead of the hands'.
    game loss  a `penalty_recorded` row of a game loss ends its game for the opponent
               (scoring.rules.games.forfeit_game) until a `penalty_reversed` row of the
               same penalty takes it back.
Reads only; the engine (scoring.rules) derives games and the result from the hands.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from ginclub import checkpoints, ledger
from scoring.models import Game, Hand, LedgerRow, Match
from scoring.rules import (
    RuleProfile,
    RulesError,
    forfeit_game,
    score_game,
    score_hollywood,
    score_match,
)
from scoring.rules.games import hollywood_match
from scoring.words import FIELD_LABELS

HAND_FIELDS = (
    "game",
    "state",
    "version",
    "outcome",
    "knocker",
    "knocker_deadwood",
    "defender_deadwood",
    "points",
    "winner",
)
PENALTY_ACTIONS = ("penalty_recorded", "penalty_reversed")
# A difference's field as a reader names it: as the ledger page does, and the fields
# only a replay compares; a rules option is named by its key.
FIELD_WORDS = {
    **FIELD_LABELS,
    "row": gettext_noop("the row itself"),
    "game": gettext_noop("game"),
    "number": gettext_noop("number"),
    "version": gettext_noop("version"),
    "hand_points": gettext_noop("hand points"),
    "totals": gettext_noop("totals"),
    "score": gettext_noop("the score"),
}
SEATED = ("knocker", "winner")  # fields whose value is a seat: the player's name
BY_SEAT = ("hand_points", "totals", "games_won", "points")  # [A, B] or {"A": .., "B": ..}
VALUE_FIELDS = ("version", "outcome", "knocker_deadwood", "defender_deadwood", "points", "winner")


@dataclass(frozen=True)
class Difference:
    """One thing the tables say otherwise than the ledger: `what` (a hand, a game, the
    result, the rules), its `field`, and both values."""

    match_id: int
    what: str
    field: str
    ledger: Any
    table: Any
    # seat letter -> player's name, for the sentence (replay_match fills it)
    names: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def chain(self) -> str:
        return f"match:{self.match_id}"

    def __str__(self) -> str:
        # "match:10: hand 5 of game 1, defender's deadwood: 55 in the tables, 35 on the ledger"
        return _(
            "%(chain)s: %(what)s, %(field)s: %(table)s in the tables, %(ledger)s on the ledger"
        ) % {
            "chain": self.chain,
            "what": self.what,
            "field": _(FIELD_WORDS[self.field]) if self.field in FIELD_WORDS else self.field,
            "table": self._shown(self.table),
            "ledger": self._shown(self.ledger),
        }

    def _shown(self, value: Any) -> str:
        """A value in words: seats as the players' names ({"A": 188, "B": 288} and
        [188, 288] read "Finn 188, Ada 288"), nothing as "missing"."""
        if value is None:
            return _("missing")
        seats = self.names or {"A": "A", "B": "B"}
        if self.field in BY_SEAT and isinstance(value, list) and len(value) == 2:
            value = dict(zip("AB", value, strict=True))
        if self.field in BY_SEAT and isinstance(value, dict) and set(value) <= set(seats):
            return ", ".join(f"{seats[seat]} {value[seat]}" for seat in sorted(value))
        if self.field in SEATED and value in seats:
            return seats[value]
        return str(value)


@dataclass
class Replayed:
    """What a match's chain says, row by row."""

    rules: dict[str, Any] | None = None
    hands: dict[int, dict[str, Any]] = field(default_factory=dict)
    decision: dict[str, Any] | None = None
    unknown: bool = False
    # penalty id -> (game number, seat penalised) of each standing game loss
    game_losses: dict[int, tuple[int, str]] = field(default_factory=dict)

    def read(self, row: LedgerRow) -> None:
        after = row.after if isinstance(row.after, dict) else {}
        if isinstance(after.get("rules"), dict):
            self.rules = after["rules"]
        if row.hand_id is not None and {"number", "state"} <= set(after):
            self.hands[row.hand_id] = after
        if row.action in ("match_rescored", "match_imported"):
            if "hands" not in after:
                self.unknown = self.unknown or bool(after.get("hands_changed", 1))
            for hand in after.get("hands") or []:
                if isinstance(hand, dict) and "id" in hand:
                    self.hands[hand["id"]] = hand
        if "decided_by" in after:
            self.decision = after if after["decided_by"] else None
        if row.action in PENALTY_ACTIONS and after.get("kind") == "game_loss":
            self.game_losses.pop(after.get("penalty"), None)
            if after.get("active"):
                self.game_losses[after.get("penalty")] = (after.get("game"), after.get("seat"))

    def lost_by(self) -> dict[int, str]:
        """Game number -> the seat a standing game loss ended it against."""
        return {game: seat for game, seat in self.game_losses.values()}


def replay(match: Match) -> Replayed:
    replayed = Replayed()
    for row in LedgerRow.objects.filter(chain=f"match:{match.pk}").order_by("position"):
        replayed.read(row)
    return replayed


def replay_match(match: Match) -> list[Difference]:
    """Every difference between `match`'s tables and its replayed chain."""
    replayed = replay(match)
    hands = list(Hand.objects.filter(game__match=match).select_related("game"))
    differences = _rules(match, replayed) + _hands(match, replayed, hands)
    games = list(match.games.order_by("number"))
    try:
        profile = RuleProfile.from_dict(replayed.rules or match.rules)
        expected_games = _games(replayed, profile)
        differences += _compare_games(match, games, expected_games)
        differences += _result(match, replayed, expected_games, profile)
    except (RulesError, KeyError, TypeError, ValueError) as error:
        # rows the engine cannot score (a chain that broke there says which row)
        what = _("the ledger's hands")
        differences.append(Difference(match.pk, what, "score", str(error), None))
    if not differences:
        return differences
    names = {"A": match.player_a.name, "B": match.player_b.name}
    return [replace(difference, names=names) for difference in differences]


def _rules(match: Match, replayed: Replayed) -> list[Difference]:
    said = replayed.rules
    if not isinstance(said, dict) or said == match.rules:
        return []
    what = _("the rules")
    return [
        Difference(match.pk, what, key, said.get(key), match.rules.get(key))
        for key in sorted(set(said) | set(match.rules))
        if said.get(key) != match.rules.get(key)
    ]


def _hand_name(number: Any, game: Any) -> str:
    return _("hand %(number)s of game %(game)s") % {"number": number, "game": game}


def _hands(match: Match, replayed: Replayed, hands: list[Hand]) -> list[Difference]:
    differences, unmatched = [], dict(replayed.hands)
    for hand in hands:
        said = unmatched.pop(hand.pk, None)
        name = _hand_name(hand.number, hand.game.number)
        if said is None:
            if not replayed.unknown:
                differences.append(Difference(match.pk, name, "row", None, _("present")))
            continue
        table = {f: getattr(hand, f) or None for f in HAND_FIELDS if f != "game"}
        table["game"], table["number"] = hand.game.number, hand.number
        for key in ("number", *HAND_FIELDS):
            if replayed.unknown and key in VALUE_FIELDS:
                continue
            if (said.get(key) or None) != table[key]:
                differences.append(Difference(match.pk, name, key, said.get(key), table[key]))
    for said in unmatched.values():
        name = _hand_name(said.get("number"), said.get("game"))
        differences.append(Difference(match.pk, name, "row", _("present"), None))
    return differences


@dataclass(frozen=True)
class ExpectedGame:
    number: int
    result: Any  # the engine's GameResult
    finished: bool


def _games(replayed: Replayed, profile: RuleProfile) -> dict[int, ExpectedGame]:
    """The games the replayed hands give (by game number)."""
    by_game: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for hand in replayed.hands.values():
        if hand.get("state") != Hand.State.VOIDED:
            by_game[hand["game"]].append(hand)
    for hands in by_game.values():
        hands.sort(key=lambda h: h["number"])
    if profile.hollywood:
        return _hollywood(by_game.get(1, []), profile)
    expected, lost_by = {}, replayed.lost_by()
    for number in sorted(set(by_game) | set(lost_by)):
        hands = by_game.get(number, [])
        confirmed = [h for h in hands if h["state"] == Hand.State.CONFIRMED]
        if number in lost_by:
            result = forfeit_game(_scores(confirmed), profile, lost_by[number])
            expected[number] = ExpectedGame(number, result, True)
            continue
        result = score_game(_scores(confirmed), profile)
        finished = result.finished and len(confirmed) == len(hands)
        expected[number] = ExpectedGame(number, result, finished)
    return expected


def _scores(hands: Iterable[dict[str, Any]]) -> list[tuple[str | None, int]]:
    return [(h.get("winner") or None, h.get("points") or 0) for h in hands]


def _hollywood(hands: list[dict[str, Any]], profile: RuleProfile) -> dict[int, ExpectedGame]:
    confirmed = [h for h in hands if h["state"] == Hand.State.CONFIRMED]
    unsettled = [h["number"] for h in hands if h["state"] != Hand.State.CONFIRMED]
    result = score_hollywood(_scores(confirmed), profile)
    expected = {}
    for index, game in enumerate(result.games):
        ended = result.ended_at[index]
        finished = ended is not None and not any(
            n < confirmed[ended - 1]["number"] for n in unsettled
        )
        expected[index + 1] = ExpectedGame(index + 1, game, finished)
    return expected


def _compare_games(match: Match, games: list[Game], expected: dict[int, ExpectedGame]):
    differences = []
    for game in games:
        want = expected.get(game.number)
        if want is None:
            continue  # a game without hands yet: nothing on the ledger to say otherwise
        name = _("game %(number)s") % {"number": game.number}
        data = want.result.as_dict()
        said: dict[str, Any] = {
            "state": (Game.State.FINISHED if want.finished else Game.State.IN_PROGRESS).value,
            "hand_points": [data["hand_points"]["A"], data["hand_points"]["B"]],
        }
        if want.finished:
            said["winner"] = data["winner"] or None
            said["totals"] = [data["totals"]["A"], data["totals"]["B"]]
        table = {
            "state": game.state,
            "hand_points": [game.hand_points_a, game.hand_points_b],
            "winner": game.winner or None,
            "totals": [game.total_a, game.total_b],
        }
        for key, value in said.items():
            if value != table[key]:
                differences.append(Difference(match.pk, name, key, value, table[key]))
    return differences


def _result(match: Match, replayed: Replayed, games: dict[int, ExpectedGame], profile):
    """The match's winner, games won and points: the decision's when one stands, else
    what the replayed games give."""
    if replayed.decision is not None:
        said = {
            "winner": replayed.decision.get("winner"),
            "games_won": replayed.decision.get("games_won"),
            "points": replayed.decision.get("points"),
            "decided_by": replayed.decision.get("decided_by"),
        }
    else:
        said = {**_from_games(games, profile), "decided_by": None}
    table = {
        "winner": match.winner or None,
        "games_won": {"A": match.games_won_a, "B": match.games_won_b},
        "points": {"A": match.points_a, "B": match.points_b},
        "decided_by": match.decided_by or None,
    }
    return [
        Difference(match.pk, _("the result"), key, value, table[key])
        for key, value in said.items()
        if value != table[key]
    ]


def _from_games(games: dict[int, ExpectedGame], profile: RuleProfile) -> dict[str, Any]:
    finished = [g.result for _number, g in sorted(games.items()) if g.finished]
    if profile.hollywood:
        summary = hollywood_match(
            [g.result if g.finished else _unfinished(g.result) for g in games.values()]
        )
        won, totals, winner = summary.games_won, summary.totals, summary.winner
        if not summary.finished:
            winner = None
    else:
        for cut in range(1, len(finished)):
            if score_match(finished[:cut], profile).finished:
                finished = finished[:cut]
                break
        data = score_match(finished, profile).as_dict()
        won, totals = data["games_won"], data["totals"]
        winner = data["winner"] if data["finished"] else None
    return {"winner": winner or None, "games_won": dict(won), "points": dict(totals)}


def _unfinished(result):
    return replace(result, finished=False)


# ------------------------------------------------------------------ the whole check


@dataclass(frozen=True)
class Verification:
    """A ledger check: the chains' breaks (ginclub.ledger.verify, the checkpoint's
    included), the replay's differences, how many rows were read and how many of them
    carry a plain legacy hash, and the checkpoint held against ({seq, written_at} or
    None)."""

    breaks: list[ledger.Break]
    differences: list[Difference]
    rows: int
    legacy_rows: int
    checkpoint: dict[str, Any] | None

    @property
    def ok(self) -> bool:
        return not self.breaks and not self.differences


def verify(
    chains: ledger.Chains = None,
    matches: Iterable[Match] | None = None,
    *,
    checkpoint: bool = True,
) -> Verification:
    """Check `chains` (every chain when None; against the last checkpoint unless told
    not to) and replay `matches` (every match when None) against the tables."""
    if matches is None:
        matches = Match.objects.order_by("pk")
    differences = [difference for match in matches for difference in replay_match(match)]
    rows = LedgerRow.objects.all()
    if chains is not None:
        rows = (
            rows.filter(chain=chains) if isinstance(chains, str) else rows.filter(chain__in=chains)
        )
    found = checkpoints.last().checkpoint if checkpoint else None
    return Verification(
        breaks=ledger.verify(chains, checkpoint=checkpoint),
        differences=differences,
        rows=rows.count(),
        legacy_rows=ledger.legacy_rows(chains),
        checkpoint={"seq": found["seq"], "written_at": found["written_at"]} if found else None,
    )


def verify_chain(chain: str, *, checkpoint: bool = True) -> Verification:
    """One chain; a match's is replayed too."""
    kind, _sep, number = chain.partition(":")
    matches = Match.objects.filter(pk=int(number)) if kind == "match" and number.isdigit() else []
    return verify(chain, matches, checkpoint=checkpoint)
