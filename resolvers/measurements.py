"""The measurements catalogue: what exists, kept current by the writes.

Names never disappear once written, so what a database handle has seen in the catalogue stays
true; `KnownNames` (in the handle's memo) lets a write of known names skip the catalogue's
command. Losing it costs a command, never a wrong answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from resolvers import series_input, validation
from resolvers.context import Context, Info
from resolvers.errors import BadUserInput, LimitExceeded
from resolvers.global_ids import Key
from resolvers.loaders import LoaderSpec, keyed
from settings import (
    MAX_FIELDS_PER_MEASUREMENT,
    MAX_MEASUREMENTS_PAGE,
    MAX_SERIES_NAME_LENGTH,
    MAX_TAG_KEYS_PER_MEASUREMENT,
    MAX_TAG_VALUE_LENGTH,
    MAX_TAG_VALUES_PAGE,
)
from store.database import Database
from store.series import measurements as store
from store.series import tag_values
from store.series.measurements import MeasurementDoc
from store.series.series import Observation, names_by_measurement
from store.series.tag_values import TagValuesRequest

MEMO_KEY = "series.known_names"
# Beyond these, what is remembered starts again: memory stays bounded, whatever the catalogue.
MAX_KNOWN_TAG_VALUES = 100_000
MAX_KNOWN_MEASUREMENTS = 10_000


@dataclass(slots=True)
class KnownNames:
    """Names known to be in the catalogue: only what a stored entry showed."""

    fields: dict[str, frozenset[str]] = field(default_factory=dict)
    tag_keys: dict[str, frozenset[str]] = field(default_factory=dict)
    tag_values: set[tuple[str, str, str]] = field(default_factory=set)

    def learn(self, entry: MeasurementDoc) -> None:
        if entry.name not in self.fields and len(self.fields) >= MAX_KNOWN_MEASUREMENTS:
            self.fields.clear()
            self.tag_keys.clear()
        self.fields[entry.name] = frozenset(entry.fields)
        self.tag_keys[entry.name] = frozenset(entry.tag_keys)

    def knows(self, measurement: str, fields: set[str], keys: set[str]) -> bool:
        return fields <= self.fields.get(measurement, frozenset()) and keys <= self.tag_keys.get(
            measurement, frozenset()
        )


def known_names(ctx: Context) -> KnownNames:
    known = ctx.database.memo.get(MEMO_KEY)
    if not isinstance(known, KnownNames):
        known = ctx.database.memo[MEMO_KEY] = KnownNames()
    return known


def _refused(measurement: str, fields: int, keys: int) -> LimitExceeded:
    return LimitExceeded(
        f"observations: measurement {measurement!r} would have more than "
        f"{MAX_FIELDS_PER_MEASUREMENT} fields or {MAX_TAG_KEYS_PER_MEASUREMENT} tag keys "
        f"(it has {fields} and {keys}); nothing was written",
        argument="observations",
    )


def _fits(entry: MeasurementDoc, fields: set[str], keys: set[str]) -> bool:
    return (
        len(fields | set(entry.fields)) <= MAX_FIELDS_PER_MEASUREMENT
        and len(keys | set(entry.tag_keys)) <= MAX_TAG_KEYS_PER_MEASUREMENT
    )


async def _register_one(ctx: Context, measurement: str, fields: set[str], keys: set[str]) -> None:
    entry = await store.register_names(
        ctx.collection(store.COLLECTION),
        measurement=measurement,
        fields=fields,
        tag_keys=keys,
        max_fields=MAX_FIELDS_PER_MEASUREMENT,
        max_tag_keys=MAX_TAG_KEYS_PER_MEASUREMENT,
    )
    if not (fields <= set(entry.fields) and keys <= set(entry.tag_keys)):
        raise _refused(measurement, len(entry.fields), len(entry.tag_keys))
    known_names(ctx).learn(entry)


async def _check_all(ctx: Context, pending: dict[str, tuple[set[str], set[str]]]) -> None:
    """Refuse before writing anything when any of several measurements would pass a limit
    (one read of their entries), so that a refused call adds no name to any of them."""
    entries = await store.find_measurements(ctx.collection(store.COLLECTION), names=list(pending))
    for entry in entries:
        fields, keys = pending[entry.name]
        if not _fits(entry, fields, keys):
            raise _refused(entry.name, len(entry.fields), len(entry.tag_keys))


def _check_alone(named: dict[str, tuple[set[str], set[str]]]) -> None:
    """Refuse a call that names more than a measurement may hold by itself, before any command:
    a new measurement's entry would otherwise be created, empty, by the refused call."""
    for measurement, (fields, keys) in named.items():
        if len(fields) > MAX_FIELDS_PER_MEASUREMENT or len(keys) > MAX_TAG_KEYS_PER_MEASUREMENT:
            raise LimitExceeded(
                f"observations: measurement {measurement!r} may have at most "
                f"{MAX_FIELDS_PER_MEASUREMENT} fields and {MAX_TAG_KEYS_PER_MEASUREMENT} tag keys; "
                f"this call names {len(fields)} and {len(keys)}; nothing was written",
                argument="observations",
            )


