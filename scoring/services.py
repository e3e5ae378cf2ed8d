"""The only code that writes matches, games, hands, entries and ledger rows.

Every service runs in one transaction holding the match row's lock (on SQLite the
IMMEDIATE transaction is that lock), checks who may act, writes, and appends exactly one
ledger row per state change in the same transaction. Each hand submission carries an
idempotency key: a retry returns the stored response and writes nothing; the same key
with another payload is refused.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring import ledger
from scoring.errors import Conflict, Forbidden, ServiceError, Throttled
from scoring.hands import HandInput, differences, evaluate, other, winner_seat
from scoring.models import Club, Entry, Game, Hand, Match, PinFailure, Player
from scoring.progress import dealer_after, game_result, recompute_match
from scoring.rules import RuleProfile, make_profile, parse_cards
from scoring.selectors import hand_dict


@dataclass(frozen=True)
class Actor:
    """Who makes a request: a logged-in user, and/or the player (seat) it acts for."""

    user: Any = None
    player: Player | None = None
    device: str = ""
    ip: str | None = None

    @property
    def label(self) -> str:
        if self.player is not None:
            return f"player {self.player.name}"
        if self.user is not None and self.user.is_authenticated:
            return f"user {self.user.get_username()}"
        return "anonymous"

    def is_admin(self) -> bool:
        return bool(self.user is not None and self.user.is_authenticated
                    and self.user.is_superuser)

    def organises(self, club: Club) -> bool:
        if self.is_admin():
            return True
        return bool(self.user is not None and self.user.is_authenticated
                    and club.organisers.filter(pk=self.user.pk).exists())


@dataclass
class Outcome:
    """What a write service did: the hand it touched and the response to send."""

    hand: Hand | None
    response: dict[str, Any]
    replayed: bool = False
    entry: Entry | None = None
    extra: dict[str, Any] = field(default_factory=dict)


# ----------------------------------------------------------------------------- matches

def start_match(*, club: Club, player_a: Player, player_b: Player, actor: Actor,
                profile: str = "standard", overrides: dict | None = None,
                agreement: str = Match.Agreement.CONFIRM, first_dealer: str = "A") -> Match:
    """Start a match between two of the club's players.

    Raises ServiceError (`invalid`, `bad_option`) or Forbidden.
    """
    if not (actor.organises(club) or (actor.player and actor.player.club_id == club.pk)):
        raise Forbidden("not_allowed", "Only the club's organisers and players start matches.")
    _check_players(club, player_a, player_b)
    if agreement not in Match.Agreement.values:
        raise ServiceError("invalid", "agreement must be one of "
                           f"{', '.join(Match.Agreement.values)}")
    if first_dealer not in ("A", "B"):
        raise ServiceError("invalid", "first dealer must be seat A or B")
    rules = make_profile(profile, overrides or {}).as_dict()
    with transaction.atomic():
        match = Match.objects.create(
            club=club, player_a=player_a, player_b=player_b, rules=rules,
            agreement=agreement, first_dealer=first_dealer, created_by=_user(actor),
        )
        Game.objects.create(match=match, number=1, first_dealer=first_dealer)
        ledger.append(chain=chain_of(match), action="match_started", actor=actor.label,
                      user=actor.user, match=match,
                      after={"player_a": player_a.name, "player_b": player_b.name,
                             "rules": rules, "agreement": agreement})
    return match


def _check_players(club: Club, a: Player, b: Player) -> None:
    if a.pk == b.pk:
        raise ServiceError("invalid", "a match needs two different players")
    for player in (a, b):
        if player.club_id != club.pk:
            raise ServiceError("invalid", f"{player.name} is not a player of {club.name}")


def close_match(*, match_id: int, actor: Actor, reason: str = "") -> Match:
    """Close a finished match. Raises Forbidden, Conflict (`not_finished`)."""
    return _change_match_state(
        match_id=match_id, actor=actor, reason=reason, action="match_closed",
        allowed=lambda m: m.state == Match.State.FINISHED,
        refusal=Conflict("not_finished", "Only a finished match can be closed."),
        state=lambda m: Match.State.CLOSED)


def reopen_match(*, match_id: int, actor: Actor, reason: str) -> Match:
    """Reopen a closed match: a decided one is finished again, one stopped undecided goes
    on. A reason is required. Raises Forbidden, ServiceError, Conflict (`not_closed`)."""
    _require_reason(reason, "Say why the match is reopened.")
    return _change_match_state(
        match_id=match_id, actor=actor, reason=reason, action="match_reopened",
        allowed=lambda m: m.state == Match.State.CLOSED,
        refusal=Conflict("not_closed", "The match is not closed."),
        state=lambda m: Match.State.FINISHED if m.winner else Match.State.IN_PROGRESS)


def _change_match_state(*, match_id: int, actor: Actor, reason: str, action: str,
                        allowed: Callable[[Match], bool], refusal: Conflict,
                        state: Callable[[Match], str]) -> Match:
    """The organiser's match transitions: lock, check who and whether, move, one ledger row."""
    with transaction.atomic():
        match = _lock(match_id)
        _require_organiser(actor, match)
        if not allowed(match):
            raise refusal
        _set_match_state(match, state(match), actor, action, reason)
    return match


