"""Registrations: add one player, import a CSV, check in, withdraw (services).

A registration points at a club Player; registering a name the club does not know
creates that Player (through scoring.services.add_player). A club member id, when
given, identifies the player: it must not belong to someone else. Registering once the
tournament is running makes a late entry, which only a Swiss stage can take (a round
robin's schedule and a bracket are fixed in round 1).

CSV import: a header line is required and must have a `name` column; `email` and a
club member id (`member_id`, `member id`, `member`) are optional, other columns are
ignored. Comma, semicolon or tab separated; UTF-8 (Excel's cp1252 is accepted too).
Every row is accepted or refused on its own, with the reason; a file that is not CSV
text or has no name column is refused whole and nothing is written.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext as _

from ginclub.errors import Conflict, ServiceError, require_reason
from ginclub.inputs import registration_details
from ginclub.permissions import Actor
from scoring import services as scoring
from scoring.models import Player
from scoring.stats import ratings_of
from tournaments.models import Pairing, Registration, Round, SignUp, Tournament
from tournaments.pairing.first_round import rating_order
from tournaments.services import signups
from tournaments.services.base import lock_registration, lock_tournament, log

MAX_BYTES = 1_000_000
MAX_ROWS = 2_000
MAX_KB = MAX_BYTES // 1000
COLUMNS = {
    "name": "name",
    "player": "name",
    "player name": "name",
    "full name": "name",
    "email": "email",
    "e mail": "email",
    "mail": "email",
    "email address": "email",
    "member id": "member_id",
    "club member id": "member_id",
    "member": "member_id",
    "member number": "member_id",
    "membership number": "member_id",
    "member no": "member_id",
}


def add_registration(
    *,
    tournament_id: int,
    actor: Actor,
    name: str = "",
    player_id: int | None = None,
    email: str = "",
    member_id: str = "",
    seed: int | None = None,
) -> Registration:
    """Register a club player (`player_id`) or a name (found in the club, else created).

    Raises Forbidden, ServiceError (`empty_name`, `name_too_long`, `bad_email`,
    `bad_member_id`, `member_id_taken`, `member_id_mismatch`, `already_registered`,
    `invalid`), Conflict (`finished`, `late_entry_closed`).
    """
    with transaction.atomic():
        tournament = lock_tournament(tournament_id, actor)
        _check_seed(tournament, seed)
        if player_id is not None:
            player = tournament.club.players.filter(pk=player_id).first()
            if player is None:
                raise ServiceError(
                    "invalid",
                    _("%(club)s has no player %(id)s.")
                    % {"club": tournament.club.name, "id": player_id},
                    fields={"player_id": _("not in the club")},
                )
        else:
            player, _new = _player_for(tournament, actor, name, email, member_id)
        registration = _register(tournament, player, seed)
        log(tournament, "player_registered", actor, after=_summary(registration))
    return registration


def _register(tournament: Tournament, player: Player, seed: int | None = None) -> Registration:
    _check_open(tournament)
    if tournament.registrations.filter(player=player).exists():
        raise ServiceError(
            "already_registered",
            _("%(name)s is already registered.") % {"name": player.name},
            fields={"name": _("already registered")},
        )
    registration = Registration.objects.create(
        tournament=tournament, player=player, seed=seed, late=tournament.frozen
    )
    if registration.late and tournament.late_entry == Tournament.LateEntry.BYE:
        _missed_as_byes(tournament, registration)
    return registration


def _missed_as_byes(tournament: Tournament, registration: Registration) -> None:
    """The organiser's late-entry rule is byes (docs/rules.md §11, late entries): each
    round already published counts for the late entrant as a bye with the event's bye
    score, a pairing of its own, so the standings read it as any other bye."""
    missed = list(tournament.round_set.exclude(state=Round.State.DRAFT).order_by("number"))
    if not missed:
        return
    # Translators: the reason on a late entrant's bye in a round they missed.
    reason = _("late entry: round missed, counted as a bye")
    Pairing.objects.bulk_create(
        Pairing(
            round=rnd,
            player_a=registration,
            reason=reason,
            position=10_000 + registration.pk % 10_000,
            bye_games=tournament.bye_games,
            bye_points=tournament.bye_points,
        )
        for rnd in missed
    )


def _check_open(tournament: Tournament) -> None:
    if tournament.state == Tournament.State.FINISHED:
        raise Conflict("finished", _("The tournament is finished."))
    if tournament.frozen and (
        tournament.format in (Tournament.Format.ROUND_ROBIN, Tournament.Format.ELIMINATION)
        or tournament.round_set.exclude(stage=Round.Stage.SWISS).exists()
    ):
        raise Conflict(
            "late_entry_closed",
            # Translators: %(format)s is the tournament's format ("round robin").
            _("Late entries are closed: the %(format)s field was fixed in round 1")
            % {"format": tournament.get_format_display()}
            if tournament.format != Tournament.Format.SWISS_CUT
            else _("Late entries are closed: the top cut has started."),
        )


def _player_for(
    tournament: Tournament, actor: Actor, name: str, email: str, member_id: str
) -> tuple[Player, bool]:
    """The club player these details name, created when the club has none (and
    whether it was created)."""
    club = tournament.club
    name, email, member_id = registration_details(name, email, member_id)
    known = _known_player(
        name,
        member_id,
        lambda: club.players.filter(member_id=member_id).first(),
        lambda: club.players.filter(name__iexact=name).first(),
    )
    if known is not None:
        return known, False
    return scoring.add_player(
        club=club, name=name, actor=actor, email=email, member_id=member_id
    ), True


def _known_player(
    name: str,
    member_id: str,
    by_member: Callable[[], Player | None],
    by_name: Callable[[], Player | None],
) -> Player | None:
    """The club player with this member id (it must carry the name), else with this
    name in any case (its member id, if any, must match), else None. `by_member` and
    `by_name` find them (the first by name): queries for one registration, a file's
    lookups read at once for a CSV import. Raises ServiceError (`member_id_taken`,
    `member_id_mismatch`)."""
    if member_id and (member := by_member()):
        if member.name.lower() != name.lower():
            raise ServiceError(
                "member_id_taken",
                _("Member id %(id)s belongs to %(member)s, not %(name)s.")
                % {"id": member_id, "member": member.name, "name": name},
                fields={"member_id": _("taken")},
            )
        return member
    existing = by_name()
    if existing is not None:
        if member_id and existing.member_id and existing.member_id != member_id:
            raise ServiceError(
                "member_id_mismatch",
                _("%(name)s has member id %(member_id)s, not %(id)s.")
                % {"name": existing.name, "member_id": existing.member_id, "id": member_id},
                fields={"member_id": _("does not match")},
            )
        return existing
    return None


def _check_seed(tournament: Tournament, seed: Any, registration_id: int | None = None) -> None:
    if seed is None:
        return
    if isinstance(seed, bool) or not isinstance(seed, int) or not 1 <= seed <= 9999:
        raise ServiceError(
            "invalid",
            _("A seed is a whole number from 1 to 9999."),
            fields={"seed": _("%(low)s to %(high)s") % {"low": 1, "high": 9999}},
        )
    taken = tournament.registrations.filter(seed=seed).exclude(pk=registration_id).first()
    if taken is not None:
        raise ServiceError(
            "duplicate_seed",
            _("Seed %(seed)s is already %(name)s's.") % {"seed": seed, "name": taken.player.name},
            fields={"seed": _("taken")},
        )


def _summary(registration: Registration) -> dict[str, Any]:
    return {
        "registration": registration.pk,
        "player": registration.player.name,
        "late": registration.late,
        "seed": registration.seed,
    }


# ------------------------------------------------------------------------ CSV import


@dataclass(frozen=True)
class ImportRow:
    line: int
    name: str
    accepted: bool
    reason: str
    code: str = ""
    registration_id: int | None = None


@dataclass
class ImportReport:
    rows: list[ImportRow] = field(default_factory=list)
    ignored_columns: list[str] = field(default_factory=list)

    @property
    def accepted(self) -> list[ImportRow]:
        return [row for row in self.rows if row.accepted]

    @property
    def refused(self) -> list[ImportRow]:
        return [row for row in self.rows if not row.accepted]


# Rows registered per transaction. Each transaction holds the tournament's lock (and on
# SQLite every writer's): a 2,000-row file taken whole held it for seconds while the
# tables' hands waited; in chunks, the longest wait is a fraction of a second.
IMPORT_CHUNK = 200


def import_registrations(*, tournament_id: int, actor: Actor, content: bytes | str) -> ImportReport:
    """Register every row of a CSV file (module docstring); accepted rows stay even when
    others are refused. Rows are taken IMPORT_CHUNK at a time, each chunk in a transaction
    of its own with its own ledger row, in the same few queries whatever its size (the
    club's players the chunk names read at once, the new ones and the registrations
    written in one insert each). Returns the row-by-row report.

    Raises Forbidden, Conflict (`finished`, `late_entry_closed`), ServiceError for a file
    refused whole (`not_csv`, `empty_file`, `no_name_column`, `too_large`).
    """
    header, rows, ignored = parse_csv(content)
    report = ImportReport(ignored_columns=ignored)
    seen: dict[str, int] = {}
    for start in range(0, max(len(rows), 1), IMPORT_CHUNK):
        chunk = rows[start : start + IMPORT_CHUNK]
        with transaction.atomic():
            tournament = lock_tournament(tournament_id, actor)
            _check_open(tournament)
            done = _import_chunk(tournament, actor, chunk, seen)
            report.rows.extend(done)
            log(
                tournament,
                "registrations_imported",
                actor,
                after={
                    "accepted": sum(row.accepted for row in done),
                    "refused": sum(not row.accepted for row in done),
                    "rows": [[row.line, row.name, row.code or "ok"] for row in done],
                },
            )
    return report


# Never in a person's name, always a separator in a spreadsheet's export.
STRAY_SEPARATORS = (";", "\t")


def _import_chunk(
    tournament: Tournament,
    actor: Actor,
    chunk: list[tuple[int, dict[str, str]]],
    seen: dict[str, int],
) -> list[ImportRow]:
    """Register a chunk's rows, each checked as add_registration checks one, in order (a
    row sees the players the rows before it created). `seen`: the lowered names
    registered so far by the file, with their lines."""
    club = tournament.club
    details = [
        (line, " ".join(v.get("name", "").split()), v.get("email", ""), v.get("member_id", ""))
        for line, v in chunk
    ]
    typed_names = {line: v.get("name", "") for line, v in chunk}
    names = [name for _line, name, _e, _m in details if name]
    members = [m.strip() for _l, _n, _e, m in details if m.strip()]
    by_name: dict[str, Player] = {}
    for player in (
        club.players.annotate(lowered=Lower("name"))
        .filter(Q(lowered__in=[n.lower() for n in names]) | Q(name__in=names))
        .order_by("name")
    ):
        by_name.setdefault(player.name.lower(), player)
    by_member: dict[str, Player] = {}
    for player in club.players.filter(member_id__in=members).order_by("name"):
        by_member.setdefault(player.member_id, player)
    known = {p.pk for p in (*by_name.values(), *by_member.values())}
    registered = set(
        tournament.registrations.filter(player_id__in=known).values_list("player_id", flat=True)
    )
    outcomes: list[tuple[int, str, Player | ServiceError, bool]] = []
    for line, raw_name, email, member_id in details:
        key = raw_name.lower()
        if key and key in seen:
            duplicate = _("duplicate of line %(line)s") % {"line": seen[key]}
            outcomes.append((line, raw_name, ServiceError("duplicate", duplicate), False))
            continue
        try:
            typed = typed_names.get(line, "")  # before its spaces were folded
            if split := next((c for c in STRAY_SEPARATORS if c in typed), None):
                # "Finn;;" of a comma file: a line split another way, not a name
                raise ServiceError(
                    "stray_separator",
                    _(
                        "the name holds %(separator)s: is this line split by another "
                        "separator than the rest of the file?"
                    )
                    % {"separator": repr(split)},
                )
            name, email, member_id = registration_details(raw_name, email, member_id)
            player = _known_player(
                name, member_id, partial(by_member.get, member_id), partial(by_name.get, key)
            )
            is_new = player is None
            if player is None:
                name = scoring.new_player_name(name, email)
                player = Player(name=name, email=email, member_id=member_id)
            elif player.pk in registered:
                raise ServiceError(
                    "already_registered",
                    _("%(name)s is already registered.") % {"name": player.name},
                    fields={"name": _("already registered")},
                )
        except ServiceError as error:
            outcomes.append((line, raw_name, error, False))
            continue
        seen[key] = line
        by_name.setdefault(key, player)
        if member_id:
            by_member.setdefault(member_id, player)
        if player.pk:
            registered.add(player.pk)
        outcomes.append((line, raw_name, player, is_new))
    new = [p for _l, _n, p, is_new in outcomes if is_new]
    scoring.add_players(club=club, actor=actor, players=new)
    registrations = Registration.objects.bulk_create(
        [
            Registration(tournament=tournament, player=p, late=tournament.frozen)
            for _l, _n, p, _new in outcomes
            if isinstance(p, Player)
        ]
    )
    made = iter(registrations)
    return [
        ImportRow(line, name, False, p.message, p.code)
        if isinstance(p, ServiceError)
        else _accepted(line, name, next(made), is_new)
        for line, name, p, is_new in outcomes
    ]


def _accepted(line: int, name: str, registration: Registration, is_new: bool) -> ImportRow:
    if registration.late:
        reason = (
            _("registered as a late entry (new club player)")
            if is_new
            else _("registered as a late entry")
        )
    else:
        reason = _("registered (new club player)") if is_new else _("registered")
    return ImportRow(line, name, True, reason, "", registration.pk)


def parse_csv(
    content: bytes | str,
) -> tuple[list[str], list[tuple[int, dict[str, str]]], list[str]]:
    """(header, [(line number, {column: value})], ignored columns), or ServiceError."""
    text = _text_of(content)
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect, strict=True)
    try:
        header = next(reader, [])
        columns = [
            COLUMNS.get(" ".join(h.strip().lower().replace("_", " ").replace("-", " ").split()))
            for h in header
        ]
        if "name" not in columns:
            found = ", ".join(repr(h.strip()) for h in header if h.strip()) or "nothing"
            raise ServiceError(
                "no_name_column",
                _(
                    "The first line must be a header with a 'name' column (optional 'email', "
                    "'member_id'); found %(found)s."
                )
                % {"found": found},
            )
        rows = []
        for cells in reader:
            if not any(cell.strip() for cell in cells):
                continue
            if len(rows) >= MAX_ROWS:
                raise ServiceError(
                    "too_large",
                    _("The file has more than %(count)s players.") % {"count": MAX_ROWS},
                )
            values: dict[str, str] = {}
            for column, cell in zip(columns, cells, strict=False):
                if column and column not in values:
                    values[column] = cell.strip()
            rows.append((reader.line_num, values))
    except csv.Error as error:
        raise ServiceError(
            "not_csv",
            _("Line %(line)s is not valid CSV: %(error)s.")
            % {"line": reader.line_num, "error": error},
        ) from None
    ignored = [h.strip() for h, c in zip(header, columns, strict=True) if c is None and h.strip()]
    return header, rows, ignored


def _text_of(content: bytes | str) -> str:
    if isinstance(content, bytes):
        if len(content) > MAX_BYTES:
            raise ServiceError("too_large", _("The file is over %(size)s kB.") % {"size": MAX_KB})
        if b"\x00" in content:
            raise ServiceError("not_csv", _("This is not a CSV text file (it holds binary data)."))
        try:
            content = content.decode("utf-8-sig")
        except UnicodeDecodeError:
            content = content.decode("cp1252", errors="replace")
    elif len(content) > MAX_BYTES:
        raise ServiceError("too_large", _("The file is over %(size)s kB.") % {"size": MAX_KB})
    if "\x00" in content:
        raise ServiceError("not_csv", _("This is not a CSV text file (it holds binary data)."))
    if not content.strip():
        raise ServiceError("empty_file", _("The file is empty."))
    return content


# ------------------------------------------------------------- check-in, withdrawals


def check_in(*, registration_id: int, actor: Actor, checked_in: bool = True) -> Registration:
    """Mark a player present (or not). Raises Forbidden, Conflict (`withdrawn`)."""
    with transaction.atomic():
        tournament, registration = lock_registration(registration_id, actor)
        if registration.withdrawn and checked_in:
            raise Conflict(
                "withdrawn",
                _("%(name)s has withdrawn.") % {"name": registration.player.name},
            )
        if registration.checked_in != checked_in:
            registration.checked_in = checked_in
            registration.save(update_fields=["checked_in"])
            log(
                tournament,
                "checked_in" if checked_in else "check_in_undone",
                actor,
                after=_summary(registration),
            )
    return registration


def check_in_all(*, tournament_id: int, actor: Actor) -> list[Registration]:
    """Mark every registered player present who is not yet (withdrawn ones stay out):
    the desk at a club night where everyone registered has come. One ledger row names
    them. Returns those checked in now. Raises Forbidden."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id, actor)
        waiting = list(
            tournament.registrations.filter(withdrawn=False, checked_in=False)
            .select_related("player")
            .order_by("player__name")
        )
        if waiting:
            tournament.registrations.filter(pk__in=[r.pk for r in waiting]).update(checked_in=True)
            log(
                tournament,
                "checked_in_all",
                actor,
                after={"players": [r.player.name for r in waiting]},
            )
    return waiting


