"""Re-scoring, in one place: a match scored again under changed rules, and a match
re-created from a tournament archive (each hand scored again by the engine and checked).

What a stored hand said: a hand row keeps the engine's result (outcome, deadwoods,
points, winner) and, for card entry, both hands' cards. To score it again we rebuild the
`HandInput` it came from (`stored_input`): card entry from the stored cards (plus the
knocker's melds and lay-offs only when they were declared, read from the accepted
entry's payload, `entered_values`), quick entry from the stored outcome and deadwoods
(an "undercut" was entered as a knock). The Oklahoma upcard of a quick-entry hand lives
only in the payload. Those readers write nothing; the tournaments app's exports use them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Prefetch
from django.utils.translation import gettext as _

from ginclub import permissions
from ginclub.errors import Conflict, ServiceError, message_of
from scoring.hand_input import HandInput, evaluate, hand_input_from
from scoring.models import Club, Entry, Game, Hand, Match, Player
from scoring.rules import RuleProfile, RulesError
from scoring.services.base import (
    Actor,
    link_entry,
    lock_match,
    log,
    request_hash,
    snapshot,
    user_of,
)
from scoring.services.hand_entry import hand_fields, hand_values
from scoring.services.matches import check_players
from scoring.services.ratings import counts, queue_ratings
from scoring.services.recompute import recompute_match
from scoring.services.results import decision_of, log_decision, result_of
from scoring.services.summaries import write_summaries

# ------------------------------------------------------- what a stored hand said


def entered_values(payload: dict[str, Any] | None) -> dict[str, Any]:
    """The hand fields of an entry's payload (a correction nests them under "values")."""
    if not payload:
        return {}
    return dict(payload.get("values") or payload)


def stored_input(hand: Hand, game_number: int, payload: dict[str, Any]) -> HandInput:
    """The HandInput that scores `hand` again: see the module docstring."""
    outcome = "knock" if hand.outcome == Hand.Outcome.UNDERCUT else hand.outcome
    if hand.cards:
        cards = hand.cards
        melds = payload.get("knocker_melds")
        layoffs = payload.get("layoffs")
        return HandInput(
            game=game_number,
            number=hand.number,
            outcome=outcome,
            knocker=hand.knocker,
            knocker_cards=tuple(cards.get("knocker_cards") or ()),
            defender_cards=tuple(cards.get("defender_cards") or ()),
            knocker_melds=tuple(tuple(m) for m in melds) if melds else None,
            layoffs=tuple(layoffs) if layoffs is not None else None,
            upcard=cards.get("upcard") or payload.get("upcard") or "",
        )
    if outcome == Hand.Outcome.DEAD:
        return HandInput(
            game=game_number,
            number=hand.number,
            outcome=outcome,
            upcard=payload.get("upcard") or "",
        )
    return HandInput(
        game=game_number,
        number=hand.number,
        outcome=outcome,
        knocker=hand.knocker,
        knocker_deadwood=hand.knocker_deadwood,
        defender_deadwood=hand.defender_deadwood,
        upcard=payload.get("upcard") or "",
    )


def hand_summary(hand: Hand) -> dict[str, Any]:
    return {
        "outcome": hand.outcome,
        "points": hand.points,
        "winner": hand.winner or None,
        "knocker_deadwood": hand.knocker_deadwood,
        "defender_deadwood": hand.defender_deadwood,
    }


def game_summary(game: Game) -> dict[str, Any]:
    return {
        "state": game.state,
        "winner": game.winner or None,
        "totals": {"A": game.total_a, "B": game.total_b},
    }


@dataclass
class Rescore:
    """What re-scoring a match under new rules changed (or would change)."""

    match: Match
    hands: list[dict[str, Any]] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    before: dict[str, Any] = field(default_factory=dict)
    after: dict[str, Any] = field(default_factory=dict)
    changed_hands: list[Hand] = field(default_factory=list)

    @property
    def match_changed(self) -> bool:
        return self.before != self.after

    @property
    def changed(self) -> bool:
        return bool(self.hands or self.games or self.match_changed)


# ------------------------------------------------------------------ re-scoring


