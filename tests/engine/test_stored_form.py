"""The engine's copies of documents (`embedded/stored_form.py`) are mongomock-ng's own
conversions, only faster: stored form (naive UTC datetimes to the millisecond) and read form
(every datetime in the UTC zone a driver's `tz_aware` decoding gives), new containers at every
level, whatever the values."""

from __future__ import annotations

from collections import OrderedDict
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from bson import ObjectId
from bson.tz_util import utc as bson_utc

from embedded import mongomock_internals as mongomock
from embedded.stored_form import read_copy, reply_copy, stored_copy

MOMENT = datetime(2024, 1, 1, 1, 2, 3, 456789)
VALUES: dict[str, Any] = {
    "naive": MOMENT,
    "naive, whole milliseconds": MOMENT.replace(microsecond=456000),
    "naive, second fold": MOMENT.replace(fold=1),
    "UTC, second fold": MOMENT.replace(tzinfo=UTC, fold=1),
    "UTC": MOMENT.replace(tzinfo=UTC),
    "PyMongo's UTC": MOMENT.replace(tzinfo=bson_utc),
    "an offset": MOMENT.replace(tzinfo=timezone(timedelta(hours=3))),
    "scalars": ["a", 1, 2.5, True, None, ObjectId("5a934e000102030405000000"), b"x"],
    "a tuple": (1, MOMENT),
    "an ordered dict": OrderedDict(a=MOMENT),
}
DOCUMENT = {"_id": 1, "sub": {"list": [dict(VALUES), list(VALUES.values())]}, **VALUES}


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (stored_copy, mongomock.patch_datetimes),
        (read_copy, mongomock.to_aware_datetimes),
        (reply_copy, lambda value: mongomock.to_aware_datetimes(mongomock.patch_datetimes(value))),
    ],
    ids=["stored", "read", "reply"],
)
def test_stored_form_copies_as_mongomock_converts(ours: Any, theirs: Any) -> None:
    copied = ours(DOCUMENT)
    assert repr(copied) == repr(theirs(DOCUMENT))
    assert copied["sub"] is not DOCUMENT["sub"]
    assert copied["sub"]["list"][0] is not DOCUMENT["sub"]["list"][0]
