"""JSON values for any input type of the schema: usually of the type's shape, sometimes any
JSON at all. Arguments and input fields whose name says what they hold (`sessionId`,
`OrderInput.id`, `ticker`, `createTime`...) draw mostly from values that fit them, the
world's real objects first, so that operations get past validation and reach the writes and
the pages; the rest of the time, from the scalar's general pool.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import graphql
from hypothesis import strategies as st

from tests.fuzz.values import json_scalars, json_values, recent_times, scalars
from tests.fuzz.world import World

Keys = tuple[str, ...]  # "<parent>.<name>" then "<name>": the hints to look up, in order
ORDER_TIMES = st.integers(-2_208_988_800_000, 4_102_444_800_000)  # 1900 to 2100, in ms
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
TIME_ZONES = ("UTC", "Europe/Paris", "America/St_Johns", "Asia/Kathmandu", "Nope/Nope", "+01:00")


@dataclass
class Pools:
    """Strategies per scalar and per hint, and the strategies built from them, per type."""

    scalars: dict[str, st.SearchStrategy[Any]]
    hints: dict[str, st.SearchStrategy[Any]]
    junk_one_in: int = 40  # one value in this many is any JSON, not of the type's shape
    _built: dict[tuple[str, Keys], st.SearchStrategy[Any]] = field(default_factory=dict)
    memo: dict[object, st.SearchStrategy[Any]] = field(default_factory=dict)  # for callers

    def value(self, type_: graphql.GraphQLInputType, keys: Keys = ()) -> st.SearchStrategy[Any]:
        """A JSON value for a variable of `type_`: of its shape, or (sometimes) not."""
        key = (str(type_), keys)
        if key not in self._built:
            shaped = self._shaped(type_, keys)
            junk = self.junk_one_in
            self._built[key] = st.integers(1, junk).flatmap(
                lambda n: json_values if n == 1 else shaped
            )
        return self._built[key]

    def _shaped(self, type_: graphql.GraphQLInputType, keys: Keys) -> st.SearchStrategy[Any]:
        if isinstance(type_, graphql.GraphQLNonNull):
            return self._named_or_list(type_.of_type, keys)
        shaped = self._named_or_list(type_, keys)
        return st.integers(0, 4).flatmap(lambda n: st.none() if n == 0 else shaped)

    def _named_or_list(self, type_: graphql.GraphQLInputType, keys: Keys) -> st.SearchStrategy[Any]:
        if isinstance(type_, graphql.GraphQLList):
            item = self.value(type_.of_type, keys)
            return st.lists(item, max_size=4) | item  # a single value is coerced into a list
        if isinstance(type_, graphql.GraphQLInputObjectType):
            return self._object(type_)
        if isinstance(type_, graphql.GraphQLEnumType):
            names = sorted(type_.values)
            wrong = st.sampled_from(["", names[0].lower(), "NOPE"])
            return st.integers(0, 9).flatmap(lambda n: wrong if n == 0 else st.sampled_from(names))
        assert isinstance(type_, graphql.GraphQLScalarType)
        general = self.scalars.get(type_.name, json_values)
        hinted = next((self.hints[k] for k in keys if k in self.hints), None)
        if hinted is None or type_.name not in ("String", "ID", "Int", "Float", "DateTime"):
            return general
        return st.integers(0, 4).flatmap(lambda n: general if n == 0 else hinted)

    def _object(self, type_: graphql.GraphQLInputObjectType) -> st.SearchStrategy[Any]:
        def value(name: str, input_field: graphql.GraphQLInputField) -> st.SearchStrategy[Any]:
            return self.value(input_field.type, (f"{type_.name}.{name}", name))

        fields = type_.fields.items()
        required = {n: value(n, f) for n, f in fields if graphql.is_required_input_field(f)}
        optional = {n: value(n, f) for n, f in fields if n not in required}
        shaped = st.fixed_dictionaries(required, optional=optional)
        extra = st.dictionaries(
            st.sampled_from(["$where", "unknown", "_id"]), json_scalars, max_size=1
        )
        broken = st.tuples(shaped, extra).map(lambda pair: {**pair[0], **pair[1]})
        dropped = shaped.map(lambda d: dict(list(d.items())[1:]))  # a required field missing
        return st.integers(0, 9).flatmap(
            lambda n: broken if n == 0 else dropped if n == 1 else shaped
        )


def hints(world: World) -> dict[str, st.SearchStrategy[Any]]:
    """What fits each argument or input field, by name: real objects first."""

    def of(kind: str, *more: Any) -> st.SearchStrategy[Any]:
        return st.sampled_from([*world.by_kind[kind], *more])

    sensors, sessions = of("sensor"), of("session")
    customers = st.sampled_from(world.by_kind["customer"])
    objects = {
        "sensorId": sensors,
        "sensor.id": sensors,
        "renameSensor.id": sensors,
        "deleteSensor.id": sensors,
        "sessionId": sessions,
        "chatSession.id": sessions,
        "deleteChatSession.id": sessions,
        "messageId": of("message"),
        "userId": of("user", "u2", "u3"),
        "userIds": of("user", "u2"),
        "orderIds": of("order", "o9"),
        "OrderInput.id": of("order", "n1", "n2", "n3"),
        "customerId": st.sampled_from([*world.customers, 8, 9]),
        "customer": customers,
        "customer.id": customers,
        "node.id": st.sampled_from(world.ids),
        "nodes.ids": st.sampled_from(world.ids),
    }
    return objects | {name: st.sampled_from(values) for name, values in NAMES.items()} | TIMES


NAMES: dict[str, tuple[Any, ...]] = {
    "measurement": ("cpu", "mem"),
    "measurement.name": ("cpu", "mem"),
    "FieldValueInput.name": ("usage", "load"),
    "fields": ("usage", "load"),
    "TagInput.key": ("host", "dc"),
    "key": ("host", "dc"),
    "TagInput.value": ("a", "b", "c"),
    "prefix": ("", "a", "b"),
    "titlePrefix": ("", "B", "Z", "S"),
    "timeZone": TIME_ZONES,
    "ticker": ("MDB", "GOOG", "A"),
    "title": ("Boiler", "New", "Zed"),
    "text": ("hi", "hello again", ""),
    "author": ("ada", "grace"),
    "info": ("x", "y"),
    "idempotencyKey": ("k1", "k2", "k3"),
    "clientMessageId": ("c1", "c2", "c3"),
    "first": tuple(range(13)),
    "last": tuple(range(13)),
    "number": tuple(range(5)),
    "count": tuple(range(1, 6)),
    "qty": (1, 2, 10, 999),
}


def _iso_millis(millis: int) -> str:
    moment = EPOCH + timedelta(milliseconds=millis)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


_near = recent_times()
_milliseconds = ORDER_TIMES.map(_iso_millis)
TIMES: dict[str, st.SearchStrategy[Any]] = {
    "at": _near,
    "ObservationInput.at": _near,
    "from": _near,
    "to": _near,
    "createTime": _milliseconds,  # orders sharing a millisecond: the cursor bug's ground
    "maxCreateTime": _milliseconds,
    "date": st.integers(0, 9_000_000_000_000).map(_iso_millis),
}


_MADE: list[tuple[World, bool, Pools]] = []


def pools(world: World, *, hostile_only: bool = False) -> Pools:
    """The pools of a world (with hostile strings only for strings and ids: no hints); the
    same object for the same world, so that what is built from it is built once."""
    for made, hostile, found in _MADE:
        if made is world and hostile == hostile_only:
            return found
    built = Pools(
        scalars=scalars(world, hostile_only=hostile_only),
        hints={} if hostile_only else hints(world),
    )
    _MADE[:] = [(world, hostile_only, built), *_MADE[:3]]
    return built
