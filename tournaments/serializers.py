"""API input and output shapes for tournaments. Serializers check shape; the services
check everything else (and name the problem)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.urls import reverse
from rest_framework import serializers

from ginclub.inputs import bool_field, check_date, date_field, id_field, whole_field
from scoring.models import Match, Seat
from scoring.serializers import (
    GAME_STATES,
    HAND_OUTCOMES,
    MATCH_STATES,
    CallOutputSerializer,
    RoundedFloatField,
    SeatNamesSerializer,
    SeatNumbersSerializer,
    StandingMoveOutputSerializer,
    StrictSerializer,
    With,
    read_by,
)
from tournaments import selectors, translated
from tournaments.models import Job, Round, Season, SignUp, Tournament
from tournaments.pairing import FIGURES, RATIO_PLACES, RATIOS, TIEBREAKS

# The follow-on settings (tournaments.rule_guide.FOLLOW_ON), docs/rules.md §10.
FITTED = (
    "Null, or absent when creating: fitted to the rules. Absent when updating: kept, or "
    "re-fitted when the profile or overrides change and it held the old rules' value."
)


class SettingsSerializer(StrictSerializer):
    """Tournament settings; every field optional (only those sent are changed)."""

    name = serializers.CharField(max_length=120, required=False)
    date = date_field(required=False)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    profile = serializers.CharField(
        max_length=20,
        required=False,
        help_text="Rule profile: standard, tournament, classic, oklahoma, straight, school "
        "or hollywood.",
    )
    # Free-form on purpose: rule options (scoring.rules.profiles), the engine's and
    # documented in docs/rules.md, checked by the engine rather than shaped here.
    overrides = serializers.DictField(
        required=False, help_text="Rule options overriding the profile."
    )
    format = serializers.ChoiceField(choices=Tournament.Format.choices, required=False)
    rounds = whole_field(required=False, help_text="Swiss rounds.")
    cut_size = whole_field(required=False, help_text="Top cut: 0, 4 or 8.")
    round_minutes = whole_field(
        required=False,
        allow_null=True,
        help_text=f"Default: as long as the rules suggest. {FITTED}",
    )
    first_round = serializers.ChoiceField(
        choices=Tournament.FirstRound.choices,
        required=False,
        help_text="How round 1 of a Swiss is paired (default random: a recorded draw; "
        "rating: by club rating, the unrated after the rated).",
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAKS), required=False, max_length=len(TIEBREAKS)
    )
    bye_games = whole_field(
        required=False,
        allow_null=True,
        help_text=f"Games a bye counts as won. Default: a whole match (games_to_win). {FITTED}",
    )
    bye_points = whole_field(required=False)
    agreement = serializers.ChoiceField(choices=Match.Agreement.values, required=False)
    hide_standings_during_round = bool_field(required=False)
    hide_last_rounds = whole_field(required=False)
    public = bool_field(required=False)
    language = serializers.ChoiceField(
        choices=[code for code, _name in settings.LANGUAGES],
        required=False,
        allow_blank=True,
        help_text="The event's language: printed table cards, score sheets and standings "
        "use it. Blank: the language of whoever prints them.",
    )
    check_in_required = bool_field(required=False)


class CreateTournamentSerializer(SettingsSerializer):
    club = serializers.SlugField()
    name = serializers.CharField(max_length=120)
    date = serializers.DateField()


# Reads the Tournament, with its club.
class TournamentSerializer(serializers.Serializer):
    """A tournament and its settings."""

    id = serializers.IntegerField()
    slug = serializers.SlugField()
    club = serializers.SlugField(source="club.slug")
    name = serializers.CharField()
    date = serializers.DateField()
    venue = serializers.CharField()
    profile = serializers.CharField()
    # Free-form on purpose: rule options (scoring.rules.profiles), the engine's and
    # documented in docs/rules.md, checked by the engine rather than shaped here.
    overrides = serializers.DictField()
    rules = serializers.DictField(allow_null=True, help_text="Frozen once round 1 is published.")
    format = serializers.CharField()
    rounds = serializers.IntegerField()
    cut_size = serializers.IntegerField()
    round_minutes = serializers.IntegerField()
    first_round = serializers.CharField(
        help_text="random, seed, rating or list (round 1 of a Swiss)."
    )
    tiebreaks = read_by(
        serializers.ListField,
        lambda tournament, _context: list(selectors.tiebreaks_of(tournament)),
        child=serializers.CharField(),
    )
    bye_games = serializers.IntegerField()
    bye_points = serializers.IntegerField()
    agreement = serializers.CharField()
    hide_standings_during_round = serializers.BooleanField()
    hide_last_rounds = serializers.IntegerField()
    public = serializers.BooleanField()
    language = serializers.CharField(
        allow_blank=True, help_text="The event's language (blank: none chosen)."
    )
    check_in_required = serializers.BooleanField()
    state = serializers.CharField()
    rounds_planned = read_by(
        serializers.IntegerField, lambda tournament, _context: selectors.rounds_planned(tournament)
    )


class AddRegistrationSerializer(StrictSerializer):
    name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    player_id = id_field(required=False, help_text="An existing club player.")
    email = serializers.CharField(max_length=254, required=False, allow_blank=True)
    member_id = serializers.CharField(max_length=100, required=False, allow_blank=True)
    seed = whole_field(required=False, allow_null=True)


# Reads the Registration, with its player.
class RegistrationSerializer(serializers.Serializer):
    """A registration."""

    id = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    email = serializers.CharField(source="player.email")
    member_id = serializers.CharField(source="player.member_id")
    seed = serializers.IntegerField(allow_null=True)
    checked_in = serializers.BooleanField()
    late = serializers.BooleanField()
    withdrawn = serializers.BooleanField()


# Reads a Registration `With` the `rating` it was seeded by.
class SeededRegistrationOutputSerializer(RegistrationSerializer):
    rating = serializers.FloatField(
        allow_null=True, help_text="The club rating it was seeded by; null: unrated."
    )


class ImportCsvSerializer(StrictSerializer):
    file = serializers.FileField(required=False, help_text="The CSV file (multipart).")
    csv = serializers.CharField(
        required=False, trim_whitespace=False, help_text="Or the CSV text itself (JSON)."
    )


class CheckInSerializer(StrictSerializer):
    checked_in = bool_field(default=True)


class SeedSerializer(StrictSerializer):
    seed = whole_field(allow_null=True)


class OptionalReasonSerializer(StrictSerializer):
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class RequiredReasonSerializer(StrictSerializer):
    reason = serializers.CharField(max_length=500)


class RulesChangeSerializer(StrictSerializer):
    profile = serializers.CharField(max_length=20)
    # Free-form on purpose: rule options (scoring.rules.profiles), the engine's and
    # documented in docs/rules.md, checked by the engine rather than shaped here.
    overrides = serializers.DictField(required=False, default=dict)
    from_round = whole_field(
        1,
        required=False,
        allow_null=True,
        default=None,
        help_text="Apply the new rules from this round on: earlier rounds keep the rules "
        "they were played under. Null or absent: the whole event is re-scored. May be "
        "the next round to be published (then nothing is re-scored).",
    )


class ApplyRulesSerializer(RulesChangeSerializer):
    reason = serializers.CharField(max_length=500)


class SwapSerializer(StrictSerializer):
    first = id_field(help_text="A registration id.")
    second = id_field(help_text="A registration id.")
    reason = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")


class FixPairingSerializer(StrictSerializer):
    player_a = id_field(help_text="A registration id.")
    player_b = id_field(allow_null=True, help_text="A registration id, or null for the bye.")
    reason = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")


class TimerSerializer(StrictSerializer):
    minutes = whole_field(required=False, allow_null=True, default=None)


class TimePolicySerializer(StrictSerializer):
    pairing_ids = serializers.ListField(
        child=id_field(),
        required=False,
        allow_null=True,
        default=None,
        max_length=1000,
        help_text="Only these tables (default: all).",
    )


class ExtendTableSerializer(StrictSerializer):
    """More time for one table (docs/rules.md §13): minutes or hands, not both."""

    minutes = whole_field(
        1, 120, required=False, allow_null=True, default=None, help_text="Minutes more."
    )
    hands = whole_field(
        1, 9, required=False, allow_null=True, default=None, help_text="More hands."
    )
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class ResultSerializer(StrictSerializer):
    winner = serializers.ChoiceField(choices=["A", "B"])
    reason = serializers.CharField(max_length=500)
    games_a = whole_field(required=False, allow_null=True, default=None)
    games_b = whole_field(required=False, allow_null=True, default=None)
    points_a = whole_field(required=False, allow_null=True, default=None)
    points_b = whole_field(required=False, allow_null=True, default=None)


# ------------------------------------------------------------------ output shapes
# What the endpoints return (HackSoft's OutputSerializer pattern), key for key as the
# selectors and services build it; tests/test_api_outputs.py keeps the two in step.

TABLE_STATES = ["playing", "pending", "disputed", "finished", "bye"]  # selectors.TableState
ROUND_STATES = Round.State.choices  # named in ENUM_NAME_OVERRIDES, as TABLE_STATES


class ImportRowOutputSerializer(serializers.Serializer):
    line = serializers.IntegerField(help_text="Line number in the CSV file.")
    name = serializers.CharField(allow_blank=True)
    accepted = serializers.BooleanField()
    reason = serializers.CharField(help_text="What happened to the row, in words.")
    code = read_by(
        serializers.CharField,
        lambda row, _context: row.code or None,
        allow_null=True,
        help_text="Why it was refused (error code).",
    )
    registration = serializers.IntegerField(
        source="registration_id",
        allow_null=True,
        help_text="The registration made (accepted rows).",
    )


# Reads tournaments.services.ImportReport.
class ImportReportOutputSerializer(serializers.Serializer):
    accepted = read_by(
        serializers.IntegerField,
        lambda report, _context: len(report.accepted),
        help_text="How many rows were registered.",
    )
    refused = read_by(
        serializers.IntegerField,
        lambda report, _context: len(report.refused),
        help_text="How many rows were refused.",
    )
    ignored_columns = serializers.ListField(child=serializers.CharField())
    rows = ImportRowOutputSerializer(many=True)


class RescoredHandSummarySerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=HAND_OUTCOMES)
    points = serializers.IntegerField()
    winner = serializers.ChoiceField(choices=Seat.choices, allow_null=True)
    knocker_deadwood = serializers.IntegerField(allow_null=True)
    defender_deadwood = serializers.IntegerField(allow_null=True)


class RescoredHandOutputSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    hand = serializers.IntegerField(help_text="The hand's number in its game.")
    before = RescoredHandSummarySerializer()
    after = RescoredHandSummarySerializer()


class RescoredGameSummarySerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=GAME_STATES)
    winner = serializers.ChoiceField(choices=Seat.choices, allow_null=True)
    totals = SeatNumbersSerializer()


class RescoredGameOutputSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    before = RescoredGameSummarySerializer(allow_null=True, help_text="Null: a new game.")
    after = RescoredGameSummarySerializer(allow_null=True, help_text="Null: the game is gone.")


class RescoredMatchSummarySerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=MATCH_STATES)
    winner = serializers.ChoiceField(choices=Seat.choices, allow_null=True)
    games_won = SeatNumbersSerializer()
    points = SeatNumbersSerializer()


class RescoredMatchOutputSerializer(serializers.Serializer):
    pairing = serializers.IntegerField()
    round = serializers.IntegerField(help_text="The round's number.")
    table = serializers.IntegerField(allow_null=True)
    match = serializers.IntegerField()
    players = SeatNamesSerializer()
    hands = RescoredHandOutputSerializer(many=True, help_text="Hands whose score changes.")
    games = RescoredGameOutputSerializer(many=True, help_text="Games whose result changes.")
    before = RescoredMatchSummarySerializer()
    after = RescoredMatchSummarySerializer()


# Reads tournaments.services.RulesChange.
class RulesChangeOutputSerializer(serializers.Serializer):
    applied = serializers.BooleanField(help_text="False for a preview (nothing was saved).")
    from_round = serializers.IntegerField(help_text="The first round the rules apply to (1: all).")
    rounds_rescored = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Published rounds from from_round on, whose matches are re-scored.",
    )
    rounds_kept = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Published rounds before from_round: they keep the rules they were played under.",
    )
    options = serializers.DictField(
        child=serializers.ListField(child=serializers.JSONField(), min_length=2, max_length=2),
        help_text="Each rule option that changes: [before, after].",
    )
    settings = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        help_text="Tournament settings that follow the rules and change: [before, after] "
        "(bye_games, never more than games_to_win).",
    )
    # Free-form on purpose: whole rule profiles (scoring.rules.profiles), the engine's
    # options as documented in docs/rules.md, not an API shape.
    rules_before = serializers.DictField()
    rules_after = serializers.DictField()
    hands_changed = serializers.IntegerField()
    games_changed = serializers.IntegerField()
    results_changed = serializers.IntegerField()
    matches = RescoredMatchOutputSerializer(many=True, help_text="Matches that change.")
    standings = StandingMoveOutputSerializer(many=True, help_text="Lines that change.")


class RoundSummaryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    stage = serializers.ChoiceField(choices=Round.Stage.choices)
    state = serializers.ChoiceField(choices=ROUND_STATES)


# Reads tournaments.selectors.Clock.
class ClockOutputSerializer(serializers.Serializer):
    """A round's clock, its times in UTC."""

    started_at = serializers.DateTimeField(allow_null=True, default_timezone=dt.UTC)
    ends_at = serializers.DateTimeField(allow_null=True, default_timezone=dt.UTC)
    time_called = serializers.BooleanField()
    seconds_left = serializers.IntegerField(
        allow_null=True, help_text="Null: no timer; 0 once time is called."
    )


