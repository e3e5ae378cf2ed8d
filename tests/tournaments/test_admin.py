"""The admin shows the tournament models; pairings are read-only there."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory
from tests.tournaments.helpers import new_event, play_round

pytestmark = pytest.mark.django_db


def test_admin_lists_and_opens_tournament_records(club, organiser):
    event = new_event(club, organiser, players=3)
    rnd = play_round(event, organiser)
    client = Client()
    client.force_login(UserFactory(username="root", is_superuser=True, is_staff=True))
    pairing = rnd.pairings.first()
    for url in [
        "/admin/tournaments/tournament/",
        f"/admin/tournaments/tournament/{event.pk}/change/",
        "/admin/tournaments/registration/",
        "/admin/tournaments/round/",
        f"/admin/tournaments/round/{rnd.pk}/change/",
        "/admin/tournaments/pairing/",
        f"/admin/tournaments/pairing/{pairing.pk}/change/",
    ]:
        response = client.get(url)
        assert response.status_code == 200, url
    assert client.get("/admin/tournaments/pairing/add/").status_code == 403
