"""The dashboard's security tools: revoke a round's table links, see and lift PIN locks."""

from __future__ import annotations

import pytest
from django.test import Client

from ginclub.errors import Forbidden
from ginclub.permissions import table_token
from scoring import services as scoring
from scoring.models import LedgerRow, Match, PinFailure
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import new_event, play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def running():
    organiser = UserFactory()
    club = ClubFactory()
    club.organisers.add(organiser)
    tournament = new_event(club, organiser, players=4)
    rnd = play_round(tournament, organiser, play=False, close=False)
    client = Client()
    client.force_login(organiser, backend="ginclub.sessions.ModelBackend")
    return tournament, rnd, client


def test_revoke_table_links_for_a_round_withdraws_every_tables_links(running):
    tournament, rnd, client = running
    matches = list(Match.objects.filter(pairing__round=rnd))
    old_tokens = [table_token(m) for m in matches]
    dashboard = client.get(f"/tournaments/{tournament.slug}/manage/dashboard/")
    assert b"Revoke table links" in dashboard.content
    url = f"/tournaments/{tournament.slug}/manage/rounds/{rnd.number}/revoke-links/"
    answer = client.post(url)
    assert answer.status_code == 302
    assert {m.link_generation for m in Match.objects.filter(pairing__round=rnd)} == {1}
    for token in old_tokens:
        assert Client().get(f"/t/{token}/").status_code == 403
    row = LedgerRow.objects.get(chain=tournament.chain, action="table_links_revoked")
    assert row.after == {"round": rnd.number, "tables": len(matches)}


def test_dashboard_shows_pin_locks_and_lifts_them(running):
    tournament, rnd, client = running
    match = Match.objects.filter(pairing__round=rnd).first()
    player = match.player_a
    player.set_pin("1234")
    player.save(update_fields=["pin_hash"])
    for _ in range(scoring.PIN_FAILURE_LIMIT):
        with pytest.raises(Forbidden):
            scoring.verify_pin(match=match, player=player, pin="0000", device="x")
    assert PinFailure.objects.filter(player=player).count() == scoring.PIN_FAILURE_LIMIT
    dashboard = f"/tournaments/{tournament.slug}/manage/dashboard/"
    page = client.get(dashboard).content.decode()
    assert f"{player.name}</strong>: locked on 1 phone" in page
    answer = client.post(
        f"/clubs/{player.club.slug}/players/{player.pk}/unlock-pin/", {"next": dashboard}
    )
    assert answer["Location"] == dashboard
    assert "PIN locks" not in client.get(dashboard).content.decode()
