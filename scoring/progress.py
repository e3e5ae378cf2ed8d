"""Games and the match, derived from the hand rows.

Totals are never edited: after every change the services call `recompute_match`, which
re-scores each game from its confirmed hands with the engine, finishes games and the
match, starts the next game, and refuses (rolling the change back) a correction that
would leave hands after a game's end or reopen a game that a later one followed.
Called only by scoring.services, inside their transaction.
"""

from __future__ import annotations

from collections.abc import Sequence

from ginclub.errors import Conflict
from scoring import ledger
from scoring.models import Game, Hand, Match
from scoring.rules import RuleProfile, next_dealer, score_game, score_match


def profile_of(match: Match) -> RuleProfile:
    return RuleProfile.from_dict(match.rules)


def game_result(match: Match, hands: Sequence[Hand], profile: RuleProfile | None = None):
    """The engine's result for these hands (voided ones must already be left out)."""
    profile = profile or profile_of(match)
    return score_game([(hand.winner or None, hand.points) for hand in hands], profile)


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


def recompute_match(match: Match, actor=None) -> None:
    """Re-score every game of `match` from its confirmed hands. `actor` (who made the
    change) signs the ledger row of a game this removes."""
    profile = profile_of(match)
    games = list(match.games.order_by("number").prefetch_related("hands"))
    finished_results = []
    for index, game in enumerate(games):
        if index and not any(h.state != Hand.State.VOIDED for h in game.hands.all()):
            # not started yet (or dormant): dealt by whoever follows the last game's end
            game.first_dealer = next_dealer_for(match, games[index - 1])
        result, finished = _recompute_game(match, game, profile)
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


def _recompute_game(match: Match, game: Game, profile: RuleProfile):
    hands = [h for h in game.hands.all() if h.state != Hand.State.VOIDED]
    confirmed = [h for h in hands if h.state == Hand.State.CONFIRMED]
    _refuse_hands_after_the_end(match, game, confirmed, profile)
    result = game_result(match, confirmed, profile)
    unsettled = len(confirmed) != len(hands)
    finished = result.finished and not unsettled
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
            raise Conflict(
                "game_reopened",
                f"This change would leave game {game.number} unfinished, but game "
                f"{moot.number} already has {_hands(live)}: void "
                f"{'them (last first)' if len(live) > 1 else 'it'}, then make this change.",
            )
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
        )
        moot.delete()
    return stay


def _hands(numbers: list[int]) -> str:
    if len(numbers) == 1:
        return f"hand {numbers[0]}"
    return f"hands {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"


def _refuse_hands_after_the_end(match, game, confirmed, profile) -> None:
    for cut in range(1, len(confirmed)):
        if game_result(match, confirmed[:cut], profile).finished:
            raise Conflict(
                "hands_after_game_end",
                f"This change would end game {game.number} "
                f"at hand {confirmed[cut - 1].number}, but later hands follow it; "
                "void them first.",
            )


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
    summary = score_match(results, profile)
    data = summary.as_dict() if hasattr(summary, "as_dict") else dict(summary.__dict__)
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


def _drop_games_after_the_end(games: list[Game], decided: int) -> None:
    """A correction that decides the match earlier makes later games moot: an empty one
    (started automatically) goes; one with live hands must be voided by the organiser
    first; one with only voided hands stays on record."""
    for game in games[decided:]:
        live = sorted(h.number for h in game.hands.all() if h.state != Hand.State.VOIDED)
        if live:
            raise Conflict(
                "hands_after_match_end",
                f"This change would decide the match before game {game.number}, "
                f"which has {_hands(live)}; void them first.",
            )
        if not game.hands.all():
            game.delete()
