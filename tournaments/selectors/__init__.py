"""Reads shared by the tournament pages and the API.

Every selector here reads in a fixed number of queries, whatever the number of players,
rounds or hands: standings in 3, the dashboard in 3, a round's tables in 3. The
standings are computed by tournaments.pairing.compute_standings from one record per
decided pairing (see tournaments.models: a finished match, a bye, or a resolved result).

Hiding (for the public only; organisers always see everything):
    hide_standings_during_round  while a round is published and not closed, the public
                                 sees the standings after the last closed round.
    hide_last_rounds = N         until the tournament is finished, the public sees at
                                 most the standings after round (planned rounds − N).
    public = False               the public sees nothing (registered players still see
                                 pairings and standings, hidden as for the public).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import segno
from django.core.cache import caches
from django.db.models import Count, Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext, gettext_noop, ngettext, pgettext

from ginclub import permissions
from ginclub.permissions import Actor, table_token
from scoring.models import Game, Hand, LedgerRow, Match
from scoring.services.results import RESULT_CHANGED
from tournaments import translated
from tournaments.formats import planned_rounds
from tournaments.models import Pairing, Registration, Round, Tournament
from tournaments.pairing import (
    DEFAULT_TIEBREAKS,
    FIGURE_NAMES,
    MatchRecord,
    Standing,
    compute_standings,
    explain_standings,
)
from tournaments.pairing.words import worded
from tournaments.play import NOT_CALLED, Play, plays_of
from tournaments.play import words as play_words

# ------------------------------------------------------------- the reader's words


def in_reader_language(value: Any) -> Any:
    """`value` in the active language if it carries a phrase (a standings line's why,
    its head-to-head); anything else as it is (tournaments.translated)."""
    return translated.worded(value)


# ----------------------------------------------------------------- who sees what


def tournaments_for(actor: Actor) -> QuerySet[Tournament]:
    """Tournaments `actor` may open, as one query: the queryset form of
    ginclub.permissions.may_view_tournament (public ones, their clubs' for organisers,
    the ones they are registered in; admins all)."""
    return permissions.visible_tournaments(actor).select_related("club")


def registrations_of(tournament: Tournament) -> QuerySet[Registration]:
    return tournament.registrations.select_related("player").order_by("player__name")


def rounds_of(tournament: Tournament) -> QuerySet[Round]:
    return tournament.round_set.order_by("number")


def current_round(tournament: Tournament) -> Round | None:
    """The latest round, whatever its state (draft, published or closed)."""
    return tournament.round_set.order_by("-number").first()


def field_size(tournament: Tournament) -> int:
    """Players who would be paired now (not withdrawn; checked in when required)."""
    active = tournament.registrations.filter(withdrawn=False)
    if tournament.check_in_required:
        active = active.filter(checked_in=True)
    return active.count()


def rounds_planned(tournament: Tournament) -> int:
    return planned_rounds(tournament, field_size(tournament))


def hidden_after(tournament: Tournament) -> int | None:
    """The last round whose results the public sees under hide_last_rounds (None: all of
    them; the round being played under hide_standings_during_round: public_limit)."""
    if not tournament.hide_last_rounds or tournament.state == Tournament.State.FINISHED:
        return None
    return max(rounds_planned(tournament) - tournament.hide_last_rounds, 0)


def held_rounds(round_path: str) -> Q:
    """The rounds whose results the organisers' hiding options keep from the public while
    their events run (hidden_after; the round being played under
    hide_standings_during_round), as a condition on a query that reaches the round
    through `round_path`. ginclub.permissions.held_back asks it (registered by the app),
    so every list holds back what the event's own pages hold back. One query, and one
    per running event that hides its last rounds."""
    hiding = Tournament.objects.exclude(state=Tournament.State.FINISHED).filter(
        Q(hide_last_rounds__gt=0) | Q(hide_standings_during_round=True)
    )
    held = Q(pk__in=[])
    for event in hiding:
        of_event = Q(**{f"{round_path}__tournament_id": event.pk})
        if event.hide_standings_during_round:
            held |= of_event & Q(**{f"{round_path}__state": Round.State.PUBLISHED})
        if (shown := hidden_after(event)) is not None:
            held |= of_event & Q(**{f"{round_path}__number__gt": shown})
    return held


# ---------------------------------------------------------------------- standings

# A table's result, as record_of reads it: its match's (whoever decided it: the hands,
# an organiser, the time policy); a bye's own games and points.
RESULT_FIELDS = (
    "bye_games",
    "bye_points",
    "match__state",
    "match__winner",
    "match__games_won_a",
    "match__games_won_b",
    "match__points_a",
    "match__points_b",
)
PAIRING_FIELDS = (
    "id",
    "match_id",
    "round__number",
    "round__stage",
    "player_a_id",
    "player_b_id",
    *RESULT_FIELDS,
)
DONE = (Match.State.FINISHED, Match.State.CLOSED)


def pairing_rows(tournament: Tournament, *, through_round: int | None = None) -> list[dict]:
    """Every pairing of the published and closed rounds, as plain values (one query)."""
    rows = Pairing.objects.filter(
        round__tournament=tournament, round__state__in=[Round.State.PUBLISHED, Round.State.CLOSED]
    )
    if through_round is not None:
        rows = rows.filter(round__number__lte=through_round)
    return list(rows.order_by("round__number", "position").values(*PAIRING_FIELDS))


def decided_winner(row: dict) -> str | None:
    """ "A" or "B" once the pairing is decided (a bye is won by A), else None."""
    if row["player_b_id"] is None:
        return "A"
    if row["match__state"] in DONE:
        return row["match__winner"] or None
    return None


def record_of(row: dict) -> MatchRecord | None:
    """The standings record of a pairing row, or None while it is undecided."""
    seat = decided_winner(row)
    if seat is None:
        return None
    a, b = row["player_a_id"], row["player_b_id"]
    if b is None:
        games, points = (row["bye_games"], 0), (row["bye_points"], 0)
    else:
        games = (row["match__games_won_a"], row["match__games_won_b"])
        points = (row["match__points_a"], row["match__points_b"])
    return MatchRecord(
        a=a,
        b=b,
        winner=a if seat == "A" else b,
        games_a=games[0],
        games_b=games[1],
        points_a=points[0],
        points_b=points[1],
    )


@dataclass(frozen=True)
class StandingRow:
    standing: Standing
    name: str
    player_id: int
    withdrawn: bool
    late: bool
    head_to_head: str
    why: str = ""  # why this line is where it is (pairing.standings_words)

    @property
    def registration_id(self) -> int:
        return self.standing.id


@dataclass
class StandingsView:
    tournament: Tournament
    rows: list[StandingRow]
    tiebreaks: tuple[str, ...]
    through_round: int | None
    rounds_played: int
    hidden: bool = False
    note: str = ""
    rounds_closed: int = 0  # the last closed round counted
    version: str = ""  # a digest of what the lines were computed from (standings_version)

    @property
    def caption(self) -> str:
        """Which rounds these standings follow, in words: "After round 2, with the
        tables of round 3 finished so far"."""
        in_play = self.rounds_played > self.rounds_closed and (
            self.through_round is None or self.through_round >= self.rounds_played
        )
        if in_play and self.rounds_closed:
            return gettext(
                "After round %(closed)s, with the tables of round %(played)s finished so far."
            ) % {"closed": self.rounds_closed, "played": self.rounds_played}
        if in_play:
            return gettext("Round %(played)s in play: the tables finished so far.") % {
                "played": self.rounds_played
            }
        if self.rounds_closed:
            return gettext("After round %(closed)s.") % {"closed": self.rounds_closed}
        return ""


