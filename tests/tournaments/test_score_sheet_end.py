"""A printed score sheet ends with room to sign: a walk found its two signature blanks
ten underscores long (about 2 cm), in English and Italian. They are a line of their own
now, each blank long enough to sign on (tests/browser measures it printed)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.tournaments.helpers import new_event, play_round

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language, signatures", [("en-gb", "Signatures"), ("it", "Firme")])
def test_the_sheets_signature_blanks_are_long_enough_to_sign(club, organiser, language, signatures):
    event = new_event(club, organiser, players=["Ada", "Ben"])
    play_round(event, organiser, play=False, close=False)
    desk = Client(HTTP_ACCEPT_LANGUAGE=language)
    desk.force_login(organiser)
    page = desk.get(f"/tournaments/{event.slug}/manage/print/sheets/").content.decode()
    line = re.search(rf"{signatures}: A (_+) &nbsp; B (_+)</p>", page)
    assert line is not None, page[-2000:]
    assert min(len(line.group(1)), len(line.group(2))) >= 30, line.group(0)
