"""A player's record: their matches, head-to-head lines, and statistics from their hands.

Terms (the player is "you"; a hand counts once it is confirmed):
    hands          confirmed hands of your matches, dead hands included.
    knock          you went out with deadwood (outcomes knock and undercut); gins and big
                   gins are counted apart.
    undercut       given: your opponent knocked and you had as little deadwood or less;
                   suffered: you knocked and were undercut.
    caught         your deadwood (after lay-offs) when your opponent knocked or went gin.
    box            a hand won in a game: boxes per game are your hands won in each
                   finished game, as the engine counted them (Game.breakdown.hands_won,
                   so a Hollywood game counts the hands it scored).
    shutout        a finished game you won in which your opponent won no hand (suffered:
                   the other way round).
    card entry     hands entered card by card keep the melds and the lay-offs: meld shapes
                   are your melds at the end of those hands (a set: one rank; a run: one
                   suit in sequence), lay-offs against you are the defender's cards laid
                   off on your melds when you knocked.
    basis          every figure says how many hands (or games) it rests on; a figure from
                   fewer than MIN_HANDS hands (MIN_GAMES games) is marked as resting on
                   too few.
Every read here is one query whatever the player's history (sums and counts are made by
the database); only the card-entry figures walk their hands' stored melds in Python.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from django.core.cache import cache
from django.db.models import (
    Case,
    Count,
    F,
    IntegerField,
    Max,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, TruncMonth

from ginclub import permissions
from ginclub.errors import NotFound
from scoring import hooks
from scoring.models import Club, Game, Hand, Match, Player, Rating, RatingChange

MIN_HANDS = 20
MIN_GAMES = 5
DONE = (Match.State.FINISHED, Match.State.CLOSED)
KNOCKS = (Hand.Outcome.KNOCK, Hand.Outcome.UNDERCUT)
OUT = (Hand.Outcome.KNOCK, Hand.Outcome.UNDERCUT, Hand.Outcome.GIN, Hand.Outcome.BIG_GIN)


@dataclass(frozen=True)
class Figure:
    """One statistic: `value` (None when nothing to rest on) from `count` of `basis`
    hands or games (`unit`), as a rate per 100, a percentage, an average or a count."""

    key: str
    label: str
    value: float | None
    basis: int
    unit: str
    kind: str  # "per100", "percent", "average", "count"
    count: int | None = None
    # What a percentage is of, when not the basis (melds, of card-entry hands).
    whole: int | None = None
    whole_unit: str = ""

    @property
    def minimum(self) -> int:
        return MIN_GAMES if self.unit == "games" else MIN_HANDS

    @property
    def enough(self) -> bool:
        return self.basis >= self.minimum

    @property
    def text(self) -> str:
        """The value in words: '37.5 per 100 hands (3)', '25% (1 of 4)', '4.33', '2'."""
        if self.value is None:
            return "none yet"
        value = f"{self.value:g}"
        if self.kind == "per100":
            return f"{value} per 100 hands ({self.count})"
        if self.kind == "percent":
            whole = self.basis if self.whole is None else self.whole
            unit = f" {self.whole_unit}" if self.whole_unit else ""
            return f"{value}% ({self.count} of {whole}{unit})"
        return value

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "value": self.value,
            "count": self.count,
            "basis": self.basis,
            "unit": self.unit,
            "kind": self.kind,
            "minimum": self.minimum,
            "enough": self.enough,
            "whole": self.whole,
            "text": self.text,
        }


def _ratio(part: int | None, whole: int, scale: int = 1) -> float | None:
    return round(scale * (part or 0) / whole, 2) if whole else None


# ------------------------------------------------------------------- the player's side


def _mine(field_name: str, player_id: int, prefix: str = "game__match__") -> Q:
    """`field_name` names the player's own seat (as A or as B)."""
    return Q(**{field_name: "A", f"{prefix}player_a_id": player_id}) | Q(
        **{field_name: "B", f"{prefix}player_b_id": player_id}
    )


def _theirs(field_name: str, player_id: int, prefix: str = "game__match__") -> Q:
    """`field_name` names the opponent's seat."""
    return Q(**{field_name: "B", f"{prefix}player_a_id": player_id}) | Q(
        **{field_name: "A", f"{prefix}player_b_id": player_id}
    )


def _own(player_id: int, a_value, b_value, prefix: str = ""):
    """An expression: `a_value` where the player sits at A, else `b_value`."""
    return Case(When(**{f"{prefix}player_a_id": player_id}, then=a_value), default=b_value)


