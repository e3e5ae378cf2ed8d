from django.urls import path

from tournaments import api

app_name = "tournaments"

# Pages (organiser, public, projector, printables) go here.
urlpatterns: list = []

api_urlpatterns = [
    path("tournaments/", api.tournaments, name="api-tournaments"),
    path("tournaments/<slug:slug>/", api.tournament, name="api-tournament"),
    path("tournaments/<slug:slug>/registrations/", api.registrations,
         name="api-registrations"),
    path("tournaments/<slug:slug>/registrations/import/", api.import_registrations,
         name="api-import-registrations"),
    path("tournaments/<slug:slug>/rules/preview/", api.rules_preview, name="api-rules-preview"),
    path("tournaments/<slug:slug>/rules/apply/", api.rules_apply, name="api-rules-apply"),
    path("tournaments/<slug:slug>/rounds/", api.rounds, name="api-rounds"),
    path("tournaments/<slug:slug>/pairings/", api.pairings, name="api-pairings"),
    path("tournaments/<slug:slug>/standings/", api.standings, name="api-standings"),
    path("tournaments/<slug:slug>/export/standings.csv", api.standings_csv,
         name="api-standings-csv"),
    path("tournaments/<slug:slug>/export/hands.csv", api.hands_csv, name="api-hands-csv"),
    path("tournaments/<slug:slug>/archive/", api.archive, name="api-archive"),
    path("clubs/<slug:slug>/tournaments/import/", api.import_archive,
         name="api-import-archive"),
    path("registrations/<int:registration_id>/", api.remove_registration,
         name="api-registration"),
    path("registrations/<int:registration_id>/check-in/", api.check_in, name="api-check-in"),
    path("registrations/<int:registration_id>/withdraw/", api.withdraw, name="api-withdraw"),
    path("registrations/<int:registration_id>/reinstate/", api.reinstate,
         name="api-reinstate"),
    path("registrations/<int:registration_id>/seed/", api.seed, name="api-seed"),
    path("rounds/<int:round_id>/", api.round_detail, name="api-round"),
    path("rounds/<int:round_id>/swap/", api.swap, name="api-round-swap"),
    path("rounds/<int:round_id>/fix/", api.fix, name="api-round-fix"),
    path("rounds/<int:round_id>/publish/", api.publish, name="api-round-publish"),
    path("rounds/<int:round_id>/timer/", api.timer, name="api-round-timer"),
    path("rounds/<int:round_id>/call-time/", api.call_time, name="api-round-call-time"),
    path("rounds/<int:round_id>/time-policy/", api.time_policy, name="api-round-time-policy"),
    path("rounds/<int:round_id>/close/", api.close_round, name="api-round-close"),
    path("rounds/<int:round_id>/dashboard/", api.dashboard, name="api-round-dashboard"),
    path("rounds/<int:round_id>/tables/", api.table_links, name="api-round-tables"),
    path("pairings/<int:pairing_id>/result/", api.record_result, name="api-result"),
    path("pairings/<int:pairing_id>/result/clear/", api.clear_result, name="api-clear-result"),
    path("pairings/<int:pairing_id>/qr.svg", api.table_qr, name="api-table-qr"),
]
