from django.urls import path

import ginclub.inputs  # noqa: F401  (registers <id:...>, a bounded id)
from tournaments import api
from tournaments.views import (
    audit,
    bracket,
    hall,
    jobs,
    outputs,
    player_event,
    public,
    rounds,
    setup,
)
from tournaments.views import seasons as season_views

app_name = "tournaments"

T = "tournaments/<slug:slug>/"
M = T + "manage/"
S = "clubs/<slug:slug>/seasons/"  # a club's seasons

urlpatterns = [
    path("tournaments/", setup.tournament_list, name="list"),
    path("tournaments/new/", setup.create, name="create"),
    path("tournaments/import/", outputs.import_archive, name="import"),
    path("tournaments/jobs/<id:job_id>/", jobs.job, name="job"),
    path("tournaments/jobs/<id:job_id>/progress/", jobs.job_progress, name="job-progress"),
    # Public: no login, when the tournament is public.
    path(T, public.home, name="public"),
    path(T + "pairings-table/", public.pairings_table, name="pairings-table"),
    path(T + "standings/", public.standings, name="public-standings"),
    path(T + "standings-table/", public.standings_table, name="standings-table"),
    path(T + "tables/<id:pairing_id>/", public.match_summary, name="match-summary"),
    path(T + "projector/", public.projector, name="projector"),
    path(T + "projector/board/", public.projector_board, name="projector-board"),
    path(T + "bracket/", bracket.bracket_page, name="bracket"),
    path(T + "bracket/board/", bracket.bracket_board, name="bracket-board"),
    path(T + "bracket/print/", bracket.bracket_print, name="bracket-print"),
    path(T + "players/", player_event.choose, name="player-choose"),
    path(T + "players/<id:registration_id>/", player_event.page, name="player-event"),
    path(T + "players/<id:registration_id>/now/", player_event.now, name="player-event-now"),
    # Organisers of the club, and admins.
    path(M, setup.settings, name="settings"),
    path(M + "rules/", setup.rules_change, name="rules-change"),
    path(M + "players/", setup.players, name="players"),
    path(M + "players/add/", setup.add_player, name="add-player"),
    path(M + "players/import/", setup.import_players, name="import-players"),
    path(M + "players/counts/", setup.registration_counts, name="registration-counts"),
    path(M + "players/check-in-all/", setup.check_in_all, name="check-in-all"),
    path(M + "players/seed-by-rating/", setup.seed_by_rating, name="seed-by-rating"),
    path(
        M + "players/<id:registration_id>/<str:action>/",
        setup.registration_action,
        name="registration-action",
    ),
    path(M + "rounds/", rounds.rounds, name="rounds"),
    path(M + "rounds/draft/", rounds.draft, name="draft"),
    path(M + "rounds/<id:number>/adjust/<str:action>/", rounds.adjust, name="adjust"),
    path(M + "rounds/<id:number>/<str:action>/", rounds.round_action, name="round-action"),
    path(M + "dashboard/", rounds.dashboard, name="dashboard"),
    path(M + "dashboard/tables/", rounds.dashboard_tables, name="dashboard-tables"),
    path(M + "dashboard/hall/", hall.hall, name="hall"),
    path(M + "dashboard/hall/tables/", hall.hall_tables, name="hall-tables"),
    path(M + "tables/<id:pairing_id>/result/", rounds.result, name="result"),
    path(M + "tables/<id:pairing_id>/clear/", rounds.clear_result, name="clear-result"),
    path(M + "tables/<id:pairing_id>/extend/", rounds.extend_table, name="extend-table"),
    path(M + "standings/", rounds.standings, name="standings"),
    path(M + "corrections/", rounds.corrections, name="corrections"),
    path(M + "audit/", audit.audit_page, name="audit"),
    path(M + "export/audit.csv", audit.audit_csv, name="export-audit-csv"),
    path(M + "export/audit.json", audit.audit_json, name="export-audit-json"),
    path(M + "print/cards/", outputs.table_cards, name="print-cards"),
    path(M + "print/sheets/", outputs.score_sheets, name="print-sheets"),
    path(M + "print/standings/", outputs.print_standings, name="print-standings"),
    path(M + "export/standings.csv", outputs.standings_csv, name="export-standings"),
    path(M + "export/hands.csv", outputs.hands_csv, name="export-hands"),
    path(M + "export/archive.json", outputs.archive_json, name="export-archive"),
    # Seasons: members and organisers; the ladder of a public season, anybody.
    path(S, season_views.season_list, name="seasons"),
    path(S + "new/", season_views.season_create, name="season-create"),
    path(S + "<slug:season>/", season_views.season_ladder, name="season"),
    path(S + "<slug:season>/edit/", season_views.season_edit, name="season-edit"),
    path(S + "<slug:season>/ladder.csv", season_views.season_csv, name="season-csv"),
]