def tiebreaks_of(tournament: Tournament) -> tuple[str, ...]:
    return tuple(tournament.tiebreaks or DEFAULT_TIEBREAKS)


def standings(
    tournament: Tournament,
    *,
    public: bool = False,
    through_round: int | None = None,
    replace: dict[int, dict[str, Any]] | None = None,
) -> StandingsView:
    """The standings, in 3 queries. `public` applies the hiding options; `through_round`
    asks for the standings after that round (a public request never sees past what the
    hiding options allow). `replace` maps a match id to a result (scoring's result_of)
    to count instead of the stored one: the standings as they were before a change."""
    registrations = list(
        tournament.registrations.values(
            "id", "player_id", "player__name", "withdrawn", "late", "checked_in"
        )
    )
    rounds = list(tournament.round_set.values_list("number", "state"))
    limit, note = None, ""
    if public:
        active = sum(
            1
            for r in registrations
            if not r["withdrawn"] and (r["checked_in"] or not tournament.check_in_required)
        )
        limit, note = public_limit(tournament, rounds, active)
    if through_round is not None and (limit is None or through_round < limit):
        limit = through_round
    played = max((n for n, s in rounds if s != Round.State.DRAFT), default=0)
    if public and limit == 0 and played:
        return StandingsView(tournament, [], tiebreaks_of(tournament), 0, played, True, note)
    pairings = pairing_rows(tournament, through_round=limit)
    records = [r for row in pairings if (r := record_of(_replaced(row, replace))) is not None]
    if played and tournament.check_in_required:
        # Someone who registered but never checked in (and so never played) is no
        # standing of the event: left out once play has begun.
        seated = {row[k] for row in pairings for k in ("player_a_id", "player_b_id")}
        registrations = [r for r in registrations if r["checked_in"] or r["id"] in seated]
    closed = max(
        (n for n, s in rounds if s == Round.State.CLOSED and (limit is None or n <= limit)),
        default=0,
    )
    version = standings_version(tournament, registrations, records)
    return StandingsView(
        tournament,
        _cached_rows(version, tournament, registrations, records),
        tiebreaks_of(tournament),
        limit,
        played,
        bool(note),
        note,
        closed,
        version,
    )


