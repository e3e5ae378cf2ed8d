"""Games and the match, derived from the hand rows.

Totals are never edited: after every change the services call `recompute_match`, which
re-scores each game from its confirmed hands with the engine, finishes games and the
match, starts the next game, and refuses (rolling the change back) a correction that
would leave hands after a game's end or reopen a game that a later one followed.
Called only by scoring.services, inside their transaction. A result set over the hands
(Match.decided_by: an organiser's, the time policy's) is left as it stands.

Hollywood (docs/rules.md §8a): the three games are scored at once from one sequence of
hands. Every hand of the match is stored under game 1 (the sequence; hand numbers run
through the whole match); the rows of games 1, 2 and 3 hold each game's result. They
are created together when the match starts (`start_games`); which game takes the next
hand and who deals it are read in scoring.match_rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cached_property
from typing import Any

from django.db.models import Expression, QuerySet
from django.utils.translation import gettext as _

from ginclub import ledger
from ginclub.errors import Conflict
from ginclub.prepared import Prepared
from scoring.match_rules import (
    game_loss_seat,
    game_result,
    is_hollywood,
    next_dealer_for,
    profile_of,
)
from scoring.models import Entry, Game, Hand, Match
from scoring.rules import RuleProfile, RulesError, score_hollywood, score_match
from scoring.rules.games import HOLLYWOOD_GAMES, hollywood_match
from scoring.services.summaries import write_match_summaries


def start_games(matches: list[Match]) -> list[Game]:
    """The games new matches start with (one insert): game 1, or under Hollywood games
    1 to 3."""
    return Game.objects.bulk_create(
        Game(match=match, number=number, first_dealer=match.first_dealer)
        for match in matches
        for number in range(1, (HOLLYWOOD_GAMES if is_hollywood(match) else 1) + 1)
    )


class GamesRead:
    """The read `games_and` makes: every game of a match with its hands, and in the same
    query the values of `also(match_id=..., **values)`, scalar subqueries that do not
    depend on the game (each row carries them), such as the match's ledger head.
    Prepared (ginclub.prepared): built and compiled once per connection, since building
    and compiling it took Django several times longer than the database took to answer.
    `kinds`: the type of each of `also`'s values beside the match's id."""

    def __init__(self, also: Callable[..., dict[str, Expression]] | None = None, **kinds: type):
        self.also = also or (lambda **values: {})
        self.rows = Prepared(self._query, {"match_id": int, **kinds})

    @cached_property
    def names(self) -> tuple[str, ...]:
        """The names of `also`'s values, in the order each row carries them."""
        stand_ins = {name: kind() for name, kind in self.rows.kinds.items()}
        return tuple(self.also(**stand_ins))

    def _query(self, match_id: int, **values: Any) -> QuerySet:
        also = self.also(match_id=match_id, **values)
        return (
            Game.objects.filter(match_id=match_id)
            .annotate(lost_by=game_loss_seat(), **also)
            .order_by("number", "hands__number", "hands__pk")
            .values_list(
                *_GAME_FIELDS,
                "lost_by",
                *(f"hands__{name}" for name in _HAND_FIELDS),
                "hands__accepted_entry__seat",
                *also,
            )
        )


_GAME_FIELDS = [f.attname for f in Game._meta.concrete_fields]
_HAND_FIELDS = [f.attname for f in Hand._meta.concrete_fields]
GAMES = GamesRead()


def games_with_hands(match: Match) -> list[Game]:
    """Every game of `match` in order, each with its hands (prefetched: `game.hands.all()`
    asks nothing) and `lost_by`, the seat a standing game loss penalty ended it against
    (match_rules.game_loss_seat), in one query (the games joined to their hands): what
    `recompute_match` works from. Each hand comes with the entry it stands on, its id and
    seat (who entered it: a confirmation asks; its other fields load when read). Read
    under the match's lock."""
    return games_and(match)[0]