def matches_of(player: Player, hidden: frozenset[int] = frozenset()) -> QuerySet[Match]:
    """The player's matches, less those whose results the viewer may not see yet."""
    matches = Match.objects.filter(Q(player_a=player) | Q(player_b=player))
    return matches.exclude(pk__in=hidden) if hidden else matches


def games_of(player: Player, hidden: frozenset[int] = frozenset()) -> QuerySet[Game]:
    # Through the match ids (a subquery): the database starts from the player's matches
    # (indexed by player) rather than from every game or hand of the club.
    return Game.objects.filter(match_id__in=matches_of(player, hidden).values("pk"))


def hands_of(player: Player, hidden: frozenset[int] = frozenset()) -> QuerySet[Hand]:
    return Hand.objects.filter(
        state=Hand.State.CONFIRMED, game_id__in=games_of(player, hidden).values("pk")
    )


# --------------------------------------------------------------------- the figures


def _hand_rows(player: Player, hidden: frozenset[int]) -> list[dict[str, Any]]:
    """The player's confirmed hands counted by (their seat, outcome, knocker, winner,
    knocker's deadwood), with the defender's deadwood summed: one pass over the hands
    that both `hand_figures` and `knock_deadwood_counts` read (a few dozen rows)."""
    return list(
        hands_of(player, hidden)
        .annotate(seat=_own(player.pk, Value("A"), Value("B"), "game__match__"))
        .values("seat", "outcome", "knocker", "winner", "knocker_deadwood")
        .annotate(
            n=Count("pk"), caught=Sum("defender_deadwood"), defended=Count("defender_deadwood")
        )
        .order_by()
    )


def _hand_counts(rows: list[dict[str, Any]]) -> dict[str, int]:
    n = dict.fromkeys(
        ("hands", "won", "knocks", "gins", "big_gins", "suffered", "opp_knocks", "given",
         "knock_deadwood", "defended", "caught"), 0,
    )  # fmt: skip
    for r in rows:
        count, outcome, mine = r["n"], r["outcome"], r["knocker"] == r["seat"]
        theirs = r["knocker"] not in ("", r["seat"])
        n["hands"] += count
        n["won"] += count if r["winner"] == r["seat"] else 0
        if mine and outcome in KNOCKS:
            n["knocks"] += count
            n["knock_deadwood"] += (r["knocker_deadwood"] or 0) * count
        n["gins"] += count if mine and outcome == Hand.Outcome.GIN else 0
        n["big_gins"] += count if mine and outcome == Hand.Outcome.BIG_GIN else 0
        n["suffered"] += count if mine and outcome == Hand.Outcome.UNDERCUT else 0
        n["opp_knocks"] += count if theirs and outcome in KNOCKS else 0
        n["given"] += count if theirs and outcome == Hand.Outcome.UNDERCUT else 0
        if theirs and outcome in OUT:
            n["defended"] += r["defended"]
            n["caught"] += r["caught"] or 0
    return n


def hand_figures(
    player: Player, hidden: frozenset[int] = frozenset(), rows: list | None = None
) -> list[Figure]:
    """The figures from the player's hands (from `_hand_rows`, read here if not given)."""
    n = _hand_counts(_hand_rows(player, hidden) if rows is None else rows)
    hands, mine = n["hands"], n["knocks"]

    def per100(key: str, label: str, count: int) -> Figure:
        return Figure(key, label, _ratio(count, hands, 100), hands, "hands", "per100", count)

    return [
        per100("hands_won", "Hands won", n["won"]),
        per100("knocks", "Knocks", mine),
        per100("gins", "Gins", n["gins"]),
        per100("big_gins", "Big gins", n["big_gins"]),
        Figure(
            "undercuts_given", "Undercuts given (of your opponents' knocks)",
            _ratio(n["given"], n["opp_knocks"], 100), n["opp_knocks"], "knocks against you",
            "percent", n["given"],
        ),
        Figure(
            "undercuts_suffered", "Undercuts suffered (of your knocks)",
            _ratio(n["suffered"], mine, 100), mine, "knocks", "percent", n["suffered"],
        ),
        Figure(
            "knock_deadwood", "Average deadwood when knocking",
            _ratio(n["knock_deadwood"], mine), mine, "knocks", "average",
        ),
        Figure(
            "caught_deadwood", "Average deadwood caught when defending",
            _ratio(n["caught"], n["defended"]), n["defended"], "hands defended", "average",
        ),
    ]  # fmt: skip


