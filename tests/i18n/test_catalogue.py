"""The Italian catalogue is whole: every entry translated, none fuzzy, every placeholder
kept, and the compiled catalogue is the one Django serves.

`.ci/run` checks the other half: `make messages` (makemessages) changes nothing, so no
string reaches a page without an entry here.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "it" / "LC_MESSAGES" / "django.po"
# %(name)s, %s, %d, %%: what Python's % formatting reads from a message
PLACEHOLDER = re.compile(r"%(?:\([A-Za-z_][A-Za-z0-9_]*\))?[-#0 +]*\d*(?:\.\d+)?[sdirfx%]")


def _entries() -> list[polib.POEntry]:
    return [e for e in polib.pofile(str(CATALOGUE)) if not e.obsolete]


def _placeholders(text: str) -> list[str]:
    return sorted(p for p in PLACEHOLDER.findall(text) if p != "%%")


def test_the_catalogue_is_there_and_not_empty():
    assert CATALOGUE.exists(), "run `make messages` and translate locale/it"
    assert len(_entries()) > 100


def test_no_entry_is_empty_or_fuzzy():
    problems = []
    for entry in _entries():
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy: {entry.msgid!r}")
        translations = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        if not all(text.strip() for text in translations):
            problems.append(f"untranslated: {entry.msgid!r}")
    assert not problems, "\n".join(problems)


def test_every_translation_keeps_its_placeholders():
    problems = []
    for entry in _entries():
        if "python-format" not in entry.flags:
            continue
        if entry.msgid_plural:
            wanted = _placeholders(entry.msgid_plural)
            texts = list(entry.msgstr_plural.values())
            # Italian's singular may say "una" where English says "%(count)s"
            texts = texts[1:] if len(texts) > 1 else texts
        else:
            wanted = _placeholders(entry.msgid)
            texts = [entry.msgstr]
        for text in texts:
            if _placeholders(text) != wanted:
                problems.append(f"{entry.msgid!r}: {text!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("english", "italian"),
    [("Log out", "Esci"), ("Log in", "Accedi"), ("Not you?", "Non sei tu?")],
)
def test_the_compiled_catalogue_is_served(english, italian):
    with translation.override("it"):
        assert translation.gettext(english) == italian
    with translation.override("en-gb"):
        assert translation.gettext(english) == english
