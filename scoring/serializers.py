"""API input shapes. Serializers check shape; the rules engine checks the game."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import serializers

from ginclub.inputs import INT_MAX, SMALL_MAX, id_field, whole_field
from scoring.models import Game, Hand, Match, Seat


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know instead of silently ignoring them."""

    def validate(self, attrs):
        unknown = sorted(set(self.initial_data) - set(self.fields))
        if unknown:
            raise serializers.ValidationError({name: _("unknown field") for name in unknown})
        return attrs


class HandFieldsSerializer(StrictSerializer):
    game = whole_field(1, SMALL_MAX)
    number = whole_field(1, SMALL_MAX)
    outcome = serializers.ChoiceField(choices=["knock", "gin", "big_gin", "dead"])
    knocker = serializers.ChoiceField(choices=["A", "B"], required=False, allow_blank=True)
    # The engine checks deadwood (and says what is wrong); the bound keeps it storable.
    knocker_deadwood = whole_field(-SMALL_MAX, SMALL_MAX, required=False, allow_null=True)
    defender_deadwood = whole_field(-SMALL_MAX, SMALL_MAX, required=False, allow_null=True)
    knocker_cards = serializers.ListField(
        child=serializers.CharField(max_length=4), max_length=11, required=False
    )
    defender_cards = serializers.ListField(
        child=serializers.CharField(max_length=4), max_length=10, required=False
    )
    knocker_melds = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(max_length=4), max_length=11),
        max_length=4,
        required=False,
        allow_null=True,
    )
    layoffs = serializers.ListField(
        child=serializers.CharField(max_length=4), max_length=10, required=False, allow_null=True
    )
    upcard = serializers.CharField(max_length=4, required=False, allow_blank=True)


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


class DisputeSerializer(VersionedSerializer):
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


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


def _seat(**options) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=Seat.choices, **options)


class SeatNumbersSerializer(serializers.Serializer):
    """A number for each seat."""

    A = serializers.IntegerField()
    B = serializers.IntegerField()


class SeatNamesSerializer(serializers.Serializer):
    """A player's name for each seat."""

    A = serializers.CharField()
    B = serializers.CharField()


class MatchListItemOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.SlugField()
    player_a = serializers.CharField(help_text="Seat A's player name.")
    player_b = serializers.CharField(help_text="Seat B's player name.")
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


class HandOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField(help_text="The game's number in the match.")
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
    """The engine's result of a finished game."""

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

    summary = serializers.CharField(allow_blank=True, help_text="Blank until finished.")
    totals = GameTotalsWordsSerializer(help_text="Each total as its sum ('so far' while played).")


class GameOutputSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    state = serializers.ChoiceField(choices=GAME_STATES)
    first_dealer = _seat()
    winner = _seat(allow_null=True)
    hand_points = SeatNumbersSerializer()
    totals = SeatNumbersSerializer(help_text="With the game and box bonuses once finished.")
    breakdown = GameBreakdownOutputSerializer(
        allow_null=True, help_text="Null until the game is finished."
    )
    explanation = serializers.CharField(allow_blank=True, help_text="Blank until finished.")
    words = GameWordsOutputSerializer()
    hands = HandOutputSerializer(many=True)


class MatchPlayerOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class MatchPlayersOutputSerializer(serializers.Serializer):
    A = MatchPlayerOutputSerializer()
    B = MatchPlayerOutputSerializer()


class MatchOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.SlugField()
    players = MatchPlayersOutputSerializer()
    # Free-form on purpose: the frozen rule profile (scoring.rules.profiles), whose
    # options are the engine's and documented in docs/rules.md, not an API shape.
    rules = serializers.DictField(help_text="The frozen rule profile, options included.")
    agreement = serializers.ChoiceField(choices=Match.Agreement.values)
    state = serializers.ChoiceField(choices=MATCH_STATES)
    winner = _seat(allow_null=True)
    games_won = SeatNumbersSerializer()
    points = SeatNumbersSerializer()
    next_dealer = _seat(allow_null=True, help_text="Null once the match is over.")
    current_game = serializers.IntegerField(allow_null=True)
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
    """Double entry: each field where the two entries disagree, as [first, second]."""

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
        help_text="Only when a double entry disagrees with the first one (hand disputed).",
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


class PreviewOutputSerializer(serializers.Serializer):
    preview = HandResultOutputSerializer()


class SeatOutputSerializer(serializers.Serializer):
    seat = _seat()
    player = serializers.CharField(help_text="The player's name.")


class LedgerBreakOutputSerializer(serializers.Serializer):
    chain = serializers.CharField()
    position = serializers.IntegerField()
    row = serializers.IntegerField(allow_null=True, help_text="The ledger row's id.")
    problem = serializers.CharField()


class LedgerVerifyOutputSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    breaks = LedgerBreakOutputSerializer(many=True)


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
    before = HandSnapshotOutputSerializer()
    after = HandSnapshotOutputSerializer()


class MatchResultOutputSerializer(serializers.Serializer):
    """A match's result as the standings read it."""

    state = serializers.ChoiceField(choices=MATCH_STATES)
    winner = _seat(allow_null=True, help_text="Null while the match is undecided.")
    games_won = SeatNumbersSerializer()
    points = SeatNumbersSerializer()


