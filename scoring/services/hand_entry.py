"""Hands at the table: preview, submit (quick or card entry, confirm or double-entry
agreement), confirm, dispute, withdraw, and the organiser's correct and void. Every state
change writes one entry and one ledger row; totals are recomputed from the hand rows.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from ginclub import permissions
from ginclub.errors import Conflict, Forbidden, ServiceError, require_reason
from scoring import hooks
from scoring.hand_input import (
    HandInput,
    describe_differences,
    differences,
    score_entered,
    show_value,
    state_text,
    winner_seat,
)
from scoring.match_rules import (
    dealer_after,
    entered_hands_end_game,
    entry_game,
    next_hand_number,
)
from scoring.models import Entry, Game, Hand, Match
from scoring.rules import RuleProfile, parse_cards
from scoring.services.base import (
    Actor,
    Outcome,
    answer,
    done,
    finish,
    hand_in,
    lock_hand,
    lock_match,
    log,
    record_entry,
    replayed_outcome,
    request_hash,
    require_open,
    require_version,
    snapshot,
    under_lock,
)
from scoring.services.recompute import add_hand
from scoring.services.results import ResultReport, recompute


def preview_hand(*, match: Match, hand: HandInput):
    """Score a hand without saving anything. Raises the engine's RulesError, or a
    ServiceError that names the player (hand_input.score_entered)."""
    return score_entered(hand, RuleProfile.from_dict(match.rules))


def submit_hand(*, match_id: int, actor: Actor, hand: HandInput, idempotency_key: str) -> Outcome:
    """Record a hand entered by a player (or an organiser, which counts as agreed).

    Raises RulesError (bad cards, illegal knock...), Forbidden, Conflict (`match_closed`,
    `game_finished`, `hand_exists`, `wrong_hand_number`, `idempotency_conflict`,
    `time_called`: no new hand may start, scoring.hooks' play gate).
    """
    with transaction.atomic():
        match = lock_match(match_id)
        seat = permissions.require_seat_or_organiser(actor, match)
        key_hash = request_hash("submit", hand.as_payload())
        # Every game with every hand, voided ones included (an organiser's void keeps its
        # number; a withdrawal frees it), read once: the next number, the dealer, whether
        # the game is decided, and an organiser's hand's recompute need them.
        games, keyed = under_lock(match, idempotency_key)
        if (replay := replayed_outcome(actor, key_hash, keyed)) is not None:
            return replay
        require_open(match)
        game = _current_game(match, hand.game, games)
        profile = RuleProfile.from_dict(match.rules)
        values = hand_values(hand, score_entered(hand, profile))
        hands = sorted(game.hands.all(), key=lambda h: (h.number, h.pk))
        live = [h for h in hands if h.state != Hand.State.VOIDED]
        existing = next((h for h in live if h.number == hand.number), None)
        entry = record_entry(
            match, actor, seat, Entry.Kind.SUBMIT, hand.as_payload(), idempotency_key, key_hash
        )
        if existing is not None:
            row = _second_entry(match, games, existing, seat, entry, values, actor)
        else:
            row = _new_hand(match, games, game, hands, profile, hand, values, seat, entry, actor)
        return finish(entry, row)


def hand_values(hand: HandInput, result) -> dict[str, Any]:
    outcome = getattr(result.outcome, "value", result.outcome)
    knocker = "" if outcome == "dead" else hand.knocker
    values = {
        "outcome": outcome,
        "knocker": knocker,
        "knocker_deadwood": result.knocker_deadwood,
        "defender_deadwood": result.defender_deadwood,
        "points": result.points,
        "winner": winner_seat(result, knocker) if knocker else "",
        "explanation": result.explanation,
        "cards": None,
    }
    if hand.by_cards:
        data = result.as_dict()
        values["cards"] = {
            "knocker_cards": [str(card) for card in parse_cards(hand.knocker_cards)],
            "defender_cards": [str(card) for card in parse_cards(hand.defender_cards)],
            "knocker_melds": data.get("knocker_melds"),
            "defender_melds": data.get("defender_melds"),
            "laid_off": data.get("laid_off"),
            "upcard": hand.upcard or None,
        }
    return values


def _new_hand(
    match,
    games: list[Game],
    game,
    hands: list[Hand],
    profile: RuleProfile,
    hand: HandInput,
    values,
    seat,
    entry,
    actor,
) -> Hand:
    expected = next_hand_number(hands, withdrawn_hands(hands))
    if hand.number != expected:
        raise Conflict(
            "wrong_hand_number",
            _("The next hand of game %(game)s is hand %(expected)s, not hand %(number)s.")
            % {"game": game.number, "expected": expected, "number": hand.number},
        )
    live = [h for h in hands if h.state != Hand.State.VOIDED]
    _refuse_if_game_already_decided(match, game, live, profile)
    note = hooks.play_note(match)  # time called: the hand in play, then no new hand
    if note is not None and not note.may_start:
        raise Conflict("time_called", note.words)
    by_organiser = seat == ""
    row = Hand.objects.create(
        game=game,
        number=hand.number,
        dealer=dealer_after(game.first_dealer, live[-1] if live else None, profile),
        state=Hand.State.CONFIRMED if by_organiser else Hand.State.PENDING,
        accepted_entry=entry
        if by_organiser or match.agreement == Match.Agreement.CONFIRM
        else None,
        **hand_fields(values),
    )
    entry.hand = row  # saved with the response (finish)
    log(
        match,
        "hand_entered",
        actor,
        hand=row,
        entry=entry,
        after=snapshot(row),
    )
    if by_organiser:
        add_hand(game, row)
        recompute(match, actor, action="hand_entered", hand=row, games=games)
    return row


def withdrawn_hands(hands: list[Hand]) -> set[int]:
    """The ids of those of `hands` their enterer withdrew (voided by a withdrawal)."""
    voided = [h.pk for h in hands if h.state == Hand.State.VOIDED]
    if not voided:
        return set()
    entries = Entry.objects.filter(hand_id__in=voided, kind=Entry.Kind.WITHDRAW)
    return set(entries.values_list("hand_id", flat=True))


def hand_fields(values: dict[str, Any]) -> dict[str, Any]:
    return {
        key: values[key]
        for key in (
            "outcome",
            "knocker",
            "knocker_deadwood",
            "defender_deadwood",
            "points",
            "winner",
            "explanation",
            "cards",
        )
    }


def _second_entry(
    match, games: list[Game], hand: Hand, seat: str, entry: Entry, values, actor
) -> Hand:
    """Double entry: the other seat's entry of the same hand (`hand`, one of `games`'
    hands) confirms or disputes it."""
    first = hand.entries.filter(kind=Entry.Kind.SUBMIT).order_by("id").first()
    who = first.player.name if first and first.player else _("an organiser")
    if (
        not seat
        or hand.state != Hand.State.PENDING
        or first is None
        or not first.seat
        or first.seat == seat
    ):
        raise Conflict(
            "hand_exists",
            _("Hand %(number)s was already entered by %(who)s; confirm or dispute it instead.")
            % {"number": hand.number, "who": who},
        )
    diff = differences(_comparable(hand), {**values, **(values["cards"] or {})})
    if match.agreement == Match.Agreement.CONFIRM:
        # Both phones saved the same hand at once: the same figures simply confirm it;
        # different ones are refused with both entries named, for the players to settle.
        if diff:
            you = _("you")
            raise Conflict(
                "hand_exists",
                _(
                    "%(who)s already entered hand %(number)s, with other figures: "
                    "%(differences)s. Confirm %(who)s's entry or dispute it."
                )
                % {
                    "who": who,
                    "number": hand.number,
                    "differences": describe_differences(diff, names=(who, you)),
                },
                fields={
                    key: _("%(who)s: %(theirs)s; you: %(mine)s")
                    % {"who": who, "theirs": show_value(a, key), "mine": show_value(b, key)}
                    for key, (a, b) in diff.items()
                },
            )
        entry.hand = hand  # saved with the response (finish)
        _accept(match, hand, first, actor, entry, snapshot(hand), games)
        return hand
    entry.hand = hand  # saved with the response (finish)
    before = snapshot(hand)
    if diff:
        _mark_disputed(hand)
        entry.response_extra = {"differences": diff}
        log(
            match,
            "hand_disputed",
            actor,
            hand=hand,
            entry=entry,
            before=before,
            after={**snapshot(hand), "differences": diff},
        )
        return hand
    _accept(match, hand, first, actor, entry, before, games)
    return hand


def _comparable(hand: Hand) -> dict[str, Any]:
    values = {
        field: getattr(hand, field)
        for field in (
            "outcome",
            "knocker",
            "knocker_deadwood",
            "defender_deadwood",
            "points",
            "winner",
        )
    }
    return {**values, **(hand.cards or {})}


def confirm_hand(*, hand_id: int, actor: Actor, version: int, idempotency_key: str) -> Outcome:
    """The opponent agrees with a pending hand, or settles a disputed one by accepting the
    first entry after all. Runs under the match lock on the hand as it is then (a
    dispute that got there first moved its version). Raises Forbidden, Conflict
    (`stale_version`, `not_pending`, `double_entry`, `match_closed`)."""
    with transaction.atomic():
        payload = {"hand": hand_id, "version": version}
        hand, match, games, seat, key_hash, replay = _begin(
            hand_id, "confirm", payload, actor, idempotency_key
        )
        if replay is not None:
            return replay
        require_open(match)
        require_version(hand, version)
        first = (
            hand.accepted_entry
            or hand.entries.filter(kind=Entry.Kind.SUBMIT).order_by("id").first()
        )
        # A disputed hand is settled when the player who disputed it (or entered it second)
        # accepts the first entry after all.
        settling = hand.state == Hand.State.DISPUTED and bool(seat)
        if hand.state != Hand.State.PENDING and not settling:
            raise _not_pending(hand)
        if seat and first is not None and first.seat == seat:
            raise Forbidden("own_entry", _("You entered this hand; your opponent confirms it."))
        if match.agreement == Match.Agreement.DOUBLE and seat and not settling:
            raise Conflict("double_entry", _("In double entry both players enter the hand."))
        before = snapshot(hand)
        _agree(hand, first)  # the hand as the answer shows it, written by _accept
        entry = record_entry(
            match,
            actor,
            seat,
            Entry.Kind.CONFIRM,
            {"version": version},
            idempotency_key,
            key_hash,
            hand=hand,
            response=answer(hand),
        )
        _accept(match, hand, first, actor, entry, before, games)
        return done(entry, hand)


def dispute_hand(
    *,
    hand_id: int,
    actor: Actor,
    version: int,
    reason: str,
    idempotency_key: str,
    claim: HandInput | None = None,
) -> Outcome:
    """The opponent disagrees with a pending hand, under the match lock on the hand as it
    is then; the dispute moves the hand's version. `claim`: the hand as the disputer says
    it was (its game and number the hand's), scored like an entry; the fields where it
    differs are the dispute's `differences` on the ledger and in the answer, stored as
    figures, so every reader reads them in their own language. `reason`: the disputer's
    own words, needed when no figures differ. Raises Forbidden, RulesError (a claim no
    rule scores), ServiceError (`reason_required`), Conflict (`stale_version`,
    `not_pending`: confirmed first, `match_closed`)."""
    with transaction.atomic():
        payload = {"hand": hand_id, "version": version, "reason": reason}
        if claim is not None:
            payload["claim"] = claim.as_payload()
        hand, match, games, seat, key_hash, replay = _begin(
            hand_id, "dispute", payload, actor, idempotency_key
        )
        if replay is not None:
            return replay
        require_open(match)
        require_version(hand, version)
        if hand.state != Hand.State.PENDING:
            raise _not_pending(hand)
        first = hand.entries.filter(kind=Entry.Kind.SUBMIT).first()
        if seat and first is not None and first.seat == seat:
            raise Forbidden("own_entry", _("You entered this hand; withdraw it instead."))
        diff = _claimed_differences(match, hand, claim) if claim is not None else {}
        if not diff:
            require_reason(
                reason,
                _("Say what is wrong with hand %(number)s: a dispute needs a reason.")
                % {"number": hand.number},
            )
        entry = record_entry(
            match, actor, seat, Entry.Kind.DISPUTE, payload, idempotency_key, key_hash, hand=hand
        )
        before = snapshot(hand)
        _mark_disputed(hand)
        if diff:
            entry.response_extra = {"differences": diff}
        log(
            match,
            "hand_disputed",
            actor,
            hand=hand,
            entry=entry,
            reason=reason,
            before=before,
            after={**snapshot(hand), "differences": diff} if diff else snapshot(hand),
        )
        return finish(entry, hand)


def _claimed_differences(match: Match, hand: Hand, claim: HandInput) -> dict[str, list]:
    """The fields where `claim`, scored under the match's rules, differs from `hand`."""
    values = hand_values(claim, score_entered(claim, RuleProfile.from_dict(match.rules)))
    return differences(_comparable(hand), {**values, **(values["cards"] or {})})


def withdraw_hand(*, hand_id: int, actor: Actor, version: int, idempotency_key: str) -> Outcome:
    """The enterer takes back a hand nobody has agreed to yet. Raises Forbidden, Conflict."""
    with transaction.atomic():
        payload = {"hand": hand_id, "version": version}
        hand, match, games, seat, key_hash, replay = _begin(
            hand_id, "withdraw", payload, actor, idempotency_key
        )
        if replay is not None:
            return replay
        require_open(match)
        require_version(hand, version)
        if hand.state not in (Hand.State.PENDING, Hand.State.DISPUTED):
            raise Conflict(
                "not_pending",
                _("Hand %(number)s is %(state)s; only an organiser's correction changes it now.")
                % {"number": hand.number, "state": state_text(hand.state)},
            )
        seats = set(hand.entries.filter(kind=Entry.Kind.SUBMIT).values_list("seat", flat=True))
        if seat and seat not in seats:
            raise Forbidden("not_enterer", _("Only the player who entered a hand withdraws it."))
        entry = record_entry(
            match,
            actor,
            seat,
            Entry.Kind.WITHDRAW,
            {"version": version},
            idempotency_key,
            key_hash,
            hand=hand,
        )
        _void(match, hand, actor, entry, "hand_withdrawn", "", games)
        return finish(entry, hand)


def correct_hand(
    *,
    hand_id: int,
    actor: Actor,
    hand_input: HandInput,
    version: int,
    reason: str,
    idempotency_key: str,
) -> Outcome:
    """An organiser's correction: a new version of the hand, everything after recomputed.
    When the match's result moves, the result guards (scoring.hooks) judge it: in a
    closed tournament round the match must stay decided. `preview_correction` shows
    first what this would do.

    Raises Forbidden, ServiceError (`reason_required`; `no_change`: the values are the
    confirmed hand's own), RulesError, Conflict (the recompute's, and the guards':
    `would_reopen`, `bracket_changed`).
    """
    require_reason(reason, _("A correction needs a reason."))
    with transaction.atomic():
        payload = {
            "hand": hand_id,
            "version": version,
            "reason": reason,
            "values": hand_input.as_payload(),
        }
        hand, match, games, _seat, key_hash, replay = _begin(
            hand_id, "correct", payload, actor, idempotency_key, organiser=True
        )
        if replay is not None:
            return replay
        require_open(match)
        require_version(hand, version)
        if hand.state == Hand.State.VOIDED:
            raise Conflict("voided", _("Hand %(number)s was voided.") % {"number": hand.number})
        result = score_entered(hand_input, RuleProfile.from_dict(match.rules))
        values = hand_values(hand_input, result)
        if hand.state == Hand.State.CONFIRMED and all(
            getattr(hand, key) == value for key, value in hand_fields(values).items()
        ):
            raise ServiceError(
                "no_change",
                _(
                    "This correction changes nothing: hand %(number)s already stands so. "
                    "Change a value to correct it."
                )
                % {"number": hand.number},
            )
        entry = record_entry(
            match, actor, "", Entry.Kind.CORRECT, payload, idempotency_key, key_hash, hand=hand
        )
        before = snapshot(hand)
        for key, value in hand_fields(values).items():
            setattr(hand, key, value)
        hand.state, hand.accepted_entry = Hand.State.CONFIRMED, entry
        hand.version += 1
        hand.save()
        log(
            match,
            "hand_corrected",
            actor,
            hand=hand,
            entry=entry,
            reason=reason,
            before=before,
            after=snapshot(hand),
        )
        report = recompute(
            match, actor, action="hand_corrected", hand=hand, reason=reason, games=games
        )
        return _finished(entry, hand, before, report)


def void_hand(
    *, hand_id: int, actor: Actor, version: int, reason: str, idempotency_key: str
) -> Outcome:
    """An organiser strikes a hand out (it stays on record); judged like a correction
    (`preview_void` shows it first). Raises Forbidden, ServiceError, Conflict (the
    recompute's, and the result guards': `would_reopen`, `bracket_changed`)."""
    require_reason(reason, _("Voiding a hand needs a reason."))
    with transaction.atomic():
        payload = {"hand": hand_id, "version": version, "reason": reason}
        hand, match, games, _seat, key_hash, replay = _begin(
            hand_id, "void", payload, actor, idempotency_key, organiser=True
        )
        if replay is not None:
            return replay
        require_open(match)
        require_version(hand, version)
        if hand.state == Hand.State.VOIDED:
            raise Conflict(
                "voided", _("Hand %(number)s was already voided.") % {"number": hand.number}
            )
        entry = record_entry(
            match, actor, "", Entry.Kind.VOID, payload, idempotency_key, key_hash, hand=hand
        )
        before = snapshot(hand)
        report = _void(match, hand, actor, entry, "hand_voided", reason, games)
        return _finished(entry, hand, before, report)


def _mark_disputed(hand: Hand) -> None:
    # A dispute moves the version: a confirm sent while the hand was still pending (the
    # same player's other tap, the same instant) is then stale, and cannot turn into
    # settling a dispute its sender never saw.
    hand.state = Hand.State.DISPUTED
    hand.version += 1
    hand.save(update_fields=["state", "version", "updated_at"])


def _not_pending(hand: Hand) -> Conflict:
    return Conflict(
        "not_pending",
        _("Hand %(number)s is %(state)s, not pending.")
        % {"number": hand.number, "state": state_text(hand.state)},
    )


def _begin(
    hand_id: int,
    kind: str,
    payload: dict[str, Any],
    actor: Actor,
    idempotency_key: str,
    organiser: bool = False,
):
    """Every hand action starts alike: lock the hand's match, ask whether this actor may
    act on it at all, then answer this actor's retry of this very request with its stored
    response (a replay), before any state check that could now refuse it. Returns (hand,
    match, games: the match's games with their hands, the hand among them, for the
    recompute; seat: "" for an organiser, key_hash, replay or None).

    An organiser's correction or void first takes the locks the apps above need to judge
    a result change (scoring.hooks' result lock: the tournament row), in their order."""
    if organiser:
        match_id = Hand.objects.filter(pk=hand_id).values_list("game__match_id", flat=True)
        if match_id:
            hooks.lock_for_result_change(match_id[0])
    match = lock_hand(hand_id)
    if organiser:
        permissions.require_manage_match(actor, match)
        seat = ""
    else:
        seat = permissions.require_seat_or_organiser(actor, match)
    key_hash = request_hash(kind, payload)
    games, keyed = under_lock(match, idempotency_key)
    replay = replayed_outcome(actor, key_hash, keyed)
    return hand_in(games, hand_id), match, games, seat, key_hash, replay


def _finished(entry: Entry, hand: Hand, before: dict, report: ResultReport) -> Outcome:
    """An organiser's change is done: its outcome also carries the hand as it was and
    what the change did to the match's result and beyond (for previews)."""
    outcome = finish(entry, hand)
    outcome.extra.update(before=before, result=report)
    return outcome


def _void(
    match, hand: Hand, actor: Actor, entry: Entry, action: str, reason: str, games: list[Game]
) -> ResultReport:
    before = snapshot(hand)
    hand.state = Hand.State.VOIDED
    hand.version += 1
    hand.save(update_fields=["state", "version", "updated_at"])
    log(
        match,
        action,
        actor,
        hand=hand,
        entry=entry,
        reason=reason,
        before=before,
        after=snapshot(hand),
    )
    return recompute(match, actor, action=action, hand=hand, reason=reason, games=games)


def _accept(
    match: Match,
    hand: Hand,
    first: Entry | None,
    actor: Actor,
    entry: Entry,
    before: dict,
    games: list[Game],
) -> None:
    """The hand is agreed (on `first`, the entry it stands on): confirmed, logged by
    `entry`'s actor, and the match's totals recomputed from `games` (games_with_hands,
    the hand among them)."""
    _agree(hand, first)
    hand.save(update_fields=["state", "accepted_entry", "updated_at"])
    log(match, "hand_confirmed", actor, hand=hand, entry=entry, before=before, after=snapshot(hand))
    recompute(match, actor, action="hand_confirmed", hand=hand, games=games)


def _agree(hand: Hand, first: Entry | None) -> None:
    """The hand, agreed on `first` (the entry it stands on), before it is saved."""
    hand.state = Hand.State.CONFIRMED
    hand.accepted_entry = first


def _current_game(match: Match, number: int, games: list[Game]) -> Game:
    if match.state != Match.State.IN_PROGRESS:
        raise Conflict("match_finished", _("The match is over; no more hands can be entered."))
    game = entry_game(match, games)  # under Hollywood, game 1: it holds the whole sequence
    assert game is not None, "an unfinished match always has a game to enter hands in"
    if number != game.number:
        raise Conflict(
            "game_finished" if number < game.number else "wrong_game",
            _("Hands now go to game %(game)s, not game %(number)s.")
            % {"game": game.number, "number": number},
        )
    return game


def _refuse_if_game_already_decided(
    match: Match, game: Game, live: list[Hand], profile: RuleProfile
) -> None:
    """A game cannot run past its end: if the hands entered so far (voided ones left out)
    already finish it, they must be agreed before another hand is entered (the hand form
    says so beforehand: selectors.MatchView.entered_end_game)."""
    if entered_hands_end_game(match, live, profile):
        raise Conflict(
            "game_decided",
            _(
                "The hands entered already end game %(game)s; confirm them (or dispute "
                "one) before entering another."
            )
            % {"game": game.number},
        )
