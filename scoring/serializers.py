"""API input shapes. Serializers check shape; the rules engine checks the game."""

from __future__ import annotations

import re

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers
from rest_framework.fields import get_attribute

from ginclub.inputs import INT_MAX, SMALL_MAX, id_field, whole_field
from scoring.models import Game, Hand, Match, Penalty, Seat, TableCall


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know instead of silently ignoring them."""

    # Here, not in validate(): a nested serializer (a dispute's `claim`) has no initial_data.
    def to_internal_value(self, data):
        attrs = super().to_internal_value(data)
        unknown = sorted(set(data) - set(self.fields))
        if unknown:
            raise serializers.ValidationError({name: [_("unknown field")] for name in unknown})
        return attrs


# A card as the engine reads it (scoring.rules.cards.parse_card): rank then suit, AS 7H
# TD 10D, any case, suit symbols too. Anything else ("{}" from a form, say) is refused here.
NOT_A_CARD = {"invalid": gettext_lazy("Not a card: write cards like AS, 7H, TD or 10D.")}
CARD = r"\s*(?:10|[2-9TJQKAtjqka])[CDHScdhs\u2660\u2665\u2666\u2663]\s*"


def card_field(**options) -> serializers.RegexField:
    return serializers.RegexField(f"^{CARD}$", max_length=4, error_messages=NOT_A_CARD, **options)


def upcard_field() -> serializers.CharField:
    """A card or blank. Checked by a plain validator: a pattern in the schema would make
    drf-spectacular describe the blank as a second, overlapping choice."""

    def is_card(value: str) -> None:
        if len(value) <= 4 and not re.fullmatch(CARD, value):  # longer: max_length says
            raise serializers.ValidationError(NOT_A_CARD["invalid"])

    return serializers.CharField(
        max_length=4, required=False, allow_blank=True, validators=[is_card]
    )


class HandFieldsSerializer(StrictSerializer):
    game = whole_field(1, SMALL_MAX)
    number = whole_field(1, SMALL_MAX)
    outcome = serializers.ChoiceField(choices=["knock", "gin", "big_gin", "dead"])
    knocker = serializers.ChoiceField(choices=["A", "B"], required=False, allow_blank=True)
    # The engine checks deadwood (and says what is wrong); the bound keeps it storable.
    knocker_deadwood = whole_field(-SMALL_MAX, SMALL_MAX, required=False, allow_null=True)
    defender_deadwood = whole_field(-SMALL_MAX, SMALL_MAX, required=False, allow_null=True)
    knocker_cards = serializers.ListField(child=card_field(), max_length=11, required=False)
    defender_cards = serializers.ListField(child=card_field(), max_length=10, required=False)
    knocker_melds = serializers.ListField(
        child=serializers.ListField(child=card_field(), max_length=11),
        max_length=4,
        required=False,
        allow_null=True,
    )
    layoffs = serializers.ListField(
        child=card_field(), max_length=10, required=False, allow_null=True
    )
    upcard = upcard_field()


class SubmitHandSerializer(HandFieldsSerializer):
    idempotency_key = serializers.CharField(max_length=80)
    player = id_field(required=False, help_text="Act for this player, with their PIN.")
    pin = serializers.CharField(max_length=8, required=False, write_only=True)


class PreviewHandSerializer(HandFieldsSerializer):
    pass


class VersionedSerializer(StrictSerializer):
    version = whole_field(1, INT_MAX)
    idempotency_key = serializers.CharField(max_length=80)
    player = id_field(required=False, help_text="Act for this player, with their PIN.")
    pin = serializers.CharField(max_length=8, required=False, write_only=True)


class ClaimSerializer(HandFieldsSerializer):
    """The hand as the disputing player says it was: its figures, quick or by cards; the
    game and the number are the disputed hand's."""

    game = None
    number = None


class DisputeSerializer(VersionedSerializer):
    reason = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        help_text="The disputer's own words; needed unless `claim` differs from the hand.",
    )
    claim = ClaimSerializer(
        required=False,
        help_text="The hand as the disputer says it was, scored like an entry; the fields "
        "where it differs come back in `differences` and are kept with the dispute.",
    )


class ReasonedSerializer(StrictSerializer):
    """An organiser's action on a hand: no `player`/`pin` (nobody acts for a seat)."""

    version = whole_field(1, INT_MAX)
    idempotency_key = serializers.CharField(max_length=80)
    reason = serializers.CharField(max_length=500)


class CorrectSerializer(HandFieldsSerializer):
    version = whole_field(1, INT_MAX)
    reason = serializers.CharField(max_length=500)
    idempotency_key = serializers.CharField(max_length=80)