STANDINGS_CACHE_SECONDS = 3600


def standings_version(
    tournament: Tournament, registrations: list[dict], records: list[MatchRecord]
) -> str:
    """A digest of everything the standings lines are computed from: the players (names,
    withdrawn, late), the decided results and the tie-breaks. Undecided matches, hands in
    play and the clock do not move a line, so they are not in it: while a busy hall plays
    its hands, the version stays put and the lines (and the rendered table, see
    _standings_table.html) are reused instead of computed again for every poll."""
    raw = repr(
        (
            tiebreaks_of(tournament),
            sorted(
                (r["id"], r["player_id"], r["player__name"], r["withdrawn"], r["late"])
                for r in registrations
            ),
            records,
        )
    )
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


def _cached_rows(
    version: str, tournament: Tournament, registrations: list[dict], records: list[MatchRecord]
) -> list[StandingRow]:
    """The lines for `version`, computed once for the app server's workers (the shared
    cache: the key is the content, and the language, in case a line is ever worded when
    computed)."""
    key = f"standings-rows:{tournament.pk}:{get_language()}:{version}"
    rows = _ROWS_SEEN.get(key)
    if rows is None:
        shared = caches["shared"]
        rows = shared.get(key)
        if rows is None:
            rows = _rows(tournament, registrations, records)
            shared.set(key, rows, STANDINGS_CACHE_SECONDS)
        rows = tuple(rows)
        if len(_ROWS_SEEN) >= ROWS_SEEN_MAX:
            _ROWS_SEEN.pop(next(iter(_ROWS_SEEN)), None)  # the oldest
        _ROWS_SEEN[key] = rows
    return list(rows)


# This process's last few lines, by the same key: reading 512 lines back from the shared
# cache (unpickling their rows and reasons) was a fifth of a projector poll, every poll.
# The key is the content's digest and the lines are frozen, so a copy is never stale.
ROWS_SEEN_MAX = 32
_ROWS_SEEN: dict[str, tuple[StandingRow, ...]] = {}


def _replaced(row: dict, replace: dict[int, dict[str, Any]] | None) -> dict:
    result = replace.get(row["match_id"]) if replace else None
    if result is None:
        return row
    return {
        **row,
        "match__state": result["state"],
        "match__winner": result["winner"] or "",
        "match__games_won_a": result["games_won"]["A"],
        "match__games_won_b": result["games_won"]["B"],
        "match__points_a": result["points"]["A"],
        "match__points_b": result["points"]["B"],
    }


