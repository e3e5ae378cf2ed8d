"""The organiser's floor (issue 9, trap 10): check everyone in at once, and find a
player on a long list."""

from __future__ import annotations

import pytest

from ginclub.errors import Forbidden
from scoring.models import LedgerRow
from tests.factories import UserFactory
from tests.tournaments.helpers import actor, new_event, reg
from tournaments import services

pytestmark = pytest.mark.django_db


def test_check_in_all_marks_everyone_but_the_withdrawn_with_one_ledger_row(club, organiser):
    event = new_event(club, organiser, players=["Cleo", "Ada", "Ben", "Dev"])
    services.check_in(registration_id=reg(event, "Ben").pk, actor=actor(organiser))
    services.withdraw_registration(
        registration_id=reg(event, "Dev").pk, actor=actor(organiser), reason="went home"
    )
    done = services.check_in_all(tournament_id=event.pk, actor=actor(organiser))
    assert [r.player.name for r in done] == ["Ada", "Cleo"]
    assert {r.player.name: r.checked_in for r in event.registrations.all()} == {
        "Ada": True,
        "Ben": True,
        "Cleo": True,
        "Dev": False,
    }
    row = LedgerRow.objects.get(chain=event.chain, action="checked_in_all")
    assert row.after == {"players": ["Ada", "Cleo"]}
    assert services.check_in_all(tournament_id=event.pk, actor=actor(organiser)) == []
    assert LedgerRow.objects.filter(action="checked_in_all").count() == 1


def test_only_the_clubs_organisers_check_everyone_in(club, organiser):
    event = new_event(club, organiser, players=2)
    with pytest.raises(Forbidden):
        services.check_in_all(tournament_id=event.pk, actor=actor(UserFactory()))
    assert not event.registrations.filter(checked_in=True).exists()


def test_the_players_page_has_the_button_and_the_search_box(client, club, organiser):
    event = new_event(club, organiser, players=["Ada", "Ben"])
    client.force_login(organiser)
    page = client.get(f"/tournaments/{event.slug}/manage/players/").content.decode()
    assert 'data-filter="#registrations"' in page and "js/filter" in page
    response = client.post(f"/tournaments/{event.slug}/manage/players/check-in-all/")
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "2 players checked in: Ada, Ben." in page