class ReasonSerializer(StrictSerializer):
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True)


class StartMatchSerializer(StrictSerializer):
    club = serializers.SlugField()
    player_a = id_field()
    player_b = id_field()
    profile = serializers.CharField(max_length=20, default="standard")
    # Free-form on purpose: rule options (scoring.rules.profiles), the engine's and
    # documented in docs/rules.md, checked by the engine rather than shaped here.
    rules = serializers.DictField(
        required=False, default=dict, help_text="Rule options overriding the profile."
    )
    agreement = serializers.ChoiceField(
        choices=Match.Agreement.values, default=Match.Agreement.CONFIRM
    )
    first_dealer = serializers.ChoiceField(choices=["A", "B"], default="A")


class AddPlayerSerializer(StrictSerializer):
    name = serializers.CharField(max_length=120)
    pin = serializers.CharField(max_length=8, required=False, allow_blank=True, write_only=True)
    email = serializers.EmailField(required=False, allow_blank=True)
    member_id = serializers.CharField(max_length=40, required=False, allow_blank=True)


class SeatSerializer(StrictSerializer):
    token = serializers.CharField(max_length=200, required=False)
    player = id_field()
    pin = serializers.CharField(max_length=8, write_only=True)


class NetworkLimitSerializer(StrictSerializer):
    ip = serializers.IPAddressField(help_text="The address whose wrong-PIN limit to lift.")


class NetworkLimitLiftedSerializer(serializers.Serializer):
    ip = serializers.IPAddressField()
    cleared = serializers.IntegerField(
        help_text="How many wrong PINs from that address, for the club's players, were forgotten."
    )


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.SlugField(source="club.slug")


class ClubSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    player_pages_public = serializers.BooleanField(
        help_text="Anyone may read its players' records; else only members and organisers."
    )


class GrantAuditorSerializer(StrictSerializer):
    username = serializers.CharField(max_length=150, help_text="The auditor's login name.")


class AuditorOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class GrantScorekeeperSerializer(StrictSerializer):
    username = serializers.CharField(max_length=150, help_text="The scorekeeper's login name.")


class ScorekeeperOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class CallInputSerializer(StrictSerializer):
    reason = serializers.ChoiceField(
        choices=TableCall.Reason.values,
        help_text="Why the table calls: ruling, dispute or scoring (a scoring question).",
    )
    player = id_field(required=False, help_text="Act for this player, with their PIN.")
    pin = serializers.CharField(max_length=8, required=False, write_only=True)


class ResolveCallSerializer(StrictSerializer):
    note = serializers.CharField(
        max_length=500, required=False, allow_blank=True, help_text="What staff decided."
    )


class CallOutputSerializer(serializers.Serializer):
    """A call from a table for staff, and how long it waited."""

    id = serializers.IntegerField()
    match = serializers.IntegerField(source="match_id")
    reason = serializers.ChoiceField(choices=TableCall.Reason.values)
    reason_label = serializers.CharField(source="get_reason_display")
    state = serializers.ChoiceField(choices=["open", "taken", "resolved"])
    player = serializers.CharField(
        source="player.name", allow_null=True, default=None, help_text="Who called, if seated."
    )
    called_at = serializers.DateTimeField()
    taken_at = serializers.DateTimeField(allow_null=True)
    taken_by = serializers.CharField(source="taken_by.username", allow_null=True, default=None)
    resolved_at = serializers.DateTimeField(allow_null=True)
    resolved_by = serializers.CharField(
        source="resolved_by.username", allow_null=True, default=None
    )
    note = serializers.CharField()
    waited_seconds = serializers.SerializerMethodField(
        help_text="Seconds from the call until staff took it; still counting while open."
    )

    def get_waited_seconds(self, call) -> int:
        end = call.taken_at or call.resolved_at or timezone.now()
        return max(0, int((end - call.called_at).total_seconds()))


class LedgerRowSerializer(serializers.Serializer):
    chain = serializers.CharField()
    position = serializers.IntegerField()
    action = serializers.CharField()
    hand = serializers.IntegerField(source="hand_id", allow_null=True)
    entry = serializers.IntegerField(source="entry_id", allow_null=True)
    actor = serializers.CharField()
    reason = serializers.CharField()
    before = serializers.JSONField()
    after = serializers.JSONField()
    created_at = serializers.DateTimeField()
    prev_hash = serializers.CharField()
    hash = serializers.CharField()


# ------------------------------------------------------------------ output shapes
# What the endpoints return (HackSoft's OutputSerializer pattern): each one describes a
# dict the selectors or services build, key for key, so the OpenAPI schema is exact.
# tests/test_api_outputs.py fails when a response and its serializer drift apart.


