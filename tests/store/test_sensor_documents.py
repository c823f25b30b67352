"""A stored sensor document read as a record: every hour's numbers as the record types them,
whatever a direct write stored (never failing the read)."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

import pytest
from bson import ObjectId
from bson.int64 import Int64

from store.sensors.sensors import MAX_STORED_COUNT, HourTotal, sensor_from_document

HOUR = datetime(2026, 11, 24, 10, tzinfo=UTC)


def _read_hour(**bucket: Any) -> HourTotal:
    doc = {"_id": ObjectId(), "title": "t", "totals": [{"timestamp": HOUR, **bucket}]}
    [total] = sensor_from_document(doc).totals
    return total


@pytest.mark.parametrize(
    ("stored", "read"),
    [
        (7, 7),
        (Int64(7), 7),
        (7.0, 7),
        (True, 1),
        (None, 0),
        (math.nan, 0),
        (math.inf, MAX_STORED_COUNT),
        (-math.inf, -MAX_STORED_COUNT),
    ],
)
def test_sensor_from_document_reads_a_stored_count_as_a_whole_number(
    stored: Any, read: int
) -> None:
    total = _read_hour(count=stored, valueCount=stored)
    assert (total.count, total.value_count) == (read, read)
    assert type(total.count) is int and type(total.value_count) is int


@pytest.mark.parametrize(("stored", "read"), [(2.5, 2.5), (2, 2.0), (Int64(2), 2.0), (None, None)])
def test_sensor_from_document_reads_a_stored_value_as_a_float(
    stored: Any, read: float | None
) -> None:
    total = _read_hour(count=1, sum=stored, min=stored, max=stored)
    assert (total.sum, total.min, total.max) == (read, read, read)
    assert all(type(value) is type(read) for value in (total.sum, total.min, total.max))


def test_sensor_from_document_leaves_out_a_bucket_without_a_time() -> None:
    doc = {"_id": ObjectId(), "title": "t", "totals": [{"count": 3}, {"timestamp": HOUR}]}
    assert sensor_from_document(doc).totals == (HourTotal(HOUR, 0),)
