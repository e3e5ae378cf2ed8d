"""Exports (reads): the standings and every hand of the event as CSV (one query each),
a season's ladder as CSV, and the JSON archive of a whole tournament.

An archive holds the settings and frozen rules, the players and registrations, every
round with its pairings and results, and every match with its games and hands (each
hand with the input it was scored from), and, from version 2, the ledger rows of the
tournament and its matches with each chain's head, under a manifest and a seal
(ginclub.seals) that `manage.py verify_archive` checks without the database. Ids inside
the archive are the exporting instance's, used only as keys.
tournaments.services.archive imports it again.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections import defaultdict
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Q
from django.utils import timezone

from ginclub import ledger_keys, seals
from scoring.models import Entry, Game, Hand, LedgerRow, Match
from scoring.services.rescoring import entered_values, stored_input
from tournaments.models import Pairing, Round, Tournament
from tournaments.pairing import FIGURE_NAMES, RATIO_PLACES, RATIOS, Standing
from tournaments.selectors.seasons import LadderView
from tournaments.selectors.standings import StandingsView

STANDINGS_COLUMNS = ["rank", "player", "withdrawn", *FIGURE_NAMES, "head_to_head"]
HAND_COLUMNS = [
    "round",
    "table",
    "player_a",
    "player_b",
    "game",
    "hand",
    "dealer",
    "outcome",
    "knocker",
    "knocker_deadwood",
    "defender_deadwood",
    "points",
    "winner",
    "state",
    "version",
]


def standings_csv(view: StandingsView) -> str:
    """The standings as CSV, every tie-break value included (as the view shows them)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(STANDINGS_COLUMNS)
    for row in view.rows:
        s = row.standing
        writer.writerow(
            [
                s.rank,
                safe(row.name),
                "yes" if row.withdrawn else "",
                *figure_cells(s),
                safe(row.head_to_head),
            ]
        )
    return out.getvalue()


def hands_csv(tournament: Tournament) -> str:
    """Every hand of every match of the event, voided ones included (state says so),
    ordered by round, table, game and hand; seats are shown by player name."""
    rows = (
        Hand.objects.filter(game__match__pairing__round__tournament=tournament)
        .order_by(
            "game__match__pairing__round__number",
            "game__match__pairing__table",
            "game__number",
            "number",
        )
        .values_list(
            "game__match__pairing__round__number",
            "game__match__pairing__table",
            "game__match__player_a__name",
            "game__match__player_b__name",
            "game__number",
            "number",
            "dealer",
            "outcome",
            "knocker",
            "knocker_deadwood",
            "defender_deadwood",
            "points",
            "winner",
            "state",
            "version",
        )
    )
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HAND_COLUMNS)
    for (
        rnd,
        table,
        a,
        b,
        game,
        number,
        dealer,
        outcome,
        knocker,
        kd,
        dd,
        points,
        winner,
        state,
        version,
    ) in rows.iterator(chunk_size=2000):
        seats = {"A": safe(a), "B": safe(b)}
        writer.writerow(
            [
                rnd,
                table,
                seats["A"],
                seats["B"],
                game,
                number,
                seats[dealer],
                outcome,
                seats.get(knocker, ""),
                _blank(kd),
                _blank(dd),
                points,
                seats.get(winner, ""),
                state,
                version,
            ]
        )
    return out.getvalue()


def _blank(value) -> object:
    return "" if value is None else value


LADDER_COLUMNS = [
    "rank",
    "player",
    "ranked",
    "season_points",
    *FIGURE_NAMES,
    "head_to_head",
    "why",
]


def ladder_csv(view: LadderView) -> str:
    """A season's ladder as CSV: ranked players first, then the others (no rank)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(LADDER_COLUMNS)
    for row in view.rows:
        s = row.standing
        writer.writerow(
            [
                s.rank if row.ranked else "",
                safe(row.name),
                "yes" if row.ranked else "no",
                row.season_points,
                *figure_cells(s),
                safe(row.head_to_head),
                safe(row.why),
            ]
        )
    return out.getvalue()


def figure_cells(standing: Standing) -> list:
    """A line's figures (tournaments.pairing.FIGURES) as CSV cells, ratios to four places."""
    return [
        f"{getattr(standing, name):.{RATIO_PLACES}f}" if name in RATIOS else getattr(standing, name)
        for name in FIGURE_NAMES
    ]