# Choice sets the schema names (ENUM_NAME_OVERRIDES): several fields are called `state`
# or `outcome` with different choices.
MATCH_STATES = Match.State.choices
GAME_STATES = Game.State.choices
HAND_STATES = Hand.State.choices
HAND_OUTCOMES = Hand.Outcome.choices  # with "undercut", which the input never says
ENTERED_OUTCOMES = ["knock", "gin", "big_gin", "dead"]  # HandFieldsSerializer.outcome


def read_by(field_class: type[serializers.Field], reader, **options) -> serializers.Field:
    """A `field_class` field whose value is `reader(object, context)`: a value worked out
    from the object (a default, a translation, what the public may see) rather than one
    of its attributes. For plain fields: a nested serializer made so would be a second
    schema component of the same name."""

    class Computed(field_class):
        def get_attribute(self, instance):
            return reader(instance, self.context)

    return Computed(**options)


class With:
    """An object read with a few more attributes (a registration with the rating it was
    seeded by), for a serializer that reads them all."""

    def __init__(self, base, **more) -> None:
        self._base = base
        self.__dict__.update(more)

    def __getattr__(self, name: str):
        return getattr(self._base, name)


class SeatField(serializers.ChoiceField):
    """A seat, A or B. Where null is allowed, a seat stored blank (nobody won, nobody
    knocked) is shown as null."""

    def get_attribute(self, instance):
        value = super().get_attribute(instance)
        return (value or None) if self.allow_null else value


def _seat(**options) -> serializers.ChoiceField:
    return SeatField(choices=Seat.choices, **options)


class SeatNumbersSerializer(serializers.Serializer):
    """A number for each seat."""

    A = serializers.IntegerField()
    B = serializers.IntegerField()

    def __init__(self, *args, seats: tuple[str, str] | None = None, **kwargs):
        # `seats`: read A and B from two attributes of the object, e.g.
        # ("games_won_a", "games_won_b"); without it, the value is a seat-keyed mapping.
        if seats is not None:
            kwargs["source"] = "*"
        super().__init__(*args, **kwargs)
        self.seats = seats

    def to_representation(self, instance):
        if self.seats is not None:
            instance = {
                seat: _number_at(instance, path)
                for seat, path in zip(("A", "B"), self.seats, strict=True)
            }
        return super().to_representation(instance)


def _number_at(instance, path: str) -> int:
    """The number at the dotted `path`; 0 when an object on the way is missing (a bye
    has no match: no games won)."""
    owner, _dot, name = path.rpartition(".")
    found = get_attribute(instance, owner.split(".")) if owner else instance
    return 0 if found is None else getattr(found, name)


class SeatNamesSerializer(serializers.Serializer):
    """A player's name for each seat."""

    A = serializers.CharField()
    B = serializers.CharField()


# Reads the Match.
class MatchListItemOutputSerializer(serializers.Serializer):
    """A match in a list."""

    id = serializers.IntegerField()
    club = serializers.SlugField(source="club.slug")
    player_a = serializers.CharField(source="player_a.name", help_text="Seat A's player name.")
    player_b = serializers.CharField(source="player_b.name", help_text="Seat B's player name.")
    state = serializers.ChoiceField(choices=MATCH_STATES)


class HandCardsOutputSerializer(serializers.Serializer):
    """A hand entered card by card: both hands, the melds the engine used, lay-offs."""

    knocker_cards = serializers.ListField(child=serializers.CharField())
    defender_cards = serializers.ListField(child=serializers.CharField())
    knocker_melds = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()), allow_null=True
    )
    defender_melds = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()), allow_null=True
    )
    laid_off = serializers.ListField(child=serializers.CharField(), allow_null=True)
    upcard = serializers.CharField(allow_null=True)


# Reads the Hand, with its game.
class HandOutputSerializer(serializers.Serializer):
    """A hand."""

    id = serializers.IntegerField()
    game = serializers.IntegerField(
        source="game.number", help_text="The game's number in the match."
    )
    number = serializers.IntegerField()
    version = serializers.IntegerField(help_text="Send it back to confirm, dispute, correct.")
    state = serializers.ChoiceField(choices=HAND_STATES)
    dealer = _seat()
    outcome = serializers.ChoiceField(choices=HAND_OUTCOMES)
    knocker = _seat(allow_null=True, help_text="Null for a dead hand.")
    knocker_deadwood = serializers.IntegerField(allow_null=True)
    defender_deadwood = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField()
    winner = _seat(allow_null=True)
    explanation = serializers.CharField(help_text="How the points were worked out.")
    cards = HandCardsOutputSerializer(allow_null=True, help_text="Null for quick entry.")


