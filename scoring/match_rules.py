"""A match's rules read from its rows: the rule profile it is played under, whether it
is scored as Hollywood, the game the next hand goes in, who deals next, and the engine's
result of a game's stored hands. Reads only (scoring.services.recompute writes the games
and the match from these); pages, selectors and services alike import it.

Hollywood (docs/rules.md §8a): every hand of the match is stored under game 1 (the one
sequence); games 1, 2 and 3 hold each game's result, so hands are always entered into
game 1 (`entry_game`) and the dealer follows the one sequence.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import OuterRef, Subquery

from scoring.models import Game, Hand, Match, Penalty
from scoring.rules import (
    RuleProfile,
    RulesError,
    forfeit_game,
    next_dealer,
    score_game,
    score_hollywood,
)


def profile_of(match: Match) -> RuleProfile:
    return RuleProfile.from_dict(match.rules)


def is_hollywood(match: Match) -> bool:
    return bool((match.rules or {}).get("hollywood"))


def entry_game(match: Match, games: Sequence[Game] | None = None) -> Game | None:
    """The game the next hand is entered in, while the match is in progress: the first
    game in progress; under Hollywood, game 1, which holds the whole hand sequence."""
    if match.state != Match.State.IN_PROGRESS:
        return None
    games = list(games) if games is not None else list(match.games.order_by("number"))
    if is_hollywood(match):
        return next((g for g in games if g.number == 1), None)
    return next((g for g in games if g.state == Game.State.IN_PROGRESS), None)


def game_result(
    match: Match,
    hands: Sequence[Hand],
    profile: RuleProfile | None = None,
    lost_by: str | None = None,
):
    """The engine's result for these hands (voided ones must already be left out). Under
    Hollywood, the `HollywoodResult` of the whole sequence: finished when all three games
    are. `lost_by`: the seat a game loss penalty ended the game against (forfeit_game)."""
    profile = profile or profile_of(match)
    scores = [(hand.winner or None, hand.points) for hand in hands]
    if profile.hollywood:
        return score_hollywood(scores, profile)
    if lost_by:
        return forfeit_game(scores, profile, lost_by)
    return score_game(scores, profile)


def entered_hands_end_game(match: Match, hands: Sequence[Hand], profile=None) -> bool:
    """Whether the hands entered in a game (its live ones, agreed or not) already end it:
    no hand may follow them until they are agreed. Hands entered past the end (a
    correction moved it) end it too."""
    if not hands:
        return False
    try:
        return game_result(match, hands, profile).finished
    except RulesError:  # `game_over`: hands after the end
        return True


def game_loss_seat() -> Subquery:
    """For a query of games: the seat a standing game loss penalty ended each game
    against ("" or None: none). A penalty is recorded under the match's lock, so a
    service reads this after taking the lock (with the games: recompute's
    `games_with_hands`), never in the locking statement itself (on PostgreSQL that one
    sees the rows as they were before it waited for the lock)."""
    penalties = Penalty.objects.filter(
        match=OuterRef("match"),
        game=OuterRef("number"),
        kind=Penalty.Kind.GAME_LOSS,
        reversed_at=None,
    )
    return Subquery(penalties.order_by().values("seat")[:1])


def next_dealer_for(match: Match, game: Game) -> str:
    """Who deals the next hand of `game`."""
    last = game.hands.exclude(state=Hand.State.VOIDED).order_by("-number").first()
    return dealer_after(game.first_dealer, last, profile_of(match))


def dealer_after(first_dealer: str, last: Hand | None, profile: RuleProfile) -> str:
    """The dealer after hand `last` (voided hands don't count); a dead hand is redealt
    by the same dealer. The first hand of a game is dealt by the game's first dealer."""
    if last is None:
        return first_dealer
    return next_dealer(dealer=last.dealer, hand_winner=last.winner or None, profile=profile)


def hollywood_columns(match: Match, games: Sequence[Game]) -> None:
    """For the scoreboard: mark each confirmed hand of a Hollywood match with the games
    it scored in (`hand.scored_in`, e.g. (1, 2); empty for a dead hand)."""
    first = next((g for g in games if g.number == 1), None)
    if first is None:
        return
    confirmed = [h for h in first.hands.all() if h.state == Hand.State.CONFIRMED]
    confirmed.sort(key=lambda h: h.number)
    try:
        result = game_result(match, confirmed)
    except RulesError:  # hands past the end: the services never store such a sequence
        return
    for hand, scored in zip(confirmed, result.scored_in, strict=True):
        hand.scored_in = scored


def next_hand_number(hands: Sequence[Hand], withdrawn: set[int]) -> int:
    """The number of a game's next hand, given every hand row of the game and the ids of
    those their enterer withdrew. A withdrawn hand's number is free again: the hand is
    entered again under it, as the paper sheet numbers it (issue 23, trap 6). A hand an
    organiser voided keeps its number on record: the next hand takes the one after it."""
    kept = [h.number for h in hands if h.pk not in withdrawn]
    return max(kept, default=0) + 1
