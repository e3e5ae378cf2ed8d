"""Page forms. They check shape; the rules engine checks the game."""

from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext_lazy, pgettext_lazy

from ginclub.inputs import ID_MAX, INT_MAX, SMALL_MAX
from scoring.models import Match, Penalty, Player, Seat

RANKS = "A23456789TJQK"
SUITS = (("C", "♣"), ("D", "♦"), ("H", "♥"), ("S", "♠"))
CARD_CHOICES = [(f"{r}{s}", f"{'10' if r == 'T' else r}{sym}") for s, sym in SUITS for r in RANKS]


# How a hand ended, as the forms offer it.
OUTCOME_CHOICES = [
    ("knock", pgettext_lazy("outcome choice", "Knock")),
    ("gin", pgettext_lazy("outcome choice", "Gin")),
    ("big_gin", pgettext_lazy("outcome choice", "Big gin")),
    ("dead", pgettext_lazy("outcome choice", "Dead hand")),
]

# The rule profiles a match may start under (scoring.rules.profiles), as the form shows them.
PROFILE_CHOICES = [
    ("standard", pgettext_lazy("rule profile", "standard")),
    ("tournament", pgettext_lazy("rule profile", "tournament")),
    ("classic", pgettext_lazy("rule profile", "classic")),
    ("oklahoma", pgettext_lazy("rule profile", "oklahoma")),
    ("straight", pgettext_lazy("rule profile", "straight")),
]


def new_key() -> str:
    return uuid.uuid4().hex


class HandForm(forms.Form):
    game = forms.IntegerField(min_value=1, max_value=SMALL_MAX, widget=forms.HiddenInput)
    number = forms.IntegerField(min_value=1, max_value=SMALL_MAX, widget=forms.HiddenInput)
    idempotency_key = forms.CharField(max_length=80, widget=forms.HiddenInput)
    mode = forms.ChoiceField(
        choices=[
            ("quick", pgettext_lazy("entry mode", "Quick")),
            ("cards", pgettext_lazy("entry mode", "Cards")),
        ],
        initial="quick",
        widget=forms.HiddenInput,
    )
    outcome = forms.ChoiceField(
        choices=OUTCOME_CHOICES,
        initial="knock",
        widget=forms.RadioSelect,
    )
    knocker = forms.ChoiceField(
        choices=[("A", "A"), ("B", "B")], required=False, widget=forms.RadioSelect
    )
    knocker_deadwood = forms.IntegerField(required=False, initial=0, max_value=SMALL_MAX)
    defender_deadwood = forms.IntegerField(required=False, initial=0, max_value=SMALL_MAX)
    knocker_cards = forms.MultipleChoiceField(
        choices=CARD_CHOICES, required=False, widget=forms.CheckboxSelectMultiple
    )
    defender_cards = forms.MultipleChoiceField(
        choices=CARD_CHOICES, required=False, widget=forms.CheckboxSelectMultiple
    )
    upcard = forms.ChoiceField(choices=[("", "—")] + CARD_CHOICES, required=False)

    def __init__(self, *args, match: Match | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if match is not None:
            self.fields["knocker"].choices = [
                ("A", match.player_a.name),
                ("B", match.player_b.name),
            ]
            if not match.rules.get("oklahoma"):
                del self.fields["upcard"]

    def hand_data(self) -> dict:
        data = dict(self.cleaned_data)
        if data.pop("mode") == "quick" or data["outcome"] == "dead":
            data["knocker_cards"] = data["defender_cards"] = ()
        else:
            data["knocker_deadwood"] = data["defender_deadwood"] = None
        data.pop("idempotency_key", None)
        return data


class ClaimForm(HandForm):
    """The figures a player disputing a hand says are right: the clash's dispute carries
    those its phone entered, hidden, beside the player's own words. The game and the
    number are the disputed hand's."""

    prefix = "claim"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, auto_id=False, **kwargs)
        for name in ("game", "number", "idempotency_key"):
            del self.fields[name]
        for field in self.fields.values():
            many = isinstance(field, forms.MultipleChoiceField)
            field.widget = forms.MultipleHiddenInput() if many else forms.HiddenInput()

    @classmethod
    def sent_in(cls, data) -> bool:
        return any(key.startswith(f"{cls.prefix}-") for key in data)


class VersionForm(forms.Form):
    version = forms.IntegerField(min_value=1, max_value=INT_MAX)
    idempotency_key = forms.CharField(max_length=80)
    reason = forms.CharField(max_length=500, required=False)
    player = forms.IntegerField(min_value=1, max_value=ID_MAX, required=False)
    pin = forms.CharField(max_length=8, required=False)


class CorrectionForm(forms.Form):
    """An organiser's correction of one hand: by its deadwood, or by its cards."""

    game = forms.IntegerField(min_value=1, max_value=SMALL_MAX)
    number = forms.IntegerField(min_value=1, max_value=SMALL_MAX)
    version = forms.IntegerField(min_value=1, max_value=INT_MAX)
    idempotency_key = forms.CharField(max_length=80)
    outcome = forms.ChoiceField(choices=OUTCOME_CHOICES)
    knocker = forms.ChoiceField(choices=[("", "—"), ("A", "A"), ("B", "B")], required=False)
    knocker_deadwood = forms.IntegerField(required=False, max_value=SMALL_MAX)
    defender_deadwood = forms.IntegerField(required=False, max_value=SMALL_MAX)
    # A card-entry hand is corrected by its cards (codes: "5H 6H 7H", T for ten); given
    # cards, the deadwood is counted from them and the numbers above are not used.
    knocker_cards = forms.CharField(required=False, max_length=120)
    defender_cards = forms.CharField(required=False, max_length=120)
    upcard = forms.CharField(required=False, max_length=3)
    reason = forms.CharField(max_length=500)


class SeatForm(forms.Form):
    player = forms.IntegerField(min_value=1, max_value=ID_MAX)
    pin = forms.CharField(
        max_length=8,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )


class StartMatchForm(forms.Form):
    player_a = forms.ModelChoiceField(queryset=Player.objects.none())
    player_b = forms.ModelChoiceField(queryset=Player.objects.none())
    profile = forms.ChoiceField(choices=PROFILE_CHOICES)
    agreement = forms.ChoiceField(choices=Match.Agreement.choices)
    first_dealer = forms.ChoiceField(
        choices=[
            ("A", gettext_lazy("Player A deals first")),
            ("B", gettext_lazy("Player B deals first")),
        ]
    )

    def __init__(self, *args, club=None, **kwargs):
        super().__init__(*args, **kwargs)
        if club is not None:
            players = club.players.order_by("name")
            self.fields["player_a"].queryset = players
            self.fields["player_b"].queryset = players


class AddPlayerForm(forms.Form):
    name = forms.CharField(max_length=120)
    pin = forms.CharField(
        min_length=4,
        max_length=8,
        required=False,
        help_text=gettext_lazy("4 to 8 digits, for confirming results at the table."),
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "pattern": "[0-9]{4,8}"}
        ),
    )


class PenaltyForm(forms.Form):
    """A penalty against one player of the match (docs/rules.md §18); `details` may be
    blank for a preview, never for the record (the service says so)."""

    seat = forms.ChoiceField(choices=Seat.choices)
    kind = forms.ChoiceField(choices=Penalty.Kind.choices)
    infraction = forms.ChoiceField(choices=Penalty.Infraction.choices, required=False)
    details = forms.CharField(max_length=1000, required=False)
