"""Tournament pages through the Django test client: each page for its audience, private
pages refuse strangers, public pages follow the public flag and the hiding options, and
every form works without JavaScript (htmx requests get the partial instead)."""

from __future__ import annotations

import datetime as dt
import itertools
import re

import pytest
from django.test import Client

from scoring import services as scoring
from scoring.hand_input import HandInput
from scoring.models import Hand, Match
from tests.factories import ClubFactory, UserFactory
from tournaments import services
from tournaments.models import Registration, Round, Tournament

pytestmark = pytest.mark.django_db

QUICK = {"game_target": 25, "games_to_win": 1}  # one knock of 5 v 35 wins a match
_keys = itertools.count()


def actor(user) -> scoring.Actor:
    return scoring.Actor(user=user)


@pytest.fixture
def org(client, organiser) -> Client:
    client.force_login(organiser)
    return client


@pytest.fixture
def stranger(db) -> Client:
    """An organiser, but of another club."""
    user = UserFactory(username="stranger")
    ClubFactory(name="Other Club", slug="other").organisers.add(user)
    client = Client()
    client.force_login(user)
    return client


def make_event(club, organiser, players=4, **settings) -> Tournament:
    settings.setdefault("overrides", dict(QUICK))
    settings.setdefault("bye_games", 1)
    settings.setdefault("first_round", "list")  # P01 v P02 ...: the cases below name them
    tournament = services.create_tournament(
        club=club, actor=actor(organiser), name="Club Open", date=dt.date(2026, 11, 28), **settings
    )
    for n in range(1, players + 1):
        services.add_registration(
            tournament_id=tournament.pk, actor=actor(organiser), name=f"P{n:02d}"
        )
    return tournament


@pytest.fixture
def event(club, organiser) -> Tournament:
    return make_event(club, organiser)


def publish(tournament, organiser) -> Round:
    rnd = services.draft_round(tournament_id=tournament.pk, actor=actor(organiser))
    return services.publish_round(round_id=rnd.pk, actor=actor(organiser))


@pytest.fixture
def running(event, organiser) -> Round:
    return publish(event, organiser)


def knock(match: Match, user, winner="A", game=1, number=1) -> None:
    scoring.submit_hand(
        match_id=match.pk,
        actor=actor(user),
        idempotency_key=f"p-{next(_keys)}",
        hand=HandInput(
            game=game,
            number=number,
            outcome="knock",
            knocker=winner,
            knocker_deadwood=5,
            defender_deadwood=35,
        ),
    )


def finish_round(rnd: Round, organiser) -> None:
    for pairing in rnd.pairings.select_related("match"):
        if pairing.match:
            knock(pairing.match, organiser)


def url(tournament, page="") -> str:
    base = f"/tournaments/{tournament.slug}/"
    return base + page


def text(response) -> str:
    return response.content.decode()


def refusal(response, status: int, message: str, fields: str = "") -> str:
    """The middleware's answer to a refused htmx request: only the refusal partial (the
    form that was sent stays as typed in the browser), its status, X-Refusal, the
    message, and the fields it names (which refusals.js marks)."""
    page = text(response)
    assert response.status_code == status, page
    assert response["X-Refusal"] and "<html" not in page and 'class="refusal"' in page
    assert message in page, page
    for name in fields.split():
        assert name in page.split('data-fields="', 1)[1].split('"', 1)[0]
    return page


HTMX = {"HTTP_HX_REQUEST": "true"}


# ------------------------------------------------------------------------ access

ORGANISER_PAGES = [
    "manage/",
    "manage/players/",
    "manage/rounds/",
    "manage/dashboard/",
    "manage/dashboard/tables/",
    "manage/standings/",
    "manage/corrections/",
    "manage/print/cards/",
    "manage/print/sheets/",
    "manage/print/standings/",
    "manage/export/standings.csv",
    "manage/export/hands.csv",
    "manage/export/archive.json",
]


@pytest.mark.parametrize("page", ORGANISER_PAGES)
def test_organiser_pages_open_for_the_organiser(org, running, page):
    response = org.get(url(running.tournament, page))
    assert response.status_code == 200, page


@pytest.mark.parametrize("page", ORGANISER_PAGES)
def test_organiser_pages_refuse_another_clubs_organiser(stranger, running, page):
    response = stranger.get(url(running.tournament, page))
    assert response.status_code == 403
    # organiser pages are read by the club's organisers and auditors (issue 27)
    said = "Only the organisers and auditors of Gin Club (and admins) read that of Club Open."
    assert said in text(response)


