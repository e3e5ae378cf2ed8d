"""Rule profiles: every rule value lives here, never as a literal in the engine.

A profile is a named set of options (docs/rules.md §10); each option can be overridden per
event, and the whole profile is stored with what it scored so results can be recomputed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from scoring.rules.errors import RulesError, gettext_noop

SHUTOUT_MODES = ("double", "double_points", "bonus", "none")
DEALER_MODES = ("alternate", "winner", "loser")
# Who gets the game bonus (docs/rules.md §7): the game's winner, or every player whose
# hand points reached game_bonus_min, winner or not.
GAME_BONUS_MODES = ("winner", "each_reaching_min")


@dataclass(frozen=True)
class RuleProfile:
    name: str = "standard"
    knock_limit: int = 10
    oklahoma: bool = False
    oklahoma_spade_double: bool = False
    gin_bonus: int = 25
    big_gin_bonus: int | None = 31
    undercut_bonus: int = 25
    undercut_on_tie: bool = True
    layoffs: bool = True
    game_target: int = 100
    game_hands: int | None = None
    dead_hands_count: bool = True
    game_bonus: int = 100
    game_bonus_min: int | None = None
    game_bonus_to: str = "winner"
    box_bonus: int = 25
    shutout: str = "double"
    shutout_bonus: int = 100
    games_to_win: int = 1
    next_dealer: str = "alternate"
    hollywood: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleProfile:
        data = dict(data)
        name = data.pop("name", "custom")
        return replace(_apply(PROFILES["standard"], data), name=name)

    def with_options(self, overrides: Mapping[str, Any]) -> RuleProfile:
        return _apply(self, overrides)


PROFILES: dict[str, RuleProfile] = {
    "standard": RuleProfile(),
    "tournament": RuleProfile(name="tournament", game_target=250, games_to_win=3),
    "classic": RuleProfile(
        name="classic",
        gin_bonus=20,
        big_gin_bonus=None,
        undercut_bonus=10,
        box_bonus=20,
        shutout="bonus",
        shutout_bonus=100,
    ),
    "oklahoma": RuleProfile(name="oklahoma", oklahoma=True, game_target=150),
    "straight": RuleProfile(name="straight", knock_limit=0, layoffs=False),
    # The school rules in the seeds (docs/rules.md §10): ten hands, no lay-offs, gin 25,
    # big gin 31, undercut 25, box 25, and the 100-point game bonus to each player who
    # "has reached 100 points", winner or not; the seed knows no shutout.
    "school": RuleProfile(
        name="school",
        layoffs=False,
        game_hands=10,
        game_bonus_min=100,
        game_bonus_to="each_reaching_min",
        shutout="none",
    ),
    # Three games scored at once (docs/rules.md §8a). games_to_win is not used: the match
    # is the three games; 3 lets a tournament's bye count as all three won.
    "hollywood": RuleProfile(name="hollywood", hollywood=True, games_to_win=3),
}

# Each profile's name as people read it (the key stays the code the API and the stored
# rules use); the display layer translates it.
PROFILE_TITLES = {
    "standard": gettext_noop("standard"),
    "tournament": gettext_noop("tournament"),
    "classic": gettext_noop("classic"),
    "oklahoma": gettext_noop("oklahoma"),
    "straight": gettext_noop("straight"),
    "school": gettext_noop("school"),
    "hollywood": gettext_noop("hollywood"),
    "custom": gettext_noop("custom"),
}

# Each rule option as people read it (the key stays the code the API, the stored rules
# and the overrides lines use); the display layer translates it. The settings page, the
# rules preview and the ledger all name an option from here.
OPTION_TITLES = {
    "name": gettext_noop("rule set"),
    "knock_limit": gettext_noop("knock limit"),
    "oklahoma": gettext_noop("Oklahoma"),
    "oklahoma_spade_double": gettext_noop("Oklahoma: a spade upcard doubles"),
    "gin_bonus": gettext_noop("gin bonus"),
    "big_gin_bonus": gettext_noop("big gin bonus"),
    "undercut_bonus": gettext_noop("undercut bonus"),
    "undercut_on_tie": gettext_noop("undercut on equal deadwood"),
    "layoffs": gettext_noop("lay-offs"),
    "game_target": gettext_noop("game target"),
    "game_hands": gettext_noop("hands a game"),
    "dead_hands_count": gettext_noop("dead hands count as hands"),
    "game_bonus": gettext_noop("game bonus"),
    "game_bonus_min": gettext_noop("game bonus from a score of"),
    "game_bonus_to": gettext_noop("game bonus goes to"),
    "box_bonus": gettext_noop("box bonus"),
    "shutout": gettext_noop("shutout"),
    "shutout_bonus": gettext_noop("shutout bonus"),
    "games_to_win": gettext_noop("games to win"),
    "next_dealer": gettext_noop("next dealer"),
    "hollywood": gettext_noop("Hollywood"),
}

_INT_OPTIONS = {
    "knock_limit": (0, 98),
    "gin_bonus": (0, 10_000),
    "undercut_bonus": (0, 10_000),
    "game_target": (1, 1_000_000),
    "game_bonus": (0, 10_000),
    "box_bonus": (0, 10_000),
    "shutout_bonus": (0, 10_000),
    "games_to_win": (1, 99),
}
_OPTIONAL_INT_OPTIONS = {
    "big_gin_bonus": (0, 10_000),
    "game_hands": (1, 1_000),
    "game_bonus_min": (1, 1_000_000),
}
_BOOL_OPTIONS = {
    "oklahoma",
    "oklahoma_spade_double",
    "undercut_on_tie",
    "layoffs",
    "dead_hands_count",
    "hollywood",
}
_CHOICE_OPTIONS = {
    "shutout": SHUTOUT_MODES,
    "next_dealer": DEALER_MODES,
    "game_bonus_to": GAME_BONUS_MODES,
}


def make_profile(name: str = "standard", overrides: Mapping[str, Any] | None = None) -> RuleProfile:
    """The named profile with `overrides` applied; raises `bad_option`."""
    base = PROFILES.get(name)
    if base is None:
        raise RulesError(
            "bad_option",
            gettext_noop("unknown profile %(name)s: choose one of %(profiles)s"),
            {"name": repr(name), "profiles": ", ".join(PROFILES)},
            field="profile",
        )
    return _apply(base, overrides or {})


def _apply(profile: RuleProfile, overrides: Mapping[str, Any]) -> RuleProfile:
    if not isinstance(overrides, Mapping):
        raise RulesError("bad_option", gettext_noop("rules must be an object of option: value"))
    known = {f.name for f in fields(RuleProfile)} - {"name"}
    changes = {}
    for option, value in overrides.items():
        if option not in known:
            raise RulesError(
                "bad_option",
                gettext_noop("unknown rule option %(option)s"),
                {"option": repr(option)},
                field=option,
            )
        changes[option] = _checked(option, value)
    return _consistent(replace(profile, **changes))


def _consistent(profile: RuleProfile) -> RuleProfile:
    """Options that cannot go together."""
    if profile.hollywood and profile.game_hands is not None:
        raise RulesError(
            "bad_option",
            gettext_noop(
                "hollywood games are played to game_target, so game_hands must be none "
                "(not %(game_hands)s) when hollywood is on"
            ),
            {"game_hands": profile.game_hands},
            field="game_hands",
        )
    if profile.game_bonus_to == "each_reaching_min" and profile.game_bonus_min is None:
        raise RulesError(
            "bad_option",
            gettext_noop(
                "game_bonus_to each_reaching_min gives the game bonus to each player whose "
                "points reached game_bonus_min, so game_bonus_min must be set"
            ),
            field="game_bonus_min",
        )
    return profile


def _checked(option: str, value: Any) -> Any:
    if option in _BOOL_OPTIONS:
        if not isinstance(value, bool):
            raise RulesError(
                "bad_option",
                gettext_noop("%(option)s must be true or false, not %(value)s"),
                {"option": option, "value": repr(value)},
                field=option,
            )
        return value
    if option in _CHOICE_OPTIONS:
        if value not in _CHOICE_OPTIONS[option]:
            raise RulesError(
                "bad_option",
                gettext_noop("%(option)s must be one of %(choices)s, not %(value)s"),
                {
                    "option": option,
                    "choices": ", ".join(_CHOICE_OPTIONS[option]),
                    "value": repr(value),
                },
                field=option,
            )
        return value
    if option in _OPTIONAL_INT_OPTIONS and value is None:
        return None
    low, high = _INT_OPTIONS.get(option) or _OPTIONAL_INT_OPTIONS[option]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(
            "bad_option",
            gettext_noop(
                "%(option)s must be a whole number from %(low)s to %(high)s, not %(value)s"
            ),
            {"option": option, "low": low, "high": high, "value": repr(value)},
            field=option,
        )
    return value