class GameBreakdownOutputSerializer(serializers.Serializer):
    """The engine's result of a finished game (the game's stored breakdown)."""

    def get_attribute(self, instance):
        return super().get_attribute(instance) or None  # {} until the game is finished

    winner = _seat(allow_null=True)
    finished = serializers.BooleanField()
    totals = SeatNumbersSerializer()
    hand_points = SeatNumbersSerializer()
    hands_won = SeatNumbersSerializer()
    game_bonus = serializers.IntegerField(help_text="The winner's game bonus.")
    game_bonuses = SeatNumbersSerializer(
        required=False,
        help_text="Each player's game bonus (the loser's too under game_bonus_to "
        "each_reaching_min); absent for games finished before it was recorded.",
    )
    box_bonus = SeatNumbersSerializer()
    shutout = serializers.BooleanField()
    margin = serializers.IntegerField()
    explanation = serializers.CharField()


class GameTotalsWordsSerializer(serializers.Serializer):
    A = serializers.CharField(help_text='"Ada: 105 in hands + 100 game + 2 boxes × 25 = 255"')
    B = serializers.CharField()


class GameWordsOutputSerializer(serializers.Serializer):
    """A game's numbers in words with names (docs/rules.md §7)."""

    summary = serializers.CharField(
        source="summary_words", allow_blank=True, help_text="Blank until finished."
    )
    totals = GameTotalsWordsSerializer(
        source="total_words", help_text="Each total as its sum ('so far' while played)."
    )


# Reads the Game as scoring.selectors.match_view reads it: `hand_list`,
# `summary_words`, `total_words`.
class GameOutputSerializer(serializers.Serializer):
    """A game with its hands."""

    number = serializers.IntegerField()
    state = serializers.ChoiceField(choices=GAME_STATES)
    first_dealer = _seat()
    winner = _seat(allow_null=True)
    hand_points = SeatNumbersSerializer(seats=("hand_points_a", "hand_points_b"))
    totals = SeatNumbersSerializer(
        seats=("total_a", "total_b"), help_text="With the game and box bonuses once finished."
    )
    breakdown = GameBreakdownOutputSerializer(
        allow_null=True, help_text="Null until the game is finished."
    )
    explanation = serializers.CharField(allow_blank=True, help_text="Blank until finished.")
    words = GameWordsOutputSerializer(source="*")
    hands = HandOutputSerializer(source="hand_list", many=True)


class MatchPlayerOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


# Reads the Match.
class MatchPlayersOutputSerializer(serializers.Serializer):
    """The match's players by seat."""

    A = MatchPlayerOutputSerializer(source="player_a")
    B = MatchPlayerOutputSerializer(source="player_b")


# Reads scoring.selectors.MatchView.
class MatchOutputSerializer(serializers.Serializer):
    """A match with its games and hands."""

    id = serializers.IntegerField(source="match.pk")
    club = serializers.SlugField(source="match.club.slug")
    players = MatchPlayersOutputSerializer(source="match")
    # Free-form on purpose: the frozen rule profile (scoring.rules.profiles), whose
    # options are the engine's and documented in docs/rules.md, not an API shape.
    rules = serializers.DictField(
        source="match.rules", help_text="The frozen rule profile, options included."
    )
    agreement = serializers.ChoiceField(source="match.agreement", choices=Match.Agreement.values)
    state = serializers.ChoiceField(source="match.state", choices=MATCH_STATES)
    winner = _seat(source="match.winner", allow_null=True)
    games_won = SeatNumbersSerializer(seats=("match.games_won_a", "match.games_won_b"))
    points = SeatNumbersSerializer(seats=("match.points_a", "match.points_b"))
    next_dealer = _seat(allow_null=True, help_text="Null once the match is over.")
    current_game = serializers.IntegerField(source="current_game.number", allow_null=True)
    next_hand = serializers.IntegerField(
        allow_null=True, help_text="The number the next hand of the current game takes."
    )
    may_start_hand = serializers.BooleanField(
        help_text="False once no new hand may start: the match is over, or time was called "
        "and the table has entered the hand in play (docs/rules.md §13)."
    )
    play_words = serializers.CharField(
        allow_blank=True, help_text="After time is called: what the table may still play."
    )
    result_words = serializers.CharField(
        allow_blank=True,
        help_text='How the match ended and why ("Ada wins 2–1: time was called and Ada led '
        'on games"); blank while it is played.',
    )
    result_arithmetic = serializers.CharField(
        allow_blank=True, help_text="The result's arithmetic in words: games won, match points."
    )
    games = GameOutputSerializer(many=True)


