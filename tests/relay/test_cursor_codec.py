"""The cursor codec: exact round trips, typed elements, one error for anything else."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import NamedTuple

import pytest
from bson import ObjectId
from bson.tz_util import utc as bson_utc

from resolvers.cursors import CursorCodec, Id, Integer, Millis, Text
from resolvers.errors import BadUserInput


class Position(NamedTuple):
    moment: datetime
    name: str


class Keyed(NamedTuple):
    total: int
    id: ObjectId


TIMES = CursorCodec("times", (Millis(), Text(8)), Position)
KEYS = CursorCodec("keys", (Integer(0, 1_000), Id()), Keyed)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    "millis",
    [
        *(0, 1, -1, 539_656_225_879, -14_182_940_000, 253_402_300_799_999, -62_135_596_800_000),
        *range(1_700_000_000_000, 1_700_000_001_000, 7),  # a second's worth, every 7th ms
    ],
)
def test_a_time_round_trips_to_the_exact_millisecond(millis: int) -> None:
    moment = EPOCH + timedelta(milliseconds=millis)
    cursor = TIMES.encode(Position(moment, "a"))
    assert TIMES.decode(cursor, argument="after") == Position(moment, "a")
    assert json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))) == [
        "times",
        millis,
        "a",
    ]


def test_keys_round_trip() -> None:
    position = Keyed(1_000, ObjectId())
    assert KEYS.decode(KEYS.encode(position), argument="after") == position


def _forged(*elements: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(list(elements)).encode()).decode()


@pytest.mark.parametrize(
    "cursor",
    [
        _forged("keys", 1_001, str(ObjectId())),
        _forged("keys", -1, str(ObjectId())),
        _forged("keys", True, str(ObjectId())),
        _forged("keys", 1.0, str(ObjectId())),
        _forged("keys", 1, "z" * 24),
        _forged("keys", 1, str(ObjectId()), "extra"),
        _forged("times", 1, "a"),
        _forged("keys"),
        _forged({"keys": 1}),
        "",
        "%%%",
        base64.urlsafe_b64encode(b"\xff\xfe").decode(),
    ],
)
def test_anything_but_a_cursor_of_this_list_is_one_bad_input_error(cursor: str) -> None:
    with pytest.raises(BadUserInput) as raised:
        KEYS.decode(cursor, argument="before")
    assert str(raised.value) == "before: not a cursor of this list"
    assert raised.value.argument == "before"


@pytest.mark.parametrize("name", ["", "x" * 9, "a\u0000b", "\ud800"])
def test_text_elements_are_non_empty_storable_and_bounded(name: str) -> None:
    with pytest.raises(BadUserInput):
        TIMES.decode(_forged("times", 0, name), argument="after")


NAMES = CursorCodec("names", (Millis(), Text(64)), Position)


@pytest.mark.parametrize("character", ["\U0001f600", "\x01", '"'])
def test_a_cursor_of_the_longest_text_decodes(character: str) -> None:
    position = Position(datetime(1, 1, 1, tzinfo=UTC), character * 64)  # the longest time too
    cursor = NAMES.encode(position)
    assert len(cursor) <= NAMES.longest
    assert NAMES.decode(cursor, argument="after") == position


def test_a_cursor_longer_than_any_of_its_list_is_not_decoded() -> None:
    with pytest.raises(BadUserInput):
        NAMES.decode("W" * (NAMES.longest + 1), argument="after")


def _written_by_the_standard_library(*elements: object) -> str:
    """A cursor as the codec wrote it before orjson: clients hold cursors written so."""
    raw = json.dumps(list(elements), separators=(",", ":"), ensure_ascii=False)
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    "name",
    [
        "a",
        'quote " and \\',
        "tab\tnew\nline",
        "\x01\x1f\x7f",
        "é",
        "日本語",
        "\U0001f600",
        "\u2028",
    ],
)
def test_a_cursor_is_the_same_text_the_standard_library_wrote(name: str) -> None:
    millis = 1_700_000_000_123
    position = Position(EPOCH + timedelta(milliseconds=millis), name)
    written = _written_by_the_standard_library("names", millis, name)
    assert NAMES.encode(position) == written
    assert NAMES.decode(written, argument="after") == position


@pytest.mark.parametrize(
    "zone", [UTC, bson_utc, timezone(timedelta(hours=-7))], ids=["UTC", "PyMongo's UTC", "offset"]
)
def test_a_time_of_any_zone_dumps_its_milliseconds_since_1970(zone: tzinfo) -> None:
    moment = datetime(2024, 5, 1, 12, 30, 15, 123000, tzinfo=UTC)
    assert Millis().dump(moment.astimezone(zone)) == 1_714_566_615_123
