from django.urls import path

import ginclub.inputs  # noqa: F401  (registers <id:...>, a bounded id)
from scoring import api, views, views_offline, views_penalties, views_players

app_name = "scoring"

urlpatterns = [
    path("clubs/<slug:slug>/", views.club, name="club"),
    path("clubs/<slug:slug>/matches/new/", views.new_match, name="new-match"),
    path("clubs/<slug:slug>/players/new/", views.add_player, name="add-player"),
    path("clubs/<slug:slug>/auditors/", views.grant_auditor, name="grant-auditor"),
    path(
        "clubs/<slug:slug>/auditors/<id:user_id>/withdraw/",
        views.withdraw_auditor,
        name="withdraw-auditor",
    ),
    path("t/<str:token>/", views.table, name="table"),
    path("matches/<id:match_id>/", views.match, name="match"),
    path("matches/<id:match_id>/scoreboard/", views.scoreboard, name="scoreboard"),
    path(
        "matches/<id:match_id>/manifest.webmanifest",
        views_offline.manifest,
        name="manifest",
    ),
    path("matches/<id:match_id>/seat/", views.seat, name="seat"),
    path("matches/<id:match_id>/seat/leave/", views.leave_seat, name="leave-seat"),
    path("matches/<id:match_id>/next/", views.next_table, name="next-table"),
    path("matches/<id:match_id>/hands/new/", views.hand_form, name="hand-form"),
    path("matches/<id:match_id>/hands/preview/", views.preview, name="preview"),
    path("matches/<id:match_id>/hands/compare/", views.compare, name="hand-compare"),
    path("matches/<id:match_id>/hands/", views.submit, name="submit"),
    path("hands/<id:hand_id>/correct/", views.correct, name="correct"),
    path("hands/<id:hand_id>/correction/", views.correction, name="correction"),
    path("hands/<id:hand_id>/correct/preview/", views.correct_preview, name="correct-preview"),
    path("hands/<id:hand_id>/void/preview/", views.void_preview, name="void-preview"),
    path("hands/<id:hand_id>/<str:action>/", views.hand_action, name="hand-action"),
    path("matches/<id:match_id>/close/", views.close, name="close"),
    path("matches/<id:match_id>/reopen/", views.reopen, name="reopen"),
    path("matches/<id:match_id>/ledger/", views.match_ledger, name="ledger"),
    path("matches/<id:match_id>/qr.svg", views.table_qr, name="table-qr"),
    path("matches/<id:match_id>/penalties/", views_penalties.record, name="penalty-record"),
    path(
        "matches/<id:match_id>/penalties/preview/",
        views_penalties.preview,
        name="penalty-preview",
    ),
    path("penalties/<id:penalty_id>/reverse/", views_penalties.reverse, name="penalty-reverse"),
    path("matches/<id:match_id>/revoke-links/", views.revoke_links, name="revoke-links"),
    path("players/<id:player_id>/", views_players.player, name="player"),
    path(
        "players/<id:player_id>/charts/<str:chart>.svg",
        views_players.player_chart,
        name="player-chart",
    ),
    path("clubs/<slug:slug>/ratings/", views_players.ratings, name="ratings"),
    path(
        "clubs/<slug:slug>/player-pages/",
        views_players.player_pages_setting,
        name="player-pages-setting",
    ),
    path(
        "clubs/<slug:slug>/players/<id:player_id>/unlock-pin/",
        views.unlock_pin,
        name="unlock-pin",
    ),
    path(
        "clubs/<slug:slug>/lift-network-limit/",
        views.lift_network_limit,
        name="lift-network-limit",
    ),
]

api_urlpatterns = [
    path("clubs/", api.clubs, name="api-clubs"),
    path("clubs/<slug:slug>/players/", api.club_players, name="api-club-players"),
    path("clubs/<slug:slug>/auditors/", api.club_auditors, name="api-club-auditors"),
    path(
        "clubs/<slug:slug>/auditors/<id:user_id>/",
        api.club_auditor,
        name="api-club-auditor",
    ),
    path(
        "clubs/<slug:slug>/lift-network-limit/",
        api.lift_network_limit,
        name="api-lift-network-limit",
    ),
    path("matches/", api.matches, name="api-matches"),
    path("matches/<id:match_id>/", api.match_detail, name="api-match"),
    path("matches/<id:match_id>/preview/", api.preview, name="api-preview"),
    path("matches/<id:match_id>/hands/", api.submit, name="api-submit"),
    path("matches/<id:match_id>/seat/", api.seat, name="api-seat"),
    path("matches/<id:match_id>/close/", api.close, name="api-close"),
    path("matches/<id:match_id>/reopen/", api.reopen, name="api-reopen"),
    path("matches/<id:match_id>/ledger/", api.match_ledger, name="api-ledger"),
    path("matches/<id:match_id>/penalties/", api.match_penalties, name="api-penalties"),
    path(
        "matches/<id:match_id>/penalties/preview/",
        api.penalty_preview,
        name="api-penalty-preview",
    ),
    path("penalties/<id:penalty_id>/reverse/", api.reverse_penalty, name="api-penalty-reverse"),
    path("hands/<id:hand_id>/confirm/", api.confirm, name="api-confirm"),
    path("hands/<id:hand_id>/dispute/", api.dispute, name="api-dispute"),
    path("hands/<id:hand_id>/withdraw/", api.withdraw, name="api-withdraw"),
    path("hands/<id:hand_id>/correct/", api.correct, name="api-correct"),
    path(
        "hands/<id:hand_id>/correct/preview/",
        api.correct_preview,
        name="api-correct-preview",
    ),
    path("hands/<id:hand_id>/void/", api.void, name="api-void"),
    path("hands/<id:hand_id>/void/preview/", api.void_preview, name="api-void-preview"),
    path("ledger/verify/", api.verify_ledger, name="api-verify-ledger"),
    path("players/<id:player_id>/", api.player_record, name="api-player"),
    path("clubs/<slug:slug>/ratings/", api.club_ratings, name="api-club-ratings"),
]
