"""Bounds on what a request may say, checked before anything reaches the database.

Every whole number a client sends (an id in the address, a serializer field, a form
field) is bounded here to what the database columns hold on both databases: SQLite
raises OverflowError past 2**63 and PostgreSQL a DataError past a column's width, and
neither is a refusal. JSON bodies are bounded too: nesting (Python's parser recurses)
and size.

Stored values are bounded here too, once, for every form, serializer and service that
takes them: dates lie in DATE_MIN to DATE_MAX (a season "to 9999-12-31" overflows the
day after its last day; year 1 is a typo), and names hold no control characters (an
escape sequence or a bell in a player's name reaches every page, CSV and terminal).
"""

from __future__ import annotations

import datetime as dt
import io
import json
import re
import unicodedata
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.urls import register_converter
from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import FormParser, JSONParser
from rest_framework.utils import html

from ginclub.errors import ServiceError

# Ids: the database's own, and no club gets near two thousand million rows.
ID_MAX = 2**31 - 1
# PostgreSQL's integer (IntegerField, PositiveIntegerField).
INT_MAX = 2**31 - 1
# PostgreSQL's smallint (PositiveSmallIntegerField): game and hand numbers, deadwood...
SMALL_MAX = 2**15 - 1

# Dates a club may store: a tournament, a season's days, an imported event.
DATE_MIN = dt.date(2000, 1, 1)
DATE_MAX = dt.date(2100, 12, 31)

# How deep a JSON body may nest (an archive is 7 deep; a hand's melds 3).
JSON_MAX_DEPTH = 32


class IdConverter:
    """`<id:name>` in an address: a whole number from 1 to ID_MAX. Anything larger does
    not match, so the address answers 404 like any other that names nothing."""

    regex = "[0-9]{1,10}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 1 <= number <= ID_MAX:
            raise ValueError(f"{value} is not an id")
        return number

    def to_url(self, value: Any) -> str:
        return str(int(value))


register_converter(IdConverter, "id")


class StrictIntegerField(serializers.IntegerField):
    """A whole number as the schema says: a JSON integer (not 5.0, "5" or true); in a
    form or multipart body, where everything is text, its digits ("5", not "5.0")."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int | str):
            self.fail("invalid")
        if isinstance(data, str) and (not _is_form(self) or not _DIGITS.fullmatch(data.strip())):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """true or false as the schema says: a JSON boolean, or the words "true"/"false" in a
    form or multipart body; not 0, 1, "yes" or "on"."""

    def to_internal_value(self, data: Any) -> bool:
        if isinstance(data, bool):
            return data
        if isinstance(data, str) and _is_form(self) and data.strip().lower() in _WORDS:
            return _WORDS[data.strip().lower()]
        self.fail("invalid", input=data)


_DIGITS = re.compile(r"-?[0-9]{1,12}")
_WORDS = {"true": True, "false": False}


def _is_form(field: serializers.Field) -> bool:
    return html.is_html_input(getattr(field.root, "initial_data", None))


def id_field(**options: Any) -> serializers.IntegerField:
    """A serializer field for an id: 1 to ID_MAX."""
    return StrictIntegerField(min_value=1, max_value=ID_MAX, **options)


def bool_field(**options: Any) -> serializers.BooleanField:
    """A serializer field for true or false, strictly (StrictBooleanField)."""
    return StrictBooleanField(**options)


def whole_field(
    low: int = -INT_MAX, high: int = INT_MAX, **options: Any
) -> serializers.IntegerField:
    """A serializer field for a whole number from `low` to `high`; by default any number
    an integer column holds, for settings whose range the service checks (and names)."""
    return StrictIntegerField(min_value=low, max_value=high, **options)


def date_in_range(value: Any) -> bool:
    return isinstance(value, dt.date) and DATE_MIN <= _day(value) <= DATE_MAX


def _day(value: dt.date) -> dt.date:
    return value.date() if isinstance(value, dt.datetime) else value


def date_range_text() -> str:
    """The range as a refusal says it: "a date from 2000-01-01 to 2100-12-31"."""
    return _("a date from %(first)s to %(last)s") % {
        "first": DATE_MIN.isoformat(),
        "last": DATE_MAX.isoformat(),
    }


def check_date(value: dt.date) -> None:
    """A form field's or serializer field's validator: ValidationError out of range."""
    if not date_in_range(value):
        raise ValidationError(_("Enter %(range)s.") % {"range": date_range_text()})


def date_field(**options: Any) -> serializers.DateField:
    """A serializer field for a date from DATE_MIN to DATE_MAX."""
    return serializers.DateField(validators=[check_date], **options)


def date_widget_attrs() -> dict[str, str]:
    """An <input type="date"> that offers only the dates a club may store."""
    return {"type": "date", "min": DATE_MIN.isoformat(), "max": DATE_MAX.isoformat()}


# Characters a name may not hold: controls (C0, DEL, C1: escapes, bells, line breaks),
# lone surrogates (not storable as UTF-8), and the bidirectional overrides and isolates
# that make a name read as something else.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def control_character(text: str) -> str | None:
    """The first character of `text` a name may not hold, as "U+001B"; else None."""
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cs") or char in BIDI_CONTROLS:
            return f"U+{ord(char):04X}"
    return None


def name_problem(text: str) -> str | None:
    """Why `text` cannot be stored as a name (players, clubs, tournaments, seasons,
    venues), or None. The services ask it, so every path to the database does."""
    found = control_character(text)
    if found is None:
        return None
    return _("must not hold control characters (%(char)s)") % {"char": found}


def registration_details(name: str, email: str, member_id: str) -> tuple[str, str, str]:
    """A registration's name, email and member id, folded and checked. Raises
    ServiceError (`empty_name`, `name_too_long`, `bad_email`, `bad_member_id`)."""
    name, email, member_id = " ".join(str(name).split()), email.strip(), member_id.strip()
    if not name:
        raise ServiceError("empty_name", _("The name is empty."), fields={"name": _("required")})
    if len(name) > 120:
        raise ServiceError(
            "name_too_long",
            _("The name is %(count)s characters long (120 at most).") % {"count": len(name)},
            fields={"name": _("too long")},
        )
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise ServiceError(
                "bad_email",
                _("%(email)s is not an email address.") % {"email": repr(email)},
                fields={"email": _("not an email address")},
            ) from None
    if len(member_id) > 40:
        raise ServiceError(
            "bad_member_id",
            _("A member id has 40 characters at most."),
            fields={"member_id": _("too long")},
        )
    return name, email, member_id


class TooDeep(ServiceError):
    def __init__(self) -> None:
        super().__init__(
            "too_deep",
            _("The JSON nests more than %(depth)s levels deep: no request needs that.")
            % {"depth": JSON_MAX_DEPTH},
            status=400,
        )


class TooLarge(ServiceError):
    status = 413

    def __init__(self, limit: int) -> None:
        super().__init__(
            "too_large",
            _("The request body is over %(size)s MB: send less at a time.")
            % {"size": f"{limit / 1024 / 1024:g}"},
            status=413,
        )


def nesting_exceeds(value: Any, limit: int = JSON_MAX_DEPTH) -> bool:
    """Whether parsed JSON nests deeper than `limit` (a walk that does not recurse)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list):
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in item)
    return False


