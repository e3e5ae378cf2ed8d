"""The scripts' words and the blocks that translate them stay in step.

static/js/words.js looks each English text a script shows up in the JSON blocks the page
carries (templates/core/_js_words.html, templates/scoring/_js_words.html): a text the
blocks lack would stay English on an Italian page, and a key no script uses is dead.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ("connection.js", "offline.js", "cards.js")
BLOCKS = ("templates/core/_js_words.html", "templates/scoring/_js_words.html")
# the lines of a script that hand texts to words.js (or to what calls it)
CALLS = re.compile(r"words\.[tn]\(|joined\(|COUNTED|show\(|KEPT =")
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
CLASSES = re.compile(r'el\("\w+", "[^"]*"')  # el(tag, class names, text)


def script_lines():
    for name in SCRIPTS:
        for line in (ROOT / "static" / "js" / name).read_text(encoding="utf-8").splitlines():
            if not line.lstrip().startswith("//"):
                yield line


def script_texts() -> set[str]:
    """The sentences on the lines that hand texts to words.js (not CSS classes)."""
    texts = set()
    for line in script_lines():
        if CALLS.search(line):
            line = CLASSES.sub("", line)
            for text in LITERAL.findall(line):
                if "{" in text or re.search(r"[A-Za-z]+ [A-Za-z]+", text) and "-" not in text:
                    texts.add(text)
    return texts


def script_literals() -> set[str]:
    return {text for line in script_lines() for text in LITERAL.findall(line)}


def block_keys() -> set[str]:
    keys = set()
    for path in BLOCKS:
        source = (ROOT / path).read_text(encoding="utf-8")
        singles = re.findall(r'\{% translate "(.*?)" as w %\}\{% if w != "\1" %\}"\1": ', source)
        plurals = re.findall(
            r"\{% blocktranslate count counter=1 asvar one %\}(.*?)\{% plural %\}(.*?)\{% end",
            source,
        )
        keys.update(singles)
        for one, many in plurals:
            keys.update((one, many))
    return keys


def test_every_text_the_scripts_show_has_its_translation_in_a_block():
    missing = script_texts() - block_keys()
    assert not missing, sorted(missing)


def test_every_key_of_the_blocks_is_a_text_a_script_shows():
    unused = block_keys() - script_literals()
    assert not unused, sorted(unused)


ENTRY = (
    r'\{% translate "(.*?)" as w %\}\{% if w != "\1" %\}'
    r'"\1": "\{\{ w\|escapejs \}\}",\{% endif %\}'
)


def test_each_entry_names_its_key_once_and_the_same_three_times():
    for path in BLOCKS:
        for line in (ROOT / path).read_text(encoding="utf-8").splitlines():
            if line.startswith("{% translate "):
                assert re.fullmatch(ENTRY, line), line
