"""Page forms for tournaments. They check shape; the services check the tournament.

Rule overrides are typed one per line ("games_to_win = 1"), which a phone keyboard
handles better than JSON; values read as whole numbers, true/false, none, or text.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import fields as dataclass_fields
from typing import Any

from django import forms

from ginclub.inputs import INT_MAX
from scoring.models import Match
from scoring.rules.profiles import PROFILES, RuleProfile
from tournaments.models import Tournament
from tournaments.pairing import TIEBREAKS

TIEBREAK_LABELS = {
    "head_to_head": "Head-to-head (two tied players)",
    "game_win_pct": "Game-win %",
    "opponents_match_win_pct": "Opponents' match-win % (floored at 33%)",
    "margin": "Total margin",
    "points": "Total points",
}
TIEBREAK_SLOTS = len(TIEBREAKS)
RULE_OPTIONS = [f.name for f in dataclass_fields(RuleProfile) if f.name != "name"]


def parse_overrides(text: str) -> dict[str, Any]:
    """ "option = value" lines as a dict; raises ValidationError naming the bad line."""
    overrides: dict[str, Any] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, raw = line.replace(":", "=", 1).partition("=")
        key, raw = key.strip(), raw.strip()
        if not sep or not key or not raw:
            raise forms.ValidationError(
                f"Line {number} ({line!r}): write one option a line as option = value, "
                "e.g. games_to_win = 1."
            )
        overrides[key] = _value(raw)
    return overrides


def _value(raw: str) -> Any:
    lowered = raw.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("none", "null", "-"):
        return None
    try:
        return int(raw)
    except ValueError:
        return raw


def format_overrides(overrides: dict[str, Any] | None) -> str:
    def shown(value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return "none" if value is None else str(value)

    return "\n".join(f"{key} = {shown(value)}" for key, value in (overrides or {}).items())


def _tiebreak_field(slot: int) -> forms.ChoiceField:
    return forms.ChoiceField(
        label=f"Tie-break {slot}",
        required=False,
        initial=TIEBREAKS[slot - 1],
        help_text="After match wins, in this order; “—” ends the list." if slot == 1 else "",
        choices=[("", "—")] + list(TIEBREAK_LABELS.items()),
    )


class TournamentForm(forms.Form):
    """Every setting of a tournament. Once round 1 is published the settings that would
    contradict played rounds are shown disabled (rules change through RulesChangeForm)."""

    name = forms.CharField(max_length=120)
    # An <input type="date"> reads and writes ISO dates whatever the language.
    date = forms.DateField(
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={"invalid": "Enter a date as YYYY-MM-DD."},
    )
    venue = forms.CharField(max_length=200, required=False)
    profile = forms.ChoiceField(
        label="Rule profile", choices=[(p, p) for p in PROFILES], initial="tournament"
    )
    overrides = forms.CharField(
        label="Rule overrides",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="One option a line, e.g. games_to_win = 1. Options: "
        + ", ".join(RULE_OPTIONS)
        + ".",
    )
    format = forms.ChoiceField(choices=Tournament.Format.choices, initial=Tournament.Format.SWISS)
    rounds = forms.IntegerField(label="Swiss rounds", min_value=1, max_value=50, initial=5)
    cut_size = forms.TypedChoiceField(
        label="Top cut", coerce=int, initial=0, choices=[(0, "no cut"), (4, "top 4"), (8, "top 8")]
    )
    round_minutes = forms.IntegerField(
        label="Round length (minutes)", min_value=1, max_value=600, initial=50
    )
    bye_games = forms.IntegerField(label="A bye counts as games won", min_value=0, initial=3)
    bye_points = forms.IntegerField(label="A bye counts as points", min_value=0, initial=0)
    agreement = forms.ChoiceField(label="Agreement at the table", choices=Match.Agreement.choices)
    hide_standings_during_round = forms.BooleanField(
        required=False, label="Hide the standings while a round is played"
    )
    hide_last_rounds = forms.IntegerField(
        label="Hide the standings of the last rounds until the end",
        min_value=0,
        max_value=50,
        initial=0,
    )
    public = forms.BooleanField(
        required=False, initial=True, label="Public pages (pairings, standings, projector)"
    )
    check_in_required = forms.BooleanField(required=False, label="Pair only players who checked in")

    LOCKED = ("profile", "overrides", "format", "cut_size", "bye_games", "bye_points", "agreement")

    def __init__(self, *args: Any, frozen: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for slot in range(1, TIEBREAK_SLOTS + 1):
            self.fields[f"tiebreak_{slot}"] = _tiebreak_field(slot)
        if frozen:
            for name in self.LOCKED:
                self.fields[name].disabled = True

    @classmethod
    def initial_from(cls, settings: dict[str, Any]) -> dict[str, Any]:
        initial = dict(settings)
        initial["overrides"] = format_overrides(settings.get("overrides"))
        for slot, name in enumerate(settings.get("tiebreaks") or TIEBREAKS, start=1):
            initial[f"tiebreak_{slot}"] = name
        return initial

    def clean_overrides(self) -> dict[str, Any]:
        value = self.cleaned_data.get("overrides")
        return value if isinstance(value, dict) else parse_overrides(value or "")

    def settings(self) -> dict[str, Any]:
        """The cleaned values as the services' keyword arguments (disabled ones left out)."""
        data = self.cleaned_data
        values = {
            name: data[name]
            for name, field in self.fields.items()
            if not field.disabled and not name.startswith("tiebreak_")
        }
        values["tiebreaks"] = [
            data[f"tiebreak_{slot}"]
            for slot in range(1, TIEBREAK_SLOTS + 1)
            if data.get(f"tiebreak_{slot}")
        ]
        return values

    def error_field(self, key: str) -> str | None:
        """The form field a service error's field name belongs to."""
        if key == "tiebreaks":
            return "tiebreak_1"
        return key if key in self.fields else None