def _require_reason(reason: str, message: str) -> None:
    if not reason.strip():
        raise ServiceError("reason_required", message, fields={"reason": "required"})


def _set_match_state(match: Match, state: str, actor: Actor, action: str, reason: str) -> None:
    before = {"state": match.state}
    match.state = state
    match.save(update_fields=["state", "updated_at"])
    ledger.append(chain=chain_of(match), action=action, actor=actor.label, user=actor.user,
                  match=match, reason=reason, before=before, after={"state": state})


# ------------------------------------------------------------------------------- hands

def preview_hand(*, match: Match, hand: HandInput):
    """Score a hand without saving anything. Raises the engine's RulesError."""
    return evaluate(hand, RuleProfile.from_dict(match.rules))


def submit_hand(*, match_id: int, actor: Actor, hand: HandInput, idempotency_key: str) -> Outcome:
    """Record a hand entered by a player (or an organiser, which counts as agreed).

    Raises RulesError (bad cards, illegal knock...), Forbidden, Conflict (`match_closed`,
    `game_finished`, `hand_exists`, `wrong_hand_number`, `idempotency_conflict`).
    """
    with transaction.atomic():
        match = _lock(match_id)
        key_hash = _request_hash("submit", hand.as_payload())
        if (replay := _replay(match, idempotency_key, key_hash)) is not None:
            return replay
        seat = _seat_or_organiser(actor, match)
        _require_open(match)
        game = _current_game(match, hand.game)
        profile = RuleProfile.from_dict(match.rules)
        values = _values(hand, evaluate(hand, profile))
        # Every hand of the game, voided ones included (their numbers are never reused),
        # read once: the next number, the dealer and whether the game is decided need them.
        hands = list(game.hands.order_by("number"))
        live = [h for h in hands if h.state != Hand.State.VOIDED]
        existing = next((h for h in live if h.number == hand.number), None)
        entry = _entry(match, actor, seat, Entry.Kind.SUBMIT, hand.as_payload(),
                       idempotency_key, key_hash)
        if existing is not None:
            row = _second_entry(match, existing, seat, entry, values, actor)
        else:
            row = _new_hand(match, game, hands, profile, hand, values, seat, entry, actor)
        return _finish(entry, row)


def _values(hand: HandInput, result) -> dict[str, Any]:
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


def _new_hand(match, game, hands: list[Hand], profile: RuleProfile, hand: HandInput, values,
              seat, entry, actor) -> Hand:
    expected = (hands[-1].number if hands else 0) + 1
    if hand.number != expected:
        raise Conflict("wrong_hand_number",
                       f"The next hand of game {game.number} is hand {expected}, "
                       f"not hand {hand.number}.")
    live = [h for h in hands if h.state != Hand.State.VOIDED]
    _refuse_if_game_already_decided(match, game, live, profile)
    by_organiser = seat == ""
    row = Hand.objects.create(
        game=game, number=hand.number,
        dealer=dealer_after(game.first_dealer, live[-1] if live else None, profile),
        state=Hand.State.CONFIRMED if by_organiser else Hand.State.PENDING,
        accepted_entry=entry if by_organiser or match.agreement == Match.Agreement.CONFIRM
        else None,
        **_hand_fields(values),
    )
    _link(entry, row)
    ledger.append(chain=chain_of(match), action="hand_entered", actor=actor.label,
                  user=actor.user, match=match, hand=row, entry=entry, after=snapshot(row))
    if by_organiser:
        recompute_match(match)
    return row