def rescore_match(*, match_id: int, rules: dict[str, Any], actor: Actor, reason: str = ""):
    """Score every hand of a match again under `rules` (a whole profile, as stored in
    Match.rules), store those rules and recompute its games and result, with one ledger
    row. Hands whose values change get a new version. A closed match stays closed.
    Returns a `Rescore` saying what changed.

    Raises Forbidden, ServiceError (`bad_option`), Conflict (`rescore_impossible`: the new
    rules cannot score a hand, e.g. a knock over a lower knock limit; and those of
    recompute_match: `hands_after_game_end`, `game_reopened`, `hands_after_match_end`).
    """

    try:
        profile = RuleProfile.from_dict(rules)
    except RulesError as error:
        raise ServiceError("bad_option", message_of(error)) from None
    with transaction.atomic():
        match = lock_match(match_id)
        permissions.require_manage_match(actor, match)
        report = Rescore(match=match, before=result_of(match))
        games = _games_with_hands(match)
        games_before = {game.number: game_summary(game) for game in games}
        unagreed = _first_payloads(match)
        versions = {hand.pk: hand.version for game in games for hand in game.hands.all()}
        for game in games:
            for hand in game.hands.all():
                if hand.state != Hand.State.VOIDED:
                    change = _rescore_hand(match, game, hand, profile, unagreed)
                    if change is not None:
                        report.hands.append(change)
                    if hand.version != versions[hand.pk]:
                        report.changed_hands.append(hand)
        old_rules, state = match.rules, match.state
        match.rules = profile.as_dict()
        match.save(update_fields=["rules", "updated_at"])
        recompute_match(match, actor)
        if state == Match.State.CLOSED and match.state != Match.State.CLOSED:
            match.state = Match.State.CLOSED
            match.save(update_fields=["state", "updated_at"])
        games_after = {g.number: game_summary(g) for g in match.games.order_by("number")}
        for number in sorted(set(games_before) | set(games_after)):
            before, after = games_before.get(number), games_after.get(number)
            if before != after:
                report.games.append({"game": number, "before": before, "after": after})
        report.after = result_of(match)
        if report.before != report.after and (counts(report.before) or counts(report.after)):
            queue_ratings(match.club_id)  # a rated result moved under the new rules
        log(
            match,
            "match_rescored",
            actor,
            reason=reason,
            before={"rules": old_rules, **report.before},
            after={
                "rules": match.rules,
                **report.after,
                "hands_changed": len(report.hands),
                # what each changed hand now is, for the replay (scoring.replay)
                "hands": [snapshot(hand) | {"id": hand.pk} for hand in report.changed_hands],
            },
        )
        log_decision(
            match, actor, report.before, report.after, action="match_rescored", reason=reason
        )
    return report


def _games_with_hands(match: Match) -> list[Game]:

    hands = Hand.objects.select_related("accepted_entry").order_by("number")
    return list(match.games.order_by("number").prefetch_related(Prefetch("hands", hands)))


def _first_payloads(match: Match) -> dict[int, dict[str, Any]]:
    """Hands nobody agreed to yet have no accepted entry: their first entry's values."""

    rows = (
        Entry.objects.filter(match=match, kind=Entry.Kind.SUBMIT, hand__accepted_entry__isnull=True)
        .order_by("-id")
        .values_list("hand_id", "payload")
    )
    return {hand_id: entered_values(payload) for hand_id, payload in rows}


def _rescore_hand(
    match: Match, game: Game, hand: Hand, profile: RuleProfile, unagreed: dict[int, dict[str, Any]]
):

    payload = (
        entered_values(hand.accepted_entry.payload)
        if hand.accepted_entry
        else unagreed.get(hand.pk, {})
    )
    hand_input = stored_input(hand, game.number, payload)
    try:
        result = evaluate(hand_input, profile)
    except RulesError as error:
        raise Conflict(
            "rescore_impossible",
            _(
                "Hand %(number)s of game %(game)s (%(match)s) cannot be scored under the "
                "new rules: %(problem)s."
            )
            % {
                "number": hand.number,
                "game": game.number,
                "match": match,
                "problem": message_of(error),
            },
        ) from None
    values = hand_fields(hand_values(hand_input, result))
    if all(getattr(hand, key) == value for key, value in values.items()):
        return None
    before = hand_summary(hand)
    for key, value in values.items():
        setattr(hand, key, value)
    hand.version += 1
    hand.save()
    after = hand_summary(hand)
    if before == after:
        return None
    return {"game": game.number, "hand": hand.number, "before": before, "after": after}