def read_bounded(stream) -> bytes:
    """A request body, refused (TooLarge, 413) past DATA_UPLOAD_MAX_MEMORY_SIZE."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if limit is None:
        return stream.read()
    raw = stream.read(limit + 1)
    if len(raw) > limit:
        raise TooLarge(limit)
    return raw


class BoundedFormParser(FormParser):
    """DRF's form parser, refusing a body over DATA_UPLOAD_MAX_MEMORY_SIZE (413)."""

    def parse(self, stream, media_type=None, parser_context=None):
        return super().parse(io.BytesIO(read_bounded(stream)), media_type, parser_context)


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, refusing a body over DATA_UPLOAD_MAX_MEMORY_SIZE (413
    `too_large`) or nested deeper than JSON_MAX_DEPTH (400 `too_deep`) before parsing."""

    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        raw = read_bounded(stream)
        try:
            return loads(raw.decode(encoding), strict=self.strict)
        except ValueError as error:  # UnicodeDecodeError and JSONDecodeError included
            raise ParseError(_("JSON parse error - %(detail)s") % {"detail": error}) from None


def loads(text: str | bytes, *, strict: bool = True) -> Any:
    """json.loads, refusing (TooDeep) what nests deeper than JSON_MAX_DEPTH; ValueError
    for text that is not JSON. For every JSON a request brings (bodies, uploads)."""
    try:
        # The C scanner recurses: a body deeper than the interpreter allows stops here.
        value = json.loads(text, parse_constant=_refuse_constant if strict else None)
    except RecursionError:
        raise TooDeep() from None
    if nesting_exceeds(value):
        raise TooDeep()
    return value


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"Out of range float values are not JSON compliant: {name!r}")


def require_format(request: Any, expected: str) -> None:
    """A file's address takes `format` only as its own kind ("svg", "csv"), or none: any
    other value is refused naming the parameter, not ignored."""
    value = request.GET.get("format")
    if value is not None and value != expected:
        raise ServiceError(
            "invalid",
            _("format can only be %(expected)s here, not %(value)s.")
            % {"expected": expected, "value": repr(value[:20])},
            fields={"format": expected},
        )


class StrictFormatNegotiation(DefaultContentNegotiation):
    """DRF's content negotiation, except that an unknown `?format=` is a 400 naming the
    parameter (DRF's own answer is a bare 404, as though the address were wrong)."""

    def select_renderer(self, request, renderers, format_suffix=None):
        value = format_suffix or request.query_params.get(self.settings.URL_FORMAT_OVERRIDE)
        if value and not any(renderer.format == value for renderer in renderers):
            formats = ", ".join(sorted({renderer.format for renderer in renderers}))
            raise ServiceError(
                "invalid",
                _("format can only be %(expected)s here, not %(value)s.")
                % {"expected": formats, "value": repr(value[:20])},
                fields={"format": formats},
            )
        return super().select_renderer(request, renderers, format_suffix)