def _hand_fields(values: dict[str, Any]) -> dict[str, Any]:
    return {key: values[key] for key in (
        "outcome", "knocker", "knocker_deadwood", "defender_deadwood", "points", "winner",
        "explanation", "cards")}


def _second_entry(match, hand: Hand, seat: str, entry: Entry, values, actor) -> Hand:
    """Double entry: the other seat's entry of the same hand confirms or disputes it."""
    first = hand.entries.filter(kind=Entry.Kind.SUBMIT).order_by("id").first()
    if (match.agreement != Match.Agreement.DOUBLE or not seat or hand.state != Hand.State.PENDING
            or first is None or first.seat == seat):
        who = first.player.name if first and first.player else "an organiser"
        raise Conflict("hand_exists", f"Hand {hand.number} was already entered by {who}; "
                       "confirm or dispute it instead.")
    _link(entry, hand)
    before = snapshot(hand)
    diff = differences(_comparable(hand), {**values, **(values["cards"] or {})})
    if diff:
        hand.state = Hand.State.DISPUTED
        hand.save(update_fields=["state", "updated_at"])
        entry.response_extra = {"differences": diff}
        ledger.append(chain=chain_of(match), action="hand_disputed", actor=actor.label,
                      user=actor.user, match=match, hand=hand, entry=entry, before=before,
                      after={**snapshot(hand), "differences": diff})
        return hand
    _accept(hand, first)
    ledger.append(chain=chain_of(match), action="hand_confirmed", actor=actor.label,
                  user=actor.user, match=match, hand=hand, entry=entry, before=before,
                  after=snapshot(hand))
    recompute_match(match)
    return hand


def _comparable(hand: Hand) -> dict[str, Any]:
    values = {field: getattr(hand, field) for field in (
        "outcome", "knocker", "knocker_deadwood", "defender_deadwood", "points", "winner")}
    return {**values, **(hand.cards or {})}


def confirm_hand(*, hand_id: int, actor: Actor, version: int, idempotency_key: str) -> Outcome:
    """The opponent agrees with a pending hand. Raises Forbidden, Conflict."""
    with transaction.atomic():
        hand, match = _lock_hand(hand_id)
        key_hash = _request_hash("confirm", {"hand": hand_id, "version": version})
        if (replay := _replay(match, idempotency_key, key_hash)) is not None:
            return replay
        seat = _seat_or_organiser(actor, match)
        _require_open(match)
        _require_version(hand, version)
        if hand.state != Hand.State.PENDING:
            raise Conflict("not_pending", f"Hand {hand.number} is {hand.state}, not pending.")
        first = hand.accepted_entry or hand.entries.filter(kind=Entry.Kind.SUBMIT).first()
        if seat and first is not None and first.seat == seat:
            raise Forbidden("own_entry", "You entered this hand; your opponent confirms it.")
        if match.agreement == Match.Agreement.DOUBLE and seat:
            raise Conflict("double_entry", "In double entry both players enter the hand.")
        entry = _entry(match, actor, seat, Entry.Kind.CONFIRM, {"version": version},
                       idempotency_key, key_hash, hand=hand)
        before = snapshot(hand)
        _accept(hand, first)
        ledger.append(chain=chain_of(match), action="hand_confirmed", actor=actor.label,
                      user=actor.user, match=match, hand=hand, entry=entry, before=before,
                      after=snapshot(hand))
        recompute_match(match)
        return _finish(entry, hand)


def dispute_hand(*, hand_id: int, actor: Actor, version: int, reason: str,
                 idempotency_key: str) -> Outcome:
    """The opponent disagrees with a pending hand. Raises Forbidden, Conflict."""
    with transaction.atomic():
        hand, match = _lock_hand(hand_id)
        payload = {"hand": hand_id, "version": version, "reason": reason}
        key_hash = _request_hash("dispute", payload)
        if (replay := _replay(match, idempotency_key, key_hash)) is not None:
            return replay
        seat = _seat_or_organiser(actor, match)
        _require_open(match)
        _require_version(hand, version)
        if hand.state != Hand.State.PENDING:
            raise Conflict("not_pending", f"Hand {hand.number} is {hand.state}, not pending.")
        first = hand.entries.filter(kind=Entry.Kind.SUBMIT).first()
        if seat and first is not None and first.seat == seat:
            raise Forbidden("own_entry", "You entered this hand; withdraw it instead.")
        entry = _entry(match, actor, seat, Entry.Kind.DISPUTE, payload, idempotency_key,
                       key_hash, hand=hand)
        before = snapshot(hand)
        hand.state = Hand.State.DISPUTED
        hand.save(update_fields=["state", "updated_at"])
        ledger.append(chain=chain_of(match), action="hand_disputed", actor=actor.label,
                      user=actor.user, match=match, hand=hand, entry=entry, reason=reason,
                      before=before, after=snapshot(hand))
        return _finish(entry, hand)


