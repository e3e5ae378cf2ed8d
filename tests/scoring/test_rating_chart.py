"""Rating over time (issue 12): the player's club rating at the end of each month, as a
server-drawn line chart beside a text table, and in the player API.

The rating changes are written by hand (RatingChange rows, as the ratings service
leaves them), so the months are worked out here. Alice's three rated matches against
Bob: 10 Jan 2026 0 -> 5.0, 20 Jan 2026 5.0 -> 3.4, 5 Mar 2026 3.4 -> 7.5. Months:
Jan 2026 ends at 3.4 after 2 matches; Feb has none (no point); Mar 2026 ends at 7.5
after 1. A fourth match, still in play, has no change and adds nothing.
"""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from scoring import charts, stats
from scoring.models import Match, RatingChange
from tests.scoring.helpers import start

pytestmark = pytest.mark.django_db

CHANGES = [  # started, before, after
    (dt.datetime(2026, 1, 10, 19, tzinfo=dt.UTC), 0.0, 5.0),
    (dt.datetime(2026, 1, 20, 19, tzinfo=dt.UTC), 5.0, 3.4),
    (dt.datetime(2026, 3, 5, 19, tzinfo=dt.UTC), 3.4, 7.5),
]


@pytest.fixture
def rated(club, organiser, alice, bob):
    for started, before, after in CHANGES:
        match = start(club, alice, bob, organiser)
        Match.objects.filter(pk=match.pk).update(created_at=started)
        RatingChange.objects.create(match=match, player=alice, before=before, after=after)
        RatingChange.objects.create(match=match, player=bob, before=-before, after=-after)
    start(club, alice, bob, organiser)  # in play: not rated


def test_the_rating_history_is_the_rating_at_each_months_end(rated, alice):
    assert stats.rating_history(alice) == [
        stats.RatingMonth(dt.date(2026, 1, 1), 3.4, 2),
        stats.RatingMonth(dt.date(2026, 3, 1), 7.5, 1),
    ]
    # A match the viewer may not see yet leaves its month out (March's only match).
    march = Match.objects.get(created_at__month=3)
    assert stats.rating_history(alice, frozenset({march.pk})) == [
        stats.RatingMonth(dt.date(2026, 1, 1), 3.4, 2)
    ]


def test_the_chart_is_a_script_free_line_of_the_months_ratings(client, rated, alice, bob):
    client.force_login(bob.user)
    response = client.get(reverse("scoring:player-chart", args=[alice.pk, "rating"]))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    svg = response.content.decode()
    root = ET.fromstring(svg)
    assert "script" not in {e.tag.rsplit("}", 1)[-1] for e in root.iter()}
    assert re.findall(r'<desc class="value">([^<]*)</desc>', svg) == ["3.4", "7.5"]
    assert "Jan 2026" in svg and "Mar 2026" in svg and "Feb 2026" not in svg
    assert "Club rating at each month" in svg


def test_the_page_shows_the_rating_chart_beside_its_table(client, rated, alice):
    client.force_login(alice.user)
    html = client.get(reverse("scoring:player", args=[alice.pk])).content.decode()
    assert f'src="{reverse("scoring:player-chart", args=[alice.pk, "rating"])}"' in html
    table = html[html.index('data-testid="table-rating"') :]
    table = table[: table.index("</table>")]
    rows = re.findall(
        r'<th scope="row">([^<]+)</th><td class="num">([^<]+)</td><td class="num">(\d+)</td>',
        table,
    )
    assert rows == [("Jan 2026", "3.4", "2"), ("Mar 2026", "7.5", "1")]


def test_the_api_gives_the_rating_history(client, rated, alice):
    client.force_login(alice.user)
    body = client.get(f"/api/players/{alice.pk}/").json()
    assert body["rating_history"] == [
        {"month": "2026-01", "rating": 3.4, "matches": 2},
        {"month": "2026-03", "rating": 7.5, "matches": 1},
    ]


def test_an_unrated_player_gets_an_empty_chart_and_says_so(client, club, alice, bob):
    assert "Nothing yet" in charts.rating_over_time([])
    client.force_login(alice.user)
    html = client.get(reverse("scoring:player", args=[alice.pk])).content.decode()
    assert "No rated matches yet." in html
