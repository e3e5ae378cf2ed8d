"""Querysets compiled to SQL once, then run again with new values.

On the hottest path (every hand action locks its match, then reads its games with their
hands) Django spent several times longer building and compiling the same two querysets
than the database took to answer them. A `Prepared` query is still written once, as a
queryset, by a function of its values; the first run on a database connection builds it
with stand-in values, compiles it and keeps the SQL, and every later run on that
connection sends that SQL with the real values in the stand-ins' places. Rows come back
through the queryset's own iterable (model instances with their select_related objects,
or values), exactly as the queryset would give them.

What a build may do with its values: use them as values only (filters, subquery filters).
A value that chooses the query's shape (`if key: ...`), that is inlined into the SQL, or
that the ORM transforms (`__contains` wraps it in %) would not be found among the
compiled parameters, and a parameter made from a value (`f"match:{match_id}"`) would be
sent unchanged: the first run refuses both (ImproperlyConfigured) instead of sending
wrong SQL.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet
from django.db.transaction import TransactionManagementError

# A stand-in no real value takes: ids are far below it, and no one types the string.
_STAND_INS = {
    int: lambda index: 9_000_000_000_000_000 + index,
    str: lambda index: f"\x00prepared value {index}\x00",
}


class Prepared:
    """`build(**values)` returns the queryset; `kinds` gives each value's type (int or
    str). Call it with the values (and `using`, the database) for the list of rows."""

    def __init__(self, build: Callable[..., QuerySet], kinds: dict[str, type]):
        unknown = {kind for kind in kinds.values() if kind not in _STAND_INS}
        if unknown:
            raise ImproperlyConfigured(f"Prepared values are int or str, not {unknown}")
        self.build, self.kinds = build, kinds
        functools.update_wrapper(self, build)

    def __call__(self, *, using: str = DEFAULT_DB_ALIAS, **values: Any) -> list:
        if values.keys() != self.kinds.keys():
            raise TypeError(f"{self.__name__} takes {sorted(self.kinds)}, got {sorted(values)}")
        for name, value in values.items():
            if type(value) is not self.kinds[name]:
                raise TypeError(f"{self.__name__}: {name} must be {self.kinds[name].__name__}")
        connection = connections[using]
        compiled = _kept_on(connection).get(self)
        if compiled is None:
            compiled = self._compile(connection, using)
        queryset, compiler, sql, params, slots, converters = compiled
        if (
            queryset.query.select_for_update
            and connection.features.has_select_for_update
            and connection.get_autocommit()
        ):
            # What the compiler says when it compiles such a query outside a transaction.
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(params)
        for index, name in slots:
            params[index] = values[name]
        runner = compiler.__class__.__new__(compiler.__class__)
        runner.__dict__.update(compiler.__dict__)
        runner.as_sql = lambda *args, **kwargs: (sql, tuple(params))
        runner.get_converters = lambda expressions: converters
        run = queryset._chain()
        # Not `run.query = ...`: that setter would also change a values() queryset's
        # iterable to dicts.
        run._query = _CompiledQuery(run.query, runner)
        return list(run)

    def _compile(self, connection, using: str) -> tuple:
        stand_ins = {
            name: _STAND_INS[kind](index) for index, (name, kind) in enumerate(self.kinds.items())
        }
        queryset = self.build(**stand_ins).using(using)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        slots = []
        for index, param in enumerate(params):
            named = [n for n, s in stand_ins.items() if type(param) is type(s) and param == s]
            if named:
                slots.append((index, named[0]))
            elif made_from := [n for n, s in stand_ins.items() if str(s) in str(param)]:
                # Made from a value ("match:%s" % match_id, "%" + name + "%"): it would be
                # sent as it was made from the stand-in, whatever the value.
                raise ImproperlyConfigured(
                    f"{self.__name__}: a parameter of the compiled query is made from "
                    f"{made_from}; pass what it needs as a value of its own"
                )
        missing = set(stand_ins) - {name for _, name in slots}
        if missing:
            raise ImproperlyConfigured(
                f"{self.__name__}: the compiled query does not take {sorted(missing)} as "
                "parameters (used to shape the query, inlined, or transformed)"
            )
        # What the compiler works out again for every run: how each column's value
        # is converted (a function of the selected expressions and the connection).
        converters = compiler.get_converters(
            [column[0] for column in compiler.select[0 : compiler.col_count]]
        )
        compiled = (queryset, compiler, sql, tuple(params), tuple(slots), converters)
        _kept_on(connection)[self] = compiled
        return compiled

    def compiled_on(self, connection) -> bool:
        """Whether this query was compiled for `connection` (a connection object)."""
        return self in _kept_on(connection)


def _kept_on(connection) -> dict:
    """The compiled forms kept on a connection object: one per connection (a thread
    has its own), since a compiler keeps the connection it compiled for; they go with
    the connection object, so threads that come and go leave nothing behind."""
    try:
        return connection.ginclub_prepared
    except AttributeError:
        connection.ginclub_prepared = {}
        return connection.ginclub_prepared


class _CompiledQuery:
    """The query a run's queryset iterates: its compiler answers with the SQL compiled
    before; everything else the iterable asks of the query is the original's."""

    def __init__(self, query, compiler):
        self._query, self._compiler = query, compiler

    def get_compiler(self, using=None, connection=None, elide_empty=True):
        return self._compiler

    def __getattr__(self, name: str) -> Any:
        return getattr(self._query, name)