# Reads the Registration, with its player.
class TableSeatOutputSerializer(serializers.Serializer):
    """A player at a table."""

    registration = serializers.IntegerField(source="pk")
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")


def _table_state(row, context) -> str:
    """The public sees a table whose hands wait (pending, disputed) as playing."""
    hidden = (selectors.TableState.PENDING, selectors.TableState.DISPUTED)
    if context.get("public") and row.state in hidden:
        return selectors.TableState.PLAYING
    return row.state


def _result_reason(row, _context) -> str:
    match = row.pairing.match
    return translated.reason_text(match.decision_reason if match else row.pairing.reason)


# Reads tournaments.selectors.TableRow; context `public`: as the public sees it.
class PublicTableOutputSerializer(serializers.Serializer):
    """One pairing of a round as the public sees it (pending and disputed show as
    playing)."""

    pairing = serializers.IntegerField(source="pairing.pk")
    table = serializers.IntegerField(
        source="pairing.table", allow_null=True, help_text="Null for a bye."
    )
    position = serializers.IntegerField(source="pairing.position")
    player_a = TableSeatOutputSerializer(source="pairing.player_a")
    player_b = TableSeatOutputSerializer(
        source="pairing.player_b", allow_null=True, help_text="Null for a bye."
    )
    reason = read_by(
        serializers.CharField,
        lambda row, _context: translated.reason_text(row.pairing.reason),
        allow_blank=True,
        help_text="Why it was paired so, if fixed.",
    )
    match = serializers.IntegerField(source="pairing.match_id", allow_null=True)
    state = read_by(serializers.ChoiceField, _table_state, choices=TABLE_STATES)
    games_won = SeatNumbersSerializer(
        seats=("pairing.match.games_won_a", "pairing.match.games_won_b")
    )
    winner = serializers.CharField(
        source="winner_name", allow_null=True, help_text="The winner's name."
    )
    current_game = serializers.IntegerField(allow_null=True)
    current_points = SeatNumbersSerializer(help_text="Hand points in the current game.")
    play = read_by(
        serializers.ChoiceField,
        lambda row, _context: (row.play.state or None) if row.play_words else None,
        choices=["last_hand", "extended", "time_up"],
        allow_null=True,
        help_text="After time is called (docs/rules.md §13), an unfinished table: finishing "
        "the hand in play, playing on extra minutes, or time up (no new hand; the time "
        "policy decides). Null before the call and once decided.",
    )
    play_words = serializers.CharField(
        allow_blank=True, help_text="The same in words with names, as the phones show it."
    )


