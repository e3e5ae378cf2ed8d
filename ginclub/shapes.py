"""The API's output shapes written out at the cost of the writing, not of DRF's set-up.

Every time a DRF serializer is made it deep-copies its declared fields: each field, and
each nested field, is made again from its arguments. For a hand's answer that took
0.4 ms, fifteen times the 0.02 ms of writing the hand out (benchmarks/bench_service.py,
docs/benchmarks.md). An output serializer given no context keeps nothing of the object
it writes or of the request, so one instance of each, its fields bound once, writes every
object (`represent`): the serializer stays the one home of the shape and of the schema.

Serializers that read a context (the viewer, the match) are made per request as before,
and so are input serializers, which keep the data they check.
"""

from __future__ import annotations

import functools
from typing import Any

from rest_framework import serializers


def represent(
    serializer_class: type[serializers.BaseSerializer], instance: Any, *, many: bool = False
) -> Any:
    """What `serializer_class(instance, many=many).data` holds, as plain dicts and lists."""
    return _writer(serializer_class, many).to_representation(instance)


@functools.cache
def _writer(serializer_class: type[serializers.BaseSerializer], many: bool):
    # Made once per class; two threads making it at once make two, and both are right.
    return serializer_class(many=many)
