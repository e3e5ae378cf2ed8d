"""API input and output shapes for tournaments. Serializers check shape; the services
check everything else (and name the problem)."""

from __future__ import annotations

from rest_framework import serializers

from scoring.models import Match
from scoring.serializers import StrictSerializer
from tournaments.models import Tournament
from tournaments.pairing import TIEBREAKS


class SettingsSerializer(StrictSerializer):
    """Tournament settings; every field optional (only those sent are changed)."""

    name = serializers.CharField(max_length=120, required=False)
    date = serializers.DateField(required=False)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    profile = serializers.CharField(
        max_length=20,
        required=False,
        help_text="Rule profile: standard, tournament, classic, oklahoma or straight.",
    )
    overrides = serializers.DictField(
        required=False, help_text="Rule options overriding the profile."
    )
    format = serializers.ChoiceField(choices=Tournament.Format.choices, required=False)
    rounds = serializers.IntegerField(required=False, help_text="Swiss rounds.")
    cut_size = serializers.IntegerField(required=False, help_text="Top cut: 0, 4 or 8.")
    round_minutes = serializers.IntegerField(required=False)
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAKS), required=False, max_length=len(TIEBREAKS)
    )
    bye_games = serializers.IntegerField(required=False)
    bye_points = serializers.IntegerField(required=False)
    agreement = serializers.ChoiceField(choices=Match.Agreement.values, required=False)
    hide_standings_during_round = serializers.BooleanField(required=False)
    hide_last_rounds = serializers.IntegerField(required=False)
    public = serializers.BooleanField(required=False)
    check_in_required = serializers.BooleanField(required=False)


class CreateTournamentSerializer(SettingsSerializer):
    club = serializers.SlugField()
    name = serializers.CharField(max_length=120)
    date = serializers.DateField()


class TournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    slug = serializers.SlugField()
    club = serializers.SlugField()
    name = serializers.CharField()
    date = serializers.DateField()
    venue = serializers.CharField()
    profile = serializers.CharField()
    overrides = serializers.DictField()
    rules = serializers.DictField(allow_null=True, help_text="Frozen once round 1 is published.")
    format = serializers.CharField()
    rounds = serializers.IntegerField()
    cut_size = serializers.IntegerField()
    round_minutes = serializers.IntegerField()
    tiebreaks = serializers.ListField(child=serializers.CharField())
    bye_games = serializers.IntegerField()
    bye_points = serializers.IntegerField()
    agreement = serializers.CharField()
    hide_standings_during_round = serializers.BooleanField()
    hide_last_rounds = serializers.IntegerField()
    public = serializers.BooleanField()
    check_in_required = serializers.BooleanField()
    state = serializers.CharField()
    rounds_planned = serializers.IntegerField()


class AddRegistrationSerializer(StrictSerializer):
    name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    player_id = serializers.IntegerField(required=False, help_text="An existing club player.")
    email = serializers.CharField(max_length=254, required=False, allow_blank=True)
    member_id = serializers.CharField(max_length=100, required=False, allow_blank=True)
    seed = serializers.IntegerField(required=False, allow_null=True)


class RegistrationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    email = serializers.CharField()
    member_id = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    checked_in = serializers.BooleanField()
    late = serializers.BooleanField()
    withdrawn = serializers.BooleanField()


class ImportCsvSerializer(StrictSerializer):
    file = serializers.FileField(required=False, help_text="The CSV file (multipart).")
    csv = serializers.CharField(
        required=False, trim_whitespace=False, help_text="Or the CSV text itself (JSON)."
    )


class CheckInSerializer(StrictSerializer):
    checked_in = serializers.BooleanField(default=True)


class SeedSerializer(StrictSerializer):
    seed = serializers.IntegerField(allow_null=True)


class OptionalReasonSerializer(StrictSerializer):
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class RequiredReasonSerializer(StrictSerializer):
    reason = serializers.CharField(max_length=500)


class RulesChangeSerializer(StrictSerializer):
    profile = serializers.CharField(max_length=20)
    overrides = serializers.DictField(required=False, default=dict)


class ApplyRulesSerializer(RulesChangeSerializer):
    reason = serializers.CharField(max_length=500)


class SwapSerializer(StrictSerializer):
    first = serializers.IntegerField(help_text="A registration id.")
    second = serializers.IntegerField(help_text="A registration id.")
    reason = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")


class FixPairingSerializer(StrictSerializer):
    player_a = serializers.IntegerField(help_text="A registration id.")
    player_b = serializers.IntegerField(
        allow_null=True, help_text="A registration id, or null for the bye."
    )
    reason = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")


class TimerSerializer(StrictSerializer):
    minutes = serializers.IntegerField(required=False, allow_null=True, default=None)


class TimePolicySerializer(StrictSerializer):
    pairing_ids = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        allow_null=True,
        default=None,
        help_text="Only these tables (default: all).",
    )


class ResultSerializer(StrictSerializer):
    winner = serializers.ChoiceField(choices=["A", "B"])
    reason = serializers.CharField(max_length=500)
    games_a = serializers.IntegerField(required=False, allow_null=True, default=None)
    games_b = serializers.IntegerField(required=False, allow_null=True, default=None)
    points_a = serializers.IntegerField(required=False, allow_null=True, default=None)
    points_b = serializers.IntegerField(required=False, allow_null=True, default=None)