def games_and(
    match: Match, read: GamesRead = GAMES, **values: Any
) -> tuple[list[Game], dict[str, Any]]:
    """`games_with_hands`, and by name the values `read` reads with them (`values`: what
    its subqueries need beside the match's id). A match without games, which the services
    never leave, reads them in a query of their own."""
    db = match._state.db or "default"
    games: dict[int, Game] = {}
    hands: dict[int, list[Hand]] = {}
    width = len(_GAME_FIELDS)
    seat_at = width + 1 + len(_HAND_FIELDS)  # the accepted entry's seat
    row = None
    for row in read.rows(using=db, match_id=match.pk, **values):
        game = games.get(row[0])
        if game is None:
            game = games[row[0]] = Game.from_db(db, _GAME_FIELDS, row[:width])
            game.lost_by = row[width] or None
            hands[game.pk] = []
        if row[width + 1] is not None:  # a game without hands joins none
            hand = Hand.from_db(db, _HAND_FIELDS, row[width + 1 : seat_at])
            hand.game = game
            if hand.accepted_entry_id is not None:
                hand.accepted_entry = Entry.from_db(
                    db, ["id", "seat"], [hand.accepted_entry_id, row[seat_at]]
                )
            hands[game.pk].append(hand)
    for game in games.values():
        _cache_hands(game, hands[game.pk])
    if row is not None:
        read_values = dict(zip(read.names, row[seat_at + 1 :], strict=True))
    elif read.names:
        also = read.also(match_id=match.pk, **values)
        read_values = Match.objects.using(db).filter(pk=match.pk).values(**also).get()
    else:
        read_values = {}
    return list(games.values()), read_values


def _cache_hands(game: Game, hands: list[Hand]) -> None:
    """`hands` become `game.hands.all()`, as prefetch_related leaves them."""
    cached = game.hands.get_queryset()
    cached._result_cache, cached._prefetch_done = hands, True
    game._prefetched_objects_cache = {Game.hands.rel.cache_name: cached}


def add_hand(game: Game, hand: Hand) -> None:
    """A hand just stored joins the hands `game` was read with (`games_with_hands`), so a
    recompute from them counts it without reading them again."""
    hands = game.hands.all()  # the prefetched queryset: no query
    assert hands._prefetch_done, "add_hand needs a game read by games_with_hands"
    hands._result_cache.append(hand)


def recompute_match(match: Match, actor=None, games: list[Game] | None = None) -> None:
    """Re-score every game of `match` from its confirmed hands, and rewrite its seat
    summaries (the players' statistics, scoring.services.summaries) from the result. `actor`
    (who made the change) signs the ledger row of a game this removes. `games`: the
    match's games with their hands as they now stand (`games_with_hands`, read under the
    match's lock by a caller that already needed them), else read here."""
    profile = profile_of(match)
    games = games if games is not None else games_with_hands(match)
    if profile.hollywood:
        games = _recompute_hollywood(match, profile, games)
    else:
        games = _recompute_games(match, profile, actor, games)
    write_match_summaries(match, games)


def _recompute_games(match: Match, profile: RuleProfile, actor, games: list[Game]) -> list[Game]:
    finished_results = []
    for index, game in enumerate(games):
        if index and not any(h.state != Hand.State.VOIDED for h in game.hands.all()):
            # not started yet (or dormant): dealt by whoever follows the last game's end
            game.first_dealer = next_dealer_for(match, games[index - 1])
        # lost_by: a game loss penalty ended it (games_with_hands read it)
        result, finished = _recompute_game(match, game, profile, game.lost_by)
        if finished:
            finished_results.append(result)
            continue
        later = games[index + 1 :]
        if later:
            games = games[: index + 1] + _moot_games_after(match, game, later, actor)
            for dormant in games[index + 1 :]:
                _recompute_game(match, dormant, profile)
        break
    _update_match(match, games, finished_results, profile)
    return games


def _recompute_game(match: Match, game: Game, profile: RuleProfile, lost_by: str | None = None):
    """`lost_by`: a game loss penalty ended this game against that seat (it is finished
    whatever its hands say; the penalty refuses a game with unsettled hands)."""
    hands = [h for h in game.hands.all() if h.state != Hand.State.VOIDED]
    confirmed = [h for h in hands if h.state == Hand.State.CONFIRMED]
    result = _result_or_refuse(match, game, confirmed, profile, lost_by)
    unsettled = len(confirmed) != len(hands)
    finished = result.finished and (not unsettled or bool(lost_by))
    _store_game(game, result, finished)
    return result, finished


