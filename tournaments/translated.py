"""Words kept as English (pure code's phrases, reasons stored with a pairing, a job's
label) shown in the reader's language (issue 13).

Terms:
    phrase      an English template with its values (tournaments.pairing.words); the pure
                pairing code returns its words as phrases, carried by the English text.
    stored      a reason stored as English text with a pairing (why it was paired, why its
                result was decided) stays English in the database and the ledger (data, and
                what tests and exports read); it is read back into its phrase here and
                worded in the reader's language. Text an organiser typed stays as typed.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_noop, ngettext

# A pure package's error (the rules engine's, pairing's) in the reader's language.
from ginclub.errors import message_of as error_text  # noqa: F401 (used by the services)
from tournaments.pairing import PAIR_REASON_PARTS, PAIR_REASONS, Phrase, read_back
from tournaments.pairing.words import Language, Number, in_language

# A pairing's reason when an organiser moved its players (tournaments.services.rounds).
SET_BY_ORGANISER = gettext_noop("set by organiser")
SET_BY_ORGANISER_BECAUSE = gettext_noop("set by organiser: %(reason)s")
BYE = gettext_noop("bye")

# Why the time policy decided a table (tournaments.services.results), after "Ada wins 2–1: ".
LED_ON_GAMES = gettext_noop("time was called and %(name)s led on games")
LED_GAME = gettext_noop("time was called with games level and %(name)s led game %(game)s %(lead)s")
LED_CURRENT_GAME = gettext_noop(
    "time was called with games level and %(name)s led the current game %(lead)s"
)
LED_ON_POINTS = gettext_noop(
    "time was called with games level and %(name)s led on match points %(lead)s"
)
# Why the time policy leaves a table open (tournaments.services.results): English in the
# ledger, worded for the reader where it is shown (`worded`, `waiting_text`).
TABLE_WAITING = gettext_noop("table %(table)s: %(why)s")
HAND_DISPUTED = gettext_noop("a hand is disputed")
HAND_NOT_CONFIRMED = gettext_noop("a hand is not confirmed")
FINISHING = gettext_noop("%(a)s and %(b)s are finishing the hand in play")
PLAYING_ON = gettext_noop("%(a)s and %(b)s play on until %(time)s")
LEVEL = gettext_noop("level on games and points; record the result by hand")
WAITING_PARTS = (HAND_DISPUTED, HAND_NOT_CONFIRMED, FINISHING, PLAYING_ON, LEVEL)
TIME_REASONS = (LED_ON_GAMES, LED_GAME, LED_CURRENT_GAME, LED_ON_POINTS)
STORED_REASONS = (*PAIR_REASONS, SET_BY_ORGANISER, SET_BY_ORGANISER_BECAUSE, BYE, *TIME_REASONS)


def _number(number: Number) -> str:
    if number.percent is not None:  # rounded as English rounds it, then localised
        rounded = Decimal(f"{number.value * 100:.{number.percent}f}")
        return f"{number_format(rounded, number.percent, force_grouping=True)}%"
    shown = number_format(number.value, force_grouping=True)
    return f"+{shown}" if number.signed and number.value > 0 else shown


def language() -> Language:
    """The active language (Django's), as the pure phrases word themselves."""
    return Language(gettext, ngettext, _number)


def worded(value: Any) -> Any:
    """`value` in the reader's language if it carries a phrase (a standings "why"), else
    as it is."""
    return in_language(value, language())


def reason_text(text: str) -> str:
    """A stored reason (a pairing's, or the one its result was decided for) in the
    reader's language; a reason an organiser typed stays as typed."""
    phrase = read_back(text or "", STORED_REASONS, PAIR_REASON_PARTS)
    if phrase is None:
        return text
    if phrase.template == SET_BY_ORGANISER_BECAUSE:  # the organiser's own words stay
        return gettext(SET_BY_ORGANISER_BECAUSE) % {"reason": phrase.params["reason"]}
    return phrase.text(language())


def phrase_text(template: str, params: dict[str, Any] | None = None) -> str:
    """A stored English `template` and its values in the reader's language."""
    return Phrase(template, params or {}).text(language())


def waiting_text(text: str) -> str:
    """Why the time policy left a table open, stored as English ("table 2: a hand is
    disputed"), in the reader's language; anything else as it is."""
    phrase = read_back(text or "", (TABLE_WAITING,), WAITING_PARTS)
    if phrase is None:
        return text
    said = phrase.text(language())
    return said[:1].upper() + said[1:]
