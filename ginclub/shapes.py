"""The API's shapes, in and out, at the cost of the checking and the writing, not of
DRF's set-up.

Every time a DRF serializer is made it deep-copies its declared fields: each field, and
each nested field, is made again from its arguments. For a hand's answer that took
0.4 ms, fifteen times the 0.02 ms of writing the hand out, and for a hand's body 0.3 of
the 0.5 ms of checking it (benchmarks/bench_service.py, docs/benchmarks.md). So each
serializer is made once and used again; it stays the one home of its shape and of the
schema.

- Out (`represent`): an output serializer given no context keeps nothing of the object
  it writes or of the request, so one instance of each class writes every object, in
  every thread. Serializers that read a context (the viewer, the match) are made per
  request as before.
- In (`valid`): an input serializer holds the body it checks while it checks it (a
  field asks whether the body came from a form), so each thread keeps its own instance
  of each class, given one body at a time and cleared of it afterwards.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

from rest_framework import serializers
from rest_framework.request import Request


def represent(
    serializer_class: type[serializers.BaseSerializer], instance: Any, *, many: bool = False
) -> Any:
    """What `serializer_class(instance, many=many).data` holds, as plain dicts and lists."""
    return _writer(serializer_class, many).to_representation(instance)


@functools.cache
def _writer(serializer_class: type[serializers.BaseSerializer], many: bool):
    # Made once per class; two threads making it at once make two, and both are right.
    return serializer_class(many=many)


def valid(serializer_class: type[serializers.Serializer], request: Request) -> dict:
    """The request body checked by an input serializer (DRF's ValidationError, a 400
    refusal, otherwise): what `serializer_class(data=request.data)` would validate."""
    checker = _checker(serializer_class)
    checker.initial_data = request.data
    try:
        checker.is_valid(raise_exception=True)
        return dict(checker.validated_data)
    finally:
        # What is_valid keeps of this body: the next body is checked afresh.
        for name in _BODY_STATE:
            checker.__dict__.pop(name, None)


_BODY_STATE = ("initial_data", "_validated_data", "_errors")
_checkers = threading.local()


def _checker(serializer_class: type[serializers.Serializer]) -> serializers.Serializer:
    made = _checkers.__dict__.setdefault("by_class", {})
    if serializer_class not in made:
        made[serializer_class] = serializer_class()
    return made[serializer_class]