def _rows(
    tournament: Tournament, registrations: list[dict], records: list[MatchRecord]
) -> list[StandingRow]:
    by_id = {r["id"]: r for r in registrations}
    lines = compute_standings(sorted(by_id), records, tiebreaks_of(tournament))
    why = explain_standings(  # why each line is where it is
        lines, {i: r["player__name"] for i, r in by_id.items()}, tiebreaks_of(tournament)
    )
    rows = []
    for line in lines:
        reg = by_id[line.id]
        rows.append(
            StandingRow(
                line,
                reg["player__name"],
                reg["player_id"],
                reg["withdrawn"],
                reg["late"],
                _named(line.head_to_head, by_id),
                why[line.id],
            )
        )
    return rows


# The head-to-head notes of tournaments.pairing ("beat #12"), with the player's name.
HEAD_TO_HEAD = {
    "beat ": gettext_noop("beat %(name)s"),
    "lost to ": gettext_noop("lost to %(name)s"),
}


def _named(note: str, by_id: dict[int, dict]) -> str:
    """ "beat #12" with the registration id replaced by the player's name: the English
    text, carrying its phrase for the reader's language (in_reader_language)."""
    if "#" not in note:
        return note
    words, _hash, reg = note.rpartition("#")
    found = by_id.get(int(reg)) if reg.isdigit() else None
    if not found:
        return note
    if words in HEAD_TO_HEAD:
        return worded(HEAD_TO_HEAD[words], name=found["player__name"])
    return f"{words}{found['player__name']}"


def public_limit(
    tournament: Tournament, rounds: list[tuple[int, str]], active: int
) -> tuple[int | None, str]:
    """The last round whose results the public may see (None: all), and why."""
    if tournament.state == Tournament.State.FINISHED:
        return None, ""
    last_closed = max((n for n, s in rounds if s == Round.State.CLOSED), default=0)
    running = [n for n, s in rounds if s == Round.State.PUBLISHED]
    limit, note = None, ""
    if tournament.hide_standings_during_round and running:
        limit = last_closed
        note = (
            gettext("Standings after round %(closed)s; round %(running)s is being played.")
            % {"closed": last_closed, "running": running[0]}
            if last_closed
            else gettext("Round %(running)s is being played; standings follow.")
            % {"running": running[0]}
        )
    if tournament.hide_last_rounds:
        shown_until = max(planned_rounds(tournament, active) - tournament.hide_last_rounds, 0)
        reached = (
            limit
            if limit is not None
            else max((n for n, s in rounds if s != Round.State.DRAFT), default=0)
        )
        if reached > shown_until:
            limit = shown_until
            note = ngettext(
                "The last %(count)s rounds are hidden until the end: standings after round "
                "%(shown)s.",
                "The last %(count)s rounds are hidden until the end: standings after round "
                "%(shown)s.",
                tournament.hide_last_rounds,
            ) % {"count": tournament.hide_last_rounds, "shown": shown_until}
    return limit, note


# ------------------------------------------------- results changed after a round closed


@dataclass(frozen=True)
class ResultChangeNotice:
    """One applied change to a result of a closed round (from the match's ledger row
    written by tournaments.services.corrections' guard)."""

    round: int
    table: int | None
    players: dict[str, str]
    hand: str
    action: str
    before: dict[str, Any]
    after: dict[str, Any]
    resolved: bool
    at: datetime
    match_id: int | None

    @property
    def what(self) -> str:
        # What became of a hand ("Table 2, Ada v Ben: game 1 hand 3 corrected on ...").
        return {
            # Translators: of a hand ("mano", feminine), after its name.
            "hand_corrected": pgettext("hand", "corrected"),
            "hand_voided": pgettext("hand", "voided"),
            "hand_confirmed": pgettext("hand", "confirmed"),
            "hand_withdrawn": pgettext("hand", "withdrawn"),
        }.get(self.action, pgettext("hand", "changed"))

    def result_text(self, result: dict[str, Any]) -> str:
        if not result:
            return "?"
        values = {
            "a": self.players["A"],
            "b": self.players["B"],
            "games_a": result["games_won"]["A"],
            "games_b": result["games_won"]["B"],
            "points_a": result["points"]["A"],
            "points_b": result["points"]["B"],
        }
        if result["winner"]:
            return gettext(
                "%(winner)s won, %(a)s %(games_a)s–%(games_b)s %(b)s "
                "(%(points_a)s–%(points_b)s points)"
            ) % {**values, "winner": self.players[result["winner"]]}
        return (
            gettext(
                "undecided, %(a)s %(games_a)s–%(games_b)s %(b)s (%(points_a)s–%(points_b)s points)"
            )
            % values
        )

    @property
    def before_text(self) -> str:
        return self.result_text(self.before)

    @property
    def after_text(self) -> str:
        return self.result_text(self.after)

    @property
    def title(self) -> str:
        return gettext("%(a)s v %(b)s") % {"a": self.players["A"], "b": self.players["B"]}


