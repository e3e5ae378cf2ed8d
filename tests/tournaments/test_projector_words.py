"""The projector is read from the back of the hall and touched by nobody: a walk read
"Tap a name to see why it stands there." on it. Its standings say no tap or swipe words;
the public standings, read on phones, keep them."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.test import Client

from tests.tournaments.helpers import new_event, play_round

pytestmark = pytest.mark.django_db

TOUCH = {
    "en-gb": ("Tap a name", "swipe the table"),
    "it": ("Tocca un nome", "scorri la tabella"),
}


@pytest.mark.parametrize("language", ["en-gb", "it"])
def test_the_projector_asks_nobody_to_tap_or_swipe(club, organiser, language):
    event = new_event(club, organiser, players=["Ada", "Ben", "Cleo", "Dev"])
    play_round(event, organiser)
    caches["shared"].clear()
    hall = Client(HTTP_ACCEPT_LANGUAGE=language)
    # the phones' page first: its cached table must not be the projector's, nor the reverse
    phones = hall.get(f"/tournaments/{event.slug}/standings/").content.decode()
    for url in (
        f"/tournaments/{event.slug}/projector/",
        f"/tournaments/{event.slug}/projector/board/",
    ):
        page = hall.get(url).content.decode()
        assert "<td>Ada</td>" in page
        for words in TOUCH[language]:
            assert words not in page, (url, words)
        # nor a name to open: the dotted underline of a "why" invites a tap
        assert '<details class="why' not in page and "<td>Ada</td>" in page
    again = hall.get(f"/tournaments/{event.slug}/standings/").content.decode()
    for page in (phones, again):
        assert TOUCH[language][0] in page
