"""Page forms for tournaments. They check shape; the services check the tournament.

Rule overrides: the common options have fields of their own (blank keeps the profile's
value, RULE_FIELDS); the rest are typed one per line ("big_gin_bonus = none"), which a
phone keyboard handles better than JSON; values read as whole numbers, true/false,
none, or text. Each profile is shown with its rules in words and the round length they
suggest (tournaments.rule_guide). The follow-on settings (round length, bye games) are
blank when they hold the value the rules suggest, and a blank one is sent as None: the
service fits it to the rules (rule_guide.fitted_settings), also after a profile change.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import fields as dataclass_fields
from typing import Any

from django import forms
from django.conf import settings as django_settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ginclub.errors import ServiceError
from ginclub.inputs import check_date, date_widget_attrs
from scoring.models import Match
from scoring.rules import RulesError, make_profile
from scoring.rules.profiles import PROFILE_TITLES, PROFILES, RuleProfile
from tournaments.models import Tournament
from tournaments.pairing import TIEBREAKS
from tournaments.rule_guide import (
    FOLLOW_ON,
    fitted_settings,
    rules_in_words,
    suggested_round_minutes,
)
from tournaments.selectors.audit import audit_kind, audit_player, audit_round

TIEBREAK_LABELS = {
    "head_to_head": gettext_lazy("Head-to-head (two tied players)"),
    "game_win_pct": gettext_lazy("Game-win %"),
    "opponents_match_win_pct": gettext_lazy("Opponents' match-win % (floored at 33%)"),
    "margin": gettext_lazy("Total margin"),
    "points": gettext_lazy("Total points"),
}
TIEBREAK_SLOTS = len(TIEBREAKS)
RULE_OPTIONS = [f.name for f in dataclass_fields(RuleProfile) if f.name != "name"]
AS_PROFILE = gettext_lazy(
    "This and the rule options below: blank keeps the profile's value (above)."
)
YES_NO = [
    ("", gettext_lazy("as the profile")),
    ("true", gettext_lazy("yes")),
    ("false", gettext_lazy("no")),
]
SHUTOUTS = [
    ("", gettext_lazy("as the profile")),
    ("double", gettext_lazy("doubles the winner's whole total")),
    ("double_points", gettext_lazy("doubles the winner's hand points")),
    ("bonus", gettext_lazy("adds the shutout bonus")),
    ("none", gettext_lazy("counts for nothing")),
]
ISO_DATE = {"invalid": gettext_lazy("Enter a date as YYYY-MM-DD.")}
# The event's language (Tournament.language): blank follows whoever prints.
EVENT_LANGUAGES = [
    ("", gettext_lazy("The organiser's language at the time")),
    *django_settings.LANGUAGES,
]


def _number(label, low: int, high: int, help_text="") -> forms.IntegerField:
    return forms.IntegerField(
        label=label, required=False, min_value=low, max_value=high, help_text=help_text
    )


def rule_fields() -> dict[str, forms.Field]:
    """The common rule options as typed fields, named rule_<option>."""
    return {
        "rule_game_target": _number(gettext_lazy("Game target (points)"), 1, 1_000_000, AS_PROFILE),
        "rule_games_to_win": _number(gettext_lazy("Games to win the match"), 1, 99),
        "rule_game_hands": _number(gettext_lazy("Hands a game (a fixed-length game)"), 1, 1_000),
        "rule_knock_limit": _number(gettext_lazy("Knock with at most (0: gin only)"), 0, 98),
        "rule_gin_bonus": _number(gettext_lazy("Gin bonus"), 0, 10_000),
        "rule_undercut_bonus": _number(gettext_lazy("Undercut bonus"), 0, 10_000),
        "rule_box_bonus": _number(gettext_lazy("Box bonus (each hand won)"), 0, 10_000),
        "rule_game_bonus": _number(gettext_lazy("Game bonus"), 0, 10_000),
        "rule_layoffs": forms.ChoiceField(
            label=gettext_lazy("Lay-offs"), required=False, choices=YES_NO
        ),
        "rule_shutout": forms.ChoiceField(
            label=gettext_lazy("A shutout"), required=False, choices=SHUTOUTS
        ),
    }


RULE_FIELDS = tuple(name.removeprefix("rule_") for name in rule_fields())


def split_overrides(overrides: dict[str, Any] | None) -> dict[str, Any]:
    """Initial values: the common options in their fields, the rest as text lines."""
    initial: dict[str, Any] = {}
    rest = {}
    for key, value in (overrides or {}).items():
        if key in RULE_FIELDS:
            initial[f"rule_{key}"] = (
                ("true" if value else "false") if isinstance(value, bool) else value
            )
        else:
            rest[key] = value
    initial["overrides"] = format_overrides(rest)
    return initial


def profile_choices() -> list[tuple[str, str]]:
    """Each profile with its rules in words and the round length they suggest."""
    return [
        (
            name,
            # Translators: a rule profile's name, its rules in words, the round length.
            _("%(name)s: %(rules)s Rounds of about %(minutes)s minutes.")
            % {
                "name": _(PROFILE_TITLES.get(name, name)),
                "rules": rules_in_words(rules),
                "minutes": suggested_round_minutes(rules),
            },
        )
        for name, rules in PROFILES.items()
    ]


class RuleOptionsMixin:
    """A profile, the common options as fields and the rest as text, merged into one
    `overrides` dict by clean()."""

    def add_rule_fields(self) -> None:
        self.fields["profile"].widget = forms.RadioSelect(choices=profile_choices())
        self.fields["profile"].choices = profile_choices()
        self.fields.update(rule_fields())
        other = self.fields["overrides"]
        other.label = gettext_lazy("Other rule options")
        other.help_text = _(
            "One option a line, e.g. big_gin_bonus = none. Options: %(options)s."
        ) % {"options": ", ".join(o for o in RULE_OPTIONS if o not in RULE_FIELDS)}
        rules = [*rule_fields(), "overrides"]
        rest = [name for name in self.fields if name not in rules]
        at = rest.index("profile") + 1
        self.order_fields(rest[:at] + rules + rest[at:])

    def merged_overrides(self) -> dict[str, Any]:
        data = self.cleaned_data
        raw = data.get("overrides")
        overrides = dict(raw) if isinstance(raw, dict) else parse_overrides(raw or "")
        for option in RULE_FIELDS:
            value = data.get(f"rule_{option}")
            if value in (None, ""):
                continue
            if option in overrides:
                self.add_error(
                    "overrides",
                    _("%(option)s has a field of its own above: set it there only.")
                    % {"option": option},
                )
            overrides[option] = {"true": True, "false": False}.get(value, value)
        return overrides

    def rule_error_field(self, key: str) -> str | None:
        if f"rule_{key}" in self.fields:
            return f"rule_{key}"
        return "overrides" if key in RULE_OPTIONS else None


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
                _(
                    "Line %(number)s (%(line)s): write one option a line as option = value, "
                    "e.g. games_to_win = 1."
                )
                % {"number": number, "line": repr(line)}
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
        label=_("Tie-break %(slot)s") % {"slot": slot},
        required=False,
        initial=TIEBREAKS[slot - 1],
        help_text=_("After match wins, in this order; “—” ends the list.") if slot == 1 else "",
        choices=[("", "—")] + list(TIEBREAK_LABELS.items()),
    )


class TournamentForm(RuleOptionsMixin, forms.Form):
    """Every setting of a tournament. Once round 1 is published the settings that would
    contradict played rounds are shown disabled (rules change through RulesChangeForm)."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    # An <input type="date"> reads and writes ISO dates whatever the language.
    date = forms.DateField(
        label=gettext_lazy("Date"),
        widget=forms.DateInput(attrs=date_widget_attrs(), format="%Y-%m-%d"),
        error_messages=ISO_DATE,
        validators=[check_date],
    )
    venue = forms.CharField(label=gettext_lazy("Venue"), max_length=200, required=False)
    profile = forms.ChoiceField(
        label=gettext_lazy("Rule profile"), choices=[(p, p) for p in PROFILES], initial="tournament"
    )
    overrides = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    format = forms.ChoiceField(
        label=gettext_lazy("Format"),
        choices=Tournament.Format.choices,
        initial=Tournament.Format.SWISS,
    )
    rounds = forms.IntegerField(
        label=gettext_lazy("Swiss rounds"),
        min_value=1,
        max_value=50,
        initial=5,
        help_text=gettext_lazy(
            "Swiss formats only: a round robin and an elimination set their own."
        ),
    )
    cut_size = forms.TypedChoiceField(
        label=gettext_lazy("Top cut"),
        coerce=int,
        initial=0,
        choices=[
            (0, gettext_lazy("no cut")),
            (4, gettext_lazy("top 4")),
            (8, gettext_lazy("top 8")),
        ],
    )
    first_round = forms.ChoiceField(
        label=gettext_lazy("Round 1 of a Swiss"),
        required=False,
        choices=Tournament.FirstRound.choices,
        initial=Tournament.FirstRound.RANDOM,
        help_text=gettext_lazy(
            "At random: the draw's number is on each pairing and in the ledger, so "
            "the draw can be checked. By seed: seed 1 meets the first of the bottom half. By "
            "club rating: the same halves, highest club rating first, players without a "
            "rating after them in seed order. In list order: neighbours in the player list "
            "meet and the last gets the bye."
        ),
    )
    round_minutes = forms.IntegerField(
        label=gettext_lazy("Round length (minutes)"),
        min_value=1,
        max_value=600,
        required=False,
        help_text=gettext_lazy(
            "Blank: as long as the rules suggest (shown with each profile: about "
            "2.5 minutes a hand, plus 10 to seat the players and finish the last hand)."
        ),
    )
    bye_games = forms.IntegerField(
        label=gettext_lazy("A bye counts as games won"),
        min_value=0,
        required=False,
        help_text=gettext_lazy("Blank: a whole match won (the games a match is played to)."),
    )
    bye_points = forms.IntegerField(
        label=gettext_lazy("A bye counts as points"), min_value=0, initial=0
    )
    agreement = forms.ChoiceField(
        label=gettext_lazy("Agreement at the table"), choices=Match.Agreement.choices
    )
    hide_standings_during_round = forms.BooleanField(
        required=False, label=gettext_lazy("Hide the standings while a round is played")
    )
    hide_last_rounds = forms.IntegerField(
        label=gettext_lazy("Hide the standings of the last rounds until the end"),
        min_value=0,
        max_value=50,
        initial=0,
    )
    public = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("Public pages (pairings, standings, projector)"),
    )
    language = forms.ChoiceField(
        label=gettext_lazy("Event language"),
        required=False,
        initial="",
        choices=EVENT_LANGUAGES,
        help_text=gettext_lazy(
            "Printed table cards, score sheets and standings use it, whoever prints them."
        ),
    )
    # On for a new tournament (docs/organisers.md): the players page then counts who is
    # really in the room, and a no-show is not paired.
    check_in_required = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("Pair only players who checked in"),
        help_text=gettext_lazy(
            "Check players in as they arrive (or everyone at once) on the players page; "
            "untick to pair everyone registered."
        ),
    )

    LOCKED = ("profile", "overrides", "format", "cut_size", "bye_games", "bye_points", "agreement")

    def __init__(
        self,
        *args: Any,
        frozen: bool = False,
        fitted: dict[str, int] | None = None,
        **kwargs: Any,
    ) -> None:
        """`fitted`: the follow-on settings the tournament's rules suggest, shown in
        their fields while they are blank (so the organiser sees what blank means)."""
        super().__init__(*args, **kwargs)
        self.add_rule_fields()
        for key, value in (fitted or {}).items():
            self.fields[key].widget.attrs["placeholder"] = str(value)
        for slot in range(1, TIEBREAK_SLOTS + 1):
            self.fields[f"tiebreak_{slot}"] = _tiebreak_field(slot)
        if frozen:
            for name in self.LOCKED + tuple(f"rule_{o}" for o in RULE_FIELDS):
                self.fields[name].disabled = True

    @classmethod
    def initial_from(cls, settings: dict[str, Any], *, frozen: bool = False) -> dict[str, Any]:
        """The form's values for `settings`; follow-on settings that hold the value the
        rules suggest are blank (so they follow a profile change), unless frozen."""
        initial = dict(settings)
        if not frozen:
            initial.update(_blank_if_fitted(settings))
        initial.update(split_overrides(settings.get("overrides")))
        for slot, name in enumerate(settings.get("tiebreaks") or TIEBREAKS, start=1):
            initial[f"tiebreak_{slot}"] = name
        return initial

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.fields["overrides"].disabled:
            data["overrides"] = self.merged_overrides()
        return data

    def settings(self) -> dict[str, Any]:
        """The cleaned values as the services' keyword arguments (disabled ones left out;
        a blank round-1 method leaves the service's default; a blank follow-on setting is
        None, which the service fits to the rules)."""
        data = self.cleaned_data
        values = {
            name: data[name]
            for name, field in self.fields.items()
            if not field.disabled and not name.startswith(("tiebreak_", "rule_"))
        }
        if values.get("first_round") in (None, ""):
            values.pop("first_round", None)
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
        return key if key in self.fields else self.rule_error_field(key)