def results_changed(
    tournament: Tournament, *, through_round: int | None = None, limit: int = 20
) -> list[ResultChangeNotice]:
    """The latest changes to results of closed rounds, newest first, in one query.
    `through_round` leaves out rounds after it (what the public may not see yet)."""
    rows = (
        LedgerRow.objects.filter(
            action=RESULT_CHANGED, match__pairing__round__tournament=tournament
        )
        .order_by("-id")
        .values("match_id", "created_at", "before", "after")[:limit]
    )
    notices = []
    for row in rows:
        after = row["after"] or {}
        if through_round is not None and after.get("round", 0) > through_round:
            continue
        notices.append(
            ResultChangeNotice(
                round=after.get("round", 0),
                table=after.get("table"),
                players=after.get("players", {"A": "?", "B": "?"}),
                hand=after.get("hand", ""),
                action=after.get("action", ""),
                before=(row["before"] or {}).get("result", {}),
                after=after.get("result", {}),
                resolved=bool(after.get("resolved")),
                at=row["created_at"],
                match_id=row["match_id"],
            )
        )
    return notices


# ------------------------------------------------------------------- round tables


class TableState:
    BYE = "bye"
    PLAYING = "playing"
    PENDING = "pending"
    DISPUTED = "disputed"
    FINISHED = "finished"


@dataclass(frozen=True)
class Clock:
    started_at: datetime | None
    ends_at: datetime | None
    time_called: bool
    now: datetime
    # A match's own table: its extension (plays until, extra hands), so the polled
    # scoreboard changes when an organiser gives the table more time.
    table: tuple = ()

    @property
    def running(self) -> bool:
        return self.ends_at is not None and not self.time_called

    @property
    def seconds_left(self) -> int | None:
        if self.ends_at is None:
            return None
        if self.time_called:
            return 0
        return max(0, int((self.ends_at - self.now).total_seconds()))


def clock(round: Round) -> Clock:
    return Clock(round.started_at, round.ends_at, round.time_called, timezone.now())


def poll_version(tournament: Tournament, round: Round | None) -> tuple:
    """What the tournament's polled partials (dashboard tables, pairings, standings,
    projector) show, cheaply: the newest ledger row of the whole site (every change to
    a tournament, its rounds and results, and every hand of every match appends one;
    an index lookup), the tournament's own settings and the shown round's state and
    clock (whose countdown runs in the browser, static/js/clock.js)."""
    newest = LedgerRow.objects.order_by("-id").values_list("id", flat=True).first()
    shown = None
    if round is not None:
        c = clock(round)
        shown = (
            round.pk,
            round.state,
            c.ends_at.isoformat() if c.ends_at else None,
            c.time_called,
            c.seconds_left == 0,
        )
    settings = repr([getattr(tournament, f.attname) for f in Tournament._meta.concrete_fields])
    return (newest, settings, shown)


# A match read with its pairing and round (hooks.match_clock_related) has its clock.
CLOCK_RELATED = ("pairing__round",)


def clock_for_match(match: int | Match) -> Clock | None:
    """The round clock of the tournament round a match is played in (for match pages),
    with the table's own extension. Asked by every scoreboard poll, whose match query
    read the pairing and round with it (CLOCK_RELATED); else five plain values in one
    query (a match has at most one pairing), not two model instances in the models'
    ordering."""
    pairings = Match.pairing.related
    if isinstance(match, Match) and pairings.is_cached(match):
        pairing = pairings.get_cached_value(match)
        if pairing is None:
            return None
        r = pairing.round
        found = [(r.started_at, r.ends_at, r.time_called, pairing.plays_until, pairing.extra_hands)]
    else:
        found = list(
            Pairing.objects.filter(match_id=match.pk if isinstance(match, Match) else match)
            .order_by()
            .values_list(
                "round__started_at",
                "round__ends_at",
                "round__time_called",
                "plays_until",
                "extra_hands",
            )[:1]
        )
    if not found:
        return None
    started_at, ends_at, time_called, plays_until, extra_hands = found[0]
    extension = (plays_until.isoformat() if plays_until else None, extra_hands)
    return Clock(started_at, ends_at, time_called, timezone.now(), extension)