class ResultChangeOutputSerializer(serializers.Serializer):
    before = MatchResultOutputSerializer()
    after = MatchResultOutputSerializer()
    changed = serializers.BooleanField()


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


class CorrectionPreviewOutputSerializer(serializers.Serializer):
    """What a correction or void would do; nothing is written."""

    action = serializers.ChoiceField(choices=["correct", "void"])
    hand = HandChangeOutputSerializer()
    result = ResultChangeOutputSerializer()
    tournament = TournamentConsequenceOutputSerializer(
        allow_null=True,
        help_text="Null unless the match is played in a closed round of a tournament and "
        "its result changes.",
    )


# ------------------------------------------------------------- a player's record


class PlayerRefOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class PlayerOfClubOutputSerializer(PlayerRefOutputSerializer):
    club = serializers.SlugField()


class MinimumsOutputSerializer(serializers.Serializer):
    hands = serializers.IntegerField(help_text="Figures from fewer hands are marked too few.")
    games = serializers.IntegerField(help_text="The same for figures from games.")


class FigureOutputSerializer(serializers.Serializer):
    key = serializers.ChoiceField(
        choices=[
            "hands_won", "knocks", "gins", "big_gins", "undercuts_given",
            "undercuts_suffered", "knock_deadwood", "caught_deadwood", "boxes", "shutouts",
            "shut_out", "sets", "runs", "layoffs_against",
        ]
    )  # fmt: skip
    label = serializers.CharField()
    value = serializers.FloatField(allow_null=True, help_text="Null: nothing to rest on.")
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
    won = serializers.IntegerField(allow_null=True)
    lost = serializers.IntegerField(allow_null=True)
    drawn = serializers.IntegerField(allow_null=True)
    byes = serializers.IntegerField(allow_null=True)
    undecided = serializers.IntegerField(allow_null=True)


class ForAgainstOutputSerializer(serializers.Serializer):
    def get_fields(self):
        # "for" is a Python keyword: declared here rather than as a class attribute.
        return {"for": serializers.IntegerField(), "against": serializers.IntegerField()}


class HeadToHeadOutputSerializer(serializers.Serializer):
    opponent = PlayerRefOutputSerializer()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    games = ForAgainstOutputSerializer()
    points = ForAgainstOutputSerializer()


class PlayerMatchOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    started = serializers.DateTimeField()
    opponent = PlayerRefOutputSerializer()
    state = serializers.ChoiceField(choices=Match.State.choices)
    result = serializers.CharField(
        help_text="won, lost, the match's state while undecided, or hidden (the event "
        "hides it from this viewer for now)."
    )
    games = ForAgainstOutputSerializer(allow_null=True)
    points = ForAgainstOutputSerializer(allow_null=True)
    place = serializers.CharField(
        allow_blank=True, help_text="Event, round and table; blank for a club match."
    )
    rating_change = serializers.FloatField(
        allow_null=True, help_text="The player's rating after the match minus before it."
    )


class MonthResultsOutputSerializer(serializers.Serializer):
    month = serializers.RegexField(r"^\d{4}-\d{2}$", help_text="YYYY-MM")
    won = serializers.IntegerField()
    lost = serializers.IntegerField()


class DeadwoodCountOutputSerializer(serializers.Serializer):
    deadwood = serializers.IntegerField()
    knocks = serializers.IntegerField()


class RatingOutputSerializer(serializers.Serializer):
    rating = serializers.FloatField(help_text="mu − 3 sigma: what lists show and sort by.")
    mu = serializers.FloatField(help_text="The estimate of the player's strength.")
    sigma = serializers.FloatField(help_text="Its uncertainty.")
    matches = serializers.IntegerField(help_text="Rated matches played.")
    computed_at = serializers.DateTimeField()


class RatedPlayerOutputSerializer(RatingOutputSerializer):
    rank = serializers.IntegerField()
    player = PlayerRefOutputSerializer()


class RatingMonthOutputSerializer(serializers.Serializer):
    month = serializers.RegexField(r"^\d{4}-\d{2}$", help_text="YYYY-MM")
    rating = serializers.FloatField(
        help_text="The club rating after the player's last rated match of the month."
    )
    matches = serializers.IntegerField(help_text="Rated matches the player started that month.")


class PlayerRecordOutputSerializer(serializers.Serializer):
    player = PlayerOfClubOutputSerializer()
    minimums = MinimumsOutputSerializer()
    hands = serializers.IntegerField(help_text="Confirmed hands the figures come from.")
    games = serializers.IntegerField(help_text="Finished games.")
    figures = FigureOutputSerializer(many=True)
    events = PlayerEventOutputSerializer(many=True)
    head_to_head = HeadToHeadOutputSerializer(many=True)
    matches = PlayerMatchOutputSerializer(many=True)
    months = MonthResultsOutputSerializer(many=True)
    knock_deadwood = DeadwoodCountOutputSerializer(many=True)
    rating = RatingOutputSerializer(allow_null=True, help_text="Null until rated.")
    rating_history = RatingMonthOutputSerializer(
        many=True, help_text="The rating month by month, oldest first (the chart's figures)."
    )
