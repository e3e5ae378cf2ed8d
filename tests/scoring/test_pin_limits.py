"""Wrong PINs are limited per device, per player across devices and per address, counted
atomically, checked before any hashing, and an organiser sees and lifts the locks."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth.hashers import make_password
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from ginclub.errors import Forbidden, Throttled
from ginclub.permissions import table_token
from scoring import services
from scoring.models import LedgerRow, Match, PinDevice, PinFailure, Player
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.threads import run_together

PHONE, THIEF = "phone-of-alice", "phone-of-a-stranger"


def verify(match, player, pin, device=THIEF, ip="10.0.0.9"):
    services.verify_pin(match=match, player=player, pin=pin, device=device, ip=ip)


def fail(match, player, times, device=THIEF, ip="10.0.0.9"):
    for _ in range(times):
        with pytest.raises(Forbidden) as caught:
            verify(match, player, "0000", device, ip)
        assert caught.value.code == "wrong_pin"


@pytest.mark.django_db
def test_a_stranger_failing_does_not_lock_the_player_out_of_their_own_phone(match, alice):
    fail(match, alice, services.PIN_FAILURE_LIMIT)
    with pytest.raises(Throttled) as caught:
        verify(match, alice, "1234")  # even the right PIN, from the failing phone
    assert caught.value.code == "pin_locked"
    assert caught.value.message == (
        "Too many wrong PINs for Alice from this phone; try again in 5 minutes, "
        "or ask an organiser."
    )
    verify(match, alice, "1234", device=PHONE)  # her own phone sits down


@pytest.mark.django_db
def test_each_wrong_pin_says_how_many_tries_are_left_before_the_lock(match, alice):
    """Issue 9, trap 15: a lock never comes unannounced."""
    messages = []
    for _ in range(services.PIN_FAILURE_LIMIT):
        with pytest.raises(Forbidden) as caught:
            verify(match, alice, "0000")
        messages.append(caught.value.message)
    assert messages == [
        "Wrong PIN for Alice: 4 tries left on this phone.",
        "Wrong PIN for Alice: 3 tries left on this phone.",
        "Wrong PIN for Alice: 2 tries left on this phone.",
        "Wrong PIN for Alice: 1 try left on this phone.",
        "Wrong PIN for Alice. That was the last try: this phone must wait 5 minutes "
        "(or ask an organiser).",
    ]


@pytest.mark.django_db
def test_near_the_hourly_ceiling_the_count_is_the_players(match, alice):
    for n in range(3):
        fail(match, alice, services.PIN_FAILURE_LIMIT, device=f"stranger-{n}", ip=f"10.0.1.{n}")
    fail(match, alice, 1, device="stranger-w")  # 16 this hour
    with pytest.raises(Forbidden) as caught:  # the 17th wrong PIN this hour
        verify(match, alice, "0000", device="stranger-x")
    assert caught.value.message == "Wrong PIN for Alice: 3 tries left this hour, from any phone."
    fail(match, alice, 2, device="stranger-y")
    with pytest.raises(Forbidden) as caught:  # the 20th
        verify(match, alice, "0000", device="stranger-z")
    assert caught.value.message == (
        "Wrong PIN for Alice. That was the last try this hour: an organiser can lift the lock."
    )


@pytest.mark.django_db
def test_the_player_ceiling_holds_across_devices_until_the_hour_moves_on(match, alice):
    for n in range(services.PLAYER_FAILURE_LIMIT // services.PIN_FAILURE_LIMIT):
        fail(match, alice, services.PIN_FAILURE_LIMIT, device=f"stranger-{n}", ip=f"10.0.1.{n}")
    with pytest.raises(Throttled) as caught:
        verify(match, alice, "1234", device=PHONE, ip="10.0.0.1")
    assert "Too many wrong PINs for Alice in the last hour; try again in 60 minutes" in (
        caught.value.message
    )
    assert 3590 <= caught.value.retry_after <= 3600
    an_hour_ago = timezone.now() - services.PLAYER_WINDOW - timedelta(seconds=1)
    PinFailure.objects.update(created_at=an_hour_ago)
    verify(match, alice, "1234", device=PHONE)


@pytest.mark.django_db
def test_a_stranger_tripping_the_hourly_ceiling_does_not_lock_the_players_own_phone(match, alice):
    """Issue 24, finding 2: 20 wrong PINs from 4 sessions lock Alice on new phones only;
    the phone she sat at before keeps its own per-phone limit."""
    verify(match, alice, "1234", device=PHONE)  # she sat down on her phone earlier
    for n in range(services.PLAYER_FAILURE_LIMIT // services.PIN_FAILURE_LIMIT):
        fail(match, alice, services.PIN_FAILURE_LIMIT, device=f"stranger-{n}", ip="10.0.1.1")
    with pytest.raises(Throttled):
        verify(match, alice, "1234", device="a-new-phone", ip="10.0.0.2")
    with pytest.raises(Forbidden) as caught:  # a slip on her own phone: its own count
        verify(match, alice, "1235", device=PHONE)
    assert caught.value.message == "Wrong PIN for Alice: 4 tries left on this phone."
    verify(match, alice, "1234", device=PHONE)
    [lock] = services.pin_locks([alice])
    assert lock.everywhere  # on every phone she never sat at


@pytest.mark.django_db
def test_a_phone_not_used_for_thirty_days_is_no_longer_the_players_own(match, alice):
    """A known phone is exempt from the hourly ceiling for KNOWN_DEVICE_FOR after it last
    gave the right PIN, not for ever: a phone lost or lent a season ago is a stranger's."""
    verify(match, alice, "1234", device=PHONE)
    verify(match, alice, "1234", device="her-old-phone")
    for n in range(services.PLAYER_FAILURE_LIMIT // services.PIN_FAILURE_LIMIT):
        fail(match, alice, services.PIN_FAILURE_LIMIT, device=f"stranger-{n}", ip="10.0.1.1")
    now = timezone.now()
    long_ago = now - services.KNOWN_DEVICE_FOR - timedelta(minutes=1)
    lately = now - services.KNOWN_DEVICE_FOR + timedelta(minutes=1)
    PinDevice.objects.filter(device="her-old-phone").update(last_used=long_ago)
    PinDevice.objects.filter(device=PHONE).update(last_used=lately)
    with pytest.raises(Throttled):
        verify(match, alice, "1234", device="her-old-phone")
    verify(match, alice, "1234", device=PHONE)


@pytest.mark.django_db
def test_phones_past_their_thirty_days_are_deleted_when_a_phone_sits_down(match, alice, bob):
    verify(match, bob, "1234", device="bobs-old-phone")
    verify(match, bob, "1234", device="bobs-phone")
    long_ago = timezone.now() - services.KNOWN_DEVICE_FOR - timedelta(minutes=1)
    PinDevice.objects.filter(device="bobs-old-phone").update(last_used=long_ago)
    verify(match, alice, "1234", device=PHONE)  # anyone's right PIN prunes
    left = sorted(PinDevice.objects.values_list("device", flat=True))
    assert left == ["bobs-phone", PHONE]


@pytest.mark.django_db
def test_a_known_phone_giving_its_pin_again_keeps_its_thirty_days_from_then(match, alice):
    verify(match, alice, "1234", device=PHONE)
    nearly = timezone.now() - services.KNOWN_DEVICE_FOR + timedelta(minutes=1)
    PinDevice.objects.filter(device=PHONE).update(last_used=nearly)
    verify(match, alice, "1234", device=PHONE)
    [device] = PinDevice.objects.all()
    assert device.last_used > timezone.now() - timedelta(minutes=1)


@pytest.mark.django_db
def test_the_network_limit_holds_only_the_phones_that_failed_there(match, alice, bob, monkeypatch):
    """Issue 24, finding 2: wrong PINs from a venue's shared address for several players
    never refuse a phone that did not fail there, with the right PIN."""
    monkeypatch.setattr("scoring.services.players.NETWORK_FAILURE_LIMIT", 3)
    fail(match, alice, 2, device="a", ip="203.0.113.7")
    fail(match, bob, 1, device="b", ip="203.0.113.7")
    with pytest.raises(Throttled) as caught:
        verify(match, alice, "1234", device="a", ip="203.0.113.7")  # a phone that failed
    assert caught.value.code == "pin_locked"
    assert caught.value.message == (
        "Too many wrong PINs from this network, this phone's among them; this phone may "
        "try again in 60 minutes, or ask an organiser to lift the network limit."
    )
    assert caught.value.retry_after == 3600
    verify(match, bob, "1234", device="c", ip="203.0.113.7")  # an uninvolved phone sits
    verify(match, alice, "1234", device="a", ip="198.51.100.1")  # elsewhere, too


@pytest.mark.django_db
def test_an_organiser_lifts_a_network_limit_in_one_action_with_a_ledger_row(
    match, alice, bob, organiser, monkeypatch
):
    monkeypatch.setattr("scoring.services.players.NETWORK_FAILURE_LIMIT", 3)
    stranger = PlayerFactory(name="Stranger")  # another club's player, same address
    other = services.start_match(
        club=stranger.club,
        player_a=stranger,
        player_b=PlayerFactory(club=stranger.club),
        actor=services.Actor(user=UserFactory(is_superuser=True)),
    )
    fail(other, stranger, 1, device="x", ip="203.0.113.7")
    fail(match, alice, 2, device="a", ip="203.0.113.7")
    fail(match, bob, 1, device="b", ip="203.0.113.7")
    [limit] = services.network_limits(club=match.club)
    assert (limit.ip, limit.failures) == ("203.0.113.7", 3)

    with pytest.raises(Forbidden):
        services.lift_network_limit(
            club=match.club, ip="203.0.113.7", actor=services.Actor(user=alice.user)
        )
    actor = services.Actor(user=organiser)
    assert services.lift_network_limit(club=match.club, ip="203.0.113.7", actor=actor) == 3
    verify(match, alice, "1234", device="a", ip="203.0.113.7")
    assert PinFailure.objects.get().player == stranger  # another club's are its own
    row = LedgerRow.objects.get(action="pin_network_unlocked")
    assert row.chain == f"club:{match.club_id}" and row.user == organiser


@pytest.mark.django_db
def test_the_club_page_shows_a_network_limit_and_its_button_lifts_it(
    match, alice, organiser, monkeypatch
):
    monkeypatch.setattr("scoring.services.players.NETWORK_FAILURE_LIMIT", 2)
    fail(match, alice, 2, device="a", ip="203.0.113.7")
    client = Client()
    client.force_login(organiser, backend="ginclub.sessions.ModelBackend")
    page = client.get(f"/clubs/{match.club.slug}/").content.decode()
    assert "203.0.113.7" in page and "Lift the network limit" in page
    answer = client.post(
        f"/clubs/{match.club.slug}/lift-network-limit/",
        {"ip": "203.0.113.7", "next": f"/clubs/{match.club.slug}/"},
    )
    assert answer.status_code == 302 and not PinFailure.objects.exists()
    assert "Lift the network limit" not in client.get(f"/clubs/{match.club.slug}/").content.decode()


@pytest.mark.django_db
def test_the_api_lifts_a_network_limit_for_organisers_only(match, alice, organiser):
    fail(match, alice, 2, device="a", ip="203.0.113.7")
    api = APIClient()
    url = f"/api/clubs/{match.club.slug}/lift-network-limit/"
    api.force_authenticate(alice.user)
    refused = api.post(url, {"ip": "203.0.113.7"}, format="json")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_allowed"
    api.force_authenticate(organiser)
    answer = api.post(url, {"ip": "203.0.113.7"}, format="json")
    assert answer.status_code == 200 and answer.json() == {"ip": "203.0.113.7", "cleared": 2}
    assert api.post(url, {"ip": "not an address"}, format="json").status_code == 400


@pytest.mark.django_db
def test_the_lock_is_checked_before_the_pin_is_hashed(match, alice, monkeypatch):
    fail(match, alice, services.PIN_FAILURE_LIMIT)
    checked = []
    monkeypatch.setattr(Player, "check_pin", lambda self, pin: checked.append(pin) or True)
    with pytest.raises(Throttled):
        verify(match, alice, "1234")
    assert checked == []


@pytest.mark.django_db
def test_pins_are_stored_with_a_fast_salted_hash_and_old_slow_hashes_are_upgraded(match, alice):
    alice.set_pin("1234")
    assert alice.pin_hash.startswith("pin-sha256$") and "1234" not in alice.pin_hash
    other = Player(pin_hash="")
    other.set_pin("1234")
    assert other.pin_hash != alice.pin_hash  # salted
    assert alice.check_pin("1234") and not alice.check_pin("1235")

    Player.objects.filter(pk=alice.pk).update(pin_hash=make_password("4321"))
    alice.refresh_from_db()
    assert alice.pin_is_legacy and alice.check_pin("4321")
    verify(match, alice, "4321", device=PHONE)
    alice.refresh_from_db()
    assert not alice.pin_is_legacy and alice.check_pin("4321")


@pytest.mark.django_db
def test_organiser_sees_and_lifts_a_lock_with_a_ledger_row(match, alice, organiser):
    fail(match, alice, services.PIN_FAILURE_LIMIT)
    [lock] = services.pin_locks([alice, match.player_b])
    assert (lock.player, lock.everywhere, lock.devices, lock.minutes_left) == (alice, False, 1, 5)

    with pytest.raises(Forbidden):
        services.unlock_pin(player=alice, actor=services.Actor(user=alice.user))
    assert services.unlock_pin(player=alice, actor=services.Actor(user=organiser)) == 5
    assert services.pin_locks([alice]) == []
    verify(match, alice, "1234")
    row = LedgerRow.objects.get(action="pin_unlocked")
    assert row.chain == f"club:{alice.club_id}" and row.user == organiser


@pytest.mark.django_db
def test_lock_shows_on_the_match_and_club_pages_and_the_button_lifts_it(match, alice, organiser):
    fail(match, alice, services.PIN_FAILURE_LIMIT)
    client = Client()
    client.force_login(organiser, backend="ginclub.sessions.ModelBackend")
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "PIN locks" in page and "locked on 1 phone" in page
    assert "locked on 1 phone" in client.get(f"/clubs/{match.club.slug}/").content.decode()

    url = f"/clubs/{match.club.slug}/players/{alice.pk}/unlock-pin/"
    answer = client.post(url, {"next": f"/matches/{match.pk}/"})
    assert answer.status_code == 302 and answer["Location"] == f"/matches/{match.pk}/"
    assert not PinFailure.objects.exists()
    assert "PIN locks" not in client.get(f"/matches/{match.pk}/").content.decode()
    # Never off-site.
    answer = client.post(url, {"next": "https://evil.example/"})
    assert answer["Location"] == f"/clubs/{match.club.slug}/"


@pytest.mark.django_db
def test_the_seat_form_counts_per_browser_session(match, alice):
    thief, own = Client(), Client()
    for client in (thief, own):
        client.get(f"/t/{table_token(match)}/")
    for _ in range(services.PIN_FAILURE_LIMIT):
        thief.post(f"/matches/{match.pk}/seat/", {"player": alice.pk, "pin": "0000"})
    locked = thief.post(f"/matches/{match.pk}/seat/", {"player": alice.pk, "pin": "1234"})
    assert locked.status_code == 429
    assert b"Too many wrong PINs for Alice from this phone; try again in 5 minutes" in (
        locked.content
    )
    assert 290 <= int(locked["Retry-After"]) <= 300  # the lock's five minutes, less the test's
    seated = own.post(f"/matches/{match.pk}/seat/", {"player": alice.pk, "pin": "1234"})
    assert seated.status_code == 302


@pytest.mark.django_db
def test_the_apis_pin_lock_says_when_to_try_again(match, alice):
    """Every 429 carries Retry-After (RFC 6585), the API's JSON too."""
    phone = APIClient()
    phone.get(f"/t/{table_token(match)}/")  # the table link, opened: one browser session
    body = {"player": alice.pk, "pin": "0000"}
    for _ in range(services.PIN_FAILURE_LIMIT):
        assert phone.post(f"/api/matches/{match.pk}/seat/", body, format="json").status_code == 403
    locked = phone.post(f"/api/matches/{match.pk}/seat/", {**body, "pin": "1234"}, format="json")
    assert locked.status_code == 429 and locked.json()["error"]["code"] == "pin_locked"
    assert 290 <= int(locked["Retry-After"]) <= 300


# ---------------------------------------------------------------- at the same instant


@pytest.fixture
def table(transactional_db):
    club = ClubFactory()
    organiser = UserFactory()
    club.organisers.add(organiser)
    alice = PlayerFactory(club=club, name="Alice")
    bob = PlayerFactory(club=club, name="Bob")
    match = services.start_match(
        club=club, player_a=alice, player_b=bob, actor=services.Actor(user=organiser)
    )
    return match, alice


def _count_hashes(monkeypatch) -> list[str]:
    checked: list[str] = []
    lock = threading.Lock()
    real = Player.check_pin

    def counting(self, pin):
        with lock:
            checked.append(pin)
        return real(self, pin)

    monkeypatch.setattr(Player, "check_pin", counting)
    return checked


def _codes(results) -> dict[str, int]:
    codes: dict[str, int] = {}
    for result in results:
        assert isinstance(result, (Forbidden, Throttled)), result
        codes[result.code] = codes.get(result.code, 0) + 1
    return codes


@pytest.mark.django_db(transaction=True)
def test_thirty_wrong_pins_at_once_from_one_phone_check_exactly_the_limit(table, monkeypatch):
    match, alice = table
    checked = _count_hashes(monkeypatch)
    results = run_together(
        30,
        lambda i: verify(Match.objects.get(pk=match.pk), alice, "0000"),
    )
    limit = services.PIN_FAILURE_LIMIT
    assert _codes(results) == {"wrong_pin": limit, "pin_locked": 30 - limit}
    assert len(checked) == limit
    assert PinFailure.objects.filter(player=alice).count() == limit


@pytest.mark.django_db(transaction=True)
def test_thirty_wrong_pins_at_once_from_thirty_phones_check_exactly_the_ceiling(table, monkeypatch):
    match, alice = table
    checked = _count_hashes(monkeypatch)
    results = run_together(
        30,
        lambda i: verify(
            Match.objects.get(pk=match.pk), alice, "0000", device=f"phone-{i}", ip=f"10.0.2.{i}"
        ),
    )
    limit = services.PLAYER_FAILURE_LIMIT
    assert _codes(results) == {"wrong_pin": limit, "pin_locked": 30 - limit}
    assert len(checked) == limit


@pytest.mark.django_db(transaction=True)
def test_wrong_pins_for_many_players_at_once_from_one_phone_stop_at_the_address_limit(
    table, monkeypatch
):
    """The address count holds across players (issue 10): thirty wrong PINs for thirty
    different players from one phone on one address, at once, with the limit at 7."""
    match, _alice = table
    club = match.club
    players = [PlayerFactory(club=club, name=f"P{n:02d}") for n in range(30)]
    matches = [
        services.start_match(
            club=club,
            player_a=players[n],
            player_b=players[(n + 1) % 30] if n % 2 == 0 else players[n - 1],
            actor=services.Actor(user=club.organisers.first()),
        )
        for n in range(0, 30, 2)
    ]
    monkeypatch.setattr("scoring.services.players.NETWORK_FAILURE_LIMIT", 7)
    checked = _count_hashes(monkeypatch)
    results = run_together(
        30,
        lambda i: verify(
            Match.objects.get(pk=matches[i // 2].pk),
            players[i],
            "0000",
            device="one-sweeping-phone",
            ip="10.0.9.9",
        ),
    )
    assert _codes(results) == {"wrong_pin": 7, "pin_locked": 23}
    assert len(checked) == 7
    assert PinFailure.objects.filter(ip="10.0.9.9").count() == 7
