"""Values the fuzz sends: hostile strings, numbers and times at every boundary, any JSON, and
a strategy per scalar drawing from them and from the world's ids and names (tests/fuzz/
shapes.py builds values of whole input types from these).
"""

from __future__ import annotations

import base64
import json
from datetime import datetime, timedelta
from typing import Any

from hypothesis import strategies as st

from tests.fuzz.world import NOW, World

# Lone surrogates (json.dumps sends them as "\ud800"), NUL, operators spelled as strings,
# control and format characters, unicode of every width; `long_strings` below for lengths.
HOSTILE: tuple[str, ...] = (
    "\ud800",
    "a\ud800b",
    "\udfff",
    "\udc00\ud800",
    "x\udbff",
    "\x00",
    "a\x00b",
    "$gt",
    "$ne",
    "$where",
    "$regex",
    "$$ROOT",
    '{"$ne": 1}',
    '{"$gt": ""}',
    "{$gt: ''}",
    "$",
    "a.b",
    "' OR 1=1 --",
    "<script>alert(1)</script>",
    "%s%n%x",
    "../../etc/passwd",
    "\\",
    '"',
    "\\u0000",
    "\n",
    "\t",
    " ",
    "",
    "\u202e",
    "\ufeff",
    "\uffff",
    "\u2028",
    "\U0010ffff",
    "🙂",
    "👩\u200d👩\u200d👧",
    "e\u0301",
    "İ",
    "ﬃ",
    "中文",
    "null",
    "NaN",
)
BOUNDARY_INTS = (0, 1, -1, 2, 99, 100, 101, 1_000, 1_001, 2**31 - 1, -(2**31), 2**31, 2**53 + 1)
BOUNDARY_FLOATS = (0.0, -0.0, 0.5, 1e100, -1e100, 1.0000000001e100, 1.7e308, 5e-324)
TIMES = (
    NOW,
    "2022-09-12T12:59:59.999Z",
    "2022-09-12T13:04:59Z",
    "2022-09-12T13:05:01Z",
    "2022-09-11T13:00:00+00:00",
    "1969-12-31T23:59:59.999Z",
    "1900-01-01T00:00:00Z",
    "1899-12-31T23:59:59Z",
    "0001-01-01T00:00:00Z",
    "9999-12-31T23:59:59.999999Z",
    "2022-09-12T13:00:00",
    "2022-09-12",
    "2022-09-12T13:00:00+14:00",
    "2022-09-12T13:00:00-23:59",
    "2022-09-12T13:00:00+24:00",
    "2022-02-30T00:00:00Z",
    "2022-09-12T24:00:00Z",
    "2022-09-12T13:00:00.123456789Z",
    "2022-W37-1T13:00:00Z",
    "now",
)
NODE_TYPES = ("Sensor", "User", "Order", "Customer", "Trade", "ChatSession", "Message", "X")

any_text = st.text(st.characters(exclude_categories=()), max_size=8)  # surrogates included
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    any_text,
)
# Any JSON value, objects keyed by operators too.
json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["$gt", "$ne", "$where", "a", "", "\ud800"]) | any_text,
            inner,
            max_size=3,
        )
    ),
    max_leaves=8,
)
# Past every length limit (titles 200, ids 128, texts 4,000), and far past (100 kB).
long_strings = st.sampled_from([65, 129, 201, 1_001, 4_001, 100_000]).map(lambda n: "x" * n)
hostile_strings = st.one_of(
    st.sampled_from(HOSTILE),
    long_strings,
    st.tuples(st.text(max_size=4), st.sampled_from(HOSTILE), st.text(max_size=4)).map("".join),
    st.text(st.characters(exclude_categories=()), max_size=12),  # surrogates included
    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
)


def base64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def forged_global_ids() -> st.SearchStrategy[str]:
    key = st.lists(
        json_values | st.sampled_from(["u1", "o1", "5a934e000102030405000000"]), max_size=3
    )
    typed = st.tuples(st.sampled_from(NODE_TYPES), key).map(lambda p: [p[0], *p[1]])
    # A list led by anything at all: `[[1]]` once reached a lookup by an unhashable type.
    parts = typed | st.lists(json_values, min_size=1, max_size=3)
    return parts.map(lambda p: base64url(json.dumps(p).encode()))


def object_ids() -> st.SearchStrategy[str]:
    return st.binary(min_size=12, max_size=12).map(bytes.hex)


def scalars(world: World, *, hostile_only: bool = False) -> dict[str, st.SearchStrategy[Any]]:
    """A strategy per scalar, drawing from the world's ids and names, boundary numbers, times
    and hostile strings (strings and ids: hostile strings only, with `hostile_only`)."""
    names = st.sampled_from(world.names)
    ids = st.sampled_from(world.ids)
    odd = st.one_of(hostile_strings, st.text(max_size=12))
    strings = st.integers(0, 9).flatmap(lambda n: names if n < 6 else ids if n < 7 else odd)
    others = st.one_of(object_ids(), forged_global_ids(), strings, st.integers())
    id_values = st.integers(0, 9).flatmap(lambda n: ids if n < 7 else others)
    if hostile_only:
        strings = id_values = hostile_strings
    ints = st.one_of(
        st.integers(1, 30),
        st.integers(1, 30),
        st.sampled_from(BOUNDARY_INTS),
        st.sampled_from(world.customers),
    )
    floats = st.one_of(
        st.floats(-1e6, 1e6),
        st.floats(allow_nan=False, allow_infinity=False),
        st.sampled_from(BOUNDARY_FLOATS),
        ints,
    )
    times = st.one_of(recent_times(), recent_times(), st.sampled_from(TIMES), iso_times(), strings)
    return {
        "String": strings,
        "ID": id_values,
        "Int": ints,
        "Float": floats,
        "Boolean": st.booleans(),
        "DateTime": times,
    }


def recent_times() -> st.SearchStrategy[str]:
    """Times in the day before the clock's now (and a little after): events that count."""
    now = datetime.fromisoformat(NOW)
    seconds = st.integers(-30 * 3_600, 600)
    return seconds.map(lambda s: (now + timedelta(seconds=s)).isoformat().replace("+00:00", "Z"))


def iso_times() -> st.SearchStrategy[str]:
    """Times across the whole range Python holds, in every offset, in ISO form."""
    return st.datetimes(timezones=st.timezones() | st.just(None)).map(lambda t: t.isoformat())