class TableOutputSerializer(PublicTableOutputSerializer):
    """One pairing of a round as its organisers see it."""

    pending = serializers.IntegerField(help_text="Hands waiting for confirmation.")
    disputed = serializers.IntegerField(help_text="Disputed hands.")
    resolved = serializers.BooleanField(
        source="pairing.resolved", help_text="Decided by an organiser's result."
    )
    # An organiser's reasons may be private ("left ill").
    result_reason = read_by(serializers.CharField, _result_reason, allow_blank=True)


class ViewerTableOutputSerializer(PublicTableOutputSerializer):
    """One pairing of a round: the organiser-only keys come to organisers only (not with
    the context's `public`)."""

    pending = serializers.IntegerField(required=False, help_text="Organisers only.")
    disputed = serializers.IntegerField(required=False, help_text="Organisers only.")
    resolved = serializers.BooleanField(
        source="pairing.resolved", required=False, help_text="Organisers only."
    )
    result_reason = read_by(
        serializers.CharField,
        _result_reason,
        required=False,
        allow_blank=True,
        help_text="Organisers only.",
    )

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if self.context.get("public"):
            for name in ORGANISERS_ONLY:
                data.pop(name)
        return data


ORGANISERS_ONLY = sorted(
    TableOutputSerializer._declared_fields.keys() - PublicTableOutputSerializer._declared_fields
)


