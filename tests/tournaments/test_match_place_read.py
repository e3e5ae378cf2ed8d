"""A tournament match's page says where it is played and links the event's page the
viewer may open: both come from one read of its pairing (a walk of the code found the
match page reading the pairing once for the words and again for the link)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.tournaments.helpers import new_event, play_round

pytestmark = pytest.mark.django_db


def place_reads(queries, match_id: int) -> list[str]:
    """The queries that read the match's pairing by its match with its event's name
    (where it is played: the words and the event's page)."""
    by_match = re.compile(
        rf'FROM "tournaments_pairing".*WHERE "tournaments_pairing"\."match_id" '
        rf"(= {match_id}|IN \({match_id}\))",
        re.S,
    )
    return [
        q["sql"]
        for q in queries
        if by_match.search(q["sql"])
        and '"tournaments_tournament"."name"' in q["sql"].split(" FROM ")[0]
    ]


def test_the_match_page_reads_its_place_once(club, organiser):
    event = new_event(club, organiser, players=["Ada", "Ben"])
    rnd = play_round(event, organiser, play=False, close=False)
    pairing = rnd.pairings.get()
    desk = Client()
    desk.force_login(organiser)
    with CaptureQueriesContext(connection) as read:
        page = desk.get(f"/matches/{pairing.match_id}/").content.decode()
    dashboard = f"/tournaments/{event.slug}/manage/dashboard/"
    assert f'<a href="{dashboard}">Club Open · round 1, table 1</a>' in page
    assert len(place_reads(read.captured_queries, pairing.match_id)) == 1, "\n\n".join(
        place_reads(read.captured_queries, pairing.match_id)
    )