def game_figures(player: Player, hidden: frozenset[int] = frozenset()) -> list[Figure]:
    """Boxes per game and shutouts, from the engine's breakdown of each finished game."""
    pid = player.pk
    games = games_of(player, hidden).filter(state=Game.State.FINISHED)
    n = games.annotate(
        won_a=Cast(KT("breakdown__hands_won__A"), IntegerField()),
        won_b=Cast(KT("breakdown__hands_won__B"), IntegerField()),
    ).aggregate(
        games=Count("pk"),
        boxes=Sum(_own(pid, F("won_a"), F("won_b"), "match__")),
        shutouts=Count("pk", filter=Q(winner="A", match__player_a_id=pid, won_b=0)
                       | Q(winner="B", match__player_b_id=pid, won_a=0)),
        shut_out=Count("pk", filter=Q(winner="B", match__player_a_id=pid, won_a=0)
                       | Q(winner="A", match__player_b_id=pid, won_b=0)),
    )  # fmt: skip
    played = n["games"]
    return [
        Figure("boxes", "Boxes per game", _ratio(n["boxes"], played), played, "games", "average"),
        Figure("shutouts", "Shutouts won", n["shutouts"], played, "games", "count", n["shutouts"]),
        Figure(
            "shut_out", "Shutouts suffered", n["shut_out"], played, "games", "count", n["shut_out"]
        ),
    ]


def meld_shape(meld: list[str]) -> str:
    """'set' (one rank) or 'run' (one suit in sequence), from the stored cards ('7H')."""
    return "set" if len({card[:-1] for card in meld}) == 1 else "run"


def card_figures(player: Player, hidden: frozenset[int] = frozenset()) -> list[Figure]:
    """Meld shapes and lay-offs against the player, from their card-entry hands."""
    pid = player.pk
    rows = (
        hands_of(player, hidden)
        .filter(cards__isnull=False, outcome__in=OUT)
        .annotate(seat=_own(pid, Value("A"), Value("B"), "game__match__"))
        .order_by()
        .values_list("seat", "knocker", "outcome", "cards")
    )
    hands = sets = runs = knocks = laid = 0
    for seat, knocker, outcome, cards in rows:
        hands += 1
        melds = cards.get("knocker_melds" if knocker == seat else "defender_melds") or []
        shapes = [meld_shape(meld) for meld in melds]
        sets += shapes.count("set")
        runs += shapes.count("run")
        if knocker == seat and outcome in KNOCKS:
            knocks += 1
            laid += len(cards.get("laid_off") or [])
    return [
        Figure("sets", "Melds that are sets", _ratio(sets, sets + runs, 100), hands,
               "card-entry hands", "percent", sets, sets + runs, "melds"),
        Figure("runs", "Melds that are runs", _ratio(runs, sets + runs, 100), hands,
               "card-entry hands", "percent", runs, sets + runs, "melds"),
        Figure("layoffs_against", "Cards laid off on your melds per knock",
               _ratio(laid, knocks), knocks, "card-entry knocks", "average", laid),
    ]  # fmt: skip


# --------------------------------------------------------- matches and head-to-head


@dataclass(frozen=True)
class MatchLine:
    """One match from the player's side."""

    match: Match
    opponent: Player
    result: str  # "won", "lost", "in progress", "hidden"
    games: tuple[int, int]
    points: tuple[int, int]
    place: str = ""
    rating_change: float | None = None  # the player's, when the match was rated


def match_lines(
    player: Player, hidden: frozenset[int] = frozenset(), limit: int | None = None
) -> list[MatchLine]:
    """The player's matches, newest first, all or the latest `limit` (one query); results
    held back from the viewer (`hidden`) are shown as such."""
    matches = (
        Match.objects.filter(Q(player_a=player) | Q(player_b=player))
        .select_related("player_a", "player_b")
        .order_by("-created_at", "-pk")
    )[:limit]
    lines = []
    for match in matches:
        seat = "A" if match.player_a_id == player.pk else "B"
        games = (match.games_won_a, match.games_won_b)
        points = (match.points_a, match.points_b)
        if seat == "B":
            games, points = games[::-1], points[::-1]
        if match.pk in hidden:
            result, games, points = "hidden", (0, 0), (0, 0)
        elif match.state in DONE and match.winner:
            result = "won" if match.winner == seat else "lost"
        else:
            result = match.get_state_display()
        opponent = match.player_b if seat == "A" else match.player_a
        lines.append(MatchLine(match, opponent, result, games, points))
    return lines