# Reads tournaments.selectors.RoundView.
class _RoundViewSerializer(serializers.Serializer):
    """A round with its clock."""

    id = serializers.IntegerField(source="round.pk")
    number = serializers.IntegerField(source="round.number")
    stage = serializers.ChoiceField(source="round.stage", choices=Round.Stage.choices)
    state = serializers.ChoiceField(source="round.state", choices=ROUND_STATES)
    clock = ClockOutputSerializer()


class RoundOutputSerializer(_RoundViewSerializer):
    """A round with its tables, as its organisers see it."""

    pairings = TableOutputSerializer(source="tables", many=True)


class ViewerRoundOutputSerializer(_RoundViewSerializer):
    """A round with its tables, for anyone who may see it (organisers see more keys;
    context `public`: as the public sees it)."""

    pairings = ViewerTableOutputSerializer(source="tables", many=True)


# Reads the Pairing, with its match.
class TimePolicySettledOutputSerializer(serializers.Serializer):
    """A table the time policy decided."""

    pairing = serializers.IntegerField(source="pk")
    table = serializers.IntegerField(allow_null=True)
    winner = serializers.ChoiceField(
        source="match.winner", choices=Seat.choices, allow_blank=True, help_text="Blank: a draw."
    )
    reason = serializers.CharField(source="match.decision_reason")


