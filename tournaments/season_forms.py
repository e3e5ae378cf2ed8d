"""The season form (organiser pages). It checks shape and says what is wrong with names
and dates; the services check again (tournaments.services.seasons) for the API."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ginclub.inputs import check_date, date_widget_attrs
from tournaments.forms import ISO_DATE, TIEBREAK_SLOTS, _tiebreak_field
from tournaments.models import Season, Tournament
from tournaments.pairing import TIEBREAKS
from tournaments.services.seasons import MIN_MATCHES_MAX, POINTS_MAX


def _date(label) -> forms.DateField:
    # An <input type="date"> reads and writes ISO dates whatever the language.
    return forms.DateField(
        label=label,
        widget=forms.DateInput(attrs=date_widget_attrs(), format="%Y-%m-%d"),
        error_messages=ISO_DATE,
        validators=[check_date],
    )


class SeasonForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    starts_on = _date(gettext_lazy("First day"))
    ends_on = _date(gettext_lazy("Last day"))
    events = forms.ChoiceField(
        label=gettext_lazy("Tournaments that count"),
        choices=Season.Events.choices,
        initial=Season.Events.ALL,
        widget=forms.RadioSelect,
    )
    tournaments = forms.TypedMultipleChoiceField(
        label=gettext_lazy("The chosen tournaments"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy(
            "Only with “only the tournaments chosen”; each must fall in the dates."
        ),
    )
    club_nights = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("Club nights count (club matches played outside any tournament)"),
    )
    points_per_win = forms.IntegerField(
        label=gettext_lazy("Points for a match won"), min_value=1, max_value=POINTS_MAX, initial=1
    )
    min_matches = forms.IntegerField(
        label=gettext_lazy("Matches to be ranked"),
        min_value=0,
        max_value=MIN_MATCHES_MAX,
        initial=0,
        help_text=gettext_lazy("Players with fewer are listed after the ranked ones, marked."),
    )
    public = forms.BooleanField(
        required=False,
        label=gettext_lazy("Public ladder (anyone may read it without logging in)"),
    )

    def __init__(self, *args: Any, tournaments: list[Tournament] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.events_by_id = {t.pk: t for t in tournaments}
        self.fields["tournaments"].choices = [
            (t.pk, f"{t.name} ({t.date.isoformat()})") for t in tournaments
        ]
        for slot in range(1, TIEBREAK_SLOTS + 1):
            self.fields[f"tiebreak_{slot}"] = _tiebreak_field(slot)

    @classmethod
    def initial_from(cls, settings: dict[str, Any]) -> dict[str, Any]:
        initial = dict(settings)
        initial["tournaments"] = [t["id"] for t in settings.get("tournaments", [])]
        for slot, name in enumerate(settings.get("tiebreaks") or TIEBREAKS, start=1):
            initial[f"tiebreak_{slot}"] = name
        for slot in range(len(settings.get("tiebreaks") or TIEBREAKS) + 1, TIEBREAK_SLOTS + 1):
            initial[f"tiebreak_{slot}"] = ""
        return initial

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        starts, ends = data.get("starts_on"), data.get("ends_on")
        if isinstance(starts, dt.date) and isinstance(ends, dt.date) and ends < starts:
            self.add_error(
                "ends_on",
                _("The season ends (%(ends)s) before it starts (%(starts)s).")
                % {"ends": ends.isoformat(), "starts": starts.isoformat()},
            )
            return data
        chosen = [self.events_by_id[i] for i in data.get("tournaments") or []]
        if data.get("events") == Season.Events.CHOSEN:
            if starts and ends:
                for t in chosen:
                    if not starts <= t.date <= ends:
                        self.add_error(
                            "tournaments",
                            _("%(name)s (%(date)s) is outside the season's dates.")
                            % {"name": t.name, "date": t.date.isoformat()},
                        )
            if not chosen and not data.get("club_nights"):
                self.add_error(
                    "tournaments",
                    _("Nothing would count: choose tournaments, or count the club nights."),
                )
        names = [data.get(f"tiebreak_{slot}") for slot in range(1, TIEBREAK_SLOTS + 1)]
        names = [n for n in names if n]
        if len(set(names)) != len(names):
            self.add_error("tiebreak_1", _("A tie-break is listed twice."))
        return data

    def settings(self) -> dict[str, Any]:
        """The cleaned values as the services' keyword arguments."""
        data = self.cleaned_data
        values = {key: data[key] for key in Season.SETTINGS if key != "tiebreaks"}
        if values["events"] != Season.Events.CHOSEN:
            values["tournaments"] = []  # the boxes mean nothing when every event counts
        values["tiebreaks"] = [
            data[f"tiebreak_{slot}"]
            for slot in range(1, TIEBREAK_SLOTS + 1)
            if data.get(f"tiebreak_{slot}")
        ]
        return values