api_urlpatterns = [
    path("tournaments/", api.tournaments, name="api-tournaments"),
    path("tournaments/<slug:slug>/", api.tournament, name="api-tournament"),
    path("tournaments/<slug:slug>/registrations/", api.registrations, name="api-registrations"),
    path(
        "tournaments/<slug:slug>/registrations/import/",
        api.import_registrations,
        name="api-import-registrations",
    ),
    path("tournaments/<slug:slug>/rules/preview/", api.rules_preview, name="api-rules-preview"),
    path("tournaments/<slug:slug>/rules/apply/", api.rules_apply, name="api-rules-apply"),
    path("tournaments/<slug:slug>/rounds/", api.rounds, name="api-rounds"),
    path("tournaments/<slug:slug>/pairings/", api.pairings, name="api-pairings"),
    path("tournaments/<slug:slug>/standings/", api.standings, name="api-standings"),
    path("tournaments/<slug:slug>/calls/", api.calls, name="api-calls"),
    path(
        "tournaments/<slug:slug>/export/standings.csv", api.standings_csv, name="api-standings-csv"
    ),
    path("tournaments/<slug:slug>/export/hands.csv", api.hands_csv, name="api-hands-csv"),
    path("tournaments/<slug:slug>/archive/", api.archive, name="api-archive"),
    path("tournaments/<slug:slug>/audit/", api.audit, name="api-audit"),
    path("tournaments/<slug:slug>/export/audit.csv", api.audit_csv, name="api-audit-csv"),
    path("clubs/<slug:slug>/tournaments/import/", api.import_archive, name="api-import-archive"),
    path("jobs/<id:job_id>/", api.job, name="api-job"),
    path("registrations/<id:registration_id>/", api.remove_registration, name="api-registration"),
    path("registrations/<id:registration_id>/check-in/", api.check_in, name="api-check-in"),
    path(
        "registrations/<id:registration_id>/withdraw/",
        api.withdraw,
        name="api-registration-withdraw",
    ),
    path("registrations/<id:registration_id>/reinstate/", api.reinstate, name="api-reinstate"),
    path("registrations/<id:registration_id>/seed/", api.seed, name="api-seed"),
    path("tournaments/<slug:slug>/seed-by-rating/", api.seed_by_rating, name="api-seed-by-rating"),
    path("rounds/<id:round_id>/", api.round_detail, name="api-round"),
    path("rounds/<id:round_id>/swap/", api.swap, name="api-round-swap"),
    path("rounds/<id:round_id>/fix/", api.fix, name="api-round-fix"),
    path("rounds/<id:round_id>/publish/", api.publish, name="api-round-publish"),
    path("rounds/<id:round_id>/timer/", api.timer, name="api-round-timer"),
    path("rounds/<id:round_id>/call-time/", api.call_time, name="api-round-call-time"),
    path("rounds/<id:round_id>/time-policy/", api.time_policy, name="api-round-time-policy"),
    path(
        "rounds/<id:round_id>/undo-time-call/",
        api.undo_time_call,
        name="api-round-undo-time-call",
    ),
    path("rounds/<id:round_id>/close/", api.close_round, name="api-round-close"),
    path("rounds/<id:round_id>/dashboard/", api.dashboard, name="api-round-dashboard"),
    path("rounds/<id:round_id>/tables/", api.table_links, name="api-round-tables"),
    path("pairings/<id:pairing_id>/result/", api.record_result, name="api-result"),
    path("pairings/<id:pairing_id>/result/clear/", api.clear_result, name="api-clear-result"),
    path("pairings/<id:pairing_id>/extend/", api.extend_table, name="api-extend-table"),
    path("pairings/<id:pairing_id>/qr.svg", api.table_qr, name="api-table-qr"),
    path("clubs/<slug:slug>/seasons/", api.club_seasons, name="api-seasons"),
    path("clubs/<slug:slug>/seasons/<slug:season>/", api.season_detail, name="api-season"),
    path(
        "clubs/<slug:slug>/seasons/<slug:season>/ladder/",
        api.season_ladder,
        name="api-season-ladder",
    ),
]
