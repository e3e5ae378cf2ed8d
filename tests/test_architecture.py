"""The pure packages stay pure: scoring/rules and tournaments/pairing never import Django,
DRF, the web stack or the project's Django apps (models, services, views...), only each
other. The rules engine takes the standard library alone (issue 2); pairing may use a
plain maths library such as rustworkx."""

from __future__ import annotations

import ast
import re
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
            module = from_module(node, package)
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


def from_module(node: ast.ImportFrom, package: str) -> str:
    """The module a `from ... import` reads, relative imports resolved against `package`."""
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = ".".join(parts[: len(parts) - node.level + 1])
    return f"{base}.{node.module}" if node.module else base


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
        ("import rustworkx", ["rustworkx"]),
    ],
)
def test_the_checker_catches_every_kind_of_forbidden_import(source, bad):
    found = [m for m in imported_modules(source, "scoring.rules") if forbidden(m)]
    assert found == bad


@pytest.mark.parametrize(
    ("source", "bad"),
    [
        ("import rustworkx as rx", []),
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


# ------------------------------------------------------------------- one-way layers
#
# The apps lean one way: tournaments → scoring → the shared core in ginclub (errors,
# permissions, the refusal middleware, API error handling). Nothing imports upward, and
# no two modules import each other, directly or around a longer loop. The site's entry
# points (the root URLconf, wsgi, asgi) put the apps together and may import them all.

LAYERS = {"ginclub": 0, "scoring": 1, "tournaments": 2}
ENTRY_POINTS = {"ginclub.urls", "ginclub.wsgi", "ginclub.asgi", "ginclub.settings"}


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the three packages (migrations left out), by dotted name."""
    found = {}
    for top in LAYERS:
        for path in sorted((root / top).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if "migrations" in parts:
                continue
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def project_imports(source: str, package: str, known: set[str]) -> set[str]:
    """The project modules a source imports, anywhere in it (inside functions too):
    `from a import b` is a.b when that is a module, else a."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            base = from_module(node, package)
            for alias in node.names:
                inner = f"{base}.{alias.name}"
                found.add(inner if inner in known else base)
        else:
            found.update(imported_modules(ast.unparse(node), package) if _is_import(node) else ())
    return found & known


def _is_import(node: ast.AST) -> bool:
    return isinstance(node, ast.Import) or (
        isinstance(node, ast.Call)
        and getattr(node.func, "attr", getattr(node.func, "id", ""))
        in ("import_module", "__import__")
    )


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """Module → the project modules it imports, from {module: (source, is_package)}."""
    known = set(sources)
    graph = {}
    for module, (source, is_package) in sources.items():
        package = module if is_package else module.rpartition(".")[0]
        graph[module] = project_imports(source, package, known) - {module}
    return graph


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for module, targets in sorted(graph.items()):
        if module in ENTRY_POINTS:
            continue
        own = LAYERS[module.split(".")[0]]
        for target in sorted(targets):
            if LAYERS[target.split(".")[0]] > own:
                found.append(f"{module} imports {target} (upward)")
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import loops (strongly connected groups of two or more modules), Tarjan."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    loops: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                loops.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return loops


def tree_graph() -> dict[str, set[str]]:
    modules = project_modules()
    sources = {
        name: (path.read_text(encoding="utf-8"), path.name == "__init__.py")
        for name, path in modules.items()
    }
    return import_graph(sources)


def graph_of(**sources: str) -> dict[str, set[str]]:
    """A graph from made-up modules: module names with dots written as __."""
    return import_graph({key.replace("__", "."): (text, False) for key, text in sources.items()})


def test_the_apps_import_one_way_only():
    assert layer_violations(tree_graph()) == []


def test_no_modules_import_each_other_in_a_loop():
    assert cycles(tree_graph()) == []


def test_the_layer_checker_refuses_an_upward_import():
    graph = graph_of(
        scoring__views="from tournaments.selectors import clock_for_match",
        tournaments__selectors="from scoring.models import Match",
        scoring__models="",
        ginclub__errors="from scoring import models",
    )
    assert layer_violations(graph) == [
        "ginclub.errors imports scoring.models (upward)",
        "scoring.views imports tournaments.selectors (upward)",
    ]


def test_the_layer_checker_lets_entry_points_and_lower_layers_be_imported():
    graph = graph_of(
        ginclub__urls="import scoring.views\nimport tournaments.views",
        scoring__views="from ginclub.errors import ServiceError",
        tournaments__views="from scoring import views\nfrom ginclub import errors",
        ginclub__errors="",
    )
    assert layer_violations(graph) == []


def test_the_cycle_checker_finds_loops_also_through_imports_inside_functions():
    graph = graph_of(
        tournaments__archive="from tournaments.services import check_settings",
        tournaments__services="def f():\n    from tournaments.archive import load\n",
        tournaments__rounds="from tournaments import services",
        scoring__a="import scoring.b",
        scoring__b="import scoring.c",
        scoring__c="from scoring import a",
    )
    assert cycles(graph) == [
        ["scoring.a", "scoring.b", "scoring.c"],
        ["tournaments.archive", "tournaments.services"],
    ]


def test_the_cycle_checker_accepts_a_package_hub_over_its_modules():
    graph = graph_of(
        scoring__services="from scoring.services.hand_entry import submit_hand",
        scoring__services__hands="from scoring.services.base import lock_match",
        scoring__services__base="from ginclub.errors import ServiceError",
        ginclub__errors="",
    )
    assert cycles(graph) == []


# ------------------------------------------------------------- one shape per answer
#
# Every API response is an Output serializer's `.data` (docs: STYLE.md, "A response's
# shape is written once"): no view answers a dict it builds itself, nor one of the
# `*_dict`/`as_dict` builders' dicts, whose keys would be a second copy of the shape.

API_MODULES = (ROOT / "scoring" / "api.py", ROOT / "tournaments" / "api.py")


def _called_name(node: ast.Call) -> str:
    return getattr(node.func, "attr", getattr(node.func, "id", ""))


def _hand_built(node: ast.AST | None) -> bool:
    """A dict written on the spot: a literal, a comprehension, dict(...), a `*_dict` or
    `as_dict` builder's result, or a list (or `|` merge, or either branch) of those."""
    if isinstance(node, (ast.Dict, ast.DictComp)):
        return True
    if isinstance(node, ast.Call):
        name = _called_name(node)
        return name == "dict" or name.endswith("_dict")
    if isinstance(node, (ast.List, ast.Tuple)):
        return any(_hand_built(item) for item in node.elts)
    if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        return _hand_built(node.elt)
    if isinstance(node, ast.BinOp):
        return _hand_built(node.left) or _hand_built(node.right)
    if isinstance(node, ast.IfExp):
        return _hand_built(node.body) or _hand_built(node.orelse)
    return False


def hand_built_responses(source: str) -> list[int]:
    """The lines of every `Response(...)` whose body (first argument or `data=`) is built
    by hand rather than by an Output serializer."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _called_name(node) == "Response":
            body = node.args[0] if node.args else None
            body = next((k.value for k in node.keywords if k.arg == "data"), body)
            if _hand_built(body):
                found.append(node.lineno)
    return sorted(found)


@pytest.mark.parametrize("path", API_MODULES, ids=lambda path: path.parent.name)
def test_no_api_view_answers_a_hand_built_dict(path):
    lines = hand_built_responses(path.read_text(encoding="utf-8"))
    assert lines == [], f"{path.relative_to(ROOT)}: answer an Output serializer's .data"


@pytest.mark.parametrize(
    "source",
    [
        "Response({'ok': True})",
        "Response({k: v for k, v in pairs})",
        "Response(dict(ok=True))",
        "Response(view.as_dict())",
        "Response(selectors.round_dict(rnd), status=201)",
        "Response(data=report.as_dict())",
        "Response([{'id': r.pk} for r in rows])",
        "Response([row.as_dict() for row in rows])",
        "Response(registration_dict(r) | {'rating': 1.5})",
        "Response({'a': 1} if public else s.X(x).data)",
    ],
)
def test_the_response_checker_refuses_a_hand_built_dict(source):
    assert hand_built_responses(f"def view(request):\n    return {source}\n") == [2]


@pytest.mark.parametrize(
    "source",
    [
        "Response(s.MatchOutputSerializer(view).data)",
        "Response(s.RoundOutputSerializer(rnd, context={'public': True}).data, status=201)",
        "Response(s.PlayerSerializer(players, many=True).data)",
        "Response(status=204)",
        "Response(body, status=202, headers={'Location': body['url']})",
        "Response(_detail(found))",
    ],
)
def test_the_response_checker_lets_serializer_data_through(source):
    assert hand_built_responses(f"def view(request):\n    return {source}\n") == []


# ------------------------------------------- who may read what, decided in one place

# A lookup on the public flags or on club membership (organisers, a club's players'
# logins): a list filtered by one decides who may read it, which is
# ginclub.permissions' alone (its visible_* querysets).
VISIBILITY_LOOKUP = re.compile(
    r"(^|__)(public|player_pages_public|organisers|players__user|player__user)(__|$)"
)
QUERY_CALLS = {"filter", "exclude", "get", "Q", "annotate", "aggregate"}


def visibility_filters(source: str) -> list[str]:
    """Keyword lookups in query calls that decide visibility (`VISIBILITY_LOOKUP`)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "attr", getattr(node.func, "id", ""))
        if name not in QUERY_CALLS:
            continue
        for keyword in node.keywords:
            if keyword.arg and VISIBILITY_LOOKUP.search(keyword.arg):
                found.append(f"line {node.lineno}: {name}({keyword.arg}=...)")
    return found


def test_no_list_decides_visibility_outside_the_permissions_module():
    problems = []
    for module, path in project_modules().items():
        if module == "ginclub.permissions" or ".migrations." in module:
            continue
        problems += [f"{module} {found}" for found in visibility_filters(path.read_text())]
    assert problems == []


@pytest.mark.parametrize(
    "source",
    [
        "Tournament.objects.filter(public=True)",
        "qs.exclude(club__organisers=user)",
        "Q(registrations__player__user=user)",
        "Club.objects.filter(players__user=u).exists()",
        "seasons.filter(public=True, club=club)",
        "clubs.filter(player_pages_public=True)",
    ],
)
def test_the_visibility_checker_finds_a_filter_on_a_public_flag_or_membership(source):
    assert visibility_filters(source)


@pytest.mark.parametrize(
    "source",
    [
        "Player.objects.filter(user=request.user)",
        "permissions.visible_tournaments(actor).filter(club=club)",
        "Tournament(public=True)",
        "services.create_tournament(public=False)",
    ],
)
def test_the_visibility_checker_lets_other_lookups_pass(source):
    assert visibility_filters(source) == []


# ---------------------------------------------- writes in one place: the services
#
# Only the services write (scoring/services, tournaments/services): pages, the API,
# selectors, stats, commands and hooks call them. A write is a call that saves, creates,
# updates or deletes rows: `.save(`, `.bulk_create(`, `.bulk_update(`, `.get_or_create(`,
# `.update_or_create(` on anything; `.create(`, `.update(` and `.delete(` on what looks
# like a queryset or a manager (a chain through `.objects` or a queryset method), and
# `.create(**fields)` (a related manager's) or a bare `.delete()` (a row's) on anything.
# dict.update, set.add, hashlib's .update and cache.set/.delete(key) are not writes.

ALWAYS_WRITES = {"save", "bulk_create", "bulk_update", "get_or_create", "update_or_create"}
QUERY_WRITES = {"create", "update", "delete"}
QUERYSET_METHODS = {
    "objects", "filter", "exclude", "all", "select_for_update", "select_related",
    "prefetch_related", "order_by", "annotate", "using", "only", "defer", "distinct",
}  # fmt: skip
# Modules outside services/ that may write, and why.
WRITERS = {
    # The audit ledger's append is itself the write layer under every service: they call
    # it inside their transaction, and it saves the one row it hash-chains.
    "ginclub.ledger": "appends the ledger row of the service that calls it",
    # The ledger's checkpoint notes the signed file it writes (seq and digest), in the
    # same transaction, from the worker's task or manage.py checkpoint_ledger.
    "ginclub.checkpoints": "notes each signed checkpoint it writes outside the database",
    # The login form's limits count attempts before any password is checked, in rows
    # every app server shares; throttling state, not club data, and no service's.
    "ginclub.login_limits": "counts login attempts (LoginCount rows) for the login view",
}


def receiver_chain(node: ast.expr) -> list[str]:
    """The names a call's receiver is made of, innermost last: `Game.objects.filter(x)`
    gives ["filter", "objects", "Game"]."""
    names = []
    while True:
        if isinstance(node, ast.Attribute):
            names.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        else:
            if isinstance(node, ast.Name):
                names.append(node.id)
            return names


def database_writes(source: str) -> list[str]:
    """The calls in `source` that write to the database (see above), as "line n: call"."""
    found = []
    for node in sorted(_attribute_calls(source), key=lambda call: call.lineno):
        method = node.func.attr
        looks_like_a_query = bool(QUERYSET_METHODS & set(receiver_chain(node.func.value)))
        if (
            method in ALWAYS_WRITES
            or (method in QUERY_WRITES and looks_like_a_query)
            or (method == "create" and node.keywords and not node.args)
            or (method == "delete" and not node.args and not node.keywords)
        ):
            found.append(f"line {node.lineno}: {ast.unparse(node.func)}(")
    return found


def _attribute_calls(source: str) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    ]


