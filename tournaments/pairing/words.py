"""Words of the pure pairing code, kept translatable without importing Django (issue 13).

Terms:

- **template**: an English sentence or clause with named placeholders (``%(name)s``),
  marked with :func:`gettext_noop` so the catalogue's extractor finds it by that name.
- **phrase**: a template with its values; a value may be a phrase itself (a tie-break's
  name inside a sentence), a :class:`Number` (worded in the reader's number format), or
  plain text (a player's name). A phrase with a ``plural`` template chooses between the
  two by its ``count`` value.
- **worded**: the English text of a phrase, as a ``str`` that still carries the phrase
  (``.phrase``). It compares, slices and stores as the English text; the display layer
  words the phrase again in the reader's language (:meth:`Phrase.text` with Django's
  gettext, ngettext and number format).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


def gettext_noop(message: str) -> str:
    """Marks `message` for the catalogue and returns it as it is (Django's is the same)."""
    return message


@dataclass(frozen=True)
class Number:
    """A number worded in the reader's format: ``signed`` shows + on positive values,
    ``percent`` (decimals) shows a ratio as a percentage."""

    value: float | int
    signed: bool = False
    percent: int | None = None


@dataclass(frozen=True)
class Language:
    """How a phrase is worded: translate a template, choose a plural, write a number.
    The default is English with the English number format (1,200; +600; 64%)."""

    gettext: Callable[[str], str] = gettext_noop
    ngettext: Callable[[str, str, int], str] = lambda one, many, n: one if n == 1 else many
    number: Callable[[Number], str] = lambda number: english_number(number)


def english_number(number: Number) -> str:
    if number.percent is not None:
        return f"{number.value:.{number.percent}%}"
    return f"{number.value:+,}" if number.signed else f"{number.value:,}"


ENGLISH = Language()


@dataclass(frozen=True)
class Phrase:
    template: str
    params: Mapping[str, Any] = field(default_factory=dict)
    plural: str = ""  # the plural template, chosen by params["count"]

    def text(self, language: Language = ENGLISH) -> str:
        if self.plural:
            template = language.ngettext(self.template, self.plural, int(self.params["count"]))
        else:
            template = language.gettext(self.template)
        if not self.params:
            return template
        return template % {key: _worded(value, language) for key, value in self.params.items()}

    def as_data(self) -> dict[str, Any]:
        """Plain JSON values (for a stored snapshot); `from_data` reads them back."""
        data: dict[str, Any] = {
            "t": self.template,
            "p": {k: _data(v) for k, v in self.params.items()},
        }
        if self.plural:
            data["pl"] = self.plural
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Phrase:
        params = {key: _from_data(value) for key, value in data.get("p", {}).items()}
        return cls(data["t"], params, data.get("pl", ""))


def _worded(value: Any, language: Language) -> Any:
    if isinstance(value, Phrase):
        return value.text(language)
    if isinstance(value, Number):
        return language.number(value)
    if isinstance(value, Listing):
        return value.text(language)
    return value


class Worded(str):
    """The English text of `phrase`, carrying the phrase for the display layer."""

    phrase: Phrase

    def __new__(cls, phrase: Phrase) -> Worded:
        worded = super().__new__(cls, phrase.text())
        worded.phrase = phrase
        return worded

    def __reduce__(self):
        # Pickled (a cache) with its phrase, not as the bare text; and with the text, so
        # reading it back does not word every phrase again (512 standings lines' reasons
        # are read back for every projector poll).
        return (_worded_again, (str(self), self.phrase))


def _worded_again(text: str, phrase: Phrase) -> Worded:
    worded = str.__new__(Worded, text)
    worded.phrase = phrase
    return worded


@dataclass(frozen=True)
class Listing:
    """Phrases joined into one sentence: the first letter capitalised, `end` added
    ("Shares 1st with Cleo: ...; ahead of Ben on ...."). Each part is a whole clause."""

    parts: tuple[Phrase, ...]
    separator: str = "; "
    end: str = "."

    def text(self, language: Language = ENGLISH) -> str:
        text = self.separator.join(part.text(language) for part in self.parts)
        return (text[:1].upper() + text[1:] + self.end) if text else text


def _data(value: Any) -> Any:
    if isinstance(value, Phrase):
        return {"phrase": value.as_data()}
    if isinstance(value, Number):
        return {"number": [value.value, value.signed, value.percent]}
    if isinstance(value, Listing):
        return {"listing": [[p.as_data() for p in value.parts], value.separator, value.end]}
    return value


def _from_data(value: Any) -> Any:
    if isinstance(value, dict) and "phrase" in value:
        return Phrase.from_data(value["phrase"])
    if isinstance(value, dict) and "number" in value:
        return Number(*value["number"])
    if isinstance(value, dict) and "listing" in value:
        parts, separator, end = value["listing"]
        return Listing(tuple(Phrase.from_data(p) for p in parts), separator, end)
    return value


def worded(template: str, /, **params: Any) -> Worded:
    """The English text of `template` % `params`, carrying its phrase."""
    return Worded(Phrase(template, params))


def sentence(*parts: Phrase) -> Worded:
    """Clauses joined by "; ", capitalised and ended with a full stop."""
    return Worded(Phrase("%(text)s", {"text": Listing(tuple(parts))}))


def in_language(value: Any, language: Language) -> Any:
    """`value` worded in `language` if it carries a phrase; anything else as it is."""
    if isinstance(value, Worded):
        return value.phrase.text(language)
    if isinstance(value, Phrase | Listing):
        return value.text(language)
    return value


def read_back(text: str, templates: Sequence[str], parts: Sequence[str] = ()) -> Phrase | None:
    """The phrase whose English text `text` is, among `templates` (None: none of them):
    words stored as English text (a pairing's reason) are worded again for a reader. A
    value that is itself the English text of one of `parts` becomes that phrase."""
    for template in sorted(templates, key=len, reverse=True):  # the most specific first
        found = _pattern(template).fullmatch(text)
        if found is not None:
            params = {key: _part(value, parts) for key, value in found.groupdict().items()}
            return Phrase(template, params)
    return None


def _part(value: str, parts: Sequence[str]) -> str | Phrase:
    return (read_back(value, parts) if parts else None) or value


@functools.cache
def _pattern(template: str) -> re.Pattern[str]:
    pattern, seen, at = "", set(), 0
    for found in _PLACEHOLDER.finditer(template):
        pattern += re.escape(template[at : found.start()])
        name = found.group(1)
        pattern += f"(?P={name})" if name in seen else f"(?P<{name}>.+?)"
        seen.add(name)
        at = found.end()
    return re.compile(pattern + re.escape(template[at:]), re.DOTALL)


_PLACEHOLDER = re.compile(r"%\((\w+)\)s")