def fitted_of(settings: dict[str, Any]) -> dict[str, int]:
    """The follow-on settings the rules of `settings` suggest ({} for rules that fail)."""
    try:
        return fitted_settings(make_profile(settings["profile"], settings.get("overrides")))
    except (KeyError, RulesError):
        return {}


def _blank_if_fitted(settings: dict[str, Any]) -> dict[str, Any]:
    fitted = fitted_of(settings)
    return {key: None for key in FOLLOW_ON if fitted and settings.get(key) == fitted[key]}


class CreateTournamentForm(TournamentForm):
    club = forms.ChoiceField(label=gettext_lazy("Club"))

    # What a new tournament needs said; the rest has sensible values and is folded away
    # under "More options" (issue 23: the whole form was ~4,000 px tall at 1280 px).
    FIRST = (
        "club",
        "name",
        "date",
        "venue",
        "profile",
        "format",
        "rounds",
        "agreement",
        "check_in_required",
        "public",
    )

    def first_fields(self) -> list:
        return [self[name] for name in self.FIRST if name in self.fields]

    def more_fields(self) -> list:
        return [field for field in self.visible_fields() if field.name not in self.FIRST]

    def more_fields_refused(self) -> bool:
        return any(field.errors for field in self.more_fields())

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


class RulesChangeForm(RuleOptionsMixin, forms.Form):
    """A rules change, for the whole event or from a round on. `rounds` is what
    services.rescoring.change_rounds answers: the published rounds and the next one."""

    profile = forms.ChoiceField(
        label=gettext_lazy("Rule profile"), choices=[(p, p) for p in PROFILES]
    )
    overrides = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    from_round = forms.TypedChoiceField(
        label=gettext_lazy("Apply to"),
        coerce=int,
        empty_value=None,
        required=False,
        help_text=gettext_lazy(
            "From a round on, the rounds before it keep the rules they were played under."
        ),
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=500,
        required=False,
        help_text=gettext_lazy("Required to apply: it goes in the ledger."),
    )

    def __init__(
        self, *args: Any, rounds: tuple[list[int], int | None] = ([], None), **kwargs: Any
    ) -> None:
        kwargs.setdefault("auto_id", "id_rules_%s")  # it shares a page with the settings
        super().__init__(*args, **kwargs)
        self.add_rule_fields()
        played, upcoming = rounds
        choices = [("", _("The whole event (re-score every round)"))]
        choices += [
            (n, _("Round %(number)s on (rounds before it keep their rules)") % {"number": n})
            for n in played[1:]
        ]
        if upcoming is not None:
            choices.append(
                (
                    upcoming,
                    _("Round %(number)s on (not yet played: re-scores nothing)")
                    % {"number": upcoming},
                )
            )
        self.fields["from_round"].choices = choices

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["overrides"] = self.merged_overrides()
        return data

    @property
    def overrides_text(self) -> str:
        """The merged overrides as lines, for the preview page to post back on Apply."""
        return format_overrides(self.cleaned_data.get("overrides"))


class RegistrationForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    email = forms.EmailField(label=gettext_lazy("Email"), required=False)
    member_id = forms.CharField(label=gettext_lazy("Club member id"), max_length=40, required=False)
    seed = forms.IntegerField(
        label=gettext_lazy("Seed"), min_value=1, max_value=9999, required=False
    )


class ImportForm(forms.Form):
    """A CSV file, or the same text pasted (phones rarely hold CSV files)."""

    file = forms.FileField(label=gettext_lazy("CSV file"), required=False)
    text = forms.CharField(
        label=gettext_lazy("…or paste the rows"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 5}),
    )

    MAX_BYTES = 1_000_000

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError(
                    _("The file is over 1 MB; a player list is much smaller. Is it the right file?")
                )
            data["csv"] = upload.read()  # the service reads UTF-8 and Excel's cp1252
        elif (data.get("text") or "").strip():
            data["csv"] = data["text"]
        else:
            raise forms.ValidationError(_("Choose a CSV file or paste its rows."))
        return data


class RoundPlayersForm(forms.Form):
    """Two players of a drafted round (swap), or a player and an opponent or the bye."""

    first = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Player"))
    second = forms.TypedChoiceField(coerce=int, label=gettext_lazy("With"))
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200, required=False)

    BYE = 0

    def __init__(self, *args: Any, players=(), bye: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(reg.pk, reg.player.name) for reg in players]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices + ([(self.BYE, _("the bye"))] if bye else [])