class HandDifferencesOutputSerializer(serializers.Serializer):
    """Double entry, or a dispute's claim: each field where the two disagree, as [first
    entry, second entry or claim]."""

    outcome = serializers.ListField(child=serializers.CharField(), required=False)
    knocker = serializers.ListField(child=serializers.CharField(allow_blank=True), required=False)
    knocker_deadwood = serializers.ListField(
        child=serializers.IntegerField(allow_null=True), required=False
    )
    defender_deadwood = serializers.ListField(
        child=serializers.IntegerField(allow_null=True), required=False
    )
    points = serializers.ListField(child=serializers.IntegerField(), required=False)
    winner = serializers.ListField(child=serializers.CharField(allow_blank=True), required=False)
    knocker_cards = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()), required=False
    )
    defender_cards = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()), required=False
    )


class HandActionOutputSerializer(serializers.Serializer):
    """What a hand action (submit, confirm, dispute, withdraw, correct, void) returns;
    a replayed idempotency key returns the first response again."""

    hand = HandOutputSerializer()
    differences = HandDifferencesOutputSerializer(
        required=False,
        help_text="Only when a double entry, or a dispute's claim, disagrees with the "
        "first entry (hand disputed).",
    )


class HandResultOutputSerializer(serializers.Serializer):
    """The engine's score of a hand (scoring.rules HandResult)."""

    outcome = serializers.ChoiceField(choices=HAND_OUTCOMES)
    winner = serializers.ChoiceField(choices=["knocker", "defender"], allow_null=True)
    points = serializers.IntegerField()
    knocker_deadwood = serializers.IntegerField(allow_null=True)
    defender_deadwood = serializers.IntegerField(allow_null=True)
    knocker_melds = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Card entry only.",
    )
    defender_melds = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Card entry only.",
    )
    laid_off = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Card entry only."
    )
    explanation = serializers.CharField()


# Reads the engine's HandResult as it writes it down, HandResult.as_dict, as the
# ledger keeps it too.
class PreviewOutputSerializer(serializers.Serializer):
    """A hand's preview."""

    preview = HandResultOutputSerializer(source="*")


class _SeatAtMatchField(SeatField):
    """The seat the player (the object) holds at the context's `match`."""

    def to_representation(self, player):
        return self.context["match"].seat_of(player)


# Reads the Player; context: the `match`.
class SeatOutputSerializer(serializers.Serializer):
    """A player seated at a table."""

    seat = _SeatAtMatchField(choices=Seat.choices, source="*")
    player = serializers.CharField(source="name", help_text="The player's name.")


class LedgerBreakOutputSerializer(serializers.Serializer):
    chain = serializers.CharField()
    position = serializers.IntegerField()
    row = serializers.IntegerField(
        source="row_id", allow_null=True, help_text="The ledger row's id."
    )
    problem = serializers.CharField()


# Reads a scoring.replay.Difference.
class LedgerDifferenceOutputSerializer(serializers.Serializer):
    chain = serializers.CharField(help_text="The match's chain, e.g. match:12.")
    what = serializers.CharField(help_text="What differs: a hand, a game, the result, the rules.")
    field = serializers.CharField()
    ledger = serializers.JSONField(help_text="What the ledger's rows say (null: nothing).")
    table = serializers.JSONField(help_text="What the tables hold (null: nothing).")
    text = serializers.CharField(source="__str__", help_text="The difference in a sentence.")


class LedgerCheckpointOutputSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    written_at = serializers.CharField()


# Reads a scoring.replay.Verification.
class LedgerVerifyOutputSerializer(serializers.Serializer):
    """The ledger's check: each chain's hashes and its last signed checkpoint (`breaks`,
    the checkpoint file's own problems under the chain "checkpoint"), and each match's
    replay against the hands, games and result tables (`differences`)."""

    ok = serializers.BooleanField()
    breaks = LedgerBreakOutputSerializer(many=True)
    differences = LedgerDifferenceOutputSerializer(many=True)
    rows = serializers.IntegerField(help_text="Ledger rows verified.")
    legacy_rows = serializers.IntegerField(
        help_text="Rows with a plain hash from before the ledger had keys."
    )
    checkpoint = LedgerCheckpointOutputSerializer(
        allow_null=True, help_text="The signed checkpoint the chains were held against."
    )


# ------------------------------------------------------- correction and void previews


class CorrectPreviewSerializer(HandFieldsSerializer):
    """A correction to preview: the new values, the version seen; the reason may wait."""

    version = whole_field(1, INT_MAX)
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class VoidPreviewSerializer(StrictSerializer):
    version = whole_field(1, INT_MAX)
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class HandSnapshotOutputSerializer(serializers.Serializer):
    """A hand's values as the ledger records them."""

    number = serializers.IntegerField()
    game = serializers.IntegerField()
    state = serializers.ChoiceField(choices=HAND_STATES)
    version = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=HAND_OUTCOMES)
    knocker = _seat(allow_blank=True, help_text="Blank for a dead hand.")
    knocker_deadwood = serializers.IntegerField(allow_null=True)
    defender_deadwood = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField()
    winner = _seat(allow_blank=True, help_text="Blank when nobody won the hand.")


