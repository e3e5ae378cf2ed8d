"""A tournament's audit: every result not made by the two players agreeing, in one list,
and the verification of the chains that record them (reads).

Terms:
    exception   a ledger row where a result was set or changed by anyone other than the
                two players agreeing at the table: an organiser's result, the time
                policy's, a result set by hand withdrawn, a hand corrected or voided, a
                hand disputed (and how the dispute ended), a rules change (the event's,
                and each match it re-scored to a new result), a result changed after
                its round closed.
    kind        which of those an exception is (KINDS).
    chain       the event's own ledger chain and each of its matches' chains
                (ginclub.ledger); `verify_tournament` checks them all,
                with the signed checkpoint, and replays each match.
    broken      a row at or after the first row of its chain that does not verify: it
                cannot be trusted, and the page marks it where it stands.

Each exception says who (the ledger's actor), from which device and address (the entry
the change came with, where there is one: a player's phone, an organiser's browser),
when, why, and the value before and after, in words with the players' names.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext, gettext_noop, pgettext

from ginclub import ledger
from ginclub.errors import ServiceError
from scoring.hand_input import STATE_WORDS, dispute_words, outcome_text
from scoring.models import Entry, LedgerRow, Penalty
from tournaments.models import Pairing, Tournament
from tournaments.selectors.corrections import result_text
from tournaments.selectors.exports import safe
from tournaments.selectors.verification import verify_tournament
from tournaments.translated import reason_text

KINDS = {
    "organiser_result": gettext_noop("Result set by an organiser"),
    "time_policy": gettext_noop("Result set by the time policy"),
    "decision_withdrawn": gettext_noop("Result set by hand withdrawn"),
    "correction": gettext_noop("Hand corrected"),
    "void": gettext_noop("Hand voided"),
    "dispute": gettext_noop("Hand disputed"),
    "rules_change": gettext_noop("Rules changed"),
    "after_close": gettext_noop("Result changed after its round closed"),
    "penalty": gettext_noop("Penalty recorded or reversed"),
}
# The match ledger's actions that are exceptions whatever they say.
MATCH_ACTIONS = {
    "decision_withdrawn": "decision_withdrawn",
    "hand_corrected": "correction",
    "hand_voided": "void",
    "hand_disputed": "dispute",
    "result_changed_after_close": "after_close",
    "penalty_recorded": "penalty",
    "penalty_reversed": "penalty",
}
# What ended a dispute: the next row about the same hand.
DISPUTE_ENDS = ("hand_corrected", "hand_voided", "hand_confirmed", "hand_withdrawn")


@dataclass(frozen=True)
class Place:
    """Where a match was played: its round, table and players."""

    round: int | None = None
    table: int | None = None
    names: dict[str, str] = field(default_factory=lambda: {"A": "?", "B": "?"})

    @property
    def players(self) -> str:
        return gettext("%(a)s v %(b)s") % {"a": self.names["A"], "b": self.names["B"]}


@dataclass(frozen=True)
class AuditException:
    """One exception, as the page, the API (AuditExceptionOutputSerializer) and the CSV
    export (CSV_COLUMNS, the same names) show it."""

    kind: str
    at: datetime
    chain: str
    position: int
    hash: str
    prev_hash: str
    place: Place
    match_id: int | None
    hand: str
    who: str
    device: str
    ip: str
    why: str
    before: str
    after: str
    ended: str
    broken: bool
    # `why` is a person's own words, as typed (the page quotes them), not words the site
    # made: a dispute's figures (its own words quoted inside), the time policy's reason
    quoted: bool

    @property
    def kind_label(self) -> str:
        return gettext(KINDS[self.kind])

    @property
    def round(self) -> int | None:
        return self.place.round

    @property
    def table(self) -> int | None:
        return self.place.table

    @property
    def players(self) -> str:
        return self.place.players if self.match_id else ""


@dataclass(frozen=True)
class ChainCheck:
    """One chain verified: how many rows, and the first that does not fit (or None)."""

    chain: str
    label: str
    rows: int
    match_id: int | None
    broken: ledger.Break | None
    differences: tuple[str, ...] = ()  # what its tables say otherwise (scoring.replay)

    @property
    def ok(self) -> bool:
        return self.broken is None and not self.differences


@dataclass(frozen=True)
class Audit:
    tournament: Tournament
    chains: list[ChainCheck]
    exceptions: list[AuditException]
    filters: dict[str, Any]
    checkpoint_problems: tuple[str, ...] = ()  # the signed checkpoint file's own

    @property
    def verified(self) -> bool:
        return not self.checkpoint_problems and all(check.ok for check in self.chains)

    @property
    def broken_chains(self) -> list[ChainCheck]:
        return [check for check in self.chains if not check.ok]


def _verified(tournament: Tournament, chains: list[str]):
    """{chain: its first break or None}, {chain: the replay's differences} and the
    checkpoint's own problems: the tournament verified in full (verify_tournament: every
    chain, its last signed checkpoint, each match replayed against its tables)."""
    found = verify_tournament(tournament)
    first: dict[str, ledger.Break | None] = dict.fromkeys(chains)
    for broken in found.breaks:
        if broken.chain in first and first[broken.chain] is None:
            first[broken.chain] = broken
    differences: dict[str, list[str]] = defaultdict(list)
    for difference in found.differences:
        differences[difference.chain].append(str(difference))
    checkpoint = tuple(b.problem for b in found.breaks if b.chain == ledger.CHECKPOINT)
    return first, differences, checkpoint


# ------------------------------------------------------------------------ the audit


def tournament_audit(
    tournament: Tournament,
    *,
    kind: str = "",
    round: str | int | None = None,
    player: str = "",
) -> Audit:
    """The event's exceptions (oldest first) and every chain verified. Filters: `kind`
    (a key of KINDS), `round` (a round's number), `player` (a part of a name).

    Raises ServiceError (`invalid`: an unknown kind, a round that is not a number)."""
    filters = _filters(tournament, kind, round, player)
    places = _places(tournament)
    chains = [tournament.chain] + [f"match:{match_id}" for match_id in places]
    checks, differences, checkpoint = _verified(tournament, chains)
    rows = list(
        LedgerRow.objects.filter(chain__in=chains)
        .select_related("entry", "hand__game")
        .order_by("created_at", "id")
    )
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        counts[row.chain] += 1
    exceptions = [found for found in _exceptions(rows, places, checks) if _kept(found, filters)]
    return Audit(
        tournament=tournament,
        chains=[
            _check(tournament, chain, counts[chain], places, checks[chain], differences[chain])
            for chain in chains
        ],
        exceptions=exceptions,
        filters=filters,
        checkpoint_problems=checkpoint,
    )


def _filters(tournament: Tournament, kind: str, round, player: str) -> dict[str, Any]:
    return {"kind": audit_kind(kind), "round": audit_round(round), "player": audit_player(player)}


def audit_kind(kind: str | None) -> str:
    """The kind filter: "" (every kind) or a key of KINDS. Raises ServiceError (`invalid`,
    naming the kinds). The page's filter form asks here too (AuditFilterForm)."""
    kind = (kind or "").strip()
    if kind and kind not in KINDS:
        # The message names the kinds as the page's filter does; the field's note keeps
        # the codes, which are what an API client sends.
        raise ServiceError(
            "invalid",
            gettext("There is no kind of exception called “%(kind)s”. The kinds are: %(kinds)s.")
            % {"kind": kind, "kinds": ", ".join(gettext(label) for label in KINDS.values())},
            fields={"kind": gettext("one of %(kinds)s") % {"kinds": ", ".join(KINDS)}},
        )
    return kind


def audit_round(round: str | int | None) -> int | None:
    """The round filter: None (every round) or a round's number. Raises ServiceError
    (`invalid`: not a whole number)."""
    if round in (None, ""):
        return None
    text = str(round).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 6:
        raise ServiceError(
            "invalid",
            gettext("A round is a whole number, not %(raw)s.") % {"raw": repr(text)},
            fields={"round": gettext("a whole number")},
        )
    return int(text)


def audit_player(player: str | None) -> str:
    """The player filter: a part of a name, as typed (at most 120 characters)."""
    return (player or "").strip()[:120]


def _kept(found: AuditException, filters: dict[str, Any]) -> bool:
    if filters["kind"] and found.kind != filters["kind"]:
        return False
    if filters["round"] is not None and found.round != filters["round"]:
        return False
    name = filters["player"].casefold()
    return not name or any(name in n.casefold() for n in found.place.names.values())


def _places(tournament: Tournament) -> dict[int, Place]:
    """{match id: Place} for every table of the event that has a match."""
    pairings = (
        Pairing.objects.filter(round__tournament=tournament)
        .exclude(match=None)
        .values_list("match_id", "round__number", "table", "match__player_a__name",
                     "match__player_b__name")
        .order_by("round__number", "table")
    )  # fmt: skip
    return {
        match_id: Place(number, table, {"A": a, "B": b})
        for match_id, number, table, a, b in pairings
    }


def _check(tournament, chain: str, rows: int, places, broken, differences) -> ChainCheck:
    match_id = int(chain.split(":", 1)[1]) if chain.startswith("match:") else None
    if match_id is None:
        label = gettext("The event's ledger (%(name)s)") % {"name": tournament.name}
    else:
        place = places[match_id]
        label = gettext("Round %(round)s, table %(table)s: %(players)s") % {
            "round": place.round,
            "table": place.table,
            "players": place.players,
        }
    return ChainCheck(chain, label, rows, match_id, broken, tuple(differences))


def _exceptions(rows: list[LedgerRow], places, checks) -> list[AuditException]:
    found = []
    firsts = _first_entrants(rows)
    for index, row in enumerate(rows):
        kind = _kind_of(row)
        if kind is None:
            continue
        place = places.get(row.match_id, Place())
        quoted = kind != "time_policy"
        if kind == "dispute":
            ended = _dispute_end(row, rows[index + 1 :])
            why = _dispute_why(row, place, firsts.get(row.hand_id, ""))
            quoted = not (row.after or {}).get("differences")
        else:
            ended = ""
            why = reason_text(row.reason) if kind == "time_policy" else row.reason
        found.append(_exception(row, kind, place, checks, ended, why, quoted))
    return found


def _first_entrants(rows: list[LedgerRow]) -> dict[int, str]:
    """{hand id: the seat of its first entry ("": an organiser)} for the disputed hands."""
    disputed = {row.hand_id for row in rows if row.action == "hand_disputed"}
    firsts: dict[int, str] = {}
    entries = Entry.objects.filter(hand_id__in=disputed, kind=Entry.Kind.SUBMIT).order_by("id")
    for hand_id, seat in entries.values_list("hand_id", "seat"):
        firsts.setdefault(hand_id, seat)
    return firsts


def _dispute_why(row: LedgerRow, place: Place, first: str) -> str:
    """What a dispute said, in the reader's language: the figures in dispute (the first
    entry's and the disputer's, by name) and the disputer's own words."""
    seat = row.entry.seat if row.entry is not None else ""
    names = (
        place.names.get(first, "?") if first else gettext("an organiser"),
        place.names.get(seat, "?") if seat else gettext("an organiser"),
    )
    diff = (row.after or {}).get("differences")
    return dispute_words(diff, row.reason, names=names, seats=place.names) if diff else row.reason


def _kind_of(row: LedgerRow) -> str | None:
    if row.action in MATCH_ACTIONS and row.match_id:
        return MATCH_ACTIONS[row.action]
    if row.action == "match_decided":
        by = (row.after or {}).get("decided_by")
        return {"organiser": "organiser_result", "time": "time_policy"}.get(by)
    if row.action == "rules_changed" and not row.match_id:
        return "rules_change"
    if row.action == "match_rescored" and _result(row.before) != _result(row.after):
        return "rules_change"
    return None


def _result(values: dict | None) -> tuple:
    values = values or {}
    return (values.get("winner"), values.get("games_won"), values.get("points"))


def _exception(
    row: LedgerRow, kind: str, place: Place, checks, ended: str, why: str, quoted: bool
) -> AuditException:
    entry, after_of = row.entry, row.after or {}
    broken = checks.get(row.chain)
    before, after = _said(row, kind, place)
    return AuditException(
        kind=kind,
        at=row.created_at,
        chain=row.chain,
        position=row.position,
        hash=row.hash,
        prev_hash=row.prev_hash,
        place=place,
        match_id=row.match_id,
        hand=_hand_name(row),
        who=row.actor,
        device=entry.device if entry is not None else str(after_of.get("device") or ""),
        ip=(entry.ip or "") if entry is not None else str(after_of.get("ip") or ""),
        why=why,
        before=before,
        after=after,
        ended=ended,
        broken=broken is not None and row.position >= broken.position,
        quoted=quoted,
    )


def _hand_name(row: LedgerRow) -> str:
    values = row.before or row.after or {}
    if row.hand_id is None or "game" not in values:
        return ""
    return pgettext("in a sentence", "hand %(number)s of game %(game)s") % {
        "number": values.get("number"),
        "game": values.get("game"),
    }


def _dispute_end(row: LedgerRow, later: list[LedgerRow]) -> str:
    for other in later:
        if other.hand_id == row.hand_id and other.action in DISPUTE_ENDS:
            return gettext("%(what)s by %(who)s on %(when)s") % {
                "what": ledger.action_label(other.action),
                "who": ledger.actor_label(other.actor),
                "when": date_format(localtime(other.created_at), "SHORT_DATETIME_FORMAT"),
            }
    return gettext("still disputed")


def _said(row: LedgerRow, kind: str, place: Place) -> tuple[str, str]:
    before, after = row.before or {}, row.after or {}
    if kind in ("correction", "void", "dispute"):
        return _hand_text(before, place), _hand_text(after, place)
    if kind == "after_close":
        return _result_text(before.get("result"), place), _result_text(after.get("result"), place)
    if kind == "rules_change" and not row.match_id:
        return _settings_text(before, after)
    if kind == "penalty":
        return _penalty_text(after, place, standing=False), _penalty_text(after, place)
    return _result_text(before, place), _result_text(after, place)


def _penalty_text(penalty: dict, place: Place, *, standing: bool = True) -> str:
    """A penalty row's `after` (scoring.services.penalty_of) in words: before it, the
    penalty not standing (none yet, or reversed); after it, as the row leaves it."""
    if penalty.get("active") != standing:
        return gettext("no penalty")
    kinds = dict(Penalty.Kind.choices)
    return gettext("%(kind)s against %(name)s: %(details)s") % {
        "kind": kinds.get(penalty.get("kind"), penalty.get("kind")),
        "name": place.names.get(penalty.get("seat"), penalty.get("player") or "?"),
        "details": penalty.get("details") or "",
    }


def _hand_text(hand: dict, place: Place) -> str:
    if not hand:
        return ""
    state = str(STATE_WORDS.get(hand.get("state") or "", hand.get("state") or ""))
    if hand.get("outcome") == "dead":
        return gettext("dead hand (%(state)s)") % {"state": state}
    return gettext(
        "%(outcome)s by %(knocker)s, deadwood %(kd)s v %(dd)s: %(points)s points to "
        "%(winner)s (%(state)s, version %(version)s)"
    ) % {
        "outcome": outcome_text(hand["outcome"]) if hand.get("outcome") else "?",
        "knocker": place.names.get(hand.get("knocker") or "", "?"),
        "kd": hand.get("knocker_deadwood"),
        "dd": hand.get("defender_deadwood"),
        "points": hand.get("points"),
        "winner": place.names.get(hand.get("winner") or "", gettext("nobody")),
        "state": state,
        "version": hand.get("version"),
    }


def _result_text(result: dict | None, place: Place) -> str:
    if not result or "games_won" not in result:
        return ""
    return result_text(result, place.names)


def _settings_text(before: dict, after: dict) -> tuple[str, str]:
    """The rule options a rules change moved, old and new ("game_target 100")."""
    old_rules, new_rules = before.get("rules") or {}, after.get("rules") or {}
    moved = sorted(
        k for k in set(old_rules) | set(new_rules) if old_rules.get(k) != new_rules.get(k)
    )
    said_before = ", ".join(f"{k} {old_rules.get(k)}" for k in moved)
    said_after = ", ".join(f"{k} {new_rules.get(k)}" for k in moved)
    if after.get("from_round"):
        said_after += " · " + gettext("from round %(round)s") % {"round": after["from_round"]}
    return said_before, said_after


# ------------------------------------------------------------------------ exports

CSV_COLUMNS = (
    "kind", "kind_label", "at", "round", "table", "match_id", "players", "hand", "who",
    "device", "ip", "why", "before", "after", "ended", "chain", "position", "hash",
    "prev_hash", "broken",
)  # fmt: skip


def audit_csv(audit: Audit) -> str:
    """The exceptions as CSV, one per line, with full hashes; text a spreadsheet would
    read as a formula is quoted."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for found in audit.exceptions:
        values = (getattr(found, column) for column in CSV_COLUMNS)
        writer.writerow(
            value.isoformat() if isinstance(value, datetime) else
            safe(value) if isinstance(value, str) else value
            for value in values
        )  # fmt: skip
    return out.getvalue()
