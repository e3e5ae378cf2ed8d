"""Importing the JSON archive of a whole tournament (a service; the archive's format and
its export are in tournaments.exports).

Importing creates everything anew in a club of this
instance: players are matched by name in that club (else created), every hand is scored
again by the engine and must give the archived points, and every match must come out
as archived, so the imported tournament has the same standings, or the import is refused
and nothing is written.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from ginclub import permissions
from ginclub.errors import ServiceError
from ginclub.permissions import Actor
from scoring import services as scoring
from scoring.models import Club, Match, Player
from scoring.rules import RuleProfile, RulesError
from tournaments.exports import ARCHIVE_FORMAT, ARCHIVE_VERSION, ROUND_TIMES
from tournaments.exports import ARCHIVE_SETTINGS as SETTINGS
from tournaments.models import Pairing, Registration, Round, Tournament
from tournaments.services.base import log
from tournaments.services.tournaments import check_settings, unique_slug, user_of

# -------------------------------------------------------------------------- import


def import_archive(*, club: Club, actor: Actor, archive: Any) -> Tournament:
    """Create the archived tournament in `club` (module docstring): new ids, players
    matched by name or created, every hand re-scored and checked. All or nothing.

    Raises Forbidden, ServiceError (`bad_archive`, naming the faulty part).
    """
    permissions.require_organiser(actor, club, "import tournaments")
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
    if not isinstance(archive, dict) or archive.get("format") != ARCHIVE_FORMAT:
        raise ServiceError(
            "bad_archive",
            f"This is not a ginclub tournament archive (format {ARCHIVE_FORMAT!r} expected).",
        )
    if archive.get("version") != ARCHIVE_VERSION:
        raise ServiceError(
            "bad_archive",
            f"Archive version {archive.get('version')!r} is not supported "
            f"(version {ARCHIVE_VERSION} is).",
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
    values = {key: data[key] for key in SETTINGS}
    date = parse_date(str(data["date"]))
    tournament = Tournament(club=club, date=date, created_by=user_of(actor), **values)
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
    tournament.slug = unique_slug(tournament)
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
