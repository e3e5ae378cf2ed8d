"""Importing the JSON archive of a whole tournament (a service; the archive's format and
its export are in tournaments.selectors.exports).

Importing creates everything anew in a club of this
instance: players are matched by name in that club (else created), every hand is scored
again by the engine and must give the archived points, and every match must come out
as archived, so the imported tournament has the same standings, or the import is refused
and nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _

from ginclub import permissions, seals
from ginclub.errors import ServiceError
from ginclub.inputs import INT_MAX, SMALL_MAX, date_in_range, date_range_text, name_problem
from ginclub.permissions import Actor
from scoring import services as scoring
from scoring.models import Club, Hand, Match, Player
from scoring.rules import RuleProfile, RulesError
from scoring.rules.profiles import PROFILE_TITLES, PROFILES
from scoring.serializers import HandFieldsSerializer
from tournaments.models import Pairing, Registration, Round, Tournament
from tournaments.selectors.exports import (
    ARCHIVE_FORMAT,
    ARCHIVE_VERSION,
    ARCHIVE_VERSIONS,
    ROUND_TIMES,
)
from tournaments.selectors.exports import ARCHIVE_SETTINGS as SETTINGS
from tournaments.services.base import log
from tournaments.services.tournaments import check_settings, unique_slug, user_of
from tournaments.translated import error_text

# ------------------------------------------------------------------ the whole check
# Every value the import reads is checked here, before anything is written, the same way
# on both databases (SQLite would store a first dealer "True" or a date "2026-13-45" as
# is; PostgreSQL refuses them with an error that is not a refusal). A refusal names the
# value by its path in the archive, e.g. "registrations[3].seed".

TEXT_MAX = 10_000


def _bad(path: str, text: str) -> ServiceError:
    # Translators: where in the archive, and what is wrong there:
    # "rounds[2].pairings[0].table must be a whole number from 1 to 999".
    message = _("%(path)s %(problem)s.") % {"path": path, "problem": text}
    return ServiceError("bad_archive", message, fields={"archive": path})


def _dict(value: Any, path: str) -> dict:
    if not isinstance(value, dict):
        raise _bad(path, _("must be an object"))
    return value


def _list(value: Any, path: str, most: int = 100_000) -> list:
    if not isinstance(value, list):
        raise _bad(path, _("must be a list"))
    if len(value) > most:
        raise _bad(path, _("must hold at most %(most)s items") % {"most": most})
    return value


def _get(data: dict, key: str, path: str) -> Any:
    if key not in data:
        raise _bad(f"{path}.{key}" if path else key, _("is missing"))
    return data[key]


def _whole(value: Any, path: str, low: int, high: int, *, null: bool = False) -> None:
    if value is None and null:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        if null:
            problem = _("must be a whole number from %(low)s to %(high)s (or null)")
        else:
            problem = _("must be a whole number from %(low)s to %(high)s")
        raise _bad(path, problem % {"low": low, "high": high})


def _text(value: Any, path: str, most: int = TEXT_MAX, *, null: bool = False) -> None:
    if value is None and null:
        return
    if not isinstance(value, str) or len(value) > most:
        raise _bad(path, _("must be text of at most %(most)s characters") % {"most": most})


def _name(value: Any, path: str, most: int) -> None:
    """A name: text within `most`, not blank, no control characters (ginclub.inputs)."""
    _text(value, path, most)
    if not value.strip():
        raise _bad(path, _("must not be blank"))
    if problem := name_problem(value):
        raise _bad(path, problem)


def _email(value: Any, path: str) -> None:
    _text(value, path, 254, null=True)
    if not value:
        return
    try:
        validate_email(value)
    except ValidationError:
        raise _bad(path, _("must be an email address")) from None


def _rules(value: Any, path: str, names) -> None:
    """A match's or a tournament's frozen rules: a complete rule profile, `name` one of
    `names`, every option of the profile's type and range."""
    data = _dict(value, path)
    _choice(_get(data, "name", path), f"{path}.name", names)
    try:
        profile = RuleProfile.from_dict(data)
    except RulesError as error:
        text, where = error_text(error), f"{path}.{error.field}" if error.field else path
        if error.field and text.startswith(f"{error.field} "):  # the path names it
            text = text[len(error.field) + 1 :]
        raise _bad(where, _must(text)) from None
    missing = [key for key in profile.as_dict() if key not in data]
    if missing:
        raise _bad(f"{path}.{missing[0]}", _("is missing"))


