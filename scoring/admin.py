from __future__ import annotations

from django.contrib import admin

from scoring.models import Club, Entry, Game, Hand, LedgerRow, Match, PinFailure, Player


class ReadOnlyAdmin(admin.ModelAdmin):
    """Append-only records: visible to admins, never editable or deletable here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    # Auditors are granted and withdrawn by the club's organisers, each a ledger row
    # (scoring.services.grant_auditor): shown here, not changed.
    readonly_fields = ["auditors"]
    search_fields = ["name", "slug"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user", "email", "member_id"]
    list_filter = ["club"]
    search_fields = ["name", "email", "member_id"]
    exclude = ["pin_hash"]


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    fields = ["number", "state", "winner", "total_a", "total_b"]
    readonly_fields = fields
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = [
        "__str__", "club", "state", "winner", "decided_by", "games_won_a", "games_won_b",
        "created_at",
    ]  # fmt: skip
    list_filter = ["state", "club", "agreement"]
    search_fields = ["player_a__name", "player_b__name"]
    readonly_fields = [
        "rules", "winner", "games_won_a", "games_won_b", "points_a", "points_b", "decided_by",
        "decision_reason", "decided_at",
    ]  # fmt: skip
    inlines = [GameInline]


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "state", "winner", "total_a", "total_b"]


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "game", "state", "outcome", "knocker", "points", "winner", "version"]
    list_filter = ["state", "outcome"]


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ["id", "kind", "match", "hand", "seat", "player", "user", "ip", "created_at"]
    list_filter = ["kind"]
    search_fields = ["idempotency_key"]


@admin.register(LedgerRow)
class LedgerRowAdmin(ReadOnlyAdmin):
    list_display = ["chain", "position", "action", "actor", "reason", "created_at"]
    list_filter = ["action"]
    search_fields = ["chain", "actor", "reason"]


@admin.register(PinFailure)
class PinFailureAdmin(ReadOnlyAdmin):
    list_display = ["player", "match", "created_at"]