@pytest.mark.parametrize("page", ["manage/", "manage/dashboard/", "manage/export/hands.csv"])
def test_organiser_pages_send_anonymous_visitors_to_log_in(client, running, page):
    response = client.get(url(running.tournament, page))
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")


def test_organiser_posts_refuse_strangers_and_change_nothing(stranger, running):
    tournament = running.tournament
    reg = tournament.registrations.first()
    response = stranger.post(url(tournament, f"manage/players/{reg.pk}/withdraw/"))
    assert response.status_code == 403
    response = stranger.post(url(tournament, f"manage/rounds/{running.number}/close/"))
    assert response.status_code == 403
    reg.refresh_from_db()
    assert not reg.withdrawn
    assert Round.objects.get(pk=running.pk).state == Round.State.PUBLISHED


def test_admin_manages_any_clubs_tournament(client, running):
    client.force_login(UserFactory(username="root", is_superuser=True, is_staff=True))
    assert client.get(url(running.tournament, "manage/dashboard/")).status_code == 200


PUBLIC_PAGES = [
    "",
    "pairings-table/",
    "standings/",
    "standings-table/",
    "projector/",
    "projector/board/",
]


@pytest.mark.parametrize("page", PUBLIC_PAGES)
def test_public_pages_need_no_login(client, running, page):
    response = client.get(url(running.tournament, page))
    assert response.status_code == 200
    assert "P01" in text(response)


@pytest.mark.parametrize("page", PUBLIC_PAGES)
def test_a_private_tournament_is_not_found_by_the_public(
    client, stranger, running, organiser, page
):
    services.update_tournament(
        tournament_id=running.tournament_id, actor=actor(organiser), public=False
    )
    assert client.get(url(running.tournament, page)).status_code == 404
    assert stranger.get(url(running.tournament, page)).status_code == 404


def test_a_private_tournament_is_still_visible_to_its_organiser(org, running, organiser):
    services.update_tournament(
        tournament_id=running.tournament_id, actor=actor(organiser), public=False
    )
    assert org.get(url(running.tournament, "standings/")).status_code == 200


def test_tournament_list_shows_public_events_and_hides_private_ones(client, club, organiser):
    make_event(club, organiser, players=0)
    services.create_tournament(
        club=club,
        actor=actor(organiser),
        name="Secret Cup",
        date=dt.date(2026, 12, 1),
        public=False,
    )
    page = text(client.get("/tournaments/"))
    assert "Club Open" in page and "Secret Cup" not in page


# ------------------------------------------------------------------------ setup


def test_create_a_tournament_without_javascript(org, club):
    response = org.post(
        "/tournaments/new/",
        {
            "club": club.slug,
            "name": "Winter Open",
            "date": "2026-12-05",
            "venue": "Hall",
            "profile": "tournament",
            "overrides": "games_to_win = 1\ngame_target = 100",
            "format": "swiss",
            "rounds": 3,
            "cut_size": 0,
            "round_minutes": 40,
            "bye_games": 1,
            "bye_points": 0,
            "agreement": "confirm",
            "hide_last_rounds": 0,
            "public": "on",
            "tiebreak_1": "game_win_pct",
            "tiebreak_2": "points",
        },
    )
    tournament = Tournament.objects.get(name="Winter Open")
    assert response.status_code == 302 and response.url == url(tournament, "manage/players/")
    assert tournament.overrides == {"games_to_win": 1, "game_target": 100}
    assert tournament.tiebreaks == ["game_win_pct", "points"]
    assert (tournament.rounds, tournament.round_minutes, tournament.public) == (3, 40, True)


def test_a_bad_setting_is_explained_and_the_form_keeps_the_values(org, club):
    form = {
        "club": club.slug,
        "name": "Winter Open",
        "date": "2026-12-05",
        "venue": "Hall",
        "profile": "tournament",
        "overrides": "games_to_win = 1\nknock_limit = 99",
        "format": "swiss_cut",
        "rounds": 3,
        "cut_size": 0,
        "round_minutes": 40,
        "bye_games": 1,
        "bye_points": 0,
        "agreement": "confirm",
        "hide_last_rounds": 0,
    }
    # The form is sent by htmx: the refusal goes beside it, the typed values stay.
    assert 'hx-boost="true"' in text(org.get("/tournaments/new/"))
    refusal(
        org.post("/tournaments/new/", form, **HTMX),
        400,
        "knock_limit must be a whole number from 0 to 98",
        fields="overrides cut_size",
    )
    # Without JavaScript: the refusal page, with the message, at the same status.
    page = text(org.post("/tournaments/new/", form))
    assert "knock_limit must be a whole number from 0 to 98" in page
    assert not Tournament.objects.filter(name="Winter Open").exists()