# Reads a (Pairing, why) pair.
class TimePolicyWaitingOutputSerializer(serializers.Serializer):
    """A table the time policy left."""

    pairing = serializers.IntegerField(source="pk")
    table = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(
        source="why", help_text="Why the table was left to play on or decide."
    )

    def to_representation(self, instance):
        pairing, why = instance
        return super().to_representation(With(pairing, why=why))


# Reads tournaments.services.results.TimeReport.
class TimePolicyOutputSerializer(serializers.Serializer):
    settled = TimePolicySettledOutputSerializer(many=True)
    waiting = TimePolicyWaitingOutputSerializer(many=True)


class TableCountsOutputSerializer(serializers.Serializer):
    playing = serializers.IntegerField()
    pending = serializers.IntegerField()
    disputed = serializers.IntegerField()
    finished = serializers.IntegerField()
    bye = serializers.IntegerField()


class PlayCountsOutputSerializer(serializers.Serializer):
    last_hand = serializers.IntegerField(help_text="Tables finishing the hand in play.")
    extended = serializers.IntegerField(help_text="Tables playing on extra minutes.")
    time_up = serializers.IntegerField(help_text="Tables whose time is up: the policy decides.")


# Reads tournaments.selectors.Dashboard.
class DashboardOutputSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="round.number", help_text="The round's number.")
    round_id = serializers.IntegerField(source="round.pk")
    state = serializers.ChoiceField(source="round.state", choices=ROUND_STATES)
    clock = ClockOutputSerializer()
    counts = TableCountsOutputSerializer(help_text="How many tables are in each state.")
    play_counts = PlayCountsOutputSerializer(help_text="After time is called.")
    can_close = serializers.BooleanField()
    tables = TableOutputSerializer(many=True)


# Reads a Pairing with its match and players; `request` in the context.
class TableLinkOutputSerializer(serializers.Serializer):
    pairing = serializers.IntegerField(source="pk")
    table = serializers.IntegerField(allow_null=True)
    players = read_by(
        serializers.ListField,
        lambda p, _context: [p.player_a.player.name, p.player_b.player.name],
        child=serializers.CharField(),
        min_length=2,
        max_length=2,
        help_text="[A, B] names.",
    )
    link = read_by(
        serializers.URLField,
        lambda p, context: context["request"].build_absolute_uri(selectors.table_path(p.match)),
        help_text="Signed, expiring: opens the match's entry page.",
    )
    qr = read_by(
        serializers.URLField,
        lambda p, context: context["request"].build_absolute_uri(
            reverse("api-table-qr", args=[p.pk])
        ),
        help_text="The link's QR code (SVG).",
    )


def _figure(name: str, label: str) -> serializers.Field:
    if name in RATIOS:
        return RoundedFloatField(source=f"standing.{name}", places=RATIO_PLACES, help_text=label)
    return serializers.IntegerField(source=f"standing.{name}", help_text=label)


# A standings line's figures (tournaments.pairing.FIGURES, declared there once), in a
# tournament's standings and a season's ladder alike: the instance is a line with its
# `standing` (selectors.StandingRow, selectors.LadderRow). (A comment, not a docstring:
# subclasses would carry it into the schema as their description.)
StandingFiguresSerializer = type(
    "StandingFiguresSerializer",
    (serializers.Serializer,),
    {
        **{name: _figure(name, label) for name, label in FIGURES},
        "head_to_head": serializers.CharField(allow_blank=True, help_text='e.g. "beat Alice".'),
        "tiebreaks": serializers.DictField(
            source="standing.tiebreaks",
            child=RoundedFloatField(places=RATIO_PLACES),
            help_text="Each configured tie-break's value by name.",
        ),
    },
)


class StandingOutputSerializer(StandingFiguresSerializer):
    rank = serializers.IntegerField(source="standing.rank")
    registration = serializers.IntegerField(source="standing.id")
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    withdrawn = serializers.BooleanField()
    late = serializers.BooleanField()
    head_to_head = read_by(
        serializers.CharField,
        lambda row, _context: selectors.in_reader_language(row.head_to_head),
        allow_blank=True,
        help_text='e.g. "beat Alice".',
    )
    why = read_by(
        serializers.CharField,
        lambda row, _context: selectors.in_reader_language(row.why),
        allow_blank=True,
        help_text="Why this line is where it is, against the lines above and below, in "
        'words: "Behind Ada on match wins: 2 against 3; ahead of Ben on game-win %: 7 of 11 '
        'against 6 of 11."',
    )