def safe(text: str) -> str:
    """A name a spreadsheet would read as a formula is quoted (CSV injection)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text


# ------------------------------------------------------------------ JSON archive

ARCHIVE_FORMAT = "ginclub.tournament"
# 2: signed, carrying its ledger (docs/audit.md); 1: unsigned, still imported.
ARCHIVE_VERSION = 2
ARCHIVE_VERSIONS = (1, 2)
# Every setting; the date is written as ISO text.
ARCHIVE_SETTINGS = tuple(key for key in Tournament.SETTINGS if key != "date")
ROUND_TIMES = ("started_at", "ends_at", "published_at", "closed_at")


def tournament_archive(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as plain JSON values, in a fixed number of queries, with its
    ledger (the tournament's chain and its matches') and sealed by the server's signing
    key (ginclub.seals): `manage.py verify_archive` checks it without the database."""
    # Plain JSON values before sealing: what is signed is exactly what any renderer writes.
    archive = json.loads(json.dumps(_archive(tournament), cls=DjangoJSONEncoder))
    archive[seals.LEDGER] = _ledger(tournament)
    return seals.seal_archive(archive, ledger_keys.signing_key())


LEDGER_FIELDS = (
    "chain",
    "position",
    "action",
    "actor",
    "reason",
    "before",
    "after",
    "prev_hash",
    "hash",
    "key_id",
)


def _ledger(tournament: Tournament) -> dict[str, Any]:
    """The ledger rows of the tournament's chain and of its matches', as stored (ids are
    this instance's), and each chain's head."""
    # a match's chain holds only rows of that match (scoring.services.base.log)
    of_matches = Q(chain__startswith="match:", match__pairing__round__tournament=tournament)
    found = LedgerRow.objects.filter(Q(chain=tournament.chain) | of_matches)
    rows = []
    for row in found.order_by("chain", "position"):
        item = {name: getattr(row, name) for name in LEDGER_FIELDS}
        for name in ("match", "hand", "entry", "user"):  # this instance's ids
            item[name] = getattr(row, f"{name}_id")
        # as the row's hash read it (ginclub.ledger), for whoever holds the key
        item["created_at"] = row.created_at.isoformat(timespec="microseconds")
        rows.append(item)
    heads = {row["chain"]: [row["position"], row["hash"]] for row in rows}
    return json.loads(json.dumps({"rows": rows, "heads": heads}, cls=DjangoJSONEncoder))


def _archive(tournament: Tournament) -> dict[str, Any]:
    t = tournament
    registrations = list(t.registrations.select_related("player").order_by("pk"))
    pairings = defaultdict(list)
    for p in Pairing.objects.filter(round__tournament=t).order_by("round__number", "position"):
        pairings[p.round_id].append(p)
    in_event = {"pairing__round__tournament": t}
    matches = {m.pk: m for m in Match.objects.filter(**in_event)}
    games = defaultdict(list)
    for game in Game.objects.filter(**{f"match__{k}": v for k, v in in_event.items()}).order_by(
        "number"
    ):
        games[game.match_id].append(game)
    hands = defaultdict(list)
    for hand in (
        Hand.objects.filter(**{f"game__match__{k}": v for k, v in in_event.items()})
        .select_related("accepted_entry")
        .order_by("number")
    ):
        hands[hand.game_id].append(hand)
    payloads = _first_entries(t)
    return {
        "format": ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "exported_at": timezone.now().isoformat(),
        "tournament": {
            **{key: getattr(t, key) for key in ARCHIVE_SETTINGS},
            "date": t.date.isoformat(),
            "slug": t.slug,
            "club": t.club.name,
            "rules": t.rules,
            "state": t.state,
            "roster": t.roster,
        },
        "players": [
            {
                "key": r.player_id,
                "name": r.player.name,
                "email": r.player.email,
                "member_id": r.player.member_id,
            }
            for r in registrations
        ],
        "registrations": [
            {
                "key": r.pk,
                "player": r.player_id,
                "seed": r.seed,
                "checked_in": r.checked_in,
                "late": r.late,
                "withdrawn": r.withdrawn,
            }
            for r in registrations
        ],
        "rounds": [
            _round(rnd, pairings[rnd.pk], matches, games, hands, payloads)
            for rnd in t.round_set.order_by("number")
        ],
    }