@dataclass
class TableRow:
    pairing: Pairing | PairingFacts  # facts: selectors.dashboard_facts
    state: str
    pending: int = 0
    disputed: int = 0
    current_game: int | None = None
    current_points: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    play: Play = NOT_CALLED  # after time is called (tournaments.play)

    @property
    def plays_after_the_call(self) -> bool:
        """Time was called and the table is not done: its play has words."""
        return bool(self.play.state) and self.state not in (TableState.FINISHED, TableState.BYE)

    @property
    def play_words(self) -> str:
        if not self.plays_after_the_call:
            return ""
        return play_words(self.play, self.pairing)

    @property
    def winner_name(self) -> str | None:
        p = self.pairing
        seat = p.match.winner if p.match else ""
        if not seat:
            return None
        return (p.player_a if seat == "A" else p.player_b).player.name


def table_state(pairing: Pairing, pending: int, disputed: int) -> str:
    if pairing.is_bye:
        return TableState.BYE
    m = pairing.match
    if m is not None and m.state != Match.State.IN_PROGRESS and m.winner:
        return TableState.FINISHED
    if disputed:
        return TableState.DISPUTED
    if pending:
        return TableState.PENDING
    return TableState.PLAYING


def tables(round: Round, *, defer: tuple[str, ...] = ()) -> list[TableRow]:
    """Every pairing of a round with its table state, in 3 queries (4 once time is
    called: the hands entered since, for each table's hand in play). `defer`: fields of
    the pairings and their relations the caller never reads."""
    pairings = list(
        round.pairings.select_related("player_a__player", "player_b__player", "match")
        .defer(*defer)
        .order_by("position")
    )
    return _table_rows(round, pairings)


def _table_rows(round: Round, pairings: list) -> list[TableRow]:
    """`pairings` (Pairing or PairingFacts) as TableRows: their states in 2 queries (3
    once time is called)."""
    counts: dict[tuple[int, str], int] = {}
    for row in (
        Hand.objects.filter(
            game__match__pairing__round=round, state__in=[Hand.State.PENDING, Hand.State.DISPUTED]
        )
        .values("game__match_id", "state")
        .annotate(n=Count("id"))
    ):
        counts[(row["game__match_id"], row["state"])] = row["n"]
    current = {  # the lowest game in progress (Hollywood has up to three at once)
        g["match_id"]: g
        for g in Game.objects.filter(match__pairing__round=round, state=Game.State.IN_PROGRESS)
        .order_by("-number")
        .values("match_id", "number", "hand_points_a", "hand_points_b")
    }
    plays = plays_of(round, pairings)  # a query once time is called
    rows = []
    for p in pairings:
        pending = counts.get((p.match_id, Hand.State.PENDING), 0)
        disputed = counts.get((p.match_id, Hand.State.DISPUTED), 0)
        row = TableRow(p, table_state(p, pending, disputed), pending, disputed, play=plays[p.pk])
        game = current.get(p.match_id)
        if game is not None and row.state != TableState.FINISHED:
            row.current_game = game["number"]
            row.current_points = {"A": game["hand_points_a"], "B": game["hand_points_b"]}
        rows.append(row)
    return rows


@dataclass(frozen=True)
class MatchFacts:
    pk: int
    state: str
    winner: str
    games_won_a: int
    games_won_b: int
    decided_by: str
    decision_reason: str
    updated_at: datetime

    overruled = property(lambda self: bool(self.decided_by))  # Match.overruled