# Reads tournaments.selectors.StandingsView.
class StandingsOutputSerializer(serializers.Serializer):
    tournament = serializers.SlugField(source="tournament.slug")
    tiebreaks = serializers.ListField(child=serializers.ChoiceField(choices=TIEBREAKS))
    through_round = serializers.IntegerField(
        allow_null=True, help_text="Standings after this round (null: all rounds)."
    )
    rounds_played = serializers.IntegerField()
    rounds_closed = serializers.IntegerField(help_text="The last closed round counted.")
    caption = serializers.CharField(
        allow_blank=True, help_text='Which rounds these follow, in words ("After round 2.").'
    )
    hidden = serializers.BooleanField(help_text="Some rounds are hidden from the public.")
    note = serializers.CharField(allow_blank=True, help_text="What is hidden, and why.")
    rows = StandingOutputSerializer(many=True)


JOB_KINDS = Job.Kind.choices
JOB_STATES = Job.State.choices


class JobErrorOutputSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField(help_text="Why the job failed; it changed nothing.")


def _absolute(route: str):
    return lambda view, context: context["request"].build_absolute_uri(
        reverse(route, args=[view.job.pk])
    )


# Reads tournaments.services.jobs.JobView; `request` in the context.
class JobOutputSerializer(serializers.Serializer):
    """A background job (an archive import, a rules change): poll `url` until `state` is
    done or failed."""

    id = serializers.IntegerField(source="job.pk")
    kind = serializers.ChoiceField(choices=JOB_KINDS, source="job.kind")
    state = serializers.ChoiceField(choices=JOB_STATES, source="job.state")
    label = serializers.CharField()
    club = serializers.SlugField(source="job.club.slug")
    tournament = serializers.SlugField(
        source="job.tournament.slug",
        allow_null=True,
        help_text="The tournament changed, or created by an import once it is done.",
    )
    done = serializers.IntegerField(help_text="Matches imported or re-scored so far.")
    total = serializers.IntegerField()
    percent = serializers.IntegerField(min_value=0, max_value=100)
    error = JobErrorOutputSerializer(allow_null=True)
    # Free-form on purpose: what the work did, by kind (an import: tournament, name,
    # registrations, rounds, matches; a rules change: the preview's figures and options).
    result = serializers.DictField()
    url = read_by(serializers.CharField, _absolute("api-job"), help_text="This job in the API.")
    page = read_by(
        serializers.CharField,
        _absolute("tournaments:job"),
        help_text="This job's page, with its progress bar.",
    )
    created_at = serializers.DateTimeField(source="job.created_at")
    started_at = serializers.DateTimeField(source="job.started_at", allow_null=True)
    finished_at = serializers.DateTimeField(source="job.finished_at", allow_null=True)


# ------------------------------------------------------------------------- seasons


class SeasonSettingsSerializer(StrictSerializer):
    """A season's settings; every field optional (only those sent are changed). The
    services check the ranges and the chosen tournaments, and name the problem."""

    name = serializers.CharField(max_length=120, required=False)
    starts_on = date_field(required=False, help_text="The first day (YYYY-MM-DD).")
    ends_on = date_field(required=False, help_text="The last day, counted.")
    events = serializers.ChoiceField(
        choices=Season.Events.choices,
        required=False,
        help_text="all: every tournament of the club in the dates; chosen: only `tournaments`.",
    )
    tournaments = serializers.ListField(
        child=id_field(),
        required=False,
        max_length=1000,
        help_text="Tournament ids, with events 'chosen'; each in the season's dates.",
    )
    club_nights = bool_field(
        required=False, help_text="Club matches played outside any tournament count."
    )
    points_per_win = whole_field(required=False, help_text="1 to 1000 (default 1).")
    min_matches = whole_field(
        required=False, help_text="Matches to be ranked (default 0); fewer: listed after."
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAKS), required=False, max_length=len(TIEBREAKS)
    )
    public = bool_field(required=False, help_text="Anyone may read the ladder.")


class CreateSeasonSerializer(SeasonSettingsSerializer):
    name = serializers.CharField(max_length=120)
    starts_on = date_field(help_text="The first day (YYYY-MM-DD).")
    ends_on = date_field(help_text="The last day, counted.")


class SeasonTournamentOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


# Reads a Season.
class SeasonOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    slug = serializers.SlugField(help_text="Unique in the club; kept when renamed.")
    club = serializers.SlugField(source="club.slug")
    name = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    events = serializers.ChoiceField(choices=Season.Events.choices)
    tournaments = SeasonTournamentOutputSerializer(
        source="chosen_tournaments",
        many=True,
        help_text="The chosen tournaments (empty with events 'all').",
    )
    club_nights = serializers.BooleanField()
    points_per_win = serializers.IntegerField()
    min_matches = serializers.IntegerField()
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAKS),
        help_text="Empty: the tournaments' default order.",
    )
    public = serializers.BooleanField()


