"""The player's charts: server-drawn SVG (pygal) served as images, with nothing that runs
and nothing loaded from elsewhere, under a policy of their own; the same figures as the
text tables beside them."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from scoring import charts
from tests.factories import UserFactory
from tests.scoring.helpers import play_hand, quick, start

pytestmark = pytest.mark.django_db


def chart_url(player, chart: str) -> str:
    return reverse("scoring:player-chart", args=[player.pk, chart])


def values(svg: str) -> list[str]:
    """The bar values pygal writes beside each bar (<desc class="value">)."""
    return re.findall(r'<desc class="value">([^<]*)</desc>', svg)


@pytest.fixture
def played(club, organiser, alice, bob):
    """Alice knocks at 4, at 4 again and at 9 (Bob has 40 each time, so she wins 36 +
    36 + 31 = 103 ≥ 100 at the third hand)."""
    match = start(club, alice, bob, organiser)
    for number, kd in enumerate((4, 4, 9), start=1):
        play_hand(match, alice, bob, quick(number, knocker="A", kd=kd, dd=40))
    return match


def test_a_chart_is_an_svg_image_with_no_script_and_nothing_from_elsewhere(client, played, alice):
    client.force_login(alice.user)
    response = client.get(chart_url(alice, "deadwood"))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    svg = response.content.decode()
    root = ET.fromstring(svg)  # well-formed XML
    tags = {element.tag.rsplit("}", 1)[-1] for element in root.iter()}
    assert "script" not in tags and "foreignObject" not in tags
    assert not re.search(r"<script|javascript:|\bon\w+=", svg)
    assert not re.findall(r'(?:href|src)="([^"]+)"', svg)  # loads nothing
    # Its own policy: styles inside the image, and nothing else at all.
    policy = response["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "style-src 'unsafe-inline'" in policy
    assert "script-src" not in policy
    # Deadwood 0 to 9: two knocks at 4, one at 9, none elsewhere.
    assert values(svg) == ["0", "0", "0", "0", "2", "0", "0", "0", "0", "1"]
    # Every bar is drawn (taking out the tooltips kept the bars' rectangles).
    bars = [e for e in root.iter() if "rect" in (e.get("class") or "").split()]
    assert len(bars) == 10
    assert not [e for e in root.iter() if "tooltip" in (e.get("class") or "").split()]


def test_results_per_month_shows_the_matches_won_and_lost(client, played, alice, bob):
    client.force_login(bob.user)
    svg = client.get(chart_url(alice, "results")).content.decode()
    # One month: one match won (Alice's), none lost; stacked bars, won then lost.
    assert values(svg) == ["1", "0"]
    assert "Matches won and lost per month" in svg


def test_the_page_shows_each_chart_beside_its_table(client, played, alice):
    client.force_login(alice.user)
    html = client.get(reverse("scoring:player", args=[alice.pk])).content.decode()
    assert f'src="{chart_url(alice, "results")}"' in html
    assert f'src="{chart_url(alice, "deadwood")}"' in html
    deadwood = html[html.index('data-testid="table-deadwood"') :]
    assert re.search(r'<th scope="row" class="num">4</th><td class="num">2</td>', deadwood)
    assert re.search(r'<th scope="row" class="num">9</th><td class="num">1</td>', deadwood)


def test_charts_are_asked_of_the_same_permission_as_the_page(client, played, alice):
    assert client.get(chart_url(alice, "results")).status_code == 404
    client.force_login(UserFactory(username="stranger"))
    assert client.get(chart_url(alice, "deadwood")).status_code == 404
    client.force_login(alice.user)
    assert client.get(chart_url(alice, "nonsense")).status_code == 404


def test_no_data_draws_an_empty_chart_that_says_so():
    svg = charts.knock_deadwood([])
    assert "Nothing yet" in svg and "<script" not in svg


def test_a_long_history_keeps_the_last_twelve_months_in_the_chart():
    from datetime import date

    from scoring.stats import MonthResults

    months = [
        MonthResults(date(2025 + (m - 1) // 12, (m - 1) % 12 + 1, 1), m, 0) for m in range(1, 19)
    ]
    svg = charts.results_per_month(months)
    # Won counts 7..18 (the last 12 months), then the 12 lost counts (all 0).
    assert values(svg) == [str(n) for n in range(7, 19)] + ["0"] * 12
    assert "Jun 2026" in svg and "Jun 2025" not in svg


def y_axis(svg: str) -> list[str]:
    """The labels up the side of a chart (pygal's <g class="axis y ...">)."""
    root = ET.fromstring(svg)
    axis = next(g for g in root.iter() if "axis y" in (g.get("class") or ""))
    return [t.text for t in axis.iter() if t.tag.rsplit("}", 1)[-1] == "text" and t.text]


def test_the_axis_figures_are_written_the_readers_way():
    from datetime import date

    from django.utils import translation

    from scoring.stats import RatingMonth

    # a rating that moved from 1.2 to 2: the side reads 1.2, 1.4 … 2 (a walk saw "1.4"
    # on an Italian page whose tables say "1,4")
    months = [RatingMonth(date(2026, 1, 1), 1.2, 1), RatingMonth(date(2026, 2, 1), 2.0, 1)]
    with translation.override("it"):
        italian = charts.rating_over_time(months)
    assert y_axis(italian) == ["1,2", "1,4", "1,6", "1,8", "2"]
    assert values(italian) == ["1,2", "2"]
    with translation.override("en"):
        english = charts.rating_over_time(months)
    assert y_axis(english) == ["1.2", "1.4", "1.6", "1.8", "2"]


def test_charts_of_counts_go_up_in_whole_numbers():
    """Three knocks at 5 deadwood: the side reads 0 1 2 3 (a walk saw 0.6, 1.2, 1.8...
    knocks); many matches a month step by whole numbers too, at most six steps."""
    from datetime import date

    from scoring.stats import MonthResults

    assert y_axis(charts.knock_deadwood([(5, 3), (2, 1)])) == ["0", "1", "2", "3"]
    months = [MonthResults(date(2026, 1, 1), 20, 3), MonthResults(date(2026, 2, 1), 2, 1)]
    assert y_axis(charts.results_per_month(months)) == ["0", "4", "8", "12", "16", "20", "24"]


def test_months_are_named_as_the_language_writes_them():
    """English capitalises a month's name, Italian does not: 'Jan 2026', 'gen 2026' (the
    charts said 'Gen 2026' beside Italian tables that say 'gen')."""
    from datetime import date

    from django.utils import translation

    from scoring.stats import MonthResults

    months = [MonthResults(date(2026, 1, 1), 1, 0)]
    with translation.override("it"):
        assert "gen 2026" in charts.results_per_month(months)
    with translation.override("en"):
        assert "Jan 2026" in charts.results_per_month(months)