def import_match(
    *,
    club: Club,
    player_a: Player,
    player_b: Player,
    actor: Actor,
    rules: dict[str, Any],
    agreement: str,
    first_dealer: str,
    state: str,
    games: list[dict[str, Any]],
    expected: dict[str, Any],
    decision: dict[str, Any] | None = None,
    label: str = "match",
) -> Match:
    """Re-create a match from an archive: each hand's archived input is scored again by
    the engine under `rules` and must give the archived points and winner; games and the
    result are recomputed and must equal `expected` (winner, games_won, points). Each
    hand gets one organiser Entry holding its input; one ledger row.

    `games`: [{number, first_dealer, hands: [{number, dealer, state, version, input,
    points, winner}]}]. `decision`: a result that was set over the hands ({winner, games,
    points, by, reason, decided_at}); it stands instead of `expected`.
    Raises Forbidden, ServiceError (`bad_archive`, naming `label`).
    """

    # Translators: completes "Only the organisers of <club> may ..."
    permissions.require_organiser(actor, club, _("import matches"))
    check_players(club, player_a, player_b)
    try:
        profile = RuleProfile.from_dict(rules)
        with transaction.atomic():
            match = Match.objects.create(
                club=club,
                player_a=player_a,
                player_b=player_b,
                rules=profile.as_dict(),
                agreement=agreement,
                first_dealer=first_dealer,
                created_by=user_of(actor),
            )
            for game_data in games:
                _import_game(match, game_data, profile, actor, label)
            recompute_match(match)
            if decision is not None:
                _set_decision(match, decision)
            summary = result_of(match)
            for key in ("winner", "games_won", "points"):
                if decision is None and summary[key] != expected.get(key):
                    raise ServiceError(
                        "bad_archive",
                        _(
                            "%(label)s: the archive says %(key)s %(expected)s, its hands "
                            "give %(found)s."
                        )
                        % {
                            "label": label,
                            "key": key,
                            "expected": expected.get(key),
                            "found": summary[key],
                        },
                    )
            if state == Match.State.CLOSED:
                match.state = Match.State.CLOSED
                match.save(update_fields=["state", "updated_at"])
            hands = Hand.objects.filter(game__match=match).select_related("game")
            log(
                match,
                "match_imported",
                actor,
                # each hand as imported, for the replay (scoring.replay)
                after={
                    "rules": match.rules,
                    **decision_of(match),  # the result, and who set it over the hands
                    "hands": [snapshot(hand) | {"id": hand.pk} for hand in hands],
                },
            )
    except (RulesError, Conflict) as error:
        raise ServiceError("bad_archive", f"{label}: {message_of(error)}") from None
    return match


def _set_decision(match: Match, decision: dict[str, Any]) -> None:
    match.winner, match.decided_by = decision["winner"], decision["by"]
    match.games_won_a, match.games_won_b = decision["games"]
    match.points_a, match.points_b = decision["points"]
    match.decision_reason, match.decided_at = decision["reason"], decision["decided_at"]
    match.state = Match.State.CLOSED
    match.save()
    write_summaries([match.pk])


def _import_game(
    match: Match, data: dict[str, Any], profile: RuleProfile, actor: Actor, label: str
) -> None:

    game = Game.objects.create(
        match=match, number=data["number"], first_dealer=data["first_dealer"]
    )
    for item in data["hands"]:
        where = _("%(label)s, game %(game)s hand %(number)s") % {
            "label": label,
            "game": game.number,
            "number": item["number"],
        }
        hand_input = hand_input_from(
            {**item["input"], "game": game.number, "number": item["number"]}
        )
        values = hand_values(hand_input, evaluate(hand_input, profile))
        if (values["points"], values["winner"] or None) != (item["points"], item["winner"] or None):
            raise ServiceError(
                "bad_archive",
                _(
                    "%(where)s: the archive says %(points)s points to %(winner)s, the rules "
                    "give %(rule_points)s to %(rule_winner)s."
                )
                % {
                    "where": where,
                    "points": item["points"],
                    "winner": item["winner"] or _("nobody"),
                    "rule_points": values["points"],
                    "rule_winner": values["winner"] or _("nobody"),
                },
            )
        if item["dealer"] not in ("A", "B") or item["state"] not in Hand.State.values:
            raise ServiceError(
                "bad_archive", _("%(where)s: bad dealer or state.") % {"where": where}
            )
        payload = hand_input.as_payload()
        entry = Entry.objects.create(
            match=match,
            kind=Entry.Kind.SUBMIT,
            seat="",
            user=user_of(actor),
            device="archive import",
            payload=payload,
            idempotency_key=f"import:{game.number}:{item['number']}",
            request_hash=request_hash("submit", payload),
        )
        hand = Hand.objects.create(
            game=game,
            number=item["number"],
            dealer=item["dealer"],
            state=item["state"],
            version=item.get("version") or 1,
            accepted_entry=entry,
            **hand_fields(values),
        )
        link_entry(entry, hand)