def withdraw_registration(*, registration_id: int, actor: Actor, reason: str) -> Registration:
    """The player leaves: never paired again; results already played stand. The reason
    goes on the ledger row, as a correction's or a time call undone's does.
    Raises Forbidden, ServiceError (`reason_required`), Conflict (`already_withdrawn`)."""
    with transaction.atomic():
        tournament, registration = lock_registration(registration_id, actor)
        name = registration.player.name
        if registration.withdrawn:
            raise Conflict(
                "already_withdrawn", _("%(name)s has already withdrawn.") % {"name": name}
            )
        require_reason(reason, _("Say why %(name)s is withdrawn.") % {"name": name})
        registration.withdrawn = True
        registration.save(update_fields=["withdrawn"])
        log(
            tournament,
            "player_withdrawn",
            actor,
            reason=reason.strip(),
            after=_summary(registration),
        )
        signups.registration_freed(tournament, registration, actor)
    return registration


def reinstate_registration(*, registration_id: int, actor: Actor, reason: str) -> Registration:
    """Undo a withdrawal: the player is paired again from the next round. The reason
    goes on the ledger row, as the withdrawal's does.
    Raises Forbidden, ServiceError (`reason_required`), Conflict (`not_withdrawn`,
    `finished`)."""
    with transaction.atomic():
        tournament, registration = lock_registration(registration_id, actor)
        name = registration.player.name
        if not registration.withdrawn:
            raise Conflict("not_withdrawn", _("%(name)s has not withdrawn.") % {"name": name})
        if tournament.state == Tournament.State.FINISHED:
            raise Conflict("finished", _("The tournament is finished."))
        require_reason(reason, _("Say why %(name)s is back.") % {"name": name})
        registration.withdrawn = False
        registration.save(update_fields=["withdrawn"])
        log(
            tournament,
            "player_reinstated",
            actor,
            reason=reason.strip(),
            after=_summary(registration),
        )
    return registration