# Reads tournaments.selectors.seasons.CountedEvent.
class LadderEventOutputSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    date = serializers.DateField()
    counted = read_by(
        serializers.BooleanField,
        lambda event, _context: not event.waiting,
        help_text="False: it hides its last rounds from the public; it counts once finished.",
    )


class LadderRowOutputSerializer(StandingFiguresSerializer):
    rank = read_by(
        serializers.IntegerField,
        lambda row, _context: row.standing.rank if row.ranked else None,
        allow_null=True,
        help_text="Null when not ranked.",
    )
    ranked = serializers.BooleanField(help_text="At least the season's minimum of matches.")
    player = serializers.IntegerField(source="standing.id")
    name = serializers.CharField()
    season_points = serializers.IntegerField(help_text="points_per_win for each match won.")
    why = serializers.CharField(
        help_text="Why this line is where it is, in words (as in a tournament's standings)."
    )


# Reads tournaments.selectors.seasons.LadderView.
class LadderOutputSerializer(serializers.Serializer):
    season = serializers.SlugField(source="season.slug")
    club = serializers.SlugField(source="season.club.slug")
    name = serializers.CharField(source="season.name")
    starts_on = serializers.DateField(source="season.starts_on")
    ends_on = serializers.DateField(source="season.ends_on")
    points_per_win = serializers.IntegerField(source="season.points_per_win")
    min_matches = serializers.IntegerField(source="season.min_matches")
    tiebreaks = serializers.ListField(child=serializers.ChoiceField(choices=TIEBREAKS))
    tournaments = LadderEventOutputSerializer(source="events", many=True)
    club_nights = serializers.BooleanField(source="season.club_nights")
    tournament_matches = serializers.IntegerField(help_text="Counted tournament matches.")
    club_night_matches = serializers.IntegerField(help_text="Counted club-night matches.")
    up_to_date = read_by(
        serializers.BooleanField,
        lambda ladder, _context: ladder.stale_since is None,
        help_text="False: the last stored ladder, shown while a refresh brings it up to date.",
    )
    computed_at = serializers.DateTimeField(
        source="stale_since",
        allow_null=True,
        default_timezone=dt.UTC,
        help_text="When a ladder not up to date was computed (else null).",
    )
    rows = LadderRowOutputSerializer(many=True)


# ------------------------------------------------------------------------ the audit


class AuditExceptionOutputSerializer(serializers.Serializer):
    """One result not made by the two players agreeing (tournaments.selectors.audit)."""

    kind = serializers.ChoiceField(choices=list(selectors.audit.KINDS))
    kind_label = serializers.CharField(help_text="The kind in the reader's language.")
    at = serializers.DateTimeField()
    round = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    match_id = serializers.IntegerField(allow_null=True)
    players = serializers.CharField(help_text="Blank for a row of the event's own ledger.")
    hand = serializers.CharField(help_text="The hand concerned, or blank.")
    who = serializers.CharField(help_text="Who acted, as the ledger names them.")
    device = serializers.CharField(help_text="The device (browser) the change came from.")
    ip = serializers.CharField(help_text="The address it came from (blank: unknown).")
    why = serializers.CharField(help_text="The reason given.")
    before = serializers.CharField()
    after = serializers.CharField()
    ended = serializers.CharField(help_text="A dispute: how it ended (else blank).")
    chain = serializers.CharField()
    position = serializers.IntegerField()
    hash = serializers.CharField(help_text="The row's full hash.")
    prev_hash = serializers.CharField()
    broken = serializers.BooleanField(help_text="At or after the first row of its chain "
                                      "that does not verify: not to be trusted.")  # fmt: skip


class ChainBreakOutputSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    row_id = serializers.IntegerField(allow_null=True)
    problem = serializers.CharField()


class ChainCheckOutputSerializer(serializers.Serializer):
    chain = serializers.CharField()
    label = serializers.CharField()
    rows = serializers.IntegerField()
    match_id = serializers.IntegerField(allow_null=True)
    ok = serializers.BooleanField()
    broken = ChainBreakOutputSerializer(allow_null=True)
    differences = serializers.ListField(
        child=serializers.CharField(),
        help_text="What the match's hands, games or result say otherwise than its ledger.",
    )


class AuditFiltersOutputSerializer(serializers.Serializer):
    kind = serializers.CharField()
    round = serializers.IntegerField(allow_null=True)
    player = serializers.CharField()