def withdraw_hand(*, hand_id: int, actor: Actor, version: int, idempotency_key: str) -> Outcome:
    """The enterer takes back a hand nobody has agreed to yet. Raises Forbidden, Conflict."""
    with transaction.atomic():
        hand, match = _lock_hand(hand_id)
        key_hash = _request_hash("withdraw", {"hand": hand_id, "version": version})
        if (replay := _replay(match, idempotency_key, key_hash)) is not None:
            return replay
        seat = _seat_or_organiser(actor, match)
        _require_open(match)
        _require_version(hand, version)
        if hand.state not in (Hand.State.PENDING, Hand.State.DISPUTED):
            raise Conflict("not_pending", f"Hand {hand.number} is {hand.state}; only an "
                           "organiser's correction changes it now.")
        seats = set(hand.entries.filter(kind=Entry.Kind.SUBMIT).values_list("seat", flat=True))
        if seat and seat not in seats:
            raise Forbidden("not_enterer", "Only the player who entered a hand withdraws it.")
        entry = _entry(match, actor, seat, Entry.Kind.WITHDRAW, {"version": version},
                       idempotency_key, key_hash, hand=hand)
        _void(match, hand, actor, entry, "hand_withdrawn", "")
        return _finish(entry, hand)


def correct_hand(*, hand_id: int, actor: Actor, hand_input: HandInput, version: int,
                 reason: str, idempotency_key: str) -> Outcome:
    """An organiser's correction: a new version of the hand, everything after recomputed.

    Raises Forbidden, ServiceError (`reason_required`), RulesError, Conflict.
    """
    _require_reason(reason, "A correction needs a reason.")
    with transaction.atomic():
        hand, match = _lock_hand(hand_id)
        payload = {"hand": hand_id, "version": version, "reason": reason,
                   "values": hand_input.as_payload()}
        key_hash = _request_hash("correct", payload)
        if (replay := _replay(match, idempotency_key, key_hash)) is not None:
            return replay
        _require_organiser(actor, match)
        _require_open(match)
        _require_version(hand, version)
        if hand.state == Hand.State.VOIDED:
            raise Conflict("voided", f"Hand {hand.number} was voided.")
        result = evaluate(hand_input, RuleProfile.from_dict(match.rules))
        values = _values(hand_input, result)
        entry = _entry(match, actor, "", Entry.Kind.CORRECT, payload, idempotency_key, key_hash,
                       hand=hand)
        before = snapshot(hand)
        for key, value in _hand_fields(values).items():
            setattr(hand, key, value)
        hand.state, hand.accepted_entry = Hand.State.CONFIRMED, entry
        hand.version += 1
        hand.save()
        ledger.append(chain=chain_of(match), action="hand_corrected", actor=actor.label,
                      user=actor.user, match=match, hand=hand, entry=entry, reason=reason,
                      before=before, after=snapshot(hand))
        recompute_match(match)
        return _finish(entry, hand)


def void_hand(*, hand_id: int, actor: Actor, version: int, reason: str,
              idempotency_key: str) -> Outcome:
    """An organiser strikes a hand out (it stays on record). Raises Forbidden, Conflict."""
    _require_reason(reason, "Voiding a hand needs a reason.")
    with transaction.atomic():
        hand, match = _lock_hand(hand_id)
        payload = {"hand": hand_id, "version": version, "reason": reason}
        key_hash = _request_hash("void", payload)
        if (replay := _replay(match, idempotency_key, key_hash)) is not None:
            return replay
        _require_organiser(actor, match)
        _require_open(match)
        _require_version(hand, version)
        if hand.state == Hand.State.VOIDED:
            raise Conflict("voided", f"Hand {hand.number} was already voided.")
        entry = _entry(match, actor, "", Entry.Kind.VOID, payload, idempotency_key, key_hash,
                       hand=hand)
        _void(match, hand, actor, entry, "hand_voided", reason)
        return _finish(entry, hand)


