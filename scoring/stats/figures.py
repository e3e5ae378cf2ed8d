"""The statistics a player's page shows, made from their summed seat summaries (a
`Tally`, scoring.stats.summaries): each a `Figure` that says what it rests on.

Terms: see scoring.stats (hands, knock, undercut, caught, box, shutout, card entry,
basis).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, npgettext, pgettext

from scoring.models import SeatSummary
from scoring.stats.summaries import COUNTS, Tally, tally_of

MIN_HANDS = 20
MIN_GAMES = 5


@dataclass(frozen=True)
class Figure:
    """One statistic: `value` (None when nothing to rest on) from `count` of `basis`
    hands or games (`unit`), as a rate per 100, a percentage, an average or a count."""

    key: str
    label: str  # lazy: said in the reader's language (a History is cached for all)
    value: float | None
    basis: int
    unit: str
    kind: str  # "per100", "percent", "average", "count"
    count: int | None = None
    # What a percentage is of, when not the basis (melds, of card-entry hands).
    whole: int | None = None
    whole_unit: str = ""

    @property
    def minimum(self) -> int:
        return MIN_GAMES if self.unit == "games" else MIN_HANDS

    @property
    def enough(self) -> bool:
        return self.basis >= self.minimum

    @property
    def text(self) -> str:
        """The value in words: '37.5 per 100 hands (3)', '25% (1 of 4)', '4.33', '2', its
        decimals written as the reader's language writes them."""
        if self.value is None:
            return pgettext("statistic", "none yet")
        value = number_format(f"{self.value:g}")  # 57,69 in Italian
        if self.kind == "per100":
            return _("%(value)s per 100 hands (%(count)s)") % {"value": value, "count": self.count}
        if self.kind == "percent":
            whole = self.basis if self.whole is None else self.whole
            values = {"value": value, "count": self.count, "whole": whole}
            if self.whole_unit:
                values["unit"] = _unit_words(self.whole_unit, whole)
                return _("%(value)s%% (%(count)s of %(whole)s %(unit)s)") % values
            return _("%(value)s%% (%(count)s of %(whole)s)") % values
        return value

    @property
    def unit_text(self) -> str:
        """`unit` (a code: "hands", "card-entry knocks") in the reader's language, for
        "from 40 hands"."""
        return _unit_words(self.unit, self.basis)


def _unit_words(unit: str, count: int) -> str:
    """A figure's unit in words, in the active language (English: the unit as it is).
    One literal call per unit, not a table built from the codes: makemessages finds
    only literal strings."""
    if unit == "hands":
        return npgettext("statistics unit", "hands", "hands", count)
    if unit == "games":
        return npgettext("statistics unit", "games", "games", count)
    if unit == "knocks":
        return npgettext("statistics unit", "knocks", "knocks", count)
    if unit == "knocks against you":
        return npgettext("statistics unit", "knocks against you", "knocks against you", count)
    if unit == "hands defended":
        return npgettext("statistics unit", "hands defended", "hands defended", count)
    if unit == "card-entry hands":
        return npgettext("statistics unit", "card-entry hands", "card-entry hands", count)
    if unit == "card-entry knocks":
        return npgettext("statistics unit", "card-entry knocks", "card-entry knocks", count)
    if unit == "melds":
        return npgettext("statistics unit", "melds", "melds", count)
    return unit


def _ratio(part: int | None, whole: int, scale: int = 1) -> float | None:
    return round(scale * (part or 0) / whole, 2) if whole else None


def player_tally(player_id: int, hidden: frozenset[int] = frozenset()) -> Tally:
    """The player's seat summaries summed, less the matches whose results the viewer may
    not see (`hidden`): one query of one row per match played."""
    rows = SeatSummary.objects.filter(player_id=player_id)
    if hidden:
        rows = rows.exclude(Q(match_id__in=hidden))
    total = Tally()
    for row in rows.order_by().values_list(*COUNTS, "knock_deadwoods"):
        total.add(tally_of(row))
    return total


def hand_figures(n: Tally) -> list[Figure]:
    """Rates per 100 hands, undercuts and average deadwoods."""
    hands, mine = n.hands, n.knocks

    def per100(key: str, label, count: int) -> Figure:
        return Figure(key, label, _ratio(count, hands, 100), hands, "hands", "per100", count)

    return [
        per100("hands_won", gettext_lazy("Hands won"), n.won),
        per100("knocks", gettext_lazy("Knocks"), mine),
        per100("gins", gettext_lazy("Gins"), n.gins),
        per100("big_gins", gettext_lazy("Big gins"), n.big_gins),
        Figure(
            "undercuts_given", gettext_lazy("Undercuts given (of your opponents' knocks)"),
            _ratio(n.given, n.opp_knocks, 100), n.opp_knocks, "knocks against you",
            "percent", n.given,
        ),
        Figure(
            "undercuts_suffered", gettext_lazy("Undercuts suffered (of your knocks)"),
            _ratio(n.suffered, mine, 100), mine, "knocks", "percent", n.suffered,
        ),
        Figure(
            "knock_deadwood", gettext_lazy("Average deadwood when knocking"),
            _ratio(n.knock_deadwood, mine), mine, "knocks", "average",
        ),
        Figure(
            "caught_deadwood", gettext_lazy("Average deadwood caught when defending"),
            _ratio(n.caught, n.defended), n.defended, "hands defended", "average",
        ),
    ]  # fmt: skip


def game_figures(n: Tally) -> list[Figure]:
    """Boxes per game and shutouts, from the engine's breakdown of each finished game."""
    played = n.games
    return [
        Figure(
            "boxes", gettext_lazy("Boxes per game"), _ratio(n.boxes, played), played, "games",
            "average",
        ),
        Figure(
            "shutouts", gettext_lazy("Shutouts won"), n.shutouts, played, "games", "count",
            n.shutouts,
        ),
        Figure(
            "shut_out", gettext_lazy("Shutouts suffered"), n.shut_out, played, "games", "count",
            n.shut_out,
        ),
    ]  # fmt: skip


def card_figures(n: Tally) -> list[Figure]:
    """Meld shapes and lay-offs against the player, from their card-entry hands."""
    hands, melds = n.card_hands, n.sets + n.runs
    return [
        Figure("sets", gettext_lazy("Melds that are sets"), _ratio(n.sets, melds, 100), hands,
               "card-entry hands", "percent", n.sets, melds, "melds"),
        Figure("runs", gettext_lazy("Melds that are runs"), _ratio(n.runs, melds, 100), hands,
               "card-entry hands", "percent", n.runs, melds, "melds"),
        Figure("layoffs_against", gettext_lazy("Cards laid off on your melds per knock"),
               _ratio(n.laid_off, n.card_knocks), n.card_knocks, "card-entry knocks",
               "average", n.laid_off),
    ]  # fmt: skip


def knock_deadwood_counts(n: Tally) -> list[tuple[int, int]]:
    """[(deadwood, knocks)] of the player's knocks, by deadwood."""
    return sorted(n.knock_deadwoods.items())
