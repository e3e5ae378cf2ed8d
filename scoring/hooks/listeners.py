"""Listeners: how the apps above scoring react to a change once it has committed. A
listener is told, never asked: it cannot refuse the change (that is a guard's part,
scoring.hooks.guards), and whatever it raises is logged, not passed to the player.

    result listener a match's result moved (the same ResultChange the result guards
                    judged): the tournaments app queues a refresh of the club's season
                    ladders. Listeners are called after the transaction that made the
                    change commits, so a change rolled back (a refusal, a preview) tells
                    them nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.db import transaction

from scoring.hooks.guards import ResultChange

ResultListener = Callable[[ResultChange], None]
_result_listeners: list[ResultListener] = []


def register_result_listener(listener: ResultListener) -> None:
    """`listener(change)` is called once the change commits; it returns nothing."""
    if listener not in _result_listeners:
        _result_listeners.append(listener)


def result_changed(change: ResultChange) -> None:
    """Tell every listener of `change` once the caller's transaction commits (at once
    outside one); a listener's error is logged and the others are still told."""
    for listener in _result_listeners:
        transaction.on_commit(_telling(listener, change), robust=True)


def _telling(listener: ResultListener, change: ResultChange) -> Callable[[], None]:
    # wraps: a robust on_commit logs a failure under the callback's __qualname__
    @wraps(listener)
    def tell() -> None:
        listener(change)

    return tell