def _void(match, hand: Hand, actor: Actor, entry: Entry, action: str, reason: str) -> None:
    before = snapshot(hand)
    hand.state = Hand.State.VOIDED
    hand.version += 1
    hand.save(update_fields=["state", "version", "updated_at"])
    ledger.append(chain=chain_of(match), action=action, actor=actor.label, user=actor.user,
                  match=match, hand=hand, entry=entry, reason=reason, before=before,
                  after=snapshot(hand))
    recompute_match(match)


def _accept(hand: Hand, entry: Entry | None) -> None:
    hand.state = Hand.State.CONFIRMED
    hand.accepted_entry = entry
    hand.save(update_fields=["state", "accepted_entry", "updated_at"])


# ------------------------------------------------------------------------- plumbing

def chain_of(match: Match) -> str:
    return f"match:{match.pk}"


def snapshot(hand: Hand) -> dict[str, Any]:
    return {
        "number": hand.number, "game": hand.game.number, "state": hand.state,
        "version": hand.version, "outcome": hand.outcome, "knocker": hand.knocker,
        "knocker_deadwood": hand.knocker_deadwood, "defender_deadwood": hand.defender_deadwood,
        "points": hand.points, "winner": hand.winner,
    }


def _lock(match_id: int) -> Match:
    try:
        return (Match.objects.select_for_update().select_related("club", "player_a", "player_b")
                .get(pk=match_id))
    except Match.DoesNotExist:
        raise ServiceError("not_found", "No such match.", status=404) from None


def _lock_hand(hand_id: int) -> tuple[Hand, Match]:
    match_id = Hand.objects.filter(pk=hand_id).values_list("game__match_id", flat=True).first()
    if match_id is None:
        raise ServiceError("not_found", "No such hand.", status=404)
    match = _lock(match_id)
    return Hand.objects.select_related("game").get(pk=hand_id), match


def _seat_or_organiser(actor: Actor, match: Match) -> str:
    """The acting seat, or "" for an organiser or admin; anyone else is refused."""
    if actor.player is not None:
        seat = match.seat_of(actor.player)
        if seat is None:
            raise Forbidden("not_in_match", f"{actor.player.name} does not play in this match.")
        return seat
    if actor.organises(match.club):
        return ""
    raise Forbidden("not_allowed", "Only the two players and the club's organisers may do that.")


def _require_organiser(actor: Actor, match: Match) -> None:
    if not actor.organises(match.club):
        raise Forbidden("not_allowed", "Only the club's organisers may do that.")


def _require_open(match: Match) -> None:
    if match.state == Match.State.CLOSED:
        raise Conflict("match_closed", "The match is closed; an organiser must reopen it first.")


def _require_version(hand: Hand, version: int) -> None:
    if hand.version != version:
        raise Conflict("stale_version", f"Hand {hand.number} has changed (now version "
                       f"{hand.version}, you saw version {version}); reload and try again.")


def _current_game(match: Match, number: int) -> Game:
    if match.state != Match.State.IN_PROGRESS:
        raise Conflict("match_finished", "The match is over; no more hands can be entered.")
    game = match.games.filter(state=Game.State.IN_PROGRESS).order_by("number").first()
    assert game is not None, "an unfinished match always has a game in progress"
    if number != game.number:
        raise Conflict("game_finished" if number < game.number else "wrong_game",
                       f"Hands now go to game {game.number}, not game {number}.")
    return game


def _refuse_if_game_already_decided(match: Match, game: Game, live: list[Hand],
                                    profile: RuleProfile) -> None:
    """A game cannot run past its end: if the hands entered so far (voided ones left out)
    already finish it, they must be agreed before another hand is entered."""
    if game_result(match, live, profile).finished:
        raise Conflict("game_decided", f"The hands entered already end game {game.number}; "
                       "confirm them (or dispute one) before entering another.")