def _first_entries(tournament: Tournament) -> dict[int, dict]:
    """Hands not yet agreed have no accepted entry: their first submission's payload."""
    rows = (
        Entry.objects.filter(
            match__pairing__round__tournament=tournament,
            kind=Entry.Kind.SUBMIT,
            hand__accepted_entry__isnull=True,
        )
        .order_by("-id")
        .values_list("hand_id", "payload")
    )
    return {hand_id: entered_values(payload) for hand_id, payload in rows}


def _round(rnd: Round, pairings, matches, games, hands, payloads) -> dict[str, Any]:
    return {
        "number": rnd.number,
        "stage": rnd.stage,
        "state": rnd.state,
        "time_called": rnd.time_called,
        **{key: _iso(getattr(rnd, key)) for key in ROUND_TIMES},
        "pairings": [
            {
                "position": p.position,
                "table": p.table,
                "a": p.player_a_id,
                "b": p.player_b_id,
                "reason": p.reason,
                "result": _set_result(p, rnd, matches.get(p.match_id)),
                "match": _match(matches[p.match_id], games, hands, payloads)
                if p.match_id
                else None,
            }
            for p in pairings
        ],
    }


def _set_result(p: Pairing, rnd: Round, match: Match | None) -> dict[str, Any] | None:
    """A bye's result, or one set over a match's hands (by an organiser or the time
    policy, `by`); None when the hands decide."""
    if p.is_bye and rnd.state != Round.State.DRAFT:
        return {
            "winner": "A",
            "reason": p.reason,
            "games": [p.bye_games, 0],
            "points": [p.bye_points, 0],
            "resolved_at": _iso(rnd.published_at),
        }
    if match is None or not match.overruled:
        return None
    return {
        "winner": match.winner,
        "reason": match.decision_reason,
        "games": [match.games_won_a, match.games_won_b],
        "points": [match.points_a, match.points_b],
        "resolved_at": _iso(match.decided_at),
        "by": match.decided_by,
    }


def _match(match: Match, games, hands, payloads) -> dict[str, Any]:
    return {
        "rules": match.rules,
        "agreement": match.agreement,
        "first_dealer": match.first_dealer,
        "state": match.state,
        "winner": match.winner or None,
        "games_won": {"A": match.games_won_a, "B": match.games_won_b},
        "points": {"A": match.points_a, "B": match.points_b},
        "games": [
            {
                "number": g.number,
                "first_dealer": g.first_dealer,
                "state": g.state,
                "winner": g.winner or None,
                "totals": {"A": g.total_a, "B": g.total_b},
                "hands": [_hand(h, g.number, payloads) for h in hands[g.pk]],
            }
            for g in games[match.pk]
        ],
    }


def _hand(hand: Hand, game_number: int, payloads) -> dict[str, Any]:
    payload = (
        entered_values(hand.accepted_entry.payload)
        if hand.accepted_entry
        else payloads.get(hand.pk, {})
    )
    hand_input = stored_input(hand, game_number, payload).as_payload()
    for key in ("game", "number"):
        hand_input.pop(key)
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "state": hand.state,
        "version": hand.version,
        "outcome": hand.outcome,
        "knocker": hand.knocker or None,
        "knocker_deadwood": hand.knocker_deadwood,
        "defender_deadwood": hand.defender_deadwood,
        "points": hand.points,
        "winner": hand.winner or None,
        "cards": hand.cards,
        "input": hand_input,
    }


def _iso(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None