@dataclass(frozen=True)
class PairingFacts:
    """What the dashboard's counts and its rows' keys read of a table, as plain values
    from one query: the attributes of a Pairing (and its match) that `table_state`,
    `plays_of` and tournaments.views.rounds.board_rows read. Building a 256-table round's
    pairings as model instances (six each, with their players and match) took most of a
    busy hall's dashboard poll, to render the few rows that had moved."""

    pk: int
    table: int | None
    player_a_name: str
    player_b_id: int | None
    player_b_name: str | None
    reason: str
    match_id: int | None
    plays_until: datetime | None
    extra_hands: int
    match: MatchFacts | None

    # Pairing's own definitions (models.Pairing.is_bye, .resolved).
    is_bye = property(lambda self: self.player_b_id is None)
    resolved = property(
        lambda self: self.is_bye or (self.match is not None and self.match.overruled)
    )


_PAIRING_FACTS = (
    "pk",
    "table",
    "player_a__player__name",
    "player_b_id",
    "player_b__player__name",
    "reason",
    "match_id",
    "plays_until",
    "extra_hands",
    "match__state",
    "match__winner",
    "match__games_won_a",
    "match__games_won_b",
    "match__decided_by",
    "match__decision_reason",
    "match__updated_at",
)


def table_facts(round: Round) -> list[TableRow]:
    """`tables(round)` with PairingFacts for pairings, in plain values (3 queries, 4 once
    time is called): what the dashboard's poll reads of every table."""
    pairings = []
    for values in round.pairings.order_by("position").values_list(*_PAIRING_FACTS):
        *own, match_id, plays_until, extra_hands = values[:9]
        match = MatchFacts(match_id, *values[9:]) if match_id is not None else None
        pairings.append(PairingFacts(*own, match_id, plays_until, extra_hands, match))
    return _table_rows(round, pairings)


def shown_pairings(round: Round, ids: list[int]) -> dict[int, Pairing]:
    """{id: Pairing} of the round's pairings `ids`, with what a dashboard row shows of
    them (players, match) and nothing it does not (DASHBOARD_DEFERRED), in one query."""
    found = (
        round.pairings.filter(pk__in=ids)
        .select_related("player_a__player", "player_b__player", "match")
        .defer(*DASHBOARD_DEFERRED)
    )
    return {pairing.pk: pairing for pairing in found}


def projector_rows(round: Round) -> list[dict[str, Any]]:
    """What the projector shows of each table (number, names, games won), as plain values
    in one query: it is polled in every hall, and the table states of `tables` are not on
    it."""
    return list(
        round.pairings.order_by("position").values(
            "table",
            "player_a__player__name",
            "player_b_id",
            "player_b__player__name",
            "match__games_won_a",
            "match__games_won_b",
        )
    )


@dataclass
class Dashboard:
    round: Round
    clock: Clock
    tables: list[TableRow]

    @property
    def counts(self) -> dict[str, int]:
        counts = {
            state: 0
            for state in (
                TableState.PLAYING,
                TableState.PENDING,
                TableState.DISPUTED,
                TableState.FINISHED,
                TableState.BYE,
            )
        }
        for row in self.tables:
            counts[row.state] += 1
        return counts

    @property
    def can_close(self) -> bool:
        return self.round.state == Round.State.PUBLISHED and all(
            row.state in (TableState.FINISHED, TableState.BYE) for row in self.tables
        )

    @property
    def play_counts(self) -> dict[str, int]:
        """After time is called: unfinished tables still finishing the hand in play,
        playing on extra time, or whose time is up (the policy decides them)."""
        counts = {"last_hand": 0, "extended": 0, "time_up": 0}
        for row in self.tables:
            if row.plays_after_the_call:
                counts[row.play.state] += 1
        return counts

    @property
    def disputes(self) -> list[TableRow]:
        return [row for row in self.tables if row.state == TableState.DISPUTED]


# What the dashboard never shows of a table: each match's rule profile (JSON, parsed for
# every row) and the rows' creation times and PIN hashes. Leaving them out takes a
# 256-table round's `tables` from about 29 to 25 ms (fastest of 30, in-process).
# tests/tournaments/test_standings.py counts the poll's queries: a row reading one of
# them would add a query per table.
DASHBOARD_DEFERRED = (
    "match__rules",
    "match__created_at",
    "player_a__created_at",
    "player_b__created_at",
    "player_a__player__created_at",
    "player_b__player__created_at",
    "player_a__player__pin_hash",
    "player_b__player__pin_hash",
)