def _moot_games_after(match: Match, game: Game, later: list[Game], actor) -> list[Game]:
    """A correction (or void) that un-ends `game` makes the games after it moot. A later
    game with live hands refuses the change, naming them (they must be voided first). One
    started automatically that holds no hand goes, with a ledger row. One that holds only
    voided hands stays on record, dormant: it is the game that follows once `game` ends
    again (voided hand numbers are never reused). Returns the games that stay."""
    for moot in later:
        live = sorted(h.number for h in moot.hands.all() if h.state != Hand.State.VOIDED)
        if live:
            values = {"game": game.number, "later": moot.number, **_numbers(live)}
            if len(live) == 1:
                message = _(
                    "This change would leave game %(game)s unfinished, but game %(later)s "
                    "already has hand %(number)s: void it, then make this change."
                )
            else:
                message = _(
                    "This change would leave game %(game)s unfinished, but game %(later)s "
                    "already has hands %(numbers)s and %(last)s: void them (last first), "
                    "then make this change."
                )
            raise Conflict("game_reopened", message % values)
    stay = [moot for moot in later if moot.hands.all()]
    for moot in reversed(later):
        if moot in stay:
            continue
        ledger.append(
            chain=f"match:{match.pk}",
            action="game_removed",
            actor=getattr(actor, "label", "system"),
            user=getattr(actor, "user", None),
            match=match,
            reason=f"Game {game.number} no longer ends, so game {moot.number} "
            "(no hands yet) is removed.",
            before={"game": moot.number, "first_dealer": moot.first_dealer},
            head=ledger.head_of(match),
        )
        moot.delete()
    return stay


def _numbers(numbers: list[int]) -> dict[str, object]:
    """Hand numbers for a message: `number` (the first), `numbers` (all but the last,
    listed) and `last`; the message says "hand %(number)s" or "hands %(numbers)s and
    %(last)s" by how many there are."""
    return {
        "number": numbers[0],
        "numbers": ", ".join(map(str, numbers[:-1])),
        "last": numbers[-1],
    }


def _result_or_refuse(match, game, confirmed, profile, lost_by):
    """The game's result, or a refusal when confirmed hands follow its end: the engine
    adds the hands up once and says which hand ended the game (`game_over`)."""
    try:
        return game_result(match, confirmed, profile, lost_by)
    except RulesError as error:
        if error.code != "game_over":
            raise
        raise Conflict(
            "hands_after_game_end",
            _(
                "This change would end game %(game)s at hand %(hand)s, but later hands "
                "follow it; void them first."
            )
            % {"game": game.number, "hand": confirmed[error.params["end"] - 1].number},
        ) from None


def _store_game(game: Game, result, finished: bool) -> None:
    data = result.as_dict() if hasattr(result, "as_dict") else dict(result.__dict__)
    game.hand_points_a = data["hand_points"]["A"]
    game.hand_points_b = data["hand_points"]["B"]
    if finished:
        game.state = Game.State.FINISHED
        game.winner = data["winner"] or ""
        game.total_a, game.total_b = data["totals"]["A"], data["totals"]["B"]
        game.breakdown, game.explanation = data, result.explanation
    else:
        game.state, game.winner = Game.State.IN_PROGRESS, ""
        game.total_a, game.total_b = game.hand_points_a, game.hand_points_b
        game.breakdown, game.explanation = {}, ""
    game.save()


def _update_match(match: Match, games: list[Game], results: list, profile: RuleProfile) -> None:
    results = _up_to_the_decision(results, profile)
    summary = score_match(results, profile)
    data = summary.as_dict() if hasattr(summary, "as_dict") else dict(summary.__dict__)
    if match.overruled:  # a result set over the hands stands until it is withdrawn
        return
    match.games_won_a, match.games_won_b = data["games_won"]["A"], data["games_won"]["B"]
    match.points_a, match.points_b = data["totals"]["A"], data["totals"]["B"]
    if data["finished"]:
        _drop_games_after_the_end(games, len(results))
        match.winner = data["winner"] or ""
        if match.state == Match.State.IN_PROGRESS:
            match.state = Match.State.FINISHED
    else:
        match.winner = ""
        match.state = Match.State.IN_PROGRESS
        last = games[-1]
        if last.state == Game.State.FINISHED:
            Game.objects.create(
                match=match, number=last.number + 1, first_dealer=next_dealer_for(match, last)
            )
    match.save()


def _up_to_the_decision(results: list, profile: RuleProfile) -> list:
    """The finished games up to the one that decides the match. A change (fewer games to
    win, a corrected game) can decide it before games already finished; those are then
    games after the end, for _drop_games_after_the_end to name."""
    for cut in range(1, len(results)):
        if score_match(results[:cut], profile).finished:
            return results[:cut]
    return results


