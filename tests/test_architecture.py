"""The pure packages stay pure: scoring/rules and tournaments/pairing never import Django,
DRF, the web stack or the project's Django apps (models, services, views...), only each
other. The rules engine takes the standard library alone (issue 2); pairing may use a
plain maths library such as networkx."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PURE = {
    "scoring.rules": ROOT / "scoring" / "rules",
    "tournaments.pairing": ROOT / "tournaments" / "pairing",
}
PROJECT = {"ginclub", "scoring", "tournaments", "tests"}
STDLIB_ONLY = {"scoring.rules"}
WEB_STACK = {
    "rest_framework",
    "axes",
    "whitenoise",
    "dj_database_url",
    "psycopg",
    "psycopg2",
    "gunicorn",
    "segno",
    "factory",
    "pytest_django",
}


def imported_modules(source: str, package: str) -> list[str]:
    """Every module the source imports (names imported from a module counted as possible
    submodules), relative imports resolved against `package`, the file's package."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            found.append(module)
            found.extend(f"{module}.{alias.name}" for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and getattr(node.func, "attr", getattr(node.func, "id", ""))
            in ("import_module", "__import__")
        ):
            found.append(node.args[0].value)
    return found


def forbidden(module: str, package: str = "scoring.rules") -> bool:
    """Django, DRF or the web stack; any project module outside the pure packages; and
    for the rules engine anything outside the standard library."""
    top = module.split(".")[0]
    if top in PROJECT:
        return not any(module == pure or module.startswith(pure + ".") for pure in PURE)
    if top.startswith(("django", "drf")) or top in WEB_STACK:
        return True
    stdlib_only = any(package == p or package.startswith(p + ".") for p in STDLIB_ONLY)
    return stdlib_only and top not in sys.stdlib_module_names and top != "__future__"


def violations(package: str, folder: Path) -> list[str]:
    found = []
    for path in sorted(folder.rglob("*.py")):
        relative = path.relative_to(folder).with_suffix("").parts
        owner = ".".join((package, *relative[:-1]))
        for module in imported_modules(path.read_text(encoding="utf-8"), owner):
            if forbidden(module, package):
                found.append(f"{path.relative_to(ROOT)} imports {module}")
    return found


@pytest.mark.parametrize("package", sorted(PURE))
def test_pure_packages_import_neither_django_nor_the_django_apps(package):
    folder = PURE[package]
    if not folder.exists():
        pytest.skip(f"{package} is not written yet")
    assert list(folder.rglob("*.py")), f"{folder} holds no Python files"
    assert violations(package, folder) == []


def test_the_rules_engine_is_checked():
    assert PURE["scoring.rules"].joinpath("melds.py").exists()


@pytest.mark.parametrize(
    ("source", "bad"),
    [
        ("import django", ["django"]),
        ("from django.db import models", ["django.db", "django.db.models"]),
        (
            "from rest_framework import serializers",
            ["rest_framework", "rest_framework.serializers"],
        ),
        ("from scoring.models import Match", ["scoring.models", "scoring.models.Match"]),
        ("from scoring import services", ["scoring", "scoring.services"]),
        ("import tournaments.models", ["tournaments.models"]),
        ("from .. import models", ["scoring", "scoring.models"]),
        ("from ..models import Hand", ["scoring.models", "scoring.models.Hand"]),
        ("import importlib\nimportlib.import_module('django.conf')", ["django.conf"]),
        ("import hypothesis", ["hypothesis"]),
        ("import networkx", ["networkx"]),
    ],
)
def test_the_checker_catches_every_kind_of_forbidden_import(source, bad):
    found = [m for m in imported_modules(source, "scoring.rules") if forbidden(m)]
    assert found == bad


@pytest.mark.parametrize(
    ("source", "bad"),
    [
        ("import networkx as nx", []),
        ("from django.db import transaction", ["django.db", "django.db.transaction"]),
        ("import django_htmx", ["django_htmx"]),
        ("from ..models import Round", ["tournaments.models", "tournaments.models.Round"]),
        (
            "from tournaments.services import pair_round",
            ["tournaments.services", "tournaments.services.pair_round"],
        ),
        ("from scoring.rules import score_game", []),
    ],
)
def test_pairing_may_use_a_maths_library_but_never_django_or_the_apps(source, bad):
    package = "tournaments.pairing"
    assert [m for m in imported_modules(source, package) if forbidden(m, package)] == bad


@pytest.mark.parametrize(
    "source",
    [
        "import itertools",
        "from collections.abc import Sequence",
        "from __future__ import annotations",
        "from scoring.rules.cards import Card",
        "from . import cards",
        "from .melds import best_deadwood",
        "from tournaments.pairing import swiss",
    ],
)
def test_the_checker_allows_the_standard_library_and_the_pure_packages(source):
    assert [m for m in imported_modules(source, "scoring.rules") if forbidden(m)] == []