def writes_outside_services(modules: dict[str, Path]) -> list[str]:
    problems = []
    for module, path in sorted(modules.items()):
        parts = module.split(".")
        if "services" in parts or "migrations" in parts or module in WRITERS:
            continue
        problems += [f"{module} {found}" for found in database_writes(path.read_text())]
    return problems


def test_no_module_outside_the_services_writes_to_the_database():
    assert writes_outside_services(project_modules()) == []


def test_every_module_allowed_to_write_exists():
    assert set(WRITERS) <= set(project_modules())


@pytest.mark.parametrize(
    "source",
    [
        "match.save()",
        "game.save(update_fields=['state'])",
        "Game.objects.create(match=match, number=2)",
        "SeatSummary.objects.filter(match_id__in=ids).delete()",
        "Match.objects.filter(pk=1).update(state='closed')",
        "Match.objects.select_for_update().get(pk=1).delete()",
        "SeatSummary.objects.bulk_create(rows)",
        "Hand.objects.bulk_update(hands, ['state'])",
        "Player.objects.get_or_create(club=club, name='Ada')",
        "Rating.objects.update_or_create(player=p, defaults={})",
        "match.games.create(number=2, first_dealer='A')",
        "moot.delete()",
        "LedgerRow(chain='x').save(force_insert=True)",
    ],
)
def test_the_write_checker_finds_saves_creates_updates_and_deletes(source):
    assert database_writes(source)


@pytest.mark.parametrize(
    "source",
    [
        "values.update(first='Ada', second='Ben')",
        "context.update({'match': match})",
        "digest.update(path.read_bytes())",
        "seen.add(card)",
        "cache.set(key, rows, 60)",
        "cache.delete(key)",
        "caches['shared'].delete(board_key)",
        "Match.objects.filter(pk=1).exists()",
        "services.start_match(club=club, actor=actor)",
        "serializer.create(validated_data)",
        "tournament.refresh_from_db()",
    ],
)
def test_the_write_checker_lets_reads_and_other_updates_pass(source):
    assert database_writes(source) == []


def test_the_write_checker_skips_services_and_migrations_but_not_commands(tmp_path):
    modules = {}
    for name in (
        "scoring.services.recompute",
        "scoring.migrations.0006_seat_summaries",
        "scoring.progress",
        "tournaments.management.commands.load_demo",
    ):
        modules[name] = tmp_path / f"{name}.py"
        modules[name].write_text("Game.objects.create(match=match, number=1)\n")
    assert writes_outside_services(modules) == [
        "scoring.progress line 1: Game.objects.create(",
        "tournaments.management.commands.load_demo line 1: Game.objects.create(",
    ]
