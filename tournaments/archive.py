"""The JSON archive of a whole tournament: export (a read) and import (a service).

An archive holds the settings and frozen rules, the players and registrations, every
round with its pairings and results, and every match with its games and hands (each
hand with the input it was scored from). Ids inside the archive are the exporting
instance's, used only as keys. Importing creates everything anew in a club of this
instance: players are matched by name in that club (else created), every hand is scored
again by the engine and must give the archived points, and every match must come out
as archived, so the imported tournament has the same standings, or the import is refused
and nothing is written.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from scoring import services as scoring
from ginclub.errors import Forbidden, ServiceError
from scoring.models import Club, Entry, Game, Hand, Match, Player
from scoring.rescore import entered_values, stored_input
from scoring.rules import RuleProfile, RulesError
from scoring.services import Actor
from tournaments.base import log
from tournaments.models import Pairing, Registration, Round, Tournament

FORMAT = "ginclub.tournament"
VERSION = 1
SETTINGS = (
    "name",
    "venue",
    "profile",
    "overrides",
    "format",
    "rounds",
    "cut_size",
    "round_minutes",
    "tiebreaks",
    "bye_games",
    "bye_points",
    "agreement",
    "hide_standings_during_round",
    "hide_last_rounds",
    "public",
    "check_in_required",
)
ROUND_TIMES = ("started_at", "ends_at", "published_at", "closed_at")


# -------------------------------------------------------------------------- export


def tournament_archive(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as plain JSON values, in a fixed number of queries."""
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
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "tournament": {
            **{key: getattr(t, key) for key in SETTINGS},
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
                "result": None
                if not p.resolved
                else {
                    "winner": p.result_winner,
                    "reason": p.result_reason,
                    "games": [p.result_games_a, p.result_games_b],
                    "points": [p.result_points_a, p.result_points_b],
                    "resolved_at": _iso(p.resolved_at),
                },
                "match": _match(matches[p.match_id], games, hands, payloads)
                if p.match_id
                else None,
            }
            for p in pairings
        ],
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


# -------------------------------------------------------------------------- import


def import_archive(*, club: Club, actor: Actor, archive: Any) -> Tournament:
    """Create the archived tournament in `club` (module docstring): new ids, players
    matched by name or created, every hand re-scored and checked. All or nothing.

    Raises Forbidden, ServiceError (`bad_archive`, naming the faulty part).
    """
    if not actor.organises(club):
        raise Forbidden("not_allowed", "Only the club's organisers import tournaments.")
    reader = _Reader()
    try:
        with transaction.atomic():
            return _import(club, actor, archive, reader)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ServiceError(
            "bad_archive", f"The archive is malformed at {reader.where}: {_describe(error)}."
        ) from None


def _describe(error: Exception) -> str:
    if isinstance(error, KeyError):
        return f"{error.args[0]!r} is missing"
    return str(error) or type(error).__name__


