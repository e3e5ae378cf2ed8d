"""The scorekeeper role: granted and withdrawn by an organiser (each a ledger row in the
club's chain); runs the rounds and the tables (the clock, time called and the time
policy, results by hand, confirming for a player, corrections and voids); changes no
settings, rules, players or roles. Every route for the role: tests/test_every_url.py and
tests/tournaments/test_permissions.py."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from ginclub import permissions
from ginclub.errors import Conflict, Forbidden, ServiceError
from scoring import services as scoring
from scoring.hand_input import HandInput
from scoring.models import Hand, LedgerRow
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import actor, new_event, play_round
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def keeper(club, organiser):
    user = UserFactory(username="keeper")
    scoring.grant_scorekeeper(club=club, username="keeper", actor=actor(organiser))
    return user


def test_an_organiser_grants_and_withdraws_a_scorekeeper_on_the_ledger(club, organiser, keeper):
    assert permissions.scorekeeps(actor(keeper), club)
    assert [u.username for u in scoring.scorekeepers_of(club)] == ["keeper"]
    scoring.withdraw_scorekeeper(club=club, user_id=keeper.pk, actor=actor(organiser))
    assert not permissions.scorekeeps(actor(keeper), club)
    chain = LedgerRow.objects.filter(chain=f"club:{club.pk}").order_by("position")
    granted, withdrawn = [r for r in chain if r.action.startswith("scorekeeper_")]
    assert granted.action == "scorekeeper_granted" and granted.actor == "user org"
    assert granted.after == {"scorekeeper": "keeper", "holds": True}
    assert withdrawn.action == "scorekeeper_withdrawn" and withdrawn.after["holds"] is False
    with pytest.raises(Conflict) as refused:
        scoring.withdraw_scorekeeper(club=club, user_id=keeper.pk, actor=actor(organiser))
    assert refused.value.code == "not_scorekeeper"


def test_who_may_be_made_a_scorekeeper(club, organiser, keeper):
    with pytest.raises(Conflict) as refused:
        scoring.grant_scorekeeper(club=club, username="keeper", actor=actor(organiser))
    assert refused.value.code == "already_scorekeeper"
    with pytest.raises(Conflict) as refused:
        scoring.grant_scorekeeper(club=club, username="org", actor=actor(organiser))
    assert refused.value.code == "organises"
    club.auditors.add(UserFactory(username="aud"))
    with pytest.raises(Conflict) as refused:
        scoring.grant_scorekeeper(club=club, username="aud", actor=actor(organiser))
    assert refused.value.code == "audits"
    with pytest.raises(Conflict) as refused:  # and the other way round
        scoring.grant_auditor(club=club, username="keeper", actor=actor(organiser))
    assert refused.value.code == "scorekeeps"
    with pytest.raises(ServiceError) as refused:
        scoring.grant_scorekeeper(club=club, username="ghost", actor=actor(organiser))
    assert refused.value.code == "not_found"
    UserFactory(username="friend")
    with pytest.raises(Forbidden) as refused:  # a scorekeeper grants no roles
        scoring.grant_scorekeeper(club=club, username="friend", actor=actor(keeper))
    assert refused.value.code == "scorekeeper_not_allowed"
    assert "Scorekeepers run the rounds" in refused.value.message


def test_a_scorekeeper_runs_a_round_from_draft_to_close(club, organiser, keeper):
    event = new_event(club, organiser, players=4, public=False)
    by = actor(keeper)
    rnd = services.draft_round(tournament_id=event.pk, actor=by)
    services.publish_round(round_id=rnd.pk, actor=by)
    services.start_round_timer(round_id=rnd.pk, actor=by, minutes=20)
    first, second = rnd.pairings.exclude(match=None).order_by("table")
    # a hand entered by P01 at the table, confirmed by the scorekeeper for P02
    pending = scoring.submit_hand(
        match_id=first.match_id,
        actor=scoring.Actor(player=first.match.player_a),
        hand=HandInput(
            game=1,
            number=1,
            outcome="knock",
            knocker="A",
            knocker_deadwood=5,
            defender_deadwood=35,
        ),
        idempotency_key="k-1",
    ).hand
    assert pending.state == Hand.State.PENDING
    confirmed = scoring.confirm_hand(
        hand_id=pending.pk, actor=by, version=pending.version, idempotency_key="k-2"
    ).hand
    assert confirmed.state == Hand.State.CONFIRMED
    voided = scoring.void_hand(
        hand_id=confirmed.pk,
        actor=by,
        version=confirmed.version,
        reason="entered at the wrong table",
        idempotency_key="k-3",
    ).hand
    assert voided.state == Hand.State.VOIDED
    services.call_time(round_id=rnd.pk, actor=by)
    services.record_result(pairing_id=first.pk, actor=by, winner="A", reason="forfeit")
    services.record_result(pairing_id=second.pk, actor=by, winner="B", reason="no show")
    services.close_round(round_id=rnd.pk, actor=by)
    rnd.refresh_from_db()
    assert rnd.state == "closed"
    acts = LedgerRow.objects.filter(chain=f"tournament:{event.pk}", actor="user keeper")
    assert {"round_published", "round_closed"} <= set(acts.values_list("action", flat=True))


def test_a_scorekeeper_changes_no_settings_rules_players_or_roles(club, organiser, keeper):
    event = new_event(club, organiser, players=4, public=False)
    by = actor(keeper)
    refusals = [
        lambda: services.update_tournament(tournament_id=event.pk, actor=by, venue="Hall"),
        lambda: services.add_registration(tournament_id=event.pk, actor=by, name="Late"),
        lambda: services.check_in_all(tournament_id=event.pk, actor=by),
        lambda: services.preview_rules_change(
            tournament_id=event.pk, actor=by, profile="tournament", overrides={}
        ),
        lambda: scoring.add_player(club=club, actor=by, name="Newcomer"),
        lambda: scoring.set_player_pages_public(club=club, actor=by, public=True),
        lambda: scoring.grant_auditor(club=club, username="org", actor=by),
        lambda: scoring.withdraw_scorekeeper(club=club, user_id=keeper.pk, actor=by),
    ]
    for refused_call in refusals:
        with pytest.raises(Forbidden) as refused:
            refused_call()
        assert refused.value.code == "scorekeeper_not_allowed", refused.value.message
    assert not permissions.may_manage_tournament(by, event)
    assert permissions.may_run_rounds(by, event)


def test_a_scorekeeper_sees_the_dashboard_without_the_settings(club, organiser, keeper):
    event = new_event(club, organiser, players=4, public=False)
    play_round(event, organiser, play=False, close=False)
    browser = Client()
    browser.force_login(keeper)
    page = browser.get(f"/tournaments/{event.slug}/manage/dashboard/").content.decode()
    assert 'data-testid="scorekeeper-note"' in page and 'id="round-tools"' in page
    assert f'href="/tournaments/{event.slug}/manage/"' not in page  # no Setup tab
    assert 'data-testid="close-round"' not in page or "Close round" in page
    refused = browser.post(f"/tournaments/{event.slug}/manage/", {"venue": "Hall"})
    assert refused.status_code == 403 and "Scorekeepers run the rounds" in refused.content.decode()
    club_page = browser.get(f"/clubs/{club.slug}/").content.decode()
    assert "You keep score at this club." in club_page
    assert 'data-testid="grant-scorekeeper"' not in club_page


def test_a_scorekeeper_reads_the_setup_and_players_pages_without_their_forms(
    club, organiser, keeper
):
    """Reached by address (their tabs are not shown), the organisers' setup and players
    pages are read-only for a scorekeeper: no form that would only be refused."""
    event = new_event(club, organiser, players=4, public=False)
    as_keeper, as_organiser = Client(), Client()
    as_keeper.force_login(keeper)
    as_organiser.force_login(organiser)
    setup, players = (
        f"/tournaments/{event.slug}/manage/",
        f"/tournaments/{event.slug}/manage/players/",
    )

    page = as_keeper.get(setup).content.decode()
    assert 'data-testid="read-only-setup"' in page and "Save settings" not in page
    assert "Only the club's organisers change the setup" in page
    assert "Save settings" in as_organiser.get(setup).content.decode()

    page = as_keeper.get(players).content.decode()
    assert 'data-testid="read-only-players"' in page and "P01" in page
    for form in ('id="add-player"', 'id="import-players"', 'data-testid="check-in-all"',
                 "/check-in/", "Withdraw P01"):  # fmt: skip
        assert form not in page, form
    page = as_organiser.get(players).content.decode()
    assert 'data-testid="read-only-players"' not in page
    assert 'id="add-player"' in page and "/check-in/" in page and "Withdraw P01" in page


def test_the_api_grants_lists_and_withdraws_scorekeepers(club, organiser):
    UserFactory(username="keeper")
    api = APIClient()
    api.force_authenticate(organiser)
    made = api.post(f"/api/clubs/{club.slug}/scorekeepers/", {"username": "keeper"}, format="json")
    assert made.status_code == 201 and made.json()["username"] == "keeper"
    assert [u["username"] for u in api.get(f"/api/clubs/{club.slug}/scorekeepers/").json()] == [
        "keeper"
    ]
    gone = api.delete(f"/api/clubs/{club.slug}/scorekeepers/{made.json()['id']}/")
    assert gone.status_code == 204 and not club.scorekeepers.exists()


@pytest.mark.parametrize("role", ["scorekeepers", "auditors"])
def test_a_mistyped_user_name_is_said_on_the_club_page_with_its_form(client, role):
    """Granting a role to a name nobody has answered an error page without the form; the
    club page now says it, above the form to type it again, and grants nothing."""
    club = ClubFactory(name="Harbour Gin", slug="harbour")
    organiser = UserFactory(username="orla")
    club.organisers.add(organiser)
    client.force_login(organiser)
    response = client.post(f"/clubs/harbour/{role}/", {"username": "nobody-here"}, follow=True)
    assert response.redirect_chain == [("/clubs/harbour/", 302)]
    page = response.content.decode()
    assert "nobody-here" in page and 'class="error"' in page
    assert 'name="username"' in page
    assert not getattr(club, role).exists()


def test_a_name_nobody_has_is_refused_in_the_grant_form_saying_who_makes_logins(club, organiser):
    """A walk typed an unknown name at the bottom of a long club page: the refusal
    showed at the top, the name cleared, and did not say who makes logins."""
    desk = Client()
    desk.force_login(organiser, backend="ginclub.sessions.ModelBackend")
    page = desk.get(f"/clubs/{club.slug}/").content.decode()
    form = page[page.index("grant-scorekeeper") - 400 : page.index("grant-scorekeeper")]
    assert 'hx-boost="true"' in form
    boosted = {"HX-Request": "true", "HX-Boosted": "true"}
    url = f"/clubs/{club.slug}/scorekeepers/"
    refused = desk.post(url, {"username": "nosuchuser"}, headers=boosted)
    assert refused.status_code == 404 and refused["X-Refusal"] == "not_found"
    assert "which a site admin makes" in refused.content.decode()


def test_a_scorekeeper_finds_the_dashboard_from_the_list_and_the_public_pages(
    club, organiser, keeper
):
    """A walk logged in as a scorekeeper at 360 px found no way to the dashboard: the
    tournament list linked it for organisers only, the public pages' Organiser tab too."""
    event = new_event(club, organiser, players=4, format="elimination")
    play_round(event, organiser, play=False, close=False)
    browser = Client()
    browser.force_login(keeper)
    dashboard = f'href="/tournaments/{event.slug}/manage/dashboard/"'
    listed = browser.get("/tournaments/").content.decode()
    assert dashboard in listed
    assert f'href="/tournaments/{event.slug}/manage/players/"' not in listed  # not theirs
    pairing = event.round_set.get(number=1).pairings.exclude(match=None).first()
    for page in ("", "standings/", "bracket/", "players/", f"tables/{pairing.pk}/"):
        assert dashboard in browser.get(f"/tournaments/{event.slug}/{page}").content.decode(), page
    stranger = Client()  # the public still sees no Organiser tab
    assert dashboard not in stranger.get(f"/tournaments/{event.slug}/").content.decode()


def test_an_auditor_finds_the_dashboard_they_may_read_too(club, organiser):
    """The club page sent auditors to the dashboard (which they read), while the list and
    the public pages' Organiser tab showed it only to those who run the rounds: one
    question now, whether the viewer may open it."""
    auditor = UserFactory(username="audrey")
    club.auditors.add(auditor)
    event = new_event(club, organiser, players=4)
    browser = Client()
    browser.force_login(auditor)
    dashboard = f'href="/tournaments/{event.slug}/manage/dashboard/"'
    assert browser.get(f"/tournaments/{event.slug}/manage/dashboard/").status_code == 200
    listed = browser.get("/tournaments/").content.decode()
    assert dashboard in listed
    assert f'href="/tournaments/{event.slug}/manage/settings/"' not in listed
    for page in ("", "standings/", "players/"):
        assert dashboard in browser.get(f"/tournaments/{event.slug}/{page}").content.decode(), page