async def register(ctx: Context, observations: Sequence[Observation]) -> None:
    """Put every new name in the catalogue and every new tag value, or refuse the call before
    any data is written: a command per measurement with new names (at once), one more to check
    them all first when there are several, and one for the new tag values."""
    known = known_names(ctx)
    named = names_by_measurement(observations)
    _check_alone(named)
    pending = {
        measurement: (fields, keys)
        for measurement, (fields, keys) in named.items()
        if not known.knows(measurement, fields, keys)
    }
    if len(pending) > 1:
        await _check_all(ctx, pending)
    await asyncio.gather(*(_register_one(ctx, m, f, k) for m, (f, k) in pending.items()))
    values = {(o.measurement, k, v) for o in observations for k, v in o.tags} - known.tag_values
    if values:
        await tag_values.record_tag_values(ctx.collection(tag_values.COLLECTION), values=values)
        if len(known.tag_values) > MAX_KNOWN_TAG_VALUES:
            known.tag_values.clear()
        known.tag_values |= values


async def _by_name(
    database: Database, names: Sequence[str], parameter: Any
) -> list[MeasurementDoc | None]:
    found = await store.find_measurements(database.collection(store.COLLECTION), names=names)
    return keyed({entry.name: entry for entry in found}, names)


MEASUREMENTS_BY_NAME: LoaderSpec[str, MeasurementDoc | None] = LoaderSpec(
    "measurements_by_name", _by_name
)


async def _tag_values(database: Database, names: Sequence[str], parameter: Any) -> list[list[str]]:
    key, prefix, first = parameter
    requests = [TagValuesRequest(name, key, prefix, first) for name in names]
    return await tag_values.find_tag_values(
        database.collection(tag_values.COLLECTION), requests=requests
    )


TAG_VALUES: LoaderSpec[str, list[str]] = LoaderSpec("tag_values", _tag_values)


async def measurements(info: Info, *, prefix: str | None, first: int) -> list[MeasurementDoc]:
    if prefix:
        validation.text(prefix, argument="prefix", maximum=MAX_SERIES_NAME_LENGTH)
    if not 0 <= first <= MAX_MEASUREMENTS_PAGE:
        raise BadUserInput(f"first: 0 to {MAX_MEASUREMENTS_PAGE}, got {first}", argument="first")
    return await store.list_measurements(
        info.context.collection(store.COLLECTION), prefix=prefix or None, first=first
    )


async def measurement_by_key(info: Info, key: Key) -> MeasurementDoc | None:
    """The measurement of a `MEASUREMENT` key."""
    found: MeasurementDoc | None = await info.context.loader(MEASUREMENTS_BY_NAME).load(str(key[0]))
    return found


async def measurement(info: Info, *, name: str) -> MeasurementDoc | None:
    found: MeasurementDoc | None = await info.context.loader(MEASUREMENTS_BY_NAME).load(
        series_input.measurement_name(name, argument="name")
    )
    return found


async def measurement_tag_values(
    info: Info, *, measurement: str, key: str, prefix: str | None, first: int
) -> list[str]:
    series_input.name(key, argument="key")
    if prefix:
        validation.text(prefix, argument="prefix", maximum=MAX_TAG_VALUE_LENGTH)
    if not 0 <= first <= MAX_TAG_VALUES_PAGE:
        raise BadUserInput(f"first: 0 to {MAX_TAG_VALUES_PAGE}, got {first}", argument="first")
    parameter: Hashable = (key, prefix or None, first)
    values: list[str] = await info.context.loader(TAG_VALUES, parameter).load(measurement)
    return values