def test_an_override_line_that_is_not_option_equals_value_is_named(org, club):
    response = org.post(
        "/tournaments/new/",
        {
            "club": club.slug,
            "name": "Winter Open",
            "date": "2026-12-05",
            "profile": "tournament",
            "overrides": "games to win 1",
            "format": "swiss",
            "rounds": 3,
            "cut_size": 0,
            "round_minutes": 40,
            "bye_games": 1,
            "bye_points": 0,
            "agreement": "confirm",
            "hide_last_rounds": 0,
        },
    )
    assert response.status_code == 400
    assert "Line 1 (&#x27;games to win 1&#x27;)" in text(response)


def test_only_organisers_may_create(client):
    client.force_login(UserFactory(username="nobody"))
    assert client.get("/tournaments/new/").status_code == 403


def test_settings_show_the_frozen_rules_and_refuse_locked_changes(org, running):
    tournament = running.tournament
    page = text(org.get(url(tournament, "manage/")))
    assert "Rules in force (frozen since round 1)" in page and "Change the rules" in page
    # a yes/no option reads yes or no, not Python's True and False (a walk found those)
    assert "<dt>lay-offs</dt><dd>yes</dd>" in page and "True</dd>" not in page
    # each option in words, not its code (a walk read knock_limit in the English rules)
    assert "<dt>knock limit</dt><dd>10</dd>" in page and "<dt>rule set</dt>" in page
    assert "<dt>knock_limit</dt>" not in page and "<dt>games_to_win</dt>" not in page
    assert 'name="format"' in page and "disabled" in page
    response = org.post(
        url(tournament, "manage/"),
        {
            "name": "Club Open II",
            "date": "2026-11-28",
            "rounds": 4,
            "round_minutes": 45,
            "hide_last_rounds": 0,
            "public": "on",
            "tiebreak_1": "points",
        },
        follow=True,
    )
    tournament.refresh_from_db()
    assert "Settings saved." in text(response)
    assert (tournament.name, tournament.rounds, tournament.tiebreaks) == (
        "Club Open II",
        4,
        ["points"],
    )
    assert tournament.overrides == QUICK  # disabled fields are not posted, not changed


def test_rules_change_previews_then_applies_with_a_reason(
    org, running, organiser, django_capture_on_commit_callbacks
):
    tournament = running.tournament
    finish_round(running, organiser)
    response = org.post(
        url(tournament, "manage/rules/"),
        {
            "profile": "tournament",
            "overrides": "game_target = 25\ngames_to_win = 1\ngin_bonus = 30",
            "preview": "1",
        },
    )
    page = text(response)
    assert response.status_code == 200 and "What this rules change would do" in page
    assert "gin_bonus" in page and "Apply the change" in page
    tournament.refresh_from_db()
    assert tournament.rules["gin_bonus"] == 25  # a preview writes nothing
    no_reason = org.post(
        url(tournament, "manage/rules/"),
        {
            "profile": "tournament",
            "overrides": "game_target = 25\ngames_to_win = 1\ngin_bonus = 30",
            "apply": "1",
            "reason": "",
        },
    )
    assert no_reason.status_code == 400 and "Say why the rules change." in text(no_reason)
    with django_capture_on_commit_callbacks(execute=True):  # applied by a background job
        applied = org.post(
            url(tournament, "manage/rules/"),
            {
                "profile": "tournament",
                "overrides": "game_target = 25\ngames_to_win = 1\ngin_bonus = 30",
                "apply": "1",
                "reason": "house rule",
            },
        )
    assert "Rules changed: the whole event:" in text(org.get(applied["Location"]))
    assert "Rules changed: the whole event:" in text(org.get(url(tournament, "manage/")))
    tournament.refresh_from_db()
    assert tournament.rules["gin_bonus"] == 30


def test_rules_change_that_changes_nothing_is_refused_on_the_settings_page(org, running):
    response = org.post(
        url(running.tournament, "manage/rules/"),
        {
            "profile": "tournament",
            "overrides": "game_target = 25\ngames_to_win = 1",
            "preview": "1",
        },
    )
    assert response.status_code == 400
    assert "These are the rules already in force." in text(response)


# ------------------------------------------------------------------ registration


def test_add_a_player_and_see_them_listed(org, event):
    response = org.post(
        url(event, "manage/players/add/"), {"name": "Zoe", "email": ""}, follow=True
    )
    assert "Zoe is registered." in text(response)
    assert event.registrations.filter(player__name="Zoe").exists()