class HandChangeOutputSerializer(serializers.Serializer):
    before = HandSnapshotOutputSerializer(source="hand_before")
    after = HandSnapshotOutputSerializer(source="hand_after")


class MatchResultOutputSerializer(serializers.Serializer):
    """A match's result as the standings read it."""

    state = serializers.ChoiceField(choices=MATCH_STATES)
    winner = _seat(allow_null=True, help_text="Null while the match is undecided.")
    games_won = SeatNumbersSerializer()
    points = SeatNumbersSerializer()


class ResultChangeOutputSerializer(serializers.Serializer):
    before = MatchResultOutputSerializer(source="result_before")
    after = MatchResultOutputSerializer(source="result_after")
    changed = serializers.BooleanField(source="result_changed")


class StandingLineOutputSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    matches = serializers.IntegerField()
    match_wins = serializers.IntegerField()
    games_won = serializers.IntegerField()
    games_played = serializers.IntegerField()
    game_win_pct = serializers.FloatField()
    opponents_match_win_pct = serializers.FloatField()
    margin = serializers.IntegerField()
    points = serializers.IntegerField()


class StandingMoveOutputSerializer(serializers.Serializer):
    registration = serializers.IntegerField()
    name = serializers.CharField()
    before = StandingLineOutputSerializer(allow_null=True)
    after = StandingLineOutputSerializer()


class LaterRoundOutputSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    state = serializers.CharField(help_text="draft, published or closed.")
    paired_from_standings = serializers.BooleanField(
        help_text="True when this round was (or will be) paired from the standings the "
        "change moves (Swiss rounds, and a top cut after them)."
    )


class ConsequenceTournamentOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    slug = serializers.SlugField()
    name = serializers.CharField()
    finished = serializers.BooleanField()


class TournamentConsequenceOutputSerializer(serializers.Serializer):
    """What the change does to the tournament, for a match of a closed round (reported
    by the tournaments app through scoring.hooks' result guard)."""

    kind = serializers.ChoiceField(choices=["tournament"])
    tournament = ConsequenceTournamentOutputSerializer()
    round = serializers.IntegerField()
    round_closed_at = serializers.DateTimeField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    pairing = serializers.IntegerField()
    players = SeatNamesSerializer()
    hand = serializers.CharField(help_text='Which hand, e.g. "hand 3 of game 2".')
    resolved = serializers.BooleanField(
        help_text="The table's result was recorded by hand; it stands whatever the hands."
    )
    standings = StandingMoveOutputSerializer(many=True, help_text="Only the lines that move.")
    later_rounds = LaterRoundOutputSerializer(many=True)
    notes = serializers.ListField(child=serializers.CharField(), help_text="In words.")


# Reads scoring.services.corrections.CorrectionPreview.
class CorrectionPreviewOutputSerializer(serializers.Serializer):
    """What a correction or void would do; nothing is written."""

    action = serializers.ChoiceField(choices=["correct", "void"])
    hand = HandChangeOutputSerializer(source="*")
    result = ResultChangeOutputSerializer(source="*")
    tournament = TournamentConsequenceOutputSerializer(
        allow_null=True,
        help_text="Null unless the match is played in a closed round of a tournament and "
        "its result changes.",
    )


# ------------------------------------------------------------------- penalties


PENALTY_KINDS = Penalty.Kind.choices
INFRACTIONS = Penalty.Infraction.choices


class PenaltyInputSerializer(StrictSerializer):
    seat = _seat(help_text="The seat of the penalised player.")
    kind = serializers.ChoiceField(choices=PENALTY_KINDS)
    infraction = serializers.ChoiceField(choices=INFRACTIONS)
    details = serializers.CharField(max_length=1000, help_text="What happened.")


class PenaltyPreviewInputSerializer(StrictSerializer):
    seat = _seat()
    kind = serializers.ChoiceField(choices=PENALTY_KINDS)


class PenaltyReverseInputSerializer(StrictSerializer):
    reason = serializers.CharField(
        max_length=500, required=False, allow_blank=True, help_text="Required: why."
    )