class CreateTournamentForm(TournamentForm):
    club = forms.ChoiceField(label="Club")

    def __init__(self, *args: Any, clubs=(), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.clubs = {club.slug: club for club in clubs}
        self.fields["club"].choices = [(c.slug, c.name) for c in clubs]
        self.order_fields(["club", "name", "date"])
        self.fields["date"].initial = dt.date.today

    def settings(self) -> dict[str, Any]:
        values = super().settings()
        values.pop("club")
        return values


class RulesChangeForm(forms.Form):
    """A rules change, for the whole event or from a round on. `rounds` is what
    services.rescoring.change_rounds answers: the published rounds and the next one."""

    profile = forms.ChoiceField(label="Rule profile", choices=[(p, p) for p in PROFILES])
    overrides = forms.CharField(
        label="Rule overrides",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="One option a line, e.g. game_target = 150.",
    )
    from_round = forms.TypedChoiceField(
        label="Apply to",
        coerce=int,
        empty_value=None,
        required=False,
        help_text="From a round on, the rounds before it keep the rules they were played under.",
    )
    reason = forms.CharField(
        max_length=500, required=False, help_text="Required to apply: it goes in the ledger."
    )

    def __init__(
        self, *args: Any, rounds: tuple[list[int], int | None] = ([], None), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        played, upcoming = rounds
        choices = [("", "The whole event (re-score every round)")]
        choices += [(n, f"Round {n} on (rounds before it keep their rules)") for n in played[1:]]
        if upcoming is not None:
            choices.append((upcoming, f"Round {upcoming} on (not yet played: re-scores nothing)"))
        self.fields["from_round"].choices = choices

    def clean_overrides(self) -> dict[str, Any]:
        return parse_overrides(self.cleaned_data.get("overrides") or "")


class RegistrationForm(forms.Form):
    name = forms.CharField(max_length=120)
    email = forms.EmailField(required=False)
    member_id = forms.CharField(label="Club member id", max_length=40, required=False)
    seed = forms.IntegerField(min_value=1, max_value=9999, required=False)


class ImportForm(forms.Form):
    """A CSV file, or the same text pasted (phones rarely hold CSV files)."""

    file = forms.FileField(label="CSV file", required=False)
    text = forms.CharField(
        label="…or paste the rows", required=False, widget=forms.Textarea(attrs={"rows": 5})
    )

    MAX_BYTES = 1_000_000

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError(
                    "The file is over 1 MB; a player list is much smaller. Is it the right file?"
                )
            data["csv"] = upload.read()  # the service reads UTF-8 and Excel's cp1252
        elif (data.get("text") or "").strip():
            data["csv"] = data["text"]
        else:
            raise forms.ValidationError("Choose a CSV file or paste its rows.")
        return data


class RoundPlayersForm(forms.Form):
    """Two players of a drafted round (swap), or a player and an opponent or the bye."""

    first = forms.TypedChoiceField(coerce=int, label="Player")
    second = forms.TypedChoiceField(coerce=int, label="With")
    reason = forms.CharField(max_length=200, required=False)

    BYE = 0

    def __init__(self, *args: Any, players=(), bye: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(reg.pk, reg.player.name) for reg in players]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices + ([(self.BYE, "the bye")] if bye else [])


class TimerForm(forms.Form):
    minutes = forms.IntegerField(min_value=1, max_value=600, required=False)


class ResultForm(forms.Form):
    winner = forms.ChoiceField(widget=forms.RadioSelect)
    games_a = forms.IntegerField(min_value=0, max_value=99, required=False)
    games_b = forms.IntegerField(min_value=0, max_value=99, required=False)
    points_a = forms.IntegerField(min_value=0, max_value=INT_MAX, required=False)
    points_b = forms.IntegerField(min_value=0, max_value=INT_MAX, required=False)
    reason = forms.CharField(
        max_length=500,
        widget=forms.TextInput,
        error_messages={"required": "Say why the result is recorded by hand."},
    )

    def __init__(self, *args: Any, names: tuple[str, str] = ("A", "B"), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [("A", names[0]), ("B", names[1])]


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=500)


class ArchiveImportForm(forms.Form):
    club = forms.ChoiceField(label="Into club")
    file = forms.FileField(label="JSON archive")

    MAX_BYTES = 20 * 1024 * 1024

    def __init__(self, *args: Any, clubs=(), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.clubs = {club.slug: club for club in clubs}
        self.fields["club"].choices = [(c.slug, c.name) for c in clubs]

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError("The archive is over 20 MB.")
        return upload