def test_a_refused_registration_keeps_the_typed_values(org, event):
    assert 'hx-boost="true"' in text(org.get(url(event, "manage/players/")))
    path = url(event, "manage/players/add/")
    refusal(org.post(path, {"name": "P01", "member_id": "M-7"}, **HTMX), 400, "P01 is already")
    response = org.post(path, {"name": "P01", "member_id": "M-7"})
    assert response.status_code == 400 and "P01 is already registered." in text(response)


def test_csv_upload_shows_every_row_accepted_or_refused_with_the_reason(org, event):
    from django.core.files.uploadedfile import SimpleUploadedFile

    csv = (
        "name,email,notes\nAnna,anna@example.org,x\nP01,,\n,nobody@example.org,\n"
        "Bert,not-an-email,\nanna,,dup\n"
    )
    upload = SimpleUploadedFile("players.csv", csv.encode(), content_type="text/csv")
    response = org.post(url(event, "manage/players/import/"), {"file": upload})
    page = text(response)
    assert response.status_code == 200
    assert "Import: 1 accepted, 4 refused" in page
    assert "Columns ignored: notes." in page
    assert "P01 is already registered." in page
    assert "The name is empty." in page
    assert "&#x27;not-an-email&#x27; is not an email address." in page
    assert "duplicate of line 2" in page
    assert event.registrations.filter(player__name="Anna").exists()


def test_pasted_csv_without_a_name_column_is_refused_whole(org, event):
    path = url(event, "manage/players/import/")
    # htmx answers with the refusal alone: the pasted text stays in the form.
    refusal(
        org.post(path, {"text": "who,mail\nAnna,a@b.c"}, **HTMX),
        400,
        "must be a header with a &#x27;name&#x27; column",
    )
    response = org.post(path, {"text": "who,mail\nAnna,a@b.c"})
    assert response.status_code == 400
    assert "must be a header with a &#x27;name&#x27; column" in text(response)
    assert event.registrations.count() == 4


def test_an_empty_import_form_says_what_is_missing(org, event):
    response = org.post(url(event, "manage/players/import/"), {})
    assert response.status_code == 400 and "Choose a CSV file or paste its rows." in text(response)


def test_check_in_without_javascript_redirects_back_to_the_player(org, event):
    reg = event.registrations.get(player__name="P02")
    response = org.post(url(event, f"manage/players/{reg.pk}/check-in/"))
    assert response.status_code == 302 and response.url.endswith(f"#reg-{reg.pk}")
    reg.refresh_from_db()
    assert reg.checked_in


def test_check_in_with_htmx_returns_the_players_row(org, event):
    reg = event.registrations.get(player__name="P02")
    response = org.post(url(event, f"manage/players/{reg.pk}/check-in/"), HTTP_HX_REQUEST="true")
    page = text(response).lstrip()
    assert page.startswith(f'<li id="reg-{reg.pk}"') and "checked in" in page
    assert "Undo check-in" in page
    assert response["HX-Trigger"] == "registration-changed"
    counts = text(org.get(url(event, "manage/players/counts/"), HTTP_HX_REQUEST="true"))
    assert "<strong>1</strong> checked in" in counts


def test_withdrawing_a_player_keeps_them_out_of_the_next_draft(org, event, organiser):
    reg = event.registrations.get(player__name="P04")
    response = org.post(
        url(event, f"manage/players/{reg.pk}/withdraw/"), {"reason": "went home"}, follow=True
    )
    assert "P04 withdrew" in text(response)
    org.post(url(event, "manage/rounds/draft/"))
    rnd = event.round_set.get()
    assert not rnd.pairings.filter(player_a=reg).exists()
    assert not rnd.pairings.filter(player_b=reg).exists()


def test_a_late_entry_is_marked_late(org, running):
    response = org.post(
        url(running.tournament, "manage/players/add/"), {"name": "Latecomer"}, follow=True
    )
    assert "Latecomer is registered as a late entry." in text(response)
    assert Registration.objects.get(player__name="Latecomer").late


# ------------------------------------------------------------------------ rounds


def test_draft_shows_each_pairings_reason_then_publish_opens_the_dashboard(org, event):
    org.post(url(event, "manage/rounds/draft/"))
    page = text(org.get(url(event, "manage/rounds/")))
    rnd = event.round_set.get()
    assert "Round 1: draft" in page
    for pairing in rnd.pairings.all():
        assert pairing.reason and pairing.reason in page
    response = org.post(url(event, "manage/rounds/1/publish/"))
    assert response.status_code == 302 and response.url == url(event, "manage/dashboard/")
    rnd.refresh_from_db()
    assert rnd.state == Round.State.PUBLISHED
    assert Match.objects.filter(pairing__round=rnd).count() == 2