def remove_registration(*, registration_id: int, actor: Actor) -> None:
    """Delete a registration made by mistake; a player who was paired must withdraw
    instead. Raises Forbidden, Conflict (`already_paired`)."""
    with transaction.atomic():
        tournament, registration = lock_registration(registration_id, actor)
        if (
            Pairing.objects.filter(player_a=registration).exists()
            or Pairing.objects.filter(player_b=registration).exists()
        ):
            raise Conflict(
                "already_paired",
                _("%(name)s has been paired; withdraw them instead.")
                % {"name": registration.player.name},
            )
        summary = _summary(registration)
        signup = SignUp.objects.filter(registration=registration).first()
        registration.delete()
        log(tournament, "registration_removed", actor, before=summary)
        if signup is not None:
            signups.registration_freed(tournament, registration, actor, signup=signup)
        else:
            signups.move_up(tournament, actor)


def set_seed(*, registration_id: int, actor: Actor, seed: int | None) -> Registration:
    """Set (or clear) a player's seed: the order for an elimination bracket, a round
    robin schedule and round 1 of a Swiss. Raises Forbidden, ServiceError (`invalid`,
    `duplicate_seed`)."""
    with transaction.atomic():
        tournament, registration = lock_registration(registration_id, actor)
        _check_seed(tournament, seed, registration.pk)
        before = registration.seed
        registration.seed = seed
        registration.save(update_fields=["seed"])
        log(tournament, "seed_set", actor, before={"seed": before}, after=_summary(registration))
    return registration