class AuditOutputSerializer(serializers.Serializer):
    tournament = serializers.SlugField(source="tournament.slug")
    verified = serializers.BooleanField(help_text="Every chain of the event verifies.")
    checkpoint_problems = serializers.ListField(
        child=serializers.CharField(),
        help_text="What is wrong with the signed checkpoint file the chains are held against.",
    )
    chains = ChainCheckOutputSerializer(many=True)
    exceptions = AuditExceptionOutputSerializer(many=True)
    filters = AuditFiltersOutputSerializer()


class WaitingCallOutputSerializer(serializers.Serializer):
    """A call from a table still waiting for staff, where the table is, and its wait."""

    call = CallOutputSerializer()
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    pairing = serializers.IntegerField()
    player_a = serializers.CharField()
    player_b = serializers.CharField()


# ------------------------------------------------------------ sign-up by players

SIGNUP_STATES = [state for state, _label in SignUp.State.choices]


class SignupSettingsSerializer(StrictSerializer):
    """Sign-up and check-in settings; every field optional (only those sent change;
    null clears capacity, closes_at and starts_at)."""

    open = bool_field(required=False, help_text="Players may sign up.")
    capacity = whole_field(1, 10_000, required=False, allow_null=True, help_text="Null: no limit.")
    approval = bool_field(required=False, help_text="An organiser approves each sign-up.")
    closes_at = serializers.DateTimeField(required=False, allow_null=True, validators=[check_date])
    starts_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        validators=[check_date],
        help_text="Round 1's start; null: desk check-in only.",
    )
    check_in_opens = whole_field(
        0, 1440, required=False, help_text="Minutes before starts_at that phones may check in."
    )
    late_entry = serializers.ChoiceField(
        choices=Tournament.LateEntry.choices,
        required=False,
        help_text="What a late entry's missed rounds count as.",
    )


class SignUpOutputSerializer(serializers.Serializer):
    """A sign-up (read from a SignupView) and where its player stands."""

    id = serializers.IntegerField(source="signup.pk")
    name = serializers.CharField(source="signup.name")
    state = serializers.ChoiceField(choices=SIGNUP_STATES, source="signup.state")
    player = serializers.IntegerField(source="signup.player_id", allow_null=True)
    claims = serializers.CharField(
        source="signup.claims.name",
        allow_null=True,
        default=None,
        help_text="The club player the name matched, awaiting the organiser; else null.",
    )
    registration = serializers.IntegerField(source="signup.registration_id", allow_null=True)
    position = serializers.IntegerField(
        allow_null=True, help_text="On the waiting list (1: next); null when not waiting."
    )
    waiting = serializers.IntegerField(help_text="How many wait.")
    moved_up_at = serializers.DateTimeField(source="signup.moved_up_at", allow_null=True)
    where = serializers.CharField(help_text="Where the player stands, in words.")


class SignupsOutputSerializer(serializers.Serializer):
    """A tournament's sign-ups and their settings, for its organisers."""

    open = serializers.BooleanField(source="tournament.signup_open")
    code = serializers.CharField(source="tournament.signup_code")
    path = serializers.CharField(help_text="The sign-up form's address; blank before opened.")
    closed = serializers.CharField(help_text="Why sign-ups are closed now; blank: open.")
    capacity = serializers.IntegerField(source="tournament.signup_capacity", allow_null=True)
    approval = serializers.BooleanField(source="tournament.signup_approval")
    closes_at = serializers.DateTimeField(source="tournament.signup_closes_at", allow_null=True)
    starts_at = serializers.DateTimeField(source="tournament.starts_at", allow_null=True)
    check_in_opens = serializers.IntegerField(source="tournament.check_in_opens")
    check_in = serializers.CharField(help_text="Why phones cannot check in now; blank: they can.")
    late_entry = serializers.ChoiceField(
        source="tournament.late_entry", choices=Tournament.LateEntry.choices
    )
    entered = serializers.IntegerField(help_text="Sign-ups that have a place.")
    pending = SignUpOutputSerializer(
        many=True, source="pending_views", help_text="Awaiting an organiser."
    )
    waiting = SignUpOutputSerializer(
        many=True, source="waiting_views", help_text="The waiting list, in order."
    )


class SignUpSerializer(StrictSerializer):
    name = serializers.CharField(max_length=120)
    email = serializers.CharField(max_length=254, required=False, allow_blank=True, default="")
    pin = serializers.CharField(
        max_length=8,
        help_text="4 to 8 digits: the PIN chosen, or the club player's own when the name or "
        "email is already theirs.",
    )


class PinSerializer(StrictSerializer):
    pin = serializers.CharField(max_length=8, required=False, allow_blank=True, default="")


class ResolveSignUpSerializer(StrictSerializer):
    same = bool_field(help_text="The sign-up is the club player its name or email matched.")
    name = serializers.CharField(
        max_length=120,
        required=False,
        allow_blank=True,
        default="",
        help_text="When not the same: the new club player's name.",
    )
