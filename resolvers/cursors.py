"""The one cursor codec: opaque, exact and typed.

A cursor is base64url (unpadded) of a small JSON list `[kind, value, ...]`, compact and UTF-8
(orjson writes exactly the bytes `json.dumps(..., separators=(",", ":"), ensure_ascii=False)`
wrote, so cursors already handed out keep naming the same positions). Values are exact: integers
(a time is whole milliseconds since 1970, computed with integer arithmetic, never a float
product) or the stored value itself (a title, an id). Decoding checks the kind and each
element's type and range once; anything else is `BAD_USER_INPUT` "not a cursor of this list",
so a forged cursor never reaches a query as anything but a value of the expected type.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Generic, Protocol, TypeVar

import orjson
from bson import ObjectId
from bson.tz_util import utc as BSON_UTC

from resolvers.base64url import unpadded_base64url
from resolvers.errors import BadUserInput
from resolvers.validation import is_storable_text

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
P = TypeVar("P", bound=tuple[Any, ...])

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_BSON_EPOCH = EPOCH.replace(tzinfo=BSON_UTC)
MILLISECOND = timedelta(milliseconds=1)
INT64_MAX = 2**63 - 1
# The most JSON bytes a character of a string takes: a control character's `\u001f` escape.
_MOST_BYTES_PER_CHARACTER = 6
_NUMBER_BYTES = len(str(-INT64_MAX))


class CursorField(Protocol[T_co]):
    """One element of a cursor: how it is written, and how it is read back and checked."""

    @property
    def longest(self) -> int:
        """The most JSON bytes a written value takes."""
        ...

    def dump(self, value: Any) -> int | str: ...

    def load(self, raw: object) -> T_co | None:
        """The value, or None when `raw` is not a value of this field."""
        ...


def _whole(raw: object, minimum: int, maximum: int) -> int | None:
    """A JSON integer within the range (JSON's `true` is not 1, and `1e3` is not an integer)."""
    if isinstance(raw, bool) or not isinstance(raw, int):
        return None
    return raw if minimum <= raw <= maximum else None


@dataclass(frozen=True, slots=True)
class Integer:
    minimum: int = 0
    maximum: int = INT64_MAX
    longest: int = _NUMBER_BYTES

    def dump(self, value: Any) -> int:
        return int(value)

    def load(self, raw: object) -> int | None:
        return _whole(raw, self.minimum, self.maximum)


@dataclass(frozen=True, slots=True)
class Text:
    max_length: int
    pattern: re.Pattern[str] | None = None

    @property
    def longest(self) -> int:
        return 2 + _MOST_BYTES_PER_CHARACTER * self.max_length  # quoted

    def dump(self, value: Any) -> str:
        return str(value)

    def load(self, raw: object) -> str | None:
        if not isinstance(raw, str) or not 1 <= len(raw) <= self.max_length:
            return None
        if not is_storable_text(raw):
            return None
        if self.pattern is not None and not self.pattern.fullmatch(raw):
            return None
        return raw


@dataclass(frozen=True, slots=True)
class Millis:
    """A stored time (MongoDB keeps milliseconds) as whole milliseconds since 1970."""

    # The times Python can hold; BSON dates outside them cannot be read back anyway.
    minimum: int = (datetime(1, 1, 1, tzinfo=UTC) - EPOCH) // MILLISECOND
    maximum: int = (datetime(9999, 12, 31, 23, 59, 59, 999000, tzinfo=UTC) - EPOCH) // MILLISECOND
    longest: int = _NUMBER_BYTES

    def dump(self, value: Any) -> int:
        moment: datetime = value
        # Aware datetimes of one zone subtract without asking it their offsets (a Python call
        # for PyMongo's UTC, which every read time carries).
        epoch = _BSON_EPOCH if moment.tzinfo is BSON_UTC else EPOCH
        return (moment - epoch) // MILLISECOND

    def load(self, raw: object) -> datetime | None:
        millis = _whole(raw, self.minimum, self.maximum)
        return None if millis is None else EPOCH + MILLISECOND * millis


@dataclass(frozen=True, slots=True)
class Id:
    """An ObjectId, as its 24 hex digits."""

    longest: int = 26  # quoted

    def dump(self, value: Any) -> str:
        return str(value)

    def load(self, raw: object) -> ObjectId | None:
        if isinstance(raw, str) and len(raw) == 24 and ObjectId.is_valid(raw):
            return ObjectId(raw)
        return None


@dataclass(frozen=True, slots=True)
class CursorCodec(Generic[P]):
    """Cursors of one list: `kind` tags them, `fields` type each element, `make` builds the
    position (a NamedTuple) from the decoded elements."""

    kind: str
    fields: tuple[CursorField[Any], ...]
    make: Callable[..., P]

    def encode(self, position: P) -> str:
        fields = self.fields
        if len(fields) == 2 == len(position):  # most lists': a sort key and a tie-breaker
            return self.encode_pair(position[0], position[1])
        values = [self.kind, *(f.dump(v) for f, v in zip(fields, position, strict=True))]
        return unpadded_base64url(orjson.dumps(values))

    def encode_pair(self, first: Any, second: Any) -> str:
        """`encode` of the position (first, second) of a two-field list, without building the
        position: a page encodes one per edge."""
        dump_first, dump_second = self.fields
        values = [self.kind, dump_first.dump(first), dump_second.dump(second)]
        return unpadded_base64url(orjson.dumps(values))

    @property
    def longest(self) -> int:
        """The most characters a cursor of this list takes: its JSON list, base64'd."""
        written = len(orjson.dumps([self.kind])) + sum(1 + f.longest for f in self.fields)
        return 4 * -(-written // 3)

    def decode(self, cursor: str, *, argument: str) -> P:
        """The position a cursor of this list names; anything else is BAD_USER_INPUT."""
        elements = _elements(cursor, self.longest)
        if elements is None or len(elements) != len(self.fields) + 1 or elements[0] != self.kind:
            raise not_a_cursor(argument)
        values = []
        for field, raw in zip(self.fields, elements[1:], strict=True):
            value = field.load(raw)
            if value is None:
                raise not_a_cursor(argument)
            values.append(value)
        return self.make(*values)


def not_a_cursor(argument: str) -> BadUserInput:
    return BadUserInput(f"{argument}: not a cursor of this list", argument=argument)


def _elements(cursor: str, longest: int) -> list[object] | None:
    if len(cursor) > longest:  # no cursor of the list is longer: not decoded
        return None
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        raw = base64.b64decode(padded.encode("ascii"), altchars=b"-_", validate=True)
        # orjson refuses what the standard parser read and the checks then refused anyway
        # (NaN, integers past 64 bits, lone surrogates): either way, not a cursor.
        decoded = orjson.loads(raw)
    except (binascii.Error, ValueError, UnicodeError):
        return None
    return decoded if isinstance(decoded, list) else None