def _bool(value: Any, path: str) -> None:
    if not isinstance(value, bool):
        raise _bad(path, _("must be true or false"))


def _choice(value: Any, path: str, choices, *, null: bool = False) -> None:
    if value is None and null:
        return
    if isinstance(value, bool) or not isinstance(value, str) or value not in choices:
        shown = ", ".join(repr(c) for c in choices)
        if null:
            raise _bad(path, _("must be one of %(choices)s or null") % {"choices": shown})
        raise _bad(path, _("must be one of %(choices)s") % {"choices": shown})


def _moment(value: Any, path: str) -> None:
    """null, or an ISO date and time with its UTC offset."""
    if value is None:
        return
    try:
        moment = parse_datetime(value) if isinstance(value, str) and len(value) < 40 else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise _bad(path, _("must be a date and time with its offset (ISO 8601), or null"))
    if not date_in_range(moment):
        raise _bad(path, _must(date_range_text()))


def _key_of(value: Any, path: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise _bad(path, _("must be a key (a whole number or text)"))
    return value


def _pair(value: Any, path: str, low: int, high: int) -> None:
    if not isinstance(value, list) or len(value) != 2:
        raise _bad(path, _("must be a list of two whole numbers"))
    for index, item in enumerate(value):
        _whole(item, f"{path}[{index}]", low, high)


def _seats(value: Any, path: str, low: int, high: int) -> None:
    data = _dict(value, path)
    if set(data) != {"A", "B"}:
        raise _bad(path, _('must be {"A": ..., "B": ...}'))
    for seat in ("A", "B"):
        _whole(data[seat], f"{path}.{seat}", low, high)


def _must(text: str) -> str:
    """A check's own words after the path: "must be a whole number...", or "is wrong: ..."."""
    text = text.rstrip(".")
    if text.startswith("must "):
        return text
    if text.startswith(("a ", "an ", "text of")):
        return _("must be %(what)s") % {"what": text}
    return _("is wrong: %(problem)s") % {"problem": f"{text[:1].lower()}{text[1:]}"}


def _require_format(archive: Any) -> None:
    if not isinstance(archive, dict) or archive.get("format") != ARCHIVE_FORMAT:
        raise ServiceError(
            "bad_archive",
            _("This is not a ginclub tournament archive (format %(format)s expected).")
            % {"format": repr(ARCHIVE_FORMAT)},
        )
    if archive.get("version") not in ARCHIVE_VERSIONS:
        raise ServiceError(
            "bad_archive",
            _("Archive version %(version)s is not supported (version %(supported)s is).")
            % {"version": repr(archive.get("version")), "supported": ARCHIVE_VERSION},
        )


def _require_seal(archive: dict) -> None:
    """A signed archive (version 2) must be as it was signed: an archive is edited by
    hand only as an unsigned one (version 1, without seal, manifest and ledger), which
    imports as before. The seal is checked against the key inside it: another
    instance's archive is signed by that instance (docs/audit.md)."""
    if archive.get("version") == 1:
        return
    problems = seals.archive_problems(archive)
    if problems:
        raise ServiceError(
            "bad_archive",
            _("The archive was changed after it was signed: %(problem)s.")
            % {"problem": problems[0]},
            fields={"archive": problems[0]},
        )


def check_archive(archive: Any) -> None:
    """Refuse (ServiceError `bad_archive`, naming the path) anything the import could not
    store as it is: types, ranges, choices, dates, and keys that refer to nothing; and a
    signed archive changed after signing (naming what changed)."""
    _require_format(archive)
    _text(archive.get("exported_at"), "exported_at", 64, null=True)
    tournament = _dict(_get(archive, "tournament", ""), "tournament")
    _check_tournament(tournament)
    players = _check_players(_list(_get(archive, "players", ""), "players"))
    registrations = _check_registrations(
        _list(_get(archive, "registrations", ""), "registrations"), players
    )
    roster = _list(tournament.get("roster") or [], "tournament.roster")
    for index, item in enumerate(roster):
        if _key_of(item, f"tournament.roster[{index}]") not in registrations:
            raise _bad(f"tournament.roster[{index}]", _("names no registration"))
    numbers: set[int] = set()
    for index, item in enumerate(_list(_get(archive, "rounds", ""), "rounds")):
        path = f"rounds[{index}]"
        number = _check_round(_dict(item, path), path, registrations)
        if number in numbers:
            raise _bad(f"{path}.number", _("repeats round %(number)s") % {"number": number})
        numbers.add(number)
    _require_seal(archive)  # last: a faulty value is named where it stands first


# Settings added after archive version 1 was first written, with the value an archive
# written before them takes ("": no event language).
ADDED_SETTINGS: dict[str, Any] = {"language": ""}


def _settings_of(data: dict) -> dict[str, Any]:
    """The archive's settings, an older archive's missing ones at their default."""
    return {key: data[key] if key in data else ADDED_SETTINGS[key] for key in SETTINGS}


def _check_tournament(data: dict) -> None:
    for key in SETTINGS:
        if key not in ADDED_SETTINGS:
            _get(data, key, "tournament")
    date = _get(data, "date", "tournament")
    try:
        valid = isinstance(date, str) and parse_date(date) is not None
    except ValueError:
        valid = False
    if not valid:
        raise _bad("tournament.date", _("must be a date (YYYY-MM-DD)"))
    _text(data.get("slug"), "tournament.slug", 60, null=True)
    _text(data.get("club"), "tournament.club", 120, null=True)
    _choice(_get(data, "state", "tournament"), "tournament.state", Tournament.State.values)
    rules = _get(data, "rules", "tournament")
    if rules is not None:
        _rules(rules, "tournament.rules", list(PROFILES))
    _dict(data["overrides"], "tournament.overrides")
    # The settings' own ranges and choices: the same check as creating a tournament.
    try:
        check_settings(
            Tournament(
                date=parse_date(date),
                **{key: value for key, value in _settings_of(data).items() if key != "date"},
            )
        )
    except ServiceError as error:
        key, text = next(iter((error.fields or {"settings": error.message}).items()))
        raise _bad(f"tournament.{key}", _must(str(text))) from None


def _check_players(items: list) -> set:
    keys: set = set()
    for index, item in enumerate(items):
        path = f"players[{index}]"
        _dict(item, path)
        key = _key_of(_get(item, "key", path), f"{path}.key")
        if key in keys:
            raise _bad(f"{path}.key", _("repeats player key %(key)s") % {"key": repr(key)})
        keys.add(key)
        _name(_get(item, "name", path), f"{path}.name", 120)
        _email(item.get("email"), f"{path}.email")
        _text(item.get("member_id"), f"{path}.member_id", 40, null=True)
    return keys


def _check_registrations(items: list, players: set) -> set:
    keys: set = set()
    registered: set = set()
    seeds: set = set()
    for index, item in enumerate(items):
        path = f"registrations[{index}]"
        _dict(item, path)
        key = _key_of(_get(item, "key", path), f"{path}.key")
        if key in keys:
            raise _bad(f"{path}.key", _("repeats registration key %(key)s") % {"key": repr(key)})
        keys.add(key)
        player = _key_of(_get(item, "player", path), f"{path}.player")
        if player not in players:
            raise _bad(f"{path}.player", _("names no player (key %(key)s)") % {"key": repr(player)})
        if player in registered:
            raise _bad(f"{path}.player", _("is registered twice"))
        registered.add(player)
        seed = item.get("seed")
        _whole(seed, f"{path}.seed", 1, 9999, null=True)
        if seed is not None and seed in seeds:
            raise _bad(f"{path}.seed", _("repeats seed %(seed)s") % {"seed": seed})
        seeds.add(seed)
        for flag in ("checked_in", "late", "withdrawn"):
            _bool(_get(item, flag, path), f"{path}.{flag}")
    return keys


def _check_round(data: dict, path: str, registrations: set) -> int:
    number = _get(data, "number", path)
    _whole(number, f"{path}.number", 1, SMALL_MAX)
    _choice(_get(data, "stage", path), f"{path}.stage", Round.Stage.values)
    _choice(_get(data, "state", path), f"{path}.state", Round.State.values)
    _bool(_get(data, "time_called", path), f"{path}.time_called")
    for key in ROUND_TIMES:
        _moment(data.get(key), f"{path}.{key}")
    tables: set[int] = set()
    for index, item in enumerate(_list(_get(data, "pairings", path), f"{path}.pairings")):
        where = f"{path}.pairings[{index}]"
        _dict(item, where)
        _whole(_get(item, "position", where), f"{where}.position", 0, SMALL_MAX)
        table = _get(item, "table", where)
        _whole(table, f"{where}.table", 1, SMALL_MAX, null=True)
        if table is not None and table in tables:
            raise _bad(f"{where}.table", _("repeats table %(table)s") % {"table": table})
        tables.add(table)
        for seat in ("a", "b"):
            key = _get(item, seat, where)
            if key is None and seat == "b":
                continue
            if _key_of(key, f"{where}.{seat}") not in registrations:
                raise _bad(
                    f"{where}.{seat}", _("names no registration (key %(key)s)") % {"key": repr(key)}
                )
        _text(_get(item, "reason", where), f"{where}.reason", 200)
        result = _get(item, "result", where)
        if result is not None:
            _check_result(_dict(result, f"{where}.result"), f"{where}.result")
        match = _get(item, "match", where)
        if match is not None:
            if item["b"] is None:
                raise _bad(f"{where}.match", _("must be null for a bye"))
            _check_match(_dict(match, f"{where}.match"), f"{where}.match")
    return number


def _check_result(data: dict, path: str) -> None:
    _choice(_get(data, "winner", path), f"{path}.winner", ("A", "B"))
    _text(_get(data, "reason", path), f"{path}.reason")
    _pair(_get(data, "games", path), f"{path}.games", 0, SMALL_MAX)
    _pair(_get(data, "points", path), f"{path}.points", -INT_MAX, INT_MAX)
    _moment(_get(data, "resolved_at", path), f"{path}.resolved_at")
    if "by" in data:  # archives before the result moved to the match have no `by`
        _choice(data["by"], f"{path}.by", Match.DecidedBy.values)


def _check_match(data: dict, path: str) -> None:
    _rules(_get(data, "rules", path), f"{path}.rules", list(PROFILE_TITLES))
    _choice(_get(data, "agreement", path), f"{path}.agreement", Match.Agreement.values)
    _choice(_get(data, "first_dealer", path), f"{path}.first_dealer", ("A", "B"))
    _choice(_get(data, "state", path), f"{path}.state", Match.State.values)
    _choice(_get(data, "winner", path), f"{path}.winner", ("A", "B"), null=True)
    _seats(_get(data, "games_won", path), f"{path}.games_won", 0, SMALL_MAX)
    _seats(_get(data, "points", path), f"{path}.points", -INT_MAX, INT_MAX)
    numbers: set[int] = set()
    for index, game in enumerate(_list(_get(data, "games", path), f"{path}.games")):
        where = f"{path}.games[{index}]"
        _dict(game, where)
        number = _get(game, "number", where)
        _whole(number, f"{where}.number", 1, SMALL_MAX)
        if number in numbers:
            raise _bad(f"{where}.number", _("repeats game %(number)s") % {"number": number})
        numbers.add(number)
        _choice(_get(game, "first_dealer", where), f"{where}.first_dealer", ("A", "B"))
        hands: set[int] = set()
        for at, hand in enumerate(_list(_get(game, "hands", where), f"{where}.hands")):
            _check_hand(_dict(hand, f"{where}.hands[{at}]"), f"{where}.hands[{at}]", number)
            if hand["number"] in hands:
                raise _bad(
                    f"{where}.hands[{at}].number",
                    _("repeats hand %(number)s") % {"number": hand["number"]},
                )
            hands.add(hand["number"])


def _check_hand(data: dict, path: str, game: int) -> None:
    number = _get(data, "number", path)
    _whole(number, f"{path}.number", 1, SMALL_MAX)
    _choice(_get(data, "dealer", path), f"{path}.dealer", ("A", "B"))
    _choice(_get(data, "state", path), f"{path}.state", Hand.State.values)
    _whole(data.get("version"), f"{path}.version", 1, INT_MAX, null=True)
    _whole(_get(data, "points", path), f"{path}.points", 0, INT_MAX)
    _choice(_get(data, "winner", path), f"{path}.winner", ("A", "B"), null=True)
    entered = _dict(_get(data, "input", path), f"{path}.input")
    # The input is what a phone sends: the API's own shape check, with its bounds.
    shape = HandFieldsSerializer(data={**entered, "game": game, "number": number})
    if not shape.is_valid():
        field, problems = next(iter(shape.errors.items()))
        problem = problems[0] if isinstance(problems, list) and problems else problems
        if isinstance(problem, dict):
            problem = next(iter(problem.values()))
        problem = problem[0] if isinstance(problem, list) and problem else problem
        raise _bad(f"{path}.input.{field}", _must(str(problem)))


# -------------------------------------------------------------------------- import


Progress = Callable[[int, int], None]


def import_archive(
    *, club: Club, actor: Actor, archive: Any, progress: Progress | None = None
) -> Tournament:
    """Create the archived tournament in `club` (module docstring): new ids, players
    matched by name or created, every hand re-scored and checked. All or nothing.
    `progress(done, total)` is told of each match imported (a background job's bar).

    Raises Forbidden, ServiceError (`bad_archive`, naming the faulty part).
    """
    permissions.require_organiser(actor, club, _("import tournaments"))
    check_archive(archive)
    reader = _Reader(progress, matches_in(archive))
    try:
        with transaction.atomic():
            return _import(club, actor, archive, reader)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ServiceError(
            "bad_archive",
            _("The archive is malformed at %(where)s: %(problem)s.")
            % {"where": reader.where, "problem": _describe(error)},
        ) from None


def _describe(error: Exception) -> str:
    if isinstance(error, KeyError):
        return _("%(key)s is missing") % {"key": repr(error.args[0])}
    return str(error) or type(error).__name__


def matches_in(archive: dict) -> int:
    """The matches a checked archive holds (the import's progress counts them)."""
    return sum(1 for rnd in archive["rounds"] for item in rnd["pairings"] if item["match"])


class _Reader:
    """Remembers where in the archive the import is, for error messages, and counts the
    matches imported for `progress`."""

    def __init__(self, progress: Progress | None = None, matches: int = 0) -> None:
        self.where = _("the top level")
        self.progress, self.matches, self.imported = progress, matches, 0

    def at(self, where: str) -> None:
        self.where = where

    def match_imported(self) -> None:
        self.imported += 1
        if self.progress is not None:
            self.progress(self.imported, self.matches)

    @staticmethod
    def need(data: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
        if not isinstance(data, dict) or key not in data:
            raise ServiceError(
                "bad_archive",
                _("%(where)s: %(key)s is missing.") % {"where": where, "key": repr(key)},
            )
        value = data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ServiceError(
                "bad_archive",
                _("%(where)s: %(key)s has the wrong type (%(type)s).")
                % {"where": where, "key": repr(key), "type": type(value).__name__},
            )
        return value


def _import(club: Club, actor: Actor, archive: Any, reader: _Reader) -> Tournament:
    need = reader.need  # check_archive has vouched for the format and every value
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
    values = _settings_of(data)
    date = parse_date(str(data["date"]))
    tournament = Tournament(club=club, date=date, created_by=user_of(actor), **values)
    try:
        check_settings(tournament)
    except ServiceError as error:
        raise ServiceError(
            "bad_archive", _("tournament settings: %(problem)s") % {"problem": error.message}
        ) from None
    rules = data["rules"]
    if rules is not None:
        try:
            profile = RuleProfile.from_dict(rules)
        except RulesError as error:
            raise ServiceError(
                "bad_archive", _("tournament rules: %(problem)s") % {"problem": error_text(error)}
            ) from None
        if profile.as_dict() != rules:
            raise ServiceError("bad_archive", _("tournament rules: not a complete rule profile."))
    if data["state"] not in Tournament.State.values:
        raise ServiceError(
            "bad_archive",
            _("tournament state %(state)s is unknown.") % {"state": repr(data["state"])},
        )
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
        raise ServiceError(
            "bad_archive", _("%(where)s: unknown state or stage.") % {"where": reader.where}
        )
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
        result = item["result"]
        if result is not None and b is None:
            pairing.bye_games, pairing.bye_points = (
                int(result["games"][0]),
                int(result["points"][0]),
            )
        if item["match"] is not None:
            label = f"round {rnd.number} table {pairing.table}"
            decision = _decision(result) if b is not None else None
            pairing.match = _match_from(tournament, actor, a, b, item["match"], label, decision)
            reader.match_imported()
        pairing.save()


def _decision(result: dict | None) -> dict | None:
    """A result set over a match's hands, as scoring.import_match takes it."""
    if result is None:
        return None
    if result["winner"] not in ("A", "B"):
        raise ValueError(f"the result's winner {result['winner']!r} is not seat A or B")
    return {
        "winner": result["winner"],
        "games": tuple(int(x) for x in result["games"]),
        "points": tuple(int(x) for x in result["points"]),
        "by": result.get("by") or Match.DecidedBy.ORGANISER,
        "reason": result["reason"],
        "decided_at": parse_datetime(result["resolved_at"]) or timezone.now(),
    }


def _match_from(
    tournament: Tournament,
    actor: Actor,
    a: Registration,
    b: Registration | None,
    data: dict,
    label: str,
    decision: dict | None = None,
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
        decision=decision,
        label=label,
    )