def test_swap_two_players_before_publishing(org, event):
    org.post(url(event, "manage/rounds/draft/"))
    rnd = event.round_set.get()
    first = rnd.pairings.order_by("position").first()
    last = rnd.pairings.order_by("position").last()
    a, b = first.player_a_id, last.player_a_id
    response = org.post(
        url(event, "manage/rounds/1/adjust/swap/"),
        {"swap-first": a, "swap-second": b, "swap-reason": "family"},
        follow=True,
    )
    assert "Pairings changed." in text(response)
    first.refresh_from_db()
    assert first.player_a_id == b and "set by organiser: family" in first.reason


def test_swapping_a_player_with_themselves_is_explained(org, event):
    org.post(url(event, "manage/rounds/draft/"))
    reg = event.round_set.get().pairings.first().player_a_id
    response = org.post(
        url(event, "manage/rounds/1/adjust/swap/"), {"swap-first": reg, "swap-second": reg}
    )
    assert response.status_code == 400 and "Choose two different players." in text(response)


def test_fix_a_pairing_by_hand(org, event):
    org.post(url(event, "manage/rounds/draft/"))
    rnd = event.round_set.get()
    p1, p2 = rnd.pairings.order_by("position")
    response = org.post(
        url(event, "manage/rounds/1/adjust/fix/"),
        {"fix-first": p1.player_a_id, "fix-second": p2.player_a_id, "fix-reason": ""},
    )
    assert response.status_code == 302
    pairing = rnd.pairings.get(player_a_id=p1.player_a_id)
    assert {pairing.player_a_id, pairing.player_b_id} == {p1.player_a_id, p2.player_a_id}


def test_dashboard_shows_each_tables_state_and_the_partial_polls(org, running, organiser):
    tournament = running.tournament
    first, second = running.pairings.order_by("table").select_related("match")
    knock(first.match, organiser)
    page = text(org.get(url(tournament, "manage/dashboard/")))
    assert 'id="dashboard-tables"' in page and 'hx-trigger="every 5s"' in page
    assert "1 playing" in page and "1 finished" in page
    partial = text(org.get(url(tournament, "manage/dashboard/tables/"), HTTP_HX_REQUEST="true"))
    assert partial.lstrip().startswith('<section id="dashboard-tables"')
    assert "Close round 1" not in partial  # table 2 still plays


def test_a_disputed_table_is_one_tap_from_its_match_page(org, running):
    pairing = running.pairings.order_by("table").first()
    a = pairing.match.player_a
    b = pairing.match.player_b
    a.set_pin("1111"), a.save()
    scoring.submit_hand(
        match_id=pairing.match_id,
        actor=scoring.Actor(player=a),
        idempotency_key="d1",
        hand=HandInput(
            game=1, number=1, outcome="knock", knocker="A", knocker_deadwood=5, defender_deadwood=35
        ),
    )
    hand = Hand.objects.get(game__match=pairing.match)
    scoring.dispute_hand(
        hand_id=hand.pk,
        actor=scoring.Actor(player=b),
        version=hand.version,
        idempotency_key="d2",
        reason="wrong count",
    )
    page = text(org.get(url(running.tournament, "manage/dashboard/tables/")))
    assert f'href="/matches/{pairing.match_id}/" class="button danger"' in page
    assert "1 disputed" in page


def test_timer_then_time_shown_on_the_dashboard_and_the_match_page(org, running):
    tournament = running.tournament
    org.post(url(tournament, "manage/rounds/1/timer/"), {"minutes": 30})
    page = text(org.get(url(tournament, "manage/dashboard/")))
    assert "29:5" in page or "30:00" in page
    match_id = running.pairings.filter(match__isnull=False).first().match_id
    scoreboard = text(org.get(f"/matches/{match_id}/scoreboard/"))
    assert "left in the round" in scoreboard
    org.post(url(tournament, "manage/rounds/1/call-time/"))
    board = text(org.get(f"/matches/{match_id}/scoreboard/"))
    assert "Time was called at " in board and "finish the hand in play" in board


def test_record_a_result_by_hand_needs_a_reason_and_then_closes_the_table(org, running):
    pairing = running.pairings.order_by("table").first()
    path = url(running.tournament, f"manage/tables/{pairing.pk}/result/")
    refused = org.post(path, {"winner": "B", "reason": ""})
    assert refused.status_code == 400 and "Say why the result is recorded by hand." in text(refused)
    org.post(path, {"winner": "B", "games_a": 0, "games_b": 1, "reason": "no phone"})
    pairing.refresh_from_db()
    assert pairing.resolved and pairing.match.winner == "B"