class TimerForm(forms.Form):
    minutes = forms.IntegerField(
        label=gettext_lazy("Minutes"), min_value=1, max_value=600, required=False
    )


MAX_POINTS = 99_999


class ResultForm(forms.Form):
    winner = forms.ChoiceField(label=gettext_lazy("Winner"), widget=forms.RadioSelect)
    # Labelled with the players' names (__init__); a match's points stay far below the
    # cap, which keeps a typing slip from being recorded.
    games_a = forms.IntegerField(min_value=0, max_value=99, required=False)
    games_b = forms.IntegerField(min_value=0, max_value=99, required=False)
    points_a = forms.IntegerField(min_value=0, max_value=MAX_POINTS, required=False)
    points_b = forms.IntegerField(min_value=0, max_value=MAX_POINTS, required=False)
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=500,
        widget=forms.TextInput,
        error_messages={"required": gettext_lazy("Say why the result is recorded by hand.")},
    )

    def __init__(self, *args: Any, names: tuple[str, str] = ("A", "B"), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [("A", names[0]), ("B", names[1])]
        # The refusals name the players, not the seats ("Ada's points: ...").
        for seat, name in zip("ab", names, strict=True):
            self.fields[f"games_{seat}"].label = _("%(name)s's games") % {"name": name}
            self.fields[f"points_{seat}"].label = _("%(name)s's points") % {"name": name}


class ReasonForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=500)