def seed_by_rating(*, tournament_id: int, actor: Actor) -> list[tuple[Registration, float | None]]:
    """Seed every registered player from the club's ratings: seed 1 the highest rating
    (the openskill ordinal the rated list ranks by; equal to two decimals, the old seed
    order decides), then the unrated players in their old seed order (seeded first,
    then by registration). One ledger row lists the old and new seeds with the ratings.
    Returns the registrations in their new seed order, each with its rating (None:
    unrated).

    Raises Forbidden, Conflict (`finished`, `seeding_closed`: round 1 is published),
    ServiceError (`no_ratings`: nobody registered has a rating).
    """
    with transaction.atomic():
        tournament = lock_tournament(tournament_id, actor)
        if tournament.state == Tournament.State.FINISHED:
            raise Conflict("finished", _("The tournament is finished."))
        if tournament.frozen:
            raise Conflict(
                "seeding_closed",
                _("Round 1 of %(name)s is published: seeding by club rating is for before round 1.")
                % {"name": tournament.name},
            )
        old = sorted(
            tournament.registrations.select_related("player"),
            key=lambda r: (r.seed is None, r.seed or 0, r.pk),
        )
        by_player = ratings_of([r.player_id for r in old])
        ratings = {r.pk: by_player[r.player_id] for r in old if r.player_id in by_player}
        if not ratings:
            raise ServiceError(
                "no_ratings",
                (
                    _(
                        "Nobody registered in %(name)s has a club rating yet (%(names)s): "
                        "ratings come from finished matches of %(club)s. Seed the players by "
                        "hand, or pair round 1 at random or by seed."
                    )
                    if old
                    else _(
                        "Nobody registered in %(name)s has a club rating yet: ratings come "
                        "from finished matches of %(club)s. Seed the players by hand, or pair "
                        "round 1 at random or by seed."
                    )
                )
                % {"name": tournament.name, "names": _names(old), "club": tournament.club.name},
            )
        by_id = {r.pk: r for r in old}
        before = [{"player": r.player.name, "seed": r.seed} for r in old]
        seeded = [by_id[i] for i in rating_order([r.pk for r in old], ratings)]
        for seed, registration in enumerate(seeded, start=1):
            registration.seed = seed
        Registration.objects.bulk_update(seeded, ["seed"])
        log(
            tournament,
            "seeded_by_rating",
            actor,
            before={"seeds": before},
            after={
                "seeds": [
                    {"player": r.player.name, "seed": r.seed, "rating": ratings.get(r.pk)}
                    for r in seeded
                ]
            },
        )
    return [(r, ratings.get(r.pk)) for r in seeded]


def _names(registrations: list[Registration], shown: int = 5) -> str:
    names = [r.player.name for r in registrations[:shown]]
    more = len(registrations) - shown
    if more > 0:
        # Translators: names of players, and how many more are not listed.
        return _("%(names)s and %(count)s more") % {"names": ", ".join(names), "count": more}
    return ", ".join(names)
