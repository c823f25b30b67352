"""Forged cursors for every connection of the schema.

A probe per connection type reads one page after (or before) a cursor. The cursors sent are
the connection's real ones (which must be accepted), another connection's, a real cursor's
JSON with one element replaced, dropped, added, retyped or nudged (operators such as
`{"$ne": null}` included: the sensor cursor once let one through), a real cursor's text
edited, and base64 of any JSON, of any bytes, or no base64 at all.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from tests.fuzz.values import base64url, hostile_strings, json_values
from tests.fuzz.world import World


@dataclass(frozen=True)
class Probe:
    """A query of one page of a connection; `{page}` becomes e.g. `first: 3, after: $c`."""

    query: str
    arguments: tuple[str, ...]

    def document(self, argument: str) -> str:
        page = "first: 3, after: $c" if argument == "after" else "last: 3, before: $c"
        return self.query.replace("{page}", page)


EDGES = "totalCount edges { cursor } pageInfo { hasNextPage hasPreviousPage }"
PROBES: dict[str, Probe] = {
    "SensorConnection": Probe(
        f"query($c: String, $o: SensorOrder) {{ sensors({{page}}, orderBy: $o) {{ {EDGES} }} }}",
        ("after",),
    ),
    "OrderConnection": Probe(
        f'query($c: String) {{ user(userId: "u1") {{ orders({{page}}) {{ {EDGES} }} }} }}',
        ("after", "before"),
    ),
    "TradeConnection": Probe(
        f"query($c: String) {{ customer(customerId: 7) {{ trades({{page}}) {{ {EDGES} }} }} }}",
        ("after", "before"),
    ),
    "ChatSessionConnection": Probe(
        f"query($c: String) {{ chatSessions({{page}}) {{ {EDGES} }} }}", ("after",)
    ),
    "MessageConnection": Probe(
        "query($c: String, $s: ID!) { chatSession(id: $s) { messages({page}) { " + EDGES + " } } }",
        ("after", "before"),
    ),
    "ChatMemberConnection": Probe(
        "query($c: String, $s: ID!) { chatSession(id: $s) { members({page}) { " + EDGES + " } } }",
        ("after", "before"),
    ),
}
SENSOR_ORDERS = {"sensor:title": "TITLE", "sensor:count24h": "COUNT_24H_DESC"}
OPERATORS: tuple[Any, ...] = (
    {"$ne": None},
    {"$gt": ""},
    {"$gte": 0},
    {"$where": "sleep(1000)"},
    {"$regex": ".*"},
    {"$in": [1, "a"]},
    {"$exists": True},
    ["$gt", 1],
    "$gt",
)


def elements(cursor: str) -> list[Any]:
    """A real cursor's JSON list."""
    decoded: list[Any] = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    return decoded


def kind(cursor: str) -> str:
    return str(elements(cursor)[0])


def encode(value: Any, ascii_only: bool = True) -> str:
    return base64url(json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass"))


@st.composite
def mutated(draw: st.DrawFn, real: tuple[str, ...], kinds: tuple[str, ...]) -> str:
    """A real cursor's JSON with one element changed."""
    values = elements(draw(st.sampled_from(real)))
    index = draw(st.integers(0, len(values) - 1))
    how = draw(
        st.sampled_from(["replace", "operator", "drop", "append", "kind", "nudge", "retype"])
    )
    if how == "replace":
        values[index] = draw(json_values | hostile_strings)
    elif how == "operator":
        values[max(1, index)] = draw(st.sampled_from(OPERATORS))
    elif how == "drop":
        del values[index]
    elif how == "append":
        values.append(draw(json_values))
    elif how == "kind":
        values[0] = draw(st.sampled_from(kinds) | st.sampled_from(["", "SENSOR:TITLE", "order "]))
    else:
        values[index] = draw(_nudged(values[index]) if how == "nudge" else _retyped(values[index]))
    return encode(values, draw(st.booleans()))


def _nudged(value: Any) -> st.SearchStrategy[Any]:
    if isinstance(value, int) and not isinstance(value, bool):
        limits = st.sampled_from([-value, 2**31, 2**63, 2**64, 10**30, -(2**63) - 1])
        return st.integers(-3, 3).map(lambda step: value + step) | limits
    text = str(value)
    return st.sampled_from([text[:-1], text + "x", text.upper(), " " + text, text * 40])


def _retyped(value: Any) -> st.SearchStrategy[Any]:
    if isinstance(value, int) and not isinstance(value, bool):
        return st.sampled_from([str(value), float(value), value + 0.5, value == 1, [value]])
    return st.sampled_from([len(str(value)), None, [value], {"v": value}, True])


@st.composite
def edited(draw: st.DrawFn, real: tuple[str, ...]) -> str:
    """A real cursor's text edited: cut, a character changed, padded, spaced, doubled."""
    text = draw(st.sampled_from(real))
    at = draw(st.integers(0, len(text) - 1))
    character = draw(st.sampled_from(["A", "_", "-", "=", "+", "/", " ", "\x00", "\ud800", "é"]))
    return draw(
        st.sampled_from(
            [
                text[:at],
                text[:at] + character + text[at + 1 :],
                text + "==",
                text + "===",
                f" {text}",
                text * 2,
            ]
        )
    )


def forged_cursors(world: World, connection: str) -> st.SearchStrategy[str]:
    real = world.cursors[connection]
    every = tuple(cursor for cursors in world.cursors.values() for cursor in cursors)
    kinds = tuple(sorted({kind(cursor) for cursor in every}))
    return st.one_of(
        st.sampled_from(real),
        st.sampled_from(every),
        mutated(real, kinds),
        mutated(real, kinds),
        edited(real),
        json_values.map(encode),
        st.binary(max_size=80).map(base64url),
        st.binary(max_size=80).map(lambda raw: base64.b64encode(raw).decode()),
        hostile_strings,
    )