def _request_hash(kind: str, payload: dict[str, Any]) -> str:
    text = json.dumps([kind, payload], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _replay(match: Match, key: str, key_hash: str) -> Outcome | None:
    if not key or len(key) > 80:
        raise ServiceError("invalid", "Every submission needs an idempotency key of 1 to 80 "
                           "characters.", fields={"idempotency_key": "required"})
    entry = Entry.objects.filter(match=match, idempotency_key=key).first()
    if entry is None:
        return None
    if entry.request_hash != key_hash:
        raise Conflict("idempotency_conflict", "This idempotency key was already used for a "
                       "different request.")
    return Outcome(hand=entry.hand, response=entry.response, replayed=True, entry=entry)


def _entry(match, actor: Actor, seat: str, kind: str, payload, key: str, key_hash: str,
           hand: Hand | None = None) -> Entry:
    try:
        with transaction.atomic():
            return Entry.objects.create(
                match=match, hand=hand, kind=kind, seat=seat, player=actor.player,
                user=_user(actor), device=actor.device[:200], ip=actor.ip, payload=payload,
                idempotency_key=key, request_hash=key_hash,
            )
    except IntegrityError:  # can't happen under the match lock; refuse rather than fork
        raise Conflict("idempotency_conflict", "This request is already being processed.") from None


def _link(entry: Entry, hand: Hand) -> None:
    entry.hand = hand
    entry.save(update_fields=["hand"])


def _finish(entry: Entry, hand: Hand) -> Outcome:
    response = {"hand": hand_dict(hand)}
    extra = getattr(entry, "response_extra", None)
    if extra:
        response.update(extra)
    entry.response = response
    entry.save(update_fields=["response"])
    return Outcome(hand=hand, response=response, entry=entry)


def _user(actor: Actor):
    user = actor.user
    return user if user is not None and user.is_authenticated else None


__all__ = [
    "Actor", "Outcome", "start_match", "close_match", "reopen_match", "preview_hand",
    "submit_hand", "confirm_hand", "dispute_hand", "withdraw_hand", "correct_hand",
    "void_hand", "chain_of", "other", "verify_pin", "set_pin", "add_player",
]


# ------------------------------------------------------------------------------ PINs

PIN_FAILURE_LIMIT = 5
PIN_LOCKOUT = timedelta(minutes=5)


def verify_pin(*, match: Match, player: Player, pin: str) -> None:
    """Check a player's table PIN. Failures are counted per player and match (never per
    IP: a club shares one address) and lock that player out at that table for a while.

    Raises Forbidden (`not_in_match`, `no_pin`, `wrong_pin`) or Throttled (`pin_locked`).
    """
    if match.seat_of(player) is None:
        raise Forbidden("not_in_match", f"{player.name} does not play in this match.")
    since = timezone.now() - PIN_LOCKOUT
    failures = PinFailure.objects.filter(player=player, match=match, created_at__gte=since)
    if failures.count() >= PIN_FAILURE_LIMIT:
        raise Throttled("pin_locked", f"Too many wrong PINs for {player.name}; try again in "
                        f"{int(PIN_LOCKOUT.total_seconds() // 60)} minutes or ask an organiser.")
    if not player.pin_hash:
        raise Forbidden("no_pin", f"{player.name} has no PIN yet; an organiser sets one.")
    if not player.check_pin(pin):
        PinFailure.objects.create(player=player, match=match)
        raise Forbidden("wrong_pin", f"Wrong PIN for {player.name}.")
    failures.delete()


def set_pin(*, player: Player, pin: str, actor: Actor) -> None:
    """Set a player's table PIN (4 to 8 digits). Raises Forbidden, ServiceError."""
    if not (actor.organises(player.club) or actor.user and player.user_id == actor.user.pk):
        raise Forbidden("not_allowed", "Only an organiser or the player sets a PIN.")
    _check_pin(pin)
    player.set_pin(pin)
    player.save(update_fields=["pin_hash"])


def _check_pin(pin: str) -> None:
    if not (pin.isdigit() and 4 <= len(pin) <= 8):
        raise ServiceError("invalid", "A PIN is 4 to 8 digits.", fields={"pin": "4 to 8 digits"})


def add_player(*, club: Club, name: str, actor: Actor, pin: str = "", email: str = "",
               member_id: str = "", user=None) -> Player:
    """Register a player in a club. Raises Forbidden, ServiceError (`duplicate_player`)."""
    if not actor.organises(club):
        raise Forbidden("not_allowed", "Only the club's organisers add players.")
    name = " ".join(name.split())
    if not name or len(name) > 120:
        raise ServiceError("invalid", "A player needs a name of 1 to 120 characters.",
                           fields={"name": "required"})
    if club.players.filter(name__iexact=name).exists():
        raise ServiceError("duplicate_player", f"{club.name} already has a player called {name}.",
                           fields={"name": "taken"})
    player = Player(club=club, name=name, email=email, member_id=member_id, user=user)
    if pin:
        _check_pin(pin)
        player.set_pin(pin)
    player.save()
    return player


# ------------------------------------------------------------------ tournament support
# Used by tournaments.services: re-scoring a match under changed rules, stopping a match
# when an organiser decides it, and re-creating a match from a tournament archive.

def rescore_match(*, match_id: int, rules: dict[str, Any], actor: Actor,
                  reason: str = ""):
    """Score every hand of a match again under `rules` (a whole profile, as stored in
    Match.rules), store those rules and recompute its games and result, with one ledger
    row. Hands whose values change get a new version. A closed match stays closed.
    Returns a scoring.rescore.Rescore saying what changed.

    Raises Forbidden, ServiceError (`bad_option`), Conflict (`rescore_impossible`: the new
    rules cannot score a hand, e.g. a knock over a lower knock limit; and those of
    recompute_match: `hands_after_game_end`, `game_reopened`, `hands_after_match_end`).
    """
    from scoring.rescore import Rescore, game_summary, match_summary
    from scoring.rules import RulesError

    try:
        profile = RuleProfile.from_dict(rules)
    except RulesError as error:
        raise ServiceError("bad_option", error.message) from None
    with transaction.atomic():
        match = _lock(match_id)
        _require_organiser(actor, match)
        report = Rescore(match=match, before=match_summary(match))
        games = _games_with_hands(match)
        games_before = {game.number: game_summary(game) for game in games}
        unagreed = _first_payloads(match)
        for game in games:
            for hand in game.hands.all():
                if hand.state != Hand.State.VOIDED:
                    change = _rescore_hand(match, game, hand, profile, unagreed)
                    if change is not None:
                        report.hands.append(change)
        old_rules, state = match.rules, match.state
        match.rules = profile.as_dict()
        match.save(update_fields=["rules", "updated_at"])
        recompute_match(match)
        if state == Match.State.CLOSED and match.state != Match.State.CLOSED:
            match.state = Match.State.CLOSED
            match.save(update_fields=["state", "updated_at"])
        games_after = {g.number: game_summary(g) for g in match.games.order_by("number")}
        for number in sorted(set(games_before) | set(games_after)):
            before, after = games_before.get(number), games_after.get(number)
            if before != after:
                report.games.append({"game": number, "before": before, "after": after})
        report.after = match_summary(match)
        ledger.append(chain=chain_of(match), action="match_rescored", actor=actor.label,
                      user=actor.user, match=match, reason=reason,
                      before={"rules": old_rules, **report.before},
                      after={"rules": match.rules, **report.after,
                             "hands_changed": len(report.hands)})
    return report


def _games_with_hands(match: Match) -> list[Game]:
    from django.db.models import Prefetch

    hands = Hand.objects.select_related("accepted_entry").order_by("number")
    return list(match.games.order_by("number").prefetch_related(Prefetch("hands", hands)))


def _first_payloads(match: Match) -> dict[int, dict[str, Any]]:
    """Hands nobody agreed to yet have no accepted entry: their first entry's values."""
    from scoring.rescore import entered_values

    rows = (Entry.objects.filter(match=match, kind=Entry.Kind.SUBMIT,
                                 hand__accepted_entry__isnull=True)
            .order_by("-id").values_list("hand_id", "payload"))
    return {hand_id: entered_values(payload) for hand_id, payload in rows}


def _rescore_hand(match: Match, game: Game, hand: Hand, profile: RuleProfile,
                  unagreed: dict[int, dict[str, Any]]):
    from scoring.rescore import entered_values, hand_summary, stored_input
    from scoring.rules import RulesError

    payload = (entered_values(hand.accepted_entry.payload) if hand.accepted_entry
               else unagreed.get(hand.pk, {}))
    hand_input = stored_input(hand, game.number, payload)
    try:
        result = evaluate(hand_input, profile)
    except RulesError as error:
        raise Conflict("rescore_impossible", f"Hand {hand.number} of game {game.number} "
                       f"({match}) cannot be scored under the new rules: {error.message}."
                       ) from None
    values = _hand_fields(_values(hand_input, result))
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


def stop_match(*, match_id: int, actor: Actor, reason: str) -> Match:
    """Close an unfinished match because an organiser decided it (time called, a result
    recorded by hand): no more hands can be entered. A reason is required.

    Raises Forbidden, ServiceError (`reason_required`), Conflict (`not_in_progress`).
    """
    _require_reason(reason, "Say why the match is stopped.")
    return _change_match_state(
        match_id=match_id, actor=actor, reason=reason, action="match_stopped",
        allowed=lambda m: m.state == Match.State.IN_PROGRESS,
        refusal=Conflict("not_in_progress", "Only a match in progress can be stopped."),
        state=lambda m: Match.State.CLOSED)


def resume_match(*, match_id: int, actor: Actor, reason: str) -> Match:
    """Let a stopped (closed, undecided) match go on. Raises Forbidden, ServiceError
    (`reason_required`), Conflict (`not_stopped`)."""
    _require_reason(reason, "Say why the match is resumed.")
    return _change_match_state(
        match_id=match_id, actor=actor, reason=reason, action="match_resumed",
        allowed=lambda m: m.state == Match.State.CLOSED and not m.winner,
        refusal=Conflict("not_stopped", "Only a stopped, undecided match can be resumed."),
        state=lambda m: Match.State.IN_PROGRESS)


def import_match(*, club: Club, player_a: Player, player_b: Player, actor: Actor,
                 rules: dict[str, Any], agreement: str, first_dealer: str, state: str,
                 games: list[dict[str, Any]], expected: dict[str, Any],
                 label: str = "match") -> Match:
    """Re-create a match from an archive: each hand's archived input is scored again by
    the engine under `rules` and must give the archived points and winner; games and the
    result are recomputed and must equal `expected` (winner, games_won, points). Each
    hand gets one organiser Entry holding its input; one ledger row.

    `games`: [{number, first_dealer, hands: [{number, dealer, state, version, input,
    points, winner}]}]. Raises Forbidden, ServiceError (`bad_archive`, naming `label`).
    """
    from scoring.rescore import match_summary
    from scoring.rules import RulesError

    if not actor.organises(club):
        raise Forbidden("not_allowed", "Only the club's organisers import matches.")
    _check_players(club, player_a, player_b)
    try:
        profile = RuleProfile.from_dict(rules)
        with transaction.atomic():
            match = Match.objects.create(
                club=club, player_a=player_a, player_b=player_b, rules=profile.as_dict(),
                agreement=agreement, first_dealer=first_dealer, created_by=_user(actor))
            for game_data in games:
                _import_game(match, game_data, profile, actor, label)
            recompute_match(match)
            summary = match_summary(match)
            for key in ("winner", "games_won", "points"):
                if summary[key] != expected.get(key):
                    raise ServiceError("bad_archive", f"{label}: the archive says {key} "
                                       f"{expected.get(key)}, its hands give {summary[key]}.")
            if state == Match.State.CLOSED:
                match.state = Match.State.CLOSED
                match.save(update_fields=["state", "updated_at"])
            ledger.append(chain=chain_of(match), action="match_imported", actor=actor.label,
                          user=actor.user, match=match, after={"rules": match.rules, **summary})
    except (RulesError, Conflict) as error:
        raise ServiceError("bad_archive", f"{label}: {error.message}") from None
    return match


def _import_game(match: Match, data: dict[str, Any], profile: RuleProfile, actor: Actor,
                 label: str) -> None:
    from scoring.hands import hand_input_from

    game = Game.objects.create(match=match, number=data["number"],
                               first_dealer=data["first_dealer"])
    for item in data["hands"]:
        where = f"{label}, game {game.number} hand {item['number']}"
        hand_input = hand_input_from({**item["input"], "game": game.number,
                                      "number": item["number"]})
        values = _values(hand_input, evaluate(hand_input, profile))
        if (values["points"], values["winner"] or None) != (item["points"],
                                                            item["winner"] or None):
            raise ServiceError("bad_archive", f"{where}: the archive says {item['points']} "
                               f"points to {item['winner'] or 'nobody'}, the rules give "
                               f"{values['points']} to {values['winner'] or 'nobody'}.")
        if item["dealer"] not in ("A", "B") or item["state"] not in Hand.State.values:
            raise ServiceError("bad_archive", f"{where}: bad dealer or state.")
        payload = hand_input.as_payload()
        entry = Entry.objects.create(
            match=match, kind=Entry.Kind.SUBMIT, seat="", user=_user(actor),
            device="archive import", payload=payload,
            idempotency_key=f"import:{game.number}:{item['number']}",
            request_hash=_request_hash("submit", payload))
        hand = Hand.objects.create(game=game, number=item["number"], dealer=item["dealer"],
                                   state=item["state"], version=item.get("version") or 1,
                                   accepted_entry=entry, **_hand_fields(values))
        _link(entry, hand)