def test_closing_an_unfinished_round_names_the_open_tables(org, running):
    response = org.post(url(running.tournament, "manage/rounds/1/close/"))
    assert response.status_code == 409
    assert "Tables still open: 1 (playing), 2 (playing)" in text(response)
    running.refresh_from_db()
    assert running.state == Round.State.PUBLISHED


def test_close_the_round_when_every_table_is_finished(org, running, organiser):
    finish_round(running, organiser)
    page = text(org.get(url(running.tournament, "manage/dashboard/")))
    assert "Close round 1" in page
    response = org.post(url(running.tournament, "manage/rounds/1/close/"))
    assert response.status_code == 302
    running.refresh_from_db()
    assert running.state == Round.State.CLOSED


def test_organiser_standings_show_every_tiebreak_value(org, running, organiser):
    finish_round(running, organiser)
    page = text(org.get(url(running.tournament, "manage/standings/")))
    for header in ("W/M", "H2H", "GW%", "OMW%", "Margin", "Pts"):
        assert f">{header}</th>" in page
    assert "100.0%" in page and "1/1" in page


def test_corrections_list_pending_hands_with_links_to_the_match(org, running, organiser):
    pairing = running.pairings.order_by("table").first()
    player = pairing.match.player_a
    scoring.submit_hand(
        match_id=pairing.match_id,
        actor=scoring.Actor(player=player),
        idempotency_key="c1",
        hand=HandInput(
            game=1, number=1, outcome="knock", knocker="A", knocker_deadwood=5, defender_deadwood=35
        ),
    )
    page = text(org.get(url(running.tournament, "manage/corrections/")))
    assert f'href="/matches/{pairing.match_id}/"' in page and "1 pending" in page


# ------------------------------------------------------------------------ public


def test_public_pairings_show_table_numbers_and_scores_not_the_private_page(client, running):
    page = text(client.get(url(running.tournament)))
    for pairing in running.pairings.select_related("player_a__player"):
        assert pairing.player_a.player.name in page
        assert f"/tournaments/{running.tournament.slug}/tables/{pairing.pk}/" in page
    assert "/matches/" not in page and "/t/" not in page


def test_public_match_summary_is_read_only(client, running, organiser):
    pairing = running.pairings.order_by("table").first()
    knock(pairing.match, organiser)
    page = text(client.get(url(running.tournament, f"tables/{pairing.pk}/")))
    assert f"{pairing.player_a.player.name} wins 1–0</strong>" in page and "1 – 0" in page
    assert "<form" not in page.split("<main ")[1]


def test_public_standings_hidden_while_a_round_is_played(client, club, organiser):
    tournament = make_event(club, organiser, hide_standings_during_round=True)
    rnd = publish(tournament, organiser)
    finish_round(rnd, organiser)
    page = text(client.get(url(tournament, "standings/")))
    assert "Round 1 is being played; standings follow." in page
    assert "100.0%" not in page
    services.close_round(round_id=rnd.pk, actor=actor(organiser))
    assert "100.0%" in text(client.get(url(tournament, "standings-table/")))


def test_hidden_last_rounds_hide_standings_and_scores_until_the_end(client, club, organiser):
    tournament = make_event(club, organiser, rounds=2, hide_last_rounds=1)
    rnd1 = publish(tournament, organiser)
    finish_round(rnd1, organiser)
    services.close_round(round_id=rnd1.pk, actor=actor(organiser))
    rnd2 = publish(tournament, organiser)
    finish_round(rnd2, organiser)
    standings = text(client.get(url(tournament, "standings/")))
    assert "The last 1 rounds are hidden until the end" in standings
    pairings = text(client.get(url(tournament)))
    assert "Results of the last rounds are hidden until the end." in pairings
    pairing = rnd2.pairings.first()
    summary = text(client.get(url(tournament, f"tables/{pairing.pk}/")))
    assert " wins 1–0" not in summary
    services.close_round(round_id=rnd2.pk, actor=actor(organiser))
    assert "hidden" not in text(client.get(url(tournament, "standings-table/")))


def test_projector_refreshes_and_scrolls_by_itself(client, running):
    page = text(client.get(url(running.tournament, "projector/")))
    assert 'hx-trigger="every 15s"' in page and "js/projector.js" in page
    assert "Round 1 pairings" in page


# ------------------------------------------------------------------- printables


def test_table_cards_carry_the_table_number_names_and_the_qr_of_the_table_link(org, running):
    page = text(org.get(url(running.tournament, "manage/print/cards/")))
    assert page.count('class="table-card"') == 2
    assert "Table 1" in page and "<svg" in page
    assert "http://testserver/t/" in page


