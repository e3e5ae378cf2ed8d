"""A player's charts as SVG, drawn on the server with pygal, so they work offline and print.

Each chart is served as its own image/svg+xml response and shown with <img> beside a
text table of the same figures (the table is what screen readers and search read; the
image carries a title and a one-line description too). pygal writes its interactive
tooltips as a <script> (its configuration, even with no script files): `_no_scripts`
takes every script and the tooltip layer out of the tree, so an image holds only
shapes, text and its own <style> element. The response's own Content-Security-Policy
(scoring.views_players) allows that inline style and nothing else.

Sizes: 360 x 260 user units, the width of a phone, with 12-14 px text, so an image
shown 100% wide on a 360 px screen keeps its text at about the page's small print.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

import pygal
from django.utils import dateformat
from django.utils.formats import number_format
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from pygal.style import Style

from scoring.stats import MonthResults, RatingMonth

WIDTH, HEIGHT = 360, 260
MAX_STEPS = 6  # up the side of a chart: readable on a phone
# High-contrast colours that stay apart for the common colour blindnesses (won blue,
# lost orange), text in the site's ink colour.
STYLE = Style(
    background="#ffffff",
    plot_background="#ffffff",
    foreground="#1b1b1b",
    foreground_strong="#1b1b1b",
    foreground_subtle="#6b6b6b",
    colors=("#1f5fa8", "#c25a00"),
    font_family="system-ui, sans-serif",
    title_font_size=15,
    label_font_size=12,
    major_label_font_size=12,
    legend_font_size=13,
    value_font_size=12,
    no_data_font_size=14,
)


def _no_scripts(root):
    """Drop pygal's <script> elements and its tooltip layer (only scripts use it)."""
    for parent in list(root.iter()):
        for child in list(parent):
            tag = child.tag.rsplit("}", 1)[-1] if isinstance(child.tag, str) else ""
            classes = (child.get("class") or "").split()
            # The overlay and the tooltip box go; the bars ("tooltip-trigger") stay.
            if tag == "script" or {"tooltip", "tooltip-overlay"} & set(classes):
                parent.remove(child)
    return root


def _chart(kind, title: str, **options):
    chart = kind(
        js=(),
        width=WIDTH,
        height=HEIGHT,
        style=STYLE,
        title=title,
        legend_at_bottom=True,
        legend_box_size=12,
        truncate_legend=-1,
        no_data_text=_("Nothing yet"),
        disable_xml_declaration=True,
        max_scale=MAX_STEPS,
        min_scale=2,
        value_formatter=_number,
        **options,
    )
    chart.xml_filters.append(_no_scripts)
    return chart


def _number(value) -> str:
    """A figure on an axis as pygal writes it (at most 10 significant digits), in the
    reader's way of writing numbers: "1,5" in Italian, as the tables beside it."""
    plain = pygal.formatters.default(value)
    try:
        return number_format(Decimal(plain))
    except InvalidOperation:  # no value ("")
        return plain


def _month(month) -> str:
    """'Nov 2026' ('nov 2026' in Italian): the month's short name in the active language,
    capitalised as that language writes the month's full name (Django's "M" capitalises
    it in every language: "Gen 2026")."""
    short = dateformat.format(month, "b Y")
    return capfirst(short) if dateformat.format(month, "F")[:1].isupper() else short


def _counted(chart, highest: int) -> None:
    """Whole numbers up the side of a chart of counts (matches, knocks), at most
    MAX_STEPS steps: pygal would otherwise split 3 knocks as 0.6, 1.2, 1.8..."""
    step = max(1, -(-highest // MAX_STEPS))
    chart.y_labels = list(range(0, highest + step, step))


MONTHS_SHOWN = 12  # bars a phone's width keeps readable; the table beside lists them all


def results_per_month(months: Sequence[MonthResults]) -> str:
    """Finished matches won and lost in each of the last MONTHS_SHOWN months played, as
    stacked bars."""
    months = list(months)[-MONTHS_SHOWN:]
    chart = _chart(pygal.StackedBar, _("Matches won and lost per month"), x_label_rotation=-45)
    chart.x_labels = [_month(m.month) for m in months]
    chart.add(_("Won"), [m.won for m in months])
    chart.add(_("Lost"), [m.lost for m in months])
    _counted(chart, max((m.won + m.lost for m in months), default=0))
    return chart.render(is_unicode=True)


def knock_deadwood(counts: Sequence[tuple[int, int]]) -> str:
    """How many knocks at each deadwood count (0 to the highest seen)."""
    chart = _chart(pygal.Bar, _("Deadwood when knocking"), show_legend=False)
    top = max((deadwood for deadwood, _knocks in counts), default=-1)
    by_deadwood = dict(counts)
    chart.x_labels = [str(d) for d in range(top + 1)]
    chart.x_title = pgettext("chart axis", "deadwood")
    chart.y_title = pgettext("chart axis", "knocks")
    chart.add(_("Knocks"), [by_deadwood.get(d, 0) for d in range(top + 1)])
    _counted(chart, max(by_deadwood.values(), default=0))
    return chart.render(is_unicode=True)


def rating_over_time(months: Sequence[RatingMonth]) -> str:
    """The club rating at the end of each of the last MONTHS_SHOWN months played, as a
    line with a dot a month."""
    months = list(months)[-MONTHS_SHOWN:]
    chart = _chart(
        pygal.Line, _("Club rating at each month's end"), show_legend=False, x_label_rotation=-45,
        dots_size=4, stroke_style={"width": 3},
    )  # fmt: skip
    chart.x_labels = [_month(m.month) for m in months]
    chart.y_title = pgettext("chart axis", "rating")
    chart.add(_("Rating"), [round(m.rating, 1) for m in months])
    return chart.render(is_unicode=True)