@dataclass(frozen=True)
class HeadToHead:
    opponent_id: int
    opponent: str
    played: int
    won: int
    lost: int
    games_for: int
    games_against: int
    points_for: int
    points_against: int


def head_to_head(player: Player, hidden: frozenset[int] = frozenset()) -> list[HeadToHead]:
    """The player's finished matches against each opponent, summed by the database."""
    pid = player.pk
    rows = (
        matches_of(player, hidden)
        .filter(state__in=DONE)
        .annotate(
            opponent_id=_own(pid, F("player_b_id"), F("player_a_id")),
            opponent_name=_own(pid, F("player_b__name"), F("player_a__name")),
        )
        .values("opponent_id", "opponent_name")
        .annotate(
            played=Count("pk"),
            won=Count("pk", filter=_mine("winner", pid, "")),
            lost=Count("pk", filter=_theirs("winner", pid, "")),
            games_for=Sum(_own(pid, F("games_won_a"), F("games_won_b"))),
            games_against=Sum(_own(pid, F("games_won_b"), F("games_won_a"))),
            points_for=Sum(_own(pid, F("points_a"), F("points_b"))),
            points_against=Sum(_own(pid, F("points_b"), F("points_a"))),
        )
        .order_by("-played", "opponent_name")
    )
    return [
        HeadToHead(
            r["opponent_id"], r["opponent_name"], r["played"], r["won"], r["lost"],
            r["games_for"] or 0, r["games_against"] or 0, r["points_for"] or 0,
            r["points_against"] or 0,
        )
        for r in rows
    ]  # fmt: skip


# ------------------------------------------------------------------- chart series


@dataclass(frozen=True)
class MonthResults:
    month: date
    won: int
    lost: int


def results_by_month(player: Player, hidden: frozenset[int] = frozenset()) -> list[MonthResults]:
    """Finished matches won and lost in each month the player played (the month a
    match was started)."""
    pid = player.pk
    rows = (
        matches_of(player, hidden)
        .filter(state__in=DONE)
        .annotate(month=TruncMonth("created_at"))
        .values("month")
        .annotate(
            won=Count("pk", filter=_mine("winner", pid, "")),
            lost=Count("pk", filter=_theirs("winner", pid, "")),
        )
        .order_by("month")
    )
    return [MonthResults(_day(r["month"]), r["won"], r["lost"]) for r in rows]


def _day(moment) -> date:
    return moment.date() if hasattr(moment, "date") else moment


def knock_deadwood_counts(
    player: Player, hidden: frozenset[int] = frozenset(), rows: list | None = None
) -> list[tuple[int, int]]:
    """[(deadwood, knocks)] of the player's knocks, by deadwood (from `_hand_rows`)."""
    knocks: dict[int, int] = {}
    for r in _hand_rows(player, hidden) if rows is None else rows:
        if r["knocker"] == r["seat"] and r["outcome"] in KNOCKS:
            deadwood = r["knocker_deadwood"]
            knocks[deadwood] = knocks.get(deadwood, 0) + r["n"]
    return sorted(knocks.items())


@dataclass(frozen=True)
class RatingMonth:
    """The player's club rating at the end of a month they played rated matches in:
    after the last of them (`rating`), and how many they played that month."""

    month: date
    rating: float
    matches: int


def _rating_rows(player: Player, hidden: frozenset[int]) -> list[tuple[int, Any, float, float]]:
    """(match id, started, before, after) of the player's rated matches, in the order
    they were rated (one query)."""
    rows = RatingChange.objects.filter(player=player).exclude(match_id__in=hidden)
    return list(
        rows.order_by("match__created_at", "match_id").values_list(
            "match_id", "match__created_at", "before", "after"
        )
    )


def rating_months(rows: list[tuple[int, Any, float, float]]) -> list[RatingMonth]:
    """The rating at the end of each month, from `_rating_rows` (oldest first)."""
    months: dict[date, RatingMonth] = {}
    for _, started, _, after in rows:
        month = _day(started).replace(day=1)
        played = months[month].matches if month in months else 0
        months[month] = RatingMonth(month, round(after, 2), played + 1)
    return list(months.values())