class PenaltyOutputSerializer(serializers.Serializer):
    """A penalty recorded against one player of a match (docs/rules.md §18)."""

    id = serializers.IntegerField()
    match = serializers.IntegerField(source="match_id")
    seat = _seat()
    player = serializers.CharField(source="player.name")
    kind = serializers.ChoiceField(choices=PENALTY_KINDS)
    kind_label = serializers.CharField(source="get_kind_display")
    infraction = serializers.ChoiceField(choices=INFRACTIONS)
    infraction_label = serializers.CharField(source="get_infraction_display")
    details = serializers.CharField()
    game = serializers.IntegerField(allow_null=True, help_text="The game a game loss ended.")
    recorded_at = serializers.DateTimeField()
    active = serializers.BooleanField(help_text="False once reversed.")
    reversed_at = serializers.DateTimeField(allow_null=True)
    reversal_reason = serializers.CharField()


class PenaltyPreviewOutputSerializer(serializers.Serializer):
    """What recording the penalty would do to the match's result; nothing is written."""

    kind = serializers.ChoiceField(choices=PENALTY_KINDS)
    game = serializers.IntegerField(allow_null=True, help_text="The game a game loss ends.")
    explanation = serializers.CharField(
        allow_blank=True, help_text="The scoring of the game a game loss ends; blank otherwise."
    )
    result = ResultChangeOutputSerializer(source="*")


# ------------------------------------------------------------- a player's record


class PlayerRefOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class PlayerOfClubOutputSerializer(PlayerRefOutputSerializer):
    club = serializers.SlugField(source="club.slug")


class MinimumsOutputSerializer(serializers.Serializer):
    hands = serializers.IntegerField(
        source="min_hands", help_text="Figures from fewer hands are marked too few."
    )
    games = serializers.IntegerField(
        source="min_games", help_text="The same for figures from games."
    )


class IsoformatField(serializers.DateTimeField):
    """A moment as Python's isoformat writes it (with "+00:00"), as the record always
    showed it."""

    def to_representation(self, value):
        return value.isoformat()


class MonthField(serializers.RegexField):
    """A month (the date of its first day) as YYYY-MM."""

    def __init__(self, **kwargs):
        super().__init__(r"^\d{4}-\d{2}$", help_text="YYYY-MM", **kwargs)

    def to_representation(self, value):
        return value.strftime("%Y-%m")


class NumberField(serializers.FloatField):
    """A number: a whole one stays whole (a count), any other is a float."""

    def to_representation(self, value):
        return value if isinstance(value, int) else float(value)


class RoundedFloatField(serializers.FloatField):
    """A float shown to `places` decimal places."""

    def __init__(self, *, places: int, **kwargs):
        super().__init__(**kwargs)
        self.places = places

    def to_representation(self, value):
        return round(float(value), self.places)


class _ShownCountField(serializers.IntegerField):
    """An event's count, null while the event hides its latest results (record_shown)."""

    def get_attribute(self, event):
        return super().get_attribute(event) if event.record_shown else None


class FigureOutputSerializer(serializers.Serializer):
    key = serializers.ChoiceField(
        choices=[
            "hands_won", "knocks", "gins", "big_gins", "undercuts_given",
            "undercuts_suffered", "knock_deadwood", "caught_deadwood", "boxes", "shutouts",
            "shut_out", "sets", "runs", "layoffs_against",
        ]
    )  # fmt: skip
    label = serializers.CharField()
    value = NumberField(allow_null=True, help_text="Null: nothing to rest on.")
    count = serializers.IntegerField(allow_null=True, help_text="The count behind a rate.")
    basis = serializers.IntegerField(help_text="How many hands (or games) it rests on.")
    unit = serializers.CharField(help_text="What the basis counts: hands, knocks, games...")
    kind = serializers.ChoiceField(choices=["per100", "percent", "average", "count"])
    minimum = serializers.IntegerField()
    enough = serializers.BooleanField(help_text="False: resting on fewer than the minimum.")
    whole = serializers.IntegerField(
        allow_null=True, help_text="What a percentage is of, when not the basis (melds)."
    )
    text = serializers.CharField(help_text="The value in words, as the page shows it.")


class PlayerEventOutputSerializer(serializers.Serializer):
    name = serializers.CharField()
    date = serializers.DateField()
    state = serializers.CharField()
    path = serializers.CharField(help_text="The event's public page.")
    record_shown = serializers.BooleanField(
        help_text="False while the event hides its latest results from this viewer."
    )
    won = _ShownCountField(allow_null=True)
    lost = _ShownCountField(allow_null=True)
    drawn = _ShownCountField(allow_null=True)
    byes = _ShownCountField(allow_null=True)
    undecided = _ShownCountField(allow_null=True)