def _drop_games_after_the_end(games: list[Game], decided: int) -> None:
    """A correction that decides the match earlier makes later games moot: an empty one
    (started automatically) goes; one with live hands must be voided by the organiser
    first; one with only voided hands stays on record."""
    for game in games[decided:]:
        live = sorted(h.number for h in game.hands.all() if h.state != Hand.State.VOIDED)
        if live:
            if len(live) == 1:
                message = _(
                    "This change would decide the match before game %(game)s, which has "
                    "hand %(number)s; void them first."
                )
            else:
                message = _(
                    "This change would decide the match before game %(game)s, which has "
                    "hands %(numbers)s and %(last)s; void them first."
                )
            raise Conflict(
                "hands_after_match_end", message % {"game": game.number, **_numbers(live)}
            )
        if not game.hands.all():
            game.delete()


# -------------------------------------------------------------------------- Hollywood


def _recompute_hollywood(match: Match, profile: RuleProfile, stored: list[Game]) -> list[Game]:
    """The three games from game 1's hand sequence. A game ended by confirmed hands is
    finished unless an unsettled (pending or disputed) hand comes before the hand that
    ended it; the match is finished when all three are. Returns the games."""
    games = {g.number: g for g in stored}
    for number in range(1, HOLLYWOOD_GAMES + 1):
        if number not in games:
            games[number] = Game.objects.create(
                match=match, number=number, first_dealer=match.first_dealer
            )
    for number, game in games.items():
        stray = sorted(h.number for h in game.hands.all() if h.state != Hand.State.VOIDED)
        if number != 1 and stray:
            if len(stray) == 1:
                message = _(
                    "Hollywood scoring needs every hand in one sequence, but game %(game)s "
                    "of this match holds hand %(number)s: it was played as separate games, "
                    "so it cannot be scored as Hollywood."
                )
            else:
                message = _(
                    "Hollywood scoring needs every hand in one sequence, but game %(game)s "
                    "of this match holds hands %(numbers)s and %(last)s: it was played as "
                    "separate games, so it cannot be scored as Hollywood."
                )
            raise Conflict("not_hollywood", message % {"game": number, **_numbers(stray)})
    live = sorted(
        (h for h in games[1].hands.all() if h.state != Hand.State.VOIDED), key=lambda h: h.number
    )
    confirmed = [h for h in live if h.state == Hand.State.CONFIRMED]
    _refuse_hands_after_the_hollywood_end(match, live, confirmed, profile)
    result = game_result(match, confirmed, profile)
    unsettled = [h.number for h in live if h.state != Hand.State.CONFIRMED]
    results = []
    for index, game_result_ in enumerate(result.games):
        ended = result.ended_at[index]
        finished = ended is not None and not any(n < confirmed[ended - 1].number for n in unsettled)
        _store_game(games[index + 1], game_result_, finished)
        results.append(game_result_ if finished else replace(game_result_, finished=False))
    summary = hollywood_match(results)
    if match.overruled:  # a result set over the hands stands until it is withdrawn
        return list(games.values())
    match.games_won_a, match.games_won_b = summary.games_won["A"], summary.games_won["B"]
    match.points_a, match.points_b = summary.totals["A"], summary.totals["B"]
    if summary.finished:
        match.winner = summary.winner or ""
        if match.state == Match.State.IN_PROGRESS:
            match.state = Match.State.FINISHED
    else:
        match.winner = ""
        match.state = Match.State.IN_PROGRESS
    match.save()
    return list(games.values())


def _refuse_hands_after_the_hollywood_end(match, live, confirmed, profile) -> None:
    """All three games ended by confirmed hands, with hands (confirmed or not) after."""
    for cut in range(1, len(confirmed) + 1):
        if score_hollywood(
            [(h.winner or None, h.points) for h in confirmed[:cut]], profile
        ).finished:
            end = confirmed[cut - 1].number
            later = [h.number for h in live if h.number > end]
            if later:
                if len(later) == 1:
                    message = _(
                        "This change would end all three games at hand %(end)s, but hand "
                        "%(number)s follows it; void them first."
                    )
                else:
                    message = _(
                        "This change would end all three games at hand %(end)s, but hands "
                        "%(numbers)s and %(last)s follow it; void them first."
                    )
                raise Conflict("hands_after_game_end", message % {"end": end, **_numbers(later)})
            return
