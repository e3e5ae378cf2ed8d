"""Players sign themselves up (capacity, waiting list, approval, a name that is already
a club player's), check in and drop from their phones; late entries' missed rounds."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from ginclub import login_limits
from ginclub.errors import Conflict, Forbidden, ServiceError, Throttled
from scoring import services as scoring
from scoring.models import LedgerRow, Player
from tests.factories import PlayerFactory, UserFactory
from tests.tournaments.helpers import actor, new_event, pairs_of, play_round, reg
from tournaments import selectors, services
from tournaments.models import SignUp, Tournament
from tournaments.selectors.signups import signup_view, signups_of

pytestmark = pytest.mark.django_db

PHONE = scoring.Actor(ip="10.0.0.7", browser="phone-1")


@pytest.fixture
def event(club, organiser):
    return new_event(club, organiser, players=0)


def open_signups(event, organiser, **changes):
    return services.set_signups(
        tournament_id=event.pk,
        actor=actor(organiser),
        changes=services.SignupSettings(open=True, **changes),
    )


def sign(event, name, pin="4321", email="", who=PHONE):
    return services.sign_up(tournament_id=event.pk, actor=who, name=name, pin=pin, email=email)


def as_player(signup_or_player, pin="4321"):
    player = getattr(signup_or_player, "player", signup_or_player)
    return scoring.acting_for_player(PHONE, player=player, pin=pin)


def actions(event):
    return list(
        LedgerRow.objects.filter(chain=event.chain)
        .order_by("position")
        .values_list("action", flat=True)
    )


def test_opening_makes_a_short_code_and_only_organisers_may(event, organiser, club):
    stranger = UserFactory(username="stranger")
    with pytest.raises(Forbidden) as refused:
        open_signups(event, stranger)
    assert "Gin Club" in refused.value.message
    opened = open_signups(event, organiser, capacity=2)
    assert len(opened.signup_code) == 6 and opened.signup_open
    assert opened.signup_capacity == 2
    assert "signups_set" in actions(event)
    assert selectors.signups.signup_path(opened).endswith(f"/join/{opened.signup_code}/")


def test_capacity_waiting_list_and_moving_up(event, organiser):
    open_signups(event, organiser, capacity=2)
    ada, ben, cleo = sign(event, "Ada"), sign(event, "Ben"), sign(event, "Cleo")
    assert [s.state for s in (ada, ben, cleo)] == ["entered", "entered", "waiting"]
    assert signup_view(cleo).position == 1
    assert "number 1 on the waiting list" in signup_view(cleo).where
    new = Player.objects.get(name="Cleo")
    assert new.check_pin("4321")  # she chose her PIN on the form
    services.leave_signup(signup_id=ben.pk, actor=as_player(ben))
    cleo.refresh_from_db()
    assert cleo.state == "entered" and cleo.registration is not None
    assert "moved up from the waiting list" in signup_view(cleo).where
    assert sorted(r.player.name for r in event.registrations.all()) == ["Ada", "Cleo"]
    assert actions(event)[-2:] == ["signup_left", "waiting_list_moved_up"]


def test_leaving_needs_the_players_pin(event, organiser):
    open_signups(event, organiser)
    ada = sign(event, "Ada")
    with pytest.raises(Forbidden) as wrong:
        as_player(ada, pin="9999")
    assert wrong.value.code == "wrong_pin"
    with pytest.raises(Forbidden):
        services.leave_signup(signup_id=ada.pk, actor=PHONE)


def test_an_organiser_removal_or_a_larger_capacity_moves_the_list_up(event, organiser):
    open_signups(event, organiser, capacity=1)
    ada, ben, cleo = sign(event, "Ada"), sign(event, "Ben"), sign(event, "Cleo")
    services.remove_registration(registration_id=ada.registration_id, actor=actor(organiser))
    ada.refresh_from_db()
    ben.refresh_from_db()
    assert (ada.state, ben.state) == ("left", "entered")
    services.set_signups(
        tournament_id=event.pk,
        actor=actor(organiser),
        changes=services.SignupSettings(capacity=2),
    )
    cleo.refresh_from_db()
    assert cleo.state == "entered"


def test_approval(event, organiser):
    open_signups(event, organiser, approval=True, capacity=1)
    ada, ben = sign(event, "Ada"), sign(event, "Ben")
    assert (ada.state, ben.state) == ("pending", "pending")
    with pytest.raises(Forbidden):
        services.approve_signup(signup_id=ada.pk, actor=as_player(ada))
    assert services.approve_signup(signup_id=ada.pk, actor=actor(organiser)).state == "entered"
    assert services.approve_signup(signup_id=ben.pk, actor=actor(organiser)).state == "waiting"
    refused = services.refuse_signup(signup_id=ben.pk, actor=actor(organiser), reason="late")
    assert refused.state == "refused"
    assert len(signups_of(event).waiting) == 0


def test_a_club_player_with_a_pin_proves_it(event, organiser, club):
    PlayerFactory(club=club, name="Dora Rossi", email="dora@example.org", pin="2468")
    open_signups(event, organiser)
    with pytest.raises(Forbidden) as refused:
        sign(event, "dora rossi", pin="1111")
    assert refused.value.code == "wrong_pin"
    assert "Dora Rossi is already a player of Gin Club" in refused.value.message
    # by email, under another spelling of the name: the same player, never a second one
    signup = sign(event, "Dora R.", pin="2468", email="DORA@example.org")
    assert signup.player.name == "Dora Rossi" and signup.state == "entered"
    assert Player.objects.filter(club=club).count() == 1
    with pytest.raises(ServiceError) as twice:
        sign(event, "Dora Rossi", pin="2468")
    assert twice.value.code == "already_signed_up"


def test_a_name_and_an_email_of_two_players_are_refused(event, organiser, club):
    PlayerFactory(club=club, name="Eve", email="eve@example.org")
    PlayerFactory(club=club, name="Fay", email="fay@example.org")
    open_signups(event, organiser)
    with pytest.raises(ServiceError) as refused:
        sign(event, "Eve", email="fay@example.org")
    assert refused.value.code == "ambiguous_player"
    assert "Fay" in refused.value.message


def test_a_club_player_without_a_pin_waits_for_the_organiser(event, organiser, club):
    gil = Player.objects.create(club=club, name="Gil")
    open_signups(event, organiser)
    claim = sign(event, "GIL", pin="5555")
    assert (claim.state, claim.player, claim.claims) == ("pending", None, gil)
    assert "already has a player called Gil" in signup_view(claim).where
    with pytest.raises(Conflict):
        services.approve_signup(signup_id=claim.pk, actor=actor(organiser))
    same = services.resolve_signup(signup_id=claim.pk, actor=actor(organiser), same=True)
    gil.refresh_from_db()
    assert same.player == gil and same.state == "entered" and gil.check_pin("5555")
    other = sign(event, "Hal", pin="6666")
    Player.objects.filter(pk=other.player_id).update(pin_hash="")  # pretend Hal has none
    services.leave_signup(signup_id=other.pk, actor=actor(organiser))
    claim2 = sign(event, "Hal", pin="7777")
    apart = services.resolve_signup(
        signup_id=claim2.pk, actor=actor(organiser), same=False, name="Hal Bianchi"
    )
    assert apart.player.name == "Hal Bianchi" and apart.player.check_pin("7777")
    assert "signup_resolved" in actions(event)


def test_sign_ups_close(event, organiser):
    with pytest.raises(Conflict) as closed:
        sign(event, "Ada")
    assert closed.value.code == "signups_closed"
    open_signups(event, organiser, closes_at=timezone.now() + dt.timedelta(minutes=1))
    Tournament.objects.filter(pk=event.pk).update(  # the minute passes
        signup_closes_at=timezone.now() - dt.timedelta(seconds=1)
    )
    with pytest.raises(Conflict) as late:
        sign(event, "Ada")
    assert "closed at" in late.value.message and not late.value.message.endswith("..")


def test_a_closing_time_already_past_is_refused_not_saved(event, organiser):
    """A walk opened sign-ups closing at 1 Jan 2020, 10:00 and was told "settings saved",
    the sign-ups closed as they opened."""
    with pytest.raises(ServiceError) as past:
        open_signups(event, organiser, closes_at=timezone.now() - dt.timedelta(minutes=1))
    assert past.value.code == "invalid" and "that time has passed" in past.value.message
    assert past.value.fields == {"closes_at": "in the past"}
    event.refresh_from_db()
    assert not event.signup_open and event.signup_closes_at is None  # nothing saved


def test_the_form_is_rate_limited_per_address(event, organiser):
    open_signups(event, organiser)
    for n in range(login_limits.SIGNUP_ADDRESS_LIMIT):
        sign(event, f"Player {n}")
    with pytest.raises(Throttled) as throttled:
        sign(event, "One too many")
    assert throttled.value.code == "signup_throttled"
    other = scoring.Actor(ip="10.0.0.8")
    assert sign(event, "Another network", who=other).state == "entered"


def test_check_in_by_phone_opens_before_the_start(event, organiser):
    open_signups(event, organiser)
    ada = sign(event, "Ada")
    with pytest.raises(Conflict) as desk:
        services.check_in_by_phone(registration_id=ada.registration_id, actor=as_player(ada))
    assert desk.value.message == "Check-in is at the organisers' desk."
    starts = timezone.now() + dt.timedelta(minutes=90)
    open_signups(event, organiser, starts_at=starts, check_in_opens=60)
    with pytest.raises(Conflict) as early:
        services.check_in_by_phone(registration_id=ada.registration_id, actor=as_player(ada))
    assert early.value.message.startswith("Check-in opens at")
    open_signups(event, organiser, check_in_opens=120)
    done = services.check_in_by_phone(registration_id=ada.registration_id, actor=as_player(ada))
    assert done.checked_in
    ben = sign(event, "Ben")
    with pytest.raises(Forbidden):  # Ada's PIN does not check Ben in
        services.check_in_by_phone(registration_id=ben.registration_id, actor=as_player(ada))


def test_a_player_who_drops_is_not_paired_again(club, organiser):
    event = new_event(club, organiser, players=4)
    play_round(event, organiser)
    p2 = reg(event, "P02")
    scoring.set_pin(player=p2.player, pin="1234", actor=actor(organiser))
    services.drop(registration_id=p2.pk, actor=as_player(p2.player, pin="1234"))
    p2.refresh_from_db()
    assert p2.withdrawn
    assert "player_dropped" in actions(event)
    rnd = play_round(event, organiser, play=False, close=False)
    assert "P02" not in {name for pair in pairs_of(rnd) for name in pair if name}
    with pytest.raises(Conflict):
        services.drop(registration_id=p2.pk, actor=actor(organiser))


def test_an_organiser_withdraws_rather_than_drops_a_player(club, organiser):
    """Dropping is the player's own step, logged 'from the player's phone': an organiser
    who tapped it on the player's page withdrew the player with no reason, under those
    words. They are sent to the withdrawal, which asks why; a check-in they make there
    is logged as theirs."""
    event = new_event(club, organiser, players=4)
    p2 = reg(event, "P02")
    starts = timezone.now() + dt.timedelta(minutes=90)
    open_signups(event, organiser, starts_at=starts, check_in_opens=120)
    services.check_in_by_phone(registration_id=p2.pk, actor=actor(organiser))
    row = LedgerRow.objects.filter(chain=event.chain, action="checked_in").last()
    assert row.reason == "on the player's page, by an organiser"
    play_round(event, organiser)
    with pytest.raises(Conflict) as refused:
        services.drop(registration_id=p2.pk, actor=actor(organiser))
    assert refused.value.code == "withdraw_instead"
    assert refused.value.message == (
        "Dropping is P02's own step, with their PIN. An organiser withdraws P02 on the "
        "Players page, saying why."
    )
    p2.refresh_from_db()
    assert not p2.withdrawn and "player_dropped" not in actions(event)


def test_late_entry_counts_missed_rounds_as_the_organiser_chose(club, organiser):
    event = new_event(club, organiser, players=4)
    play_round(event, organiser)
    loss = services.add_registration(tournament_id=event.pk, actor=actor(organiser), name="Late")
    assert loss.late and not selectors.standings(event).rows[-1].standing.match_wins
    services.set_signups(
        tournament_id=event.pk,
        actor=actor(organiser),
        changes=services.SignupSettings(late_entry=Tournament.LateEntry.BYE),
    )
    bye = services.add_registration(tournament_id=event.pk, actor=actor(organiser), name="Later")
    rows = {row.name: row.standing for row in selectors.standings(event).rows}
    assert rows["Later"].match_wins == 1 and rows["Late"].match_wins == 0
    assert rows["Later"].games_won == event.bye_games
    assert bye.late


def test_signups_close_with_round_1(club, organiser):
    event = new_event(club, organiser, players=4)
    open_signups(event, organiser)
    play_round(event, organiser, play=False, close=False)
    with pytest.raises(Conflict) as closed:
        sign(event, "Ada")
    assert "Round 1 is published" in closed.value.message
    assert SignUp.objects.count() == 0


def test_a_code_no_tournament_has_is_refused_as_the_person_typed_it(client, event, organiser):
    opened = open_signups(event, organiser)
    typed = f"{opened.signup_code[:3].lower()}-{opened.signup_code[3:].lower()}"
    assert client.post("/join/", {"code": typed})["Location"].endswith(
        f"/join/{opened.signup_code}/"
    )
    page = client.post("/join/", {"code": "nope-123"}).content.decode()
    assert "No tournament has the sign-up code nope-123." in page
    assert "NOPE123" not in page


def test_a_refused_sign_up_on_a_phone_stays_on_its_form(client, event, organiser, club):
    """A walk on a phone: a 2-digit PIN, a second sign-up and a club player's wrong PIN
    each landed on a page of their own ("Not done", a Home link, "Log in"), the name
    typed gone. The browser now checks the PIN's length itself, a refusal the form did
    not catch is answered in the form (htmx, as the organisers' forms), and without
    scripts the PIN's length is still the form's refusal, beside the name typed."""
    PlayerFactory(club=club, name="Dora Rossi", pin="2468")
    opened = open_signups(event, organiser)
    url = f"/join/{opened.signup_code}/"
    page = client.get(url).content.decode()
    assert 'hx-boost="true"' in page and 'pattern="[0-9]{4,8}"' in page
    short = client.post(url, {"name": "Ivo Neri", "pin": "12"})
    assert short.status_code == 400
    assert "A PIN is 4 to 8 digits." in short.content.decode()
    assert 'value="Ivo Neri"' in short.content.decode()
    boosted = {"HX-Request": "true", "HX-Boosted": "true"}
    wrong = client.post(url, {"name": "Dora Rossi", "pin": "1111"}, headers=boosted)
    assert wrong.status_code == 403 and wrong["X-Refusal"] == "wrong_pin"
    assert "Log in" not in wrong.content.decode()


def test_a_sign_up_page_is_the_signing_browsers_not_anyones_who_counts_up(client, event, organiser):
    """A walk read "Ada — Your sign-up awaits the organiser's approval" on a fresh phone
    by trying /join/CODE/1/, /2/...: every sign-up's name and state, to anyone."""
    from django.test import Client

    opened = open_signups(event, organiser, approval=True)
    url = f"/join/{opened.signup_code}/"
    made = client.post(url, {"name": "Ada Lovelace", "pin": "4321"})
    status = made["Location"]
    assert "Ada Lovelace" in client.get(status).content.decode()
    stranger = Client()
    assert stranger.get(status).status_code == 404
    assert stranger.get(f"/api{status}").status_code == 404
    api = Client()
    answer = api.post(f"/api{url}", {"name": "Ben Ross", "pin": "2468"}, "application/json")
    assert answer.status_code == 201
    mine = f"/api{url}{answer.json()['id']}/"
    assert api.get(mine).status_code == 200 and stranger.get(mine).status_code == 404
    desk = Client()
    desk.force_login(organiser, backend="ginclub.sessions.ModelBackend")
    assert "Ada Lovelace" in desk.get(status).content.decode()


def test_the_poster_gives_the_sites_address_a_print_button_and_a_way_back(client, event, organiser):
    """A walk printed "Or go to /join/ and type the code": on paper, no address at all;
    and the page had no Print button and no way back to the players."""
    opened = open_signups(event, organiser)
    client.force_login(organiser, backend="ginclub.sessions.ModelBackend")
    page = client.get(f"/tournaments/{event.slug}/manage/signups/poster/").content.decode()
    assert "Or go to http://testserver/join/ and type the code" in page
    assert opened.signup_code in page
    assert "data-print" in page and f"/tournaments/{event.slug}/manage/players/" in page