def rating_history(player: Player, hidden: frozenset[int] = frozenset()) -> list[RatingMonth]:
    """The player's club rating month by month (the month a rated match was started)."""
    return rating_months(_rating_rows(player, hidden))


# --------------------------------------------------------------------- the record


@dataclass
class PlayerRecord:
    """Everything the player's page and API show, for one viewer."""

    player: Player
    hands: int
    games: int
    figures: list[Figure]
    matches: list[MatchLine]
    head_to_head: list[HeadToHead]
    months: list[MonthResults]
    deadwood: list[tuple[int, int]]
    rating_months: list[RatingMonth] = field(default_factory=list)
    events: tuple = ()
    hidden: frozenset[int] = field(default_factory=frozenset)
    rating: Rating | None = None
    matches_played: int = 0  # all of them, when `matches` shows only the latest
    # The History's version key: the page caches what it draws from the History under it.
    version: str = ""


def visible_player(actor, player_id: int) -> Player:
    """The player with their club, if `actor` may see them (ginclub.permissions
    may_see_player); anyone else, like an unknown id, gets NotFound."""
    player = Player.objects.select_related("club").filter(pk=player_id).first()
    if player is None:
        raise NotFound("not_found", "No such player.")
    permissions.require_see_player(actor, player)
    return player


def visible_club(actor, slug: str) -> Club:
    """The club, if `actor` may read its players' pages (else NotFound, as for no club)."""
    club = Club.objects.filter(slug=slug).first()
    if club is None or not permissions.may_see_players_of(actor, club):
        raise NotFound("not_found", "No such club.")
    return club


@dataclass(frozen=True)
class History:
    """What the player's page shows from their hands and finished matches: it changes
    only when one of their matches does, so it is cached (`history`)."""

    hand_figures: list[Figure]
    game_figures: list[Figure]
    card_figures: list[Figure]
    head_to_head: list[HeadToHead]
    months: list[MonthResults]
    deadwood: list[tuple[int, int]]


@dataclass(frozen=True)
class Version:
    """A version of everything `History` is made from, read in one small query: every
    change to a hand recomputes its match and saves the match row (scoring.progress),
    so the latest `Match.updated_at` of the player's matches moves with any change to
    their hands, games or results; the count and the newest id catch a match added or
    removed. `hidden` is the viewer's part: results held back from them."""

    player_id: int
    matches: int
    newest: int | None
    changed: Any
    hidden: frozenset[int]

    @property
    def key(self) -> str:
        changed = self.changed.isoformat() if self.changed else "-"
        hidden = hashlib.sha256(",".join(map(str, sorted(self.hidden))).encode()).hexdigest()
        return (
            f"player-history:{HISTORY_FORMAT}:{self.player_id}:{self.matches}:{self.newest}:"
            f"{changed}:{hidden[:16]}"
        )


HISTORY_FORMAT = 1  # raise when History's shape changes: old entries are then not read
HISTORY_SECONDS = 24 * 60 * 60


def history_version(player: Player, hidden: frozenset[int] = frozenset()) -> Version:
    n = Match.objects.filter(Q(player_a=player) | Q(player_b=player)).aggregate(
        matches=Count("pk"), newest=Max("pk"), changed=Max("updated_at")
    )
    return Version(player.pk, n["matches"], n["newest"], n["changed"], hidden)


def history(player: Player, hidden: frozenset[int] = frozenset(), version=None) -> History:
    """The player's History for a viewer to whom `hidden` results are held back: from
    the cache when their matches have not changed since it was made (one query), else
    computed (five) and cached under the new version."""
    key = (version or history_version(player, hidden)).key
    found = cache.get(key)
    if found is None:
        rows = _hand_rows(player, hidden)
        found = History(
            hand_figures=hand_figures(player, hidden, rows),
            game_figures=game_figures(player, hidden),
            card_figures=card_figures(player, hidden),
            head_to_head=head_to_head(player, hidden),
            months=results_by_month(player, hidden),
            deadwood=knock_deadwood_counts(player, hidden, rows),
        )
        cache.set(key, found, HISTORY_SECONDS)
    return found