class ForAgainstOutputSerializer(serializers.Serializer):
    """A count for the player and against them (from a (for, against) pair, or from two
    attributes of the object named by `pair`)."""

    def __init__(self, *args, pair: tuple[str, str] | None = None, shown=None, **kwargs):
        # `shown(object)`: false while the object's figures are hidden from this viewer
        # (then null).
        if pair is not None:
            kwargs["source"] = "*"
        super().__init__(*args, **kwargs)
        self.pair, self.shown = pair, shown

    def get_attribute(self, instance):
        if self.shown is not None and not self.shown(instance):
            return None
        return super().get_attribute(instance)

    def get_fields(self):
        # "for" is a Python keyword: declared here rather than as a class attribute.
        return {"for": serializers.IntegerField(), "against": serializers.IntegerField()}

    def to_representation(self, instance):
        own, their = instance if self.pair is None else (getattr(instance, a) for a in self.pair)
        return super().to_representation({"for": own, "against": their})


def _result_shown(line) -> bool:
    return line.result != "hidden"


class HeadToHeadOpponentOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="opponent_id")
    name = serializers.CharField(source="opponent")


class HeadToHeadOutputSerializer(serializers.Serializer):
    opponent = HeadToHeadOpponentOutputSerializer(source="*")
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    games = ForAgainstOutputSerializer(pair=("games_for", "games_against"))
    points = ForAgainstOutputSerializer(pair=("points_for", "points_against"))


# Reads scoring.stats.MatchLine.
class PlayerMatchOutputSerializer(serializers.Serializer):
    """A line of a player's matches."""

    id = serializers.IntegerField(source="match.pk")
    started = IsoformatField(source="match.created_at")
    opponent = PlayerRefOutputSerializer()
    state = serializers.ChoiceField(source="match.state", choices=Match.State.choices)
    result = serializers.CharField(
        help_text="won, lost, the match's state while undecided, or hidden (the event "
        "hides it from this viewer for now)."
    )
    games = ForAgainstOutputSerializer(allow_null=True, shown=_result_shown)
    points = ForAgainstOutputSerializer(allow_null=True, shown=_result_shown)
    place = serializers.CharField(
        allow_blank=True, help_text="Event, round and table; blank for a club match."
    )
    rating_change = serializers.FloatField(
        allow_null=True, help_text="The player's rating after the match minus before it."
    )


class MonthResultsOutputSerializer(serializers.Serializer):
    month = MonthField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()


# Reads a (deadwood, knocks) pair.
class DeadwoodCountOutputSerializer(serializers.Serializer):
    """Knocks made with one deadwood count."""

    deadwood = serializers.IntegerField()
    knocks = serializers.IntegerField()

    def to_representation(self, instance):
        deadwood, knocks = instance
        return super().to_representation({"deadwood": deadwood, "knocks": knocks})


# Reads scoring.models.Rating.
class RatingOutputSerializer(serializers.Serializer):
    """A club rating."""

    rating = RoundedFloatField(
        source="ordinal", places=2, help_text="mu − 3 sigma: what lists show and sort by."
    )
    mu = RoundedFloatField(places=3, help_text="The estimate of the player's strength.")
    sigma = RoundedFloatField(places=3, help_text="Its uncertainty.")
    matches = serializers.IntegerField(help_text="Rated matches played.")
    computed_at = IsoformatField()


# Reads scoring.stats.RankedRating.
class RatedPlayerOutputSerializer(RatingOutputSerializer):
    """A line of the club's rated list."""

    rank = serializers.IntegerField()
    player = PlayerRefOutputSerializer()


class RatingMonthOutputSerializer(serializers.Serializer):
    month = MonthField()
    rating = serializers.FloatField(
        help_text="The club rating after the player's last rated match of the month."
    )
    matches = serializers.IntegerField(help_text="Rated matches the player started that month.")


# Reads scoring.stats.PlayerRecord.
class PlayerRecordOutputSerializer(serializers.Serializer):
    """A player's record."""

    player = PlayerOfClubOutputSerializer()
    minimums = MinimumsOutputSerializer(source="*")
    hands = serializers.IntegerField(help_text="Confirmed hands the figures come from.")
    games = serializers.IntegerField(help_text="Finished games.")
    figures = FigureOutputSerializer(many=True)
    events = PlayerEventOutputSerializer(many=True)
    head_to_head = HeadToHeadOutputSerializer(many=True)
    matches = PlayerMatchOutputSerializer(many=True)
    months = MonthResultsOutputSerializer(many=True)
    knock_deadwood = DeadwoodCountOutputSerializer(source="deadwood", many=True)
    rating = RatingOutputSerializer(allow_null=True, help_text="Null until rated.")
    rating_history = RatingMonthOutputSerializer(
        source="rating_months",
        many=True,
        help_text="The rating month by month, oldest first (the chart's figures).",
    )