class AuditFilterForm(forms.Form):
    """The audit page's filters, from its address (GET). What a filter may be is the
    audit's own to say (tournaments.selectors.audit, for the API too): its refusal's
    words go on the field, and the page shows the rest, filtered by what was right."""

    kind = forms.CharField(required=False)
    round = forms.CharField(required=False)
    player = forms.CharField(required=False)

    def _checked(self, name: str, check) -> Any:
        try:
            return check(self.cleaned_data.get(name))
        except ServiceError as refused:
            raise forms.ValidationError(refused.message, code=refused.code) from None

    def clean_kind(self) -> str:
        return self._checked("kind", audit_kind)

    def clean_round(self) -> int | None:
        return self._checked("round", audit_round)

    def clean_player(self) -> str:
        return self._checked("player", audit_player)


class ArchiveImportForm(forms.Form):
    club = forms.ChoiceField(label=gettext_lazy("Into club"))
    file = forms.FileField(label=gettext_lazy("JSON archive"))

    MAX_BYTES = 20 * 1024 * 1024

    def __init__(self, *args: Any, clubs=(), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.clubs = {club.slug: club for club in clubs}
        self.fields["club"].choices = [(c.slug, c.name) for c in clubs]

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(_("The archive is over 20 MB."))
        return upload


# -------------------------------------------------------------- sign-up by players

DATETIME_LOCAL = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"]


def _datetime_field(label, help_text: str = "") -> forms.DateTimeField:
    return forms.DateTimeField(
        label=label,
        required=False,
        input_formats=DATETIME_LOCAL,
        validators=[check_date],
        help_text=help_text,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )


class SignupSettingsForm(forms.Form):
    """The organiser's sign-up and check-in settings (tournaments.services.signups)."""

    signup_open = forms.BooleanField(label=gettext_lazy("Players may sign up"), required=False)
    signup_capacity = forms.IntegerField(
        label=gettext_lazy("Places"),
        required=False,
        min_value=1,
        max_value=10_000,
        help_text=gettext_lazy("Blank: no limit. Once full, players wait on a list."),
    )
    signup_approval = forms.BooleanField(
        label=gettext_lazy("An organiser approves each sign-up"), required=False
    )
    signup_closes_at = _datetime_field(gettext_lazy("Sign-ups close at"))
    starts_at = _datetime_field(
        gettext_lazy("Round 1 starts at"),
        gettext_lazy("Blank: players check in at the desk only."),
    )
    check_in_opens = forms.IntegerField(
        label=gettext_lazy("Phones may check in this many minutes before"),
        min_value=0,
        max_value=1440,
    )
    late_entry = forms.ChoiceField(
        label=gettext_lazy("A late entry's missed rounds count as"),
        choices=Tournament.LateEntry.choices,
    )

    @classmethod
    def initial_from(cls, tournament: Tournament) -> dict[str, Any]:
        return {name: getattr(tournament, name) for name in cls.base_fields}


class PinField(forms.CharField):
    """A player's PIN, 4 to 8 digits: a phone's keyboard and the browser say so before
    anything is sent (a PIN of 2 digits reached the server and a page of its own)."""

    def __init__(self, label, **kwargs):
        kwargs.setdefault("min_length", 4)
        kwargs.setdefault("max_length", 8)
        said = gettext_lazy("A PIN is 4 to 8 digits.")
        kwargs.setdefault("error_messages", {"min_length": said, "max_length": said})
        kwargs.setdefault(
            "widget",
            forms.PasswordInput(
                attrs={"inputmode": "numeric", "autocomplete": "off", "pattern": "[0-9]{4,8}"}
            ),
        )
        super().__init__(label=label, **kwargs)


class SignUpForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Your name"), max_length=120)
    email = forms.EmailField(
        label=gettext_lazy("Email"),
        required=False,
        help_text=gettext_lazy("Optional: it finds you if you already play at the club."),
    )
    pin = PinField(
        gettext_lazy("Your PIN (4 to 8 digits)"),
        help_text=gettext_lazy(
            "You confirm results at the table with it. Already a club player with a PIN? "
            "Type that one."
        ),
    )


class PinForm(forms.Form):
    pin = PinField(gettext_lazy("Your PIN"))


class JoinCodeForm(forms.Form):
    code = forms.CharField(label=gettext_lazy("Sign-up code"), max_length=12)