def player_record(player: Player, actor, *, matches_shown: int | None = None) -> PlayerRecord:
    """The player's record as `actor` may see it: results the apps above hold back from
    this viewer (scoring.hooks.player_events) are left out of every figure; the latest
    `matches_shown` matches listed (None: all). A fixed number of queries whatever the
    player's history; the figures from their hands come from `history`'s cache while
    none of their matches has changed."""
    found = hooks.player_events(player.pk, actor)
    hidden = found.hidden_matches
    version = history_version(player, hidden)
    past = history(player, hidden, version)
    matches = match_lines(player, hidden, matches_shown)
    places = hooks.match_places([line.match.pk for line in matches])
    rated = _rating_rows(player, hidden)
    changes = {match_id: round(after - before, 2) for match_id, _, before, after in rated}
    return PlayerRecord(
        player=player,
        hands=past.hand_figures[0].basis,
        games=past.game_figures[0].basis,
        figures=past.hand_figures + past.game_figures + past.card_figures,
        matches=[
            replace(
                line,
                place=places.get(line.match.pk, ""),
                rating_change=changes.get(line.match.pk),
            )
            for line in matches
        ],
        rating=Rating.objects.filter(player=player).first(),
        matches_played=len(matches) if matches_shown is None else version.matches,
        head_to_head=past.head_to_head,
        months=past.months,
        deadwood=past.deadwood,
        rating_months=rating_months(rated),
        version=version.key,
        events=found.events,
        hidden=hidden,
    )


def record_dict(record: PlayerRecord) -> dict[str, Any]:
    """The record as the API shows it (scoring.serializers.PlayerRecordOutputSerializer)."""
    player = record.player
    return {
        "player": {"id": player.pk, "name": player.name, "club": player.club.slug},
        "minimums": {"hands": MIN_HANDS, "games": MIN_GAMES},
        "hands": record.hands,
        "games": record.games,
        "figures": [f.as_dict() for f in record.figures],
        "events": [
            {
                "name": e.name,
                "date": e.date.isoformat(),
                "state": e.state,
                "path": e.path,
                "record_shown": e.record_shown,
                **{
                    k: getattr(e, k) if e.record_shown else None
                    for k in ("won", "lost", "drawn", "byes", "undecided")
                },
            }
            for e in record.events
        ],
        "head_to_head": [
            {
                "opponent": {"id": h.opponent_id, "name": h.opponent},
                "played": h.played,
                "won": h.won,
                "lost": h.lost,
                "games": {"for": h.games_for, "against": h.games_against},
                "points": {"for": h.points_for, "against": h.points_against},
            }
            for h in record.head_to_head
        ],
        "matches": [_match_dict(line) for line in record.matches],
        "months": [
            {"month": m.month.strftime("%Y-%m"), "won": m.won, "lost": m.lost}
            for m in record.months
        ],
        "knock_deadwood": [{"deadwood": d, "knocks": n} for d, n in record.deadwood],
        "rating": rating_dict(record.rating) if record.rating else None,
        "rating_history": [
            {"month": m.month.strftime("%Y-%m"), "rating": m.rating, "matches": m.matches}
            for m in record.rating_months
        ],
    }


def rating_dict(rating: Rating) -> dict[str, Any]:
    return {
        "rating": round(rating.ordinal, 2),
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "matches": rating.matches,
        "computed_at": rating.computed_at.isoformat(),
    }


def _match_dict(line: MatchLine) -> dict[str, Any]:
    shown = line.result != "hidden"
    return {
        "id": line.match.pk,
        "started": line.match.created_at.isoformat(),
        "opponent": {"id": line.opponent.pk, "name": line.opponent.name},
        "state": line.match.state,
        "result": line.result,
        "games": {"for": line.games[0], "against": line.games[1]} if shown else None,
        "points": {"for": line.points[0], "against": line.points[1]} if shown else None,
        "place": line.place,
        "rating_change": line.rating_change,
    }


# ------------------------------------------------------------------------ ratings


def club_ratings(club: Club) -> list[tuple[int, Rating]]:
    """The club's rated list, best first, with ranks (one query): ordinals equal to two
    decimals share a rank."""
    ratings = list(
        Rating.objects.filter(player__club=club).select_related("player")
        .order_by("-ordinal", "player__name")
    )  # fmt: skip
    ranked, rank, last = [], 0, None
    for position, rating in enumerate(ratings, start=1):
        shown = round(rating.ordinal, 2)
        if shown != last:
            rank, last = position, shown
        ranked.append((rank, rating))
    return ranked


def ratings_of(player_ids: list[int]) -> dict[int, float]:
    """The club ratings (ordinals, what the rated list ranks by) of those of these
    players who have one, by player id (one query)."""
    return dict(Rating.objects.filter(player_id__in=player_ids).values_list("player_id", "ordinal"))