class _Reader:
    """Remembers where in the archive the import is, for error messages."""

    def __init__(self) -> None:
        self.where = "the top level"

    def at(self, where: str) -> None:
        self.where = where

    @staticmethod
    def need(data: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
        if not isinstance(data, dict) or key not in data:
            raise ServiceError("bad_archive", f"{where}: {key!r} is missing.")
        value = data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ServiceError(
                "bad_archive", f"{where}: {key!r} has the wrong type ({type(value).__name__})."
            )
        return value


def _import(club: Club, actor: Actor, archive: Any, reader: _Reader) -> Tournament:
    need = reader.need
    if not isinstance(archive, dict) or archive.get("format") != FORMAT:
        raise ServiceError(
            "bad_archive", f"This is not a ginclub tournament archive (format {FORMAT!r} expected)."
        )
    if archive.get("version") != VERSION:
        raise ServiceError(
            "bad_archive",
            f"Archive version {archive.get('version')!r} is not supported (version {VERSION} is).",
        )
    reader.at("tournament")
    tournament = _tournament(club, actor, need(archive, "tournament", dict, "tournament"))
    reader.at("players")
    players = _players(club, actor, need(archive, "players", list, "archive"))
    reader.at("registrations")
    registrations = {}
    for item in need(archive, "registrations", list, "archive"):
        registrations[item["key"]] = Registration.objects.create(
            tournament=tournament,
            player=players[item["player"]],
            seed=item.get("seed"),
            checked_in=bool(item["checked_in"]),
            late=bool(item["late"]),
            withdrawn=bool(item["withdrawn"]),
        )
    tournament.roster = [registrations[key].pk for key in tournament.roster]
    tournament.save(update_fields=["roster"])
    for index, item in enumerate(need(archive, "rounds", list, "archive")):
        reader.at(f"rounds[{index}]")
        _import_round(tournament, actor, item, registrations, reader)
    log(
        tournament,
        "tournament_imported",
        actor,
        after={
            "from": archive["tournament"].get("slug"),
            "exported_at": archive.get("exported_at"),
            "registrations": len(registrations),
        },
    )
    return tournament


def _tournament(club: Club, actor: Actor, data: dict) -> Tournament:
    from tournaments.services import _unique_slug, check_settings

    values = {key: data[key] for key in SETTINGS}
    date = parse_date(str(data["date"]))
    tournament = Tournament(club=club, date=date, created_by=_user(actor), **values)
    try:
        check_settings(tournament)
    except ServiceError as error:
        raise ServiceError("bad_archive", f"tournament settings: {error.message}") from None
    rules = data["rules"]
    if rules is not None:
        try:
            profile = RuleProfile.from_dict(rules)
        except RulesError as error:
            raise ServiceError("bad_archive", f"tournament rules: {error.message}") from None
        if profile.as_dict() != rules:
            raise ServiceError("bad_archive", "tournament rules: not a complete rule profile.")
    if data["state"] not in Tournament.State.values:
        raise ServiceError("bad_archive", f"tournament state {data['state']!r} is unknown.")
    tournament.rules, tournament.state = rules, data["state"]
    tournament.roster = list(data.get("roster") or [])
    tournament.slug = _unique_slug(tournament)
    tournament.save()
    return tournament


def _players(club: Club, actor: Actor, items: list) -> dict[Any, Player]:
    players = {}
    for item in items:
        name = " ".join(str(item["name"]).split())
        existing = club.players.filter(name__iexact=name).first()
        players[item["key"]] = existing or scoring.add_player(
            club=club,
            name=name,
            actor=actor,
            email=item.get("email") or "",
            member_id=item.get("member_id") or "",
        )
    return players


def _import_round(
    tournament: Tournament, actor: Actor, data: dict, registrations: dict, reader: _Reader
) -> None:
    if data["state"] not in Round.State.values or data["stage"] not in Round.Stage.values:
        raise ServiceError("bad_archive", f"{reader.where}: unknown state or stage.")
    times = {key: parse_datetime(data[key]) if data.get(key) else None for key in ROUND_TIMES}
    rnd = Round.objects.create(
        tournament=tournament,
        number=data["number"],
        stage=data["stage"],
        state=data["state"],
        time_called=bool(data["time_called"]),
        **times,
    )
    where = reader.where
    for index, item in enumerate(data["pairings"]):
        reader.at(f"{where}.pairings[{index}]")
        a = registrations[item["a"]]
        b = registrations[item["b"]] if item["b"] is not None else None
        pairing = Pairing(
            round=rnd,
            position=item["position"],
            table=item["table"],
            player_a=a,
            player_b=b,
            reason=item["reason"],
        )
        if item["result"] is not None:
            _result(pairing, item["result"])
        if item["match"] is not None:
            label = f"round {rnd.number} table {pairing.table}"
            pairing.match = _match_from(tournament, actor, a, b, item["match"], label)
        pairing.save()


def _result(pairing: Pairing, data: dict) -> None:
    if data["winner"] not in ("A", "B"):
        raise ValueError(f"the result's winner {data['winner']!r} is not seat A or B")
    pairing.result_winner, pairing.result_reason = data["winner"], data["reason"]
    pairing.result_games_a, pairing.result_games_b = (int(x) for x in data["games"])
    pairing.result_points_a, pairing.result_points_b = (int(x) for x in data["points"])
    pairing.resolved_at = parse_datetime(data["resolved_at"]) or timezone.now()


def _match_from(
    tournament: Tournament,
    actor: Actor,
    a: Registration,
    b: Registration | None,
    data: dict,
    label: str,
) -> Match:
    if b is None:
        raise ValueError("a bye has no match")
    games = [
        {
            "number": g["number"],
            "first_dealer": g["first_dealer"],
            "hands": [
                {
                    "number": h["number"],
                    "dealer": h["dealer"],
                    "state": h["state"],
                    "version": h.get("version"),
                    "input": h["input"],
                    "points": h["points"],
                    "winner": h["winner"],
                }
                for h in g["hands"]
            ],
        }
        for g in data["games"]
    ]
    if data["agreement"] not in Match.Agreement.values or data["first_dealer"] not in ("A", "B"):
        raise ValueError("unknown agreement or first dealer")
    expected = {"winner": data["winner"], "games_won": data["games_won"], "points": data["points"]}
    return scoring.import_match(
        club=tournament.club,
        player_a=a.player,
        player_b=b.player,
        actor=actor,
        rules=data["rules"],
        agreement=data["agreement"],
        first_dealer=data["first_dealer"],
        state=data["state"],
        games=games,
        expected=expected,
        label=label,
    )


def _user(actor: Actor):
    user = actor.user
    return user if user is not None and user.is_authenticated else None
