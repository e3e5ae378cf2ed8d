"""API input shapes. Serializers check shape; the rules engine checks the game."""

from __future__ import annotations

from rest_framework import serializers

from scoring.models import Match


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know instead of silently ignoring them."""

    def validate(self, attrs):
        unknown = sorted(set(self.initial_data) - set(self.fields))
        if unknown:
            raise serializers.ValidationError({name: "unknown field" for name in unknown})
        return attrs


class HandFieldsSerializer(StrictSerializer):
    game = serializers.IntegerField(min_value=1)
    number = serializers.IntegerField(min_value=1)
    outcome = serializers.ChoiceField(choices=["knock", "gin", "big_gin", "dead"])
    knocker = serializers.ChoiceField(choices=["A", "B"], required=False, allow_blank=True)
    knocker_deadwood = serializers.IntegerField(required=False, allow_null=True)
    defender_deadwood = serializers.IntegerField(required=False, allow_null=True)
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
    player = serializers.IntegerField(
        required=False, help_text="Act for this player, with their PIN."
    )
    pin = serializers.CharField(max_length=8, required=False, write_only=True)


class PreviewHandSerializer(HandFieldsSerializer):
    pass


class VersionedSerializer(StrictSerializer):
    version = serializers.IntegerField(min_value=1)
    idempotency_key = serializers.CharField(max_length=80)
    player = serializers.IntegerField(
        required=False, help_text="Act for this player, with their PIN."
    )
    pin = serializers.CharField(max_length=8, required=False, write_only=True)


class DisputeSerializer(VersionedSerializer):
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True)


class ReasonedSerializer(VersionedSerializer):
    reason = serializers.CharField(max_length=500)


class CorrectSerializer(HandFieldsSerializer):
    version = serializers.IntegerField(min_value=1)
    reason = serializers.CharField(max_length=500)
    idempotency_key = serializers.CharField(max_length=80)


class ReasonSerializer(StrictSerializer):
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True)


class StartMatchSerializer(StrictSerializer):
    club = serializers.SlugField()
    player_a = serializers.IntegerField()
    player_b = serializers.IntegerField()
    profile = serializers.CharField(max_length=20, default="standard")
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
    player = serializers.IntegerField()
    pin = serializers.CharField(max_length=8, write_only=True)


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.SlugField(source="club.slug")


class ClubSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()


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