def dashboard(round: Round) -> Dashboard:
    """The organiser's view of a round: every table and its state, cheap to poll."""
    return Dashboard(round, clock(round), tables(round, defer=DASHBOARD_DEFERRED))


def dashboard_facts(round: Round) -> Dashboard:
    """`dashboard(round)` whose tables' pairings are PairingFacts: enough for its counts
    and for the keys of the rows the page keeps (tournaments.views.rounds.board_rows),
    which reads the Pairings of the rows that moved (`shown_pairings`)."""
    return Dashboard(round, clock(round), table_facts(round))


@dataclass
class RoundView:
    """A round with its clock and its tables, as the API answers it."""

    round: Round
    clock: Clock
    tables: list[TableRow]


def round_view(round: Round) -> RoundView:
    return RoundView(round, clock(round), tables(round))


# ------------------------------------------------------------------------ table links


def table_path(match: Match) -> str:
    """The signed, expiring link that opens a match's entry page (ginclub.permissions)."""
    return reverse("scoring:table", args=[table_token(match)])


def qr_svg(url: str, *, scale: int = 4) -> str:
    """An inline SVG QR code for `url` (table cards)."""
    return segno.make(url, error="m").svg_inline(scale=scale)


def results_by_hand(tournament: Tournament) -> QuerySet[Pairing]:
    """Tables whose result an organiser (or the time policy) set, newest first."""
    return (
        Pairing.objects.filter(round__tournament=tournament)
        .exclude(match__decided_by="")
        .exclude(match=None)
        .select_related("round", "match", "player_a__player", "player_b__player")
        .order_by("-match__decided_at")
    )


def event_ledger(tournament: Tournament) -> QuerySet[LedgerRow]:
    """The tournament's own ledger chain (settings, rounds, results, rules changes)."""
    return LedgerRow.objects.filter(chain=tournament.chain).order_by("-position")


@dataclass(frozen=True)
class PlayerSeat:
    name: str
    table: int | None
    opponent: str | None  # None: a bye


def seats_by_name(rows: list[TableRow]) -> list[PlayerSeat]:
    """Every player of a round A to Z with their table and opponent, so each finds
    their seat without reading every table (as card-game events post them)."""
    seats = []
    for row in rows:
        p = row.pairing
        a = p.player_a.player.name
        b = p.player_b.player.name if p.player_b else None
        seats.append(PlayerSeat(a, p.table, b))
        if b is not None:
            seats.append(PlayerSeat(b, p.table, a))
    return sorted(seats, key=lambda seat: seat.name.casefold())


def places_of_matches(match_ids: list[int]) -> dict[int, str]:
    """{match id: "Demo Open · round 2, table 3"} for the matches played in rounds."""
    rows = Pairing.objects.filter(match_id__in=match_ids).values_list(
        "match_id", "round__tournament__name", "round__number", "table"
    )
    return {
        match_id: (
            gettext("%(name)s · round %(number)s, table %(table)s")
            if table
            else gettext("%(name)s · round %(number)s")
        )
        % {"name": name, "number": number, "table": table}
        for match_id, name, number, table in rows
    }


# The standing values a change is judged by, in the order the previews show them: the
# rank, then the line's figures (tournaments.pairing.FIGURES).
STANDING_VALUES = ("rank", *FIGURE_NAMES)


def standing_values(standing: Standing) -> dict[str, Any]:
    """A line's rank and figures as plain values, to compare two standings (and to keep
    in a rules change's job result)."""
    return {"rank": standing.rank, **{name: standing.figure(name) for name in FIGURE_NAMES}}


def standings_moves(before: StandingsView, after: StandingsView) -> list[dict[str, Any]]:
    """Every line whose values differ between two standings (a correction's or a rules
    change's preview): [{"registration", "name", "before" (None: new), "after"}]."""
    old = {row.registration_id: standing_values(row.standing) for row in before.rows}
    moves = []
    for row in after.rows:
        now, was = standing_values(row.standing), old.get(row.registration_id)
        if was != now:
            moves.append(
                {"registration": row.registration_id, "name": row.name, "before": was, "after": now}
            )
    return moves