def test_score_sheets_have_a_grid_for_every_game_a_match_can_last(org, club, organiser):
    tournament = make_event(club, organiser, overrides={"games_to_win": 2})
    publish(tournament, organiser)
    page = text(org.get(url(tournament, "manage/print/sheets/?table=1")))
    assert page.count('class="sheet"') == 1 and page.count("<caption>Game") == 3
    assert "Knocker's deadwood" in page and "Total A" in page


def test_exports_download_csv_and_json(org, running, organiser):
    finish_round(running, organiser)
    standings = org.get(url(running.tournament, "manage/export/standings.csv"))
    assert standings["Content-Disposition"].endswith('-standings.csv"')
    assert standings.content.decode().startswith("rank,player,")
    hands = org.get(url(running.tournament, "manage/export/hands.csv")).content.decode()
    assert len(hands.strip().splitlines()) == 3  # header and one hand a table
    archive = org.get(url(running.tournament, "manage/export/archive.json")).json()
    assert archive["format"] == "ginclub.tournament" and len(archive["rounds"]) == 1


def test_archive_import_form_recreates_the_tournament(
    org, running, organiser, django_capture_on_commit_callbacks
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    finish_round(running, organiser)
    services.close_round(round_id=running.pk, actor=actor(organiser))
    body = org.get(url(running.tournament, "manage/export/archive.json")).content
    upload = SimpleUploadedFile("a.json", body, content_type="application/json")
    with django_capture_on_commit_callbacks(execute=True):  # the import is a background job
        response = org.post(
            "/tournaments/import/", {"club": running.tournament.club.slug, "file": upload}
        )
    page = text(org.get(response["Location"]))
    assert "Import of Club Open" in page and "Open Club Open" in page
    assert Tournament.objects.filter(name="Club Open").count() == 2


def test_archive_import_of_a_file_that_is_not_json_is_explained(org, event):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("a.json", b"name,email\n", content_type="text/csv")
    response = org.post("/tournaments/import/", {"club": "gin-club", "file": upload})
    assert response.status_code == 400 and "This is not a JSON archive" in text(response)


def test_match_pages_of_a_casual_match_show_no_round_clock(org, club, organiser):
    from tests.factories import PlayerFactory

    a, b = PlayerFactory(club=club), PlayerFactory(club=club)
    match = scoring.start_match(club=club, player_a=a, player_b=b, actor=actor(organiser))
    page = text(org.get(f"/matches/{match.pk}/"))
    assert "left in round" not in page and 'data-testid="match-place"' not in page


def place_line(client, pairing) -> str:
    page = text(client.get(f"/matches/{pairing.match_id}/"))
    found = re.search(r'<p class="small" data-testid="match-place">(.*?)</p>', page)
    assert found, "no place line"
    return found.group(1)


def test_a_tournament_matchs_page_says_where_it_is_played(org, running):
    """A walk opened a match from the dashboard and found no word of the event, then a
    place with no way back to it: the place links to the organiser's dashboard."""
    pairing = running.pairings.exclude(match=None).order_by("table").first()
    assert place_line(org, pairing) == (
        f'<a href="{url(running.tournament, "manage/dashboard/")}">'
        f"Club Open · round 1, table {pairing.table}</a>"
    )


def test_a_player_follows_the_place_to_their_own_page_of_the_event(running):
    pairing = running.pairings.exclude(match=None).order_by("table").first()
    player = pairing.player_a.player
    player.user = UserFactory(username="p01")
    player.save(update_fields=["user"])
    client = Client()
    client.force_login(player.user)
    event_page = url(running.tournament, f"players/{pairing.player_a_id}/")
    assert place_line(client, pairing).startswith(f'<a href="{event_page}">Club Open')


def test_a_table_link_at_a_private_event_shows_the_place_without_a_link(running):
    from ginclub.permissions import table_token

    Tournament.objects.filter(pk=running.tournament_id).update(public=False)
    pairing = running.pairings.exclude(match=None).order_by("table").first()
    table = Client()
    table.get(f"/t/{table_token(pairing.match)}/")
    assert place_line(table, pairing) == f"Club Open · round 1, table {pairing.table}"
    Tournament.objects.filter(pk=running.tournament_id).update(public=True)
    assert place_line(table, pairing) == (
        f'<a href="{url(running.tournament)}">Club Open · round 1, table {pairing.table}</a>'
    )


def test_club_page_links_its_tournaments_and_a_new_one_for_organisers(org, event):
    page = text(org.get("/clubs/gin-club/"))
    assert url(event, "manage/dashboard/") in page
    assert "/tournaments/new/?club=gin-club" in page
    assert 'href="/tournaments/"' in text(org.get("/"))


def test_an_imported_player_without_a_pin_gets_one_from_the_players_page(org, event):
    reg = event.registrations.select_related("player").get(player__name="P01")
    page = text(org.get(url(event, "manage/players/")))
    assert "no PIN" in page
    # the phone's browser refuses letters at once, the typed PIN kept (a walk typed "12ab")
    pin_input = re.search(r'<input name="pin"[^>]*>', page).group(0)
    assert 'pattern="[0-9]{4,8}"' in pin_input and 'title="4 to 8 digits"' in pin_input
    refused = org.post(url(event, f"manage/players/{reg.pk}/pin/"), {"pin": "12"})
    assert refused.status_code == 400 and "A PIN is 4 to 8 digits." in text(refused)
    org.post(url(event, f"manage/players/{reg.pk}/pin/"), {"pin": "4321"})
    reg.player.refresh_from_db()
    assert reg.player.check_pin("4321")


def test_seed_a_player_and_a_bad_seed_is_explained(org, event):
    reg = event.registrations.get(player__name="P03")
    bad = org.post(url(event, f"manage/players/{reg.pk}/seed/"), {"seed": "x1"})
    assert bad.status_code == 400
    assert "A seed is a whole number, not &#x27;x1&#x27;." in text(bad)
    org.post(url(event, f"manage/players/{reg.pk}/seed/"), {"seed": "1"})
    other = event.registrations.get(player__name="P04")
    taken = org.post(url(event, f"manage/players/{other.pk}/seed/"), {"seed": "1"})
    assert taken.status_code == 400 and "Seed 1 is already P03&#x27;s." in text(taken)
    reg.refresh_from_db()
    assert reg.seed == 1


def test_call_time_then_the_policy_decides_the_leading_table_and_names_the_level_one(
    org, club, organiser
):
    tournament = make_event(club, organiser, overrides={"game_target": 25, "games_to_win": 2})
    rnd = publish(tournament, organiser)
    leading, level = rnd.pairings.order_by("table").select_related("match")
    org.post(url(tournament, "manage/rounds/1/call-time/"))
    knock(leading.match, organiser)  # the hand in play: 1–0 in games
    page = text(org.post(url(tournament, "manage/rounds/1/time-policy/"), follow=True))
    winner = leading.player_a.player.name
    assert f"Table 1: {winner} wins 1–0: time was called and {winner} led on games." in page
    still = f"{level.player_a.player.name} and {level.player_b.player.name}"
    assert f"Still open: table 2: {still} are finishing the hand in play." in page
    leading.refresh_from_db()
    assert leading.resolved and leading.match.winner == "A"


def test_forms_show_dates_as_iso_for_the_date_picker_and_the_default_tiebreaks(org, event):
    page = text(org.get(url(event, "manage/")))
    assert 'type="date" name="date" value="2026-11-28"' in page
    create = text(org.get("/tournaments/new/"))
    assert '<option value="head_to_head" selected>' in create


def test_after_time_is_called_one_table_is_decided_by_the_policy_when_it_is_done(
    org, club, organiser
):
    tournament = make_event(club, organiser, overrides={"game_target": 25, "games_to_win": 2})
    rnd = publish(tournament, organiser)
    first, second = rnd.pairings.order_by("table").select_related("match")
    knock(first.match, organiser)
    knock(second.match, organiser, winner="B")
    org.post(url(tournament, "manage/rounds/1/call-time/"))
    board = text(org.get(url(tournament, "manage/dashboard/tables/")))
    assert 'data-testid="time-policy-2"' in board
    org.post(url(tournament, "manage/rounds/1/time-policy/"), {"pairing": second.pk})
    first.refresh_from_db(), second.refresh_from_db()
    assert second.resolved and second.match.winner == "B" and not first.resolved


def test_pasted_rows_refused_come_back_in_the_box_to_be_mended(org, event):
    """A walk pasted rows, one refused (a bad email), and found the box empty: the
    refused row had to be typed again. Now it comes back under its header, alone."""
    path = url(event, "manage/players/import/")
    response = org.post(path, {"text": "name,email\nAnna,anna@example.org\nEve,not-an-email\n"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Import: 1 accepted, 1 refused" in text(response)
    box = page[page.index('name="text"') : page.index("</textarea>")]
    assert box.endswith(">\nname,email\nEve,not-an-email")
    assert "Anna" not in box  # registered: not twice
