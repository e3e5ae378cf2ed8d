from __future__ import annotations

from django.contrib import admin

from tournaments.models import Pairing, Registration, Round, Tournament


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    fields = ["player", "seed", "checked_in", "late", "withdrawn"]
    raw_id_fields = ["player"]


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "stage", "state", "started_at", "ends_at", "time_called"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Settings are edited here as a last resort; the services keep the ledger."""

    list_display = ["name", "club", "date", "format", "state", "public"]
    list_filter = ["state", "format", "club", "public"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["rules", "roster", "state", "created_by", "created_at"]
    inlines = [RegistrationInline, RoundInline]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "seed", "checked_in", "late", "withdrawn"]
    list_filter = ["tournament", "checked_in", "withdrawn", "late"]
    search_fields = ["player__name"]
    raw_id_fields = ["player"]


class PairingInline(admin.TabularInline):
    model = Pairing
    extra = 0
    fields = [
        "position",
        "table",
        "player_a",
        "player_b",
        "reason",
        "match",
        "bye_games",
        "bye_points",
    ]
    readonly_fields = fields
    can_delete = False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "stage", "state", "started_at", "ends_at", "time_called"]
    list_filter = ["state", "stage", "tournament"]
    readonly_fields = ["tournament", "number", "stage", "state", "published_at", "closed_at"]
    inlines = [PairingInline]


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    """Pairings change through the round services (swap, fix, results): read-only here."""

    list_display = ["__str__", "round", "reason", "match"]
    list_select_related = ["round__tournament", "player_a__player", "player_b__player"]
    list_filter = ["round__tournament"]
    readonly_fields = [f.name for f in Pairing._meta.fields]

    def has_add_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
