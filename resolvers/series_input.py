"""Checks of time-series input: names, tags, fields and values, before anything is written.

A value of the wrong shape (a bad name, an over-long tag value, a non-finite number), or more
tags, fields or observations than one call may send, is BAD_USER_INPUT (more names than a
measurement may hold is LIMIT_EXCEEDED, `resolvers/measurements.py`). Either way the whole call
writes nothing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Protocol

from resolvers import validation
from resolvers.access.permissions import Permission
from resolvers.errors import BadUserInput, shown
from resolvers.global_ids import NodeKind, domain_id, looks_like_global_id
from settings import (
    MAX_ABS_FIELD_VALUE,
    MAX_FIELDS_PER_MEASUREMENT,
    MAX_SERIES_YEAR,
    MAX_TAG_VALUE_LENGTH,
    MAX_TAGS_PER_OBSERVATION,
    MIN_SERIES_YEAR,
    SERIES_NAME_PATTERN,
)
from store.series.series import Observation

NAME = re.compile(SERIES_NAME_PATTERN)
_YEARS_END = datetime(MAX_SERIES_YEAR + 1, 1, 1, tzinfo=UTC)  # an end may name this instant


class TagArgs(Protocol):
    @property
    def key(self) -> str: ...
    @property
    def value(self) -> str: ...


class FieldValueArgs(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def value(self) -> float: ...


class ObservationArgs(Protocol):
    """An observation as the schema passes it (an `ObservationInput`)."""

    @property
    def measurement(self) -> str: ...
    @property
    def at(self) -> datetime: ...
    @property
    def tags(self) -> Sequence[TagArgs]: ...
    @property
    def fields(self) -> Sequence[FieldValueArgs]: ...


def name(value: str, *, argument: str) -> str:
    """A measurement, tag key or field name: it becomes a document key."""
    if not isinstance(value, str) or not NAME.fullmatch(value):
        raise BadUserInput(
            f"{argument}: {shown(value)} is not a name: a letter or _, then up to 63 letters, "
            "digits or _",
            argument=argument,
        )
    return value


def _name_part(part: object) -> bool:
    return (
        isinstance(part, str)
        and NAME.fullmatch(part) is not None
        and not looks_like_global_id(part)
    )


MEASUREMENT = NodeKind("Measurement", (_name_part,), Permission.SERIES_READ)


def measurement_name(value: str, *, argument: str) -> str:
    """A measurement named by its global id or its name."""
    own = domain_id(value, MEASUREMENT, argument=argument)
    return name(own, argument=argument)


def moment(value: datetime, *, argument: str, end: bool = False) -> datetime:
    """A time within the series' years; an `end` (excluded from its range) may also be the
    instant they end, so that their last minute can be read."""
    if MIN_SERIES_YEAR <= value.year <= MAX_SERIES_YEAR or (end and value == _YEARS_END):
        return value
    last = f"the start of {MAX_SERIES_YEAR + 1}" if end else str(MAX_SERIES_YEAR)
    raise BadUserInput(
        f"{argument}: must be between {MIN_SERIES_YEAR} and {last}", argument=argument
    )


def tags(given: Sequence[TagArgs], *, argument: str) -> tuple[tuple[str, str], ...]:
    """Tags as sorted (key, value) pairs, each key once."""
    if len(given) > MAX_TAGS_PER_OBSERVATION:
        raise BadUserInput(
            f"{argument}: at most {MAX_TAGS_PER_OBSERVATION} tags, got {len(given)}",
            argument=argument,
        )
    pairs: dict[str, str] = {}
    for index, tag in enumerate(given):
        where = f"{argument}[{index}]"
        key = name(tag.key, argument=f"{where}.key")
        if key in pairs:
            raise BadUserInput(f"{where}.key: {key!r} is given twice", argument=f"{where}.key")
        pairs[key] = validation.text(
            tag.value, argument=f"{where}.value", maximum=MAX_TAG_VALUE_LENGTH
        )
    return tuple(sorted(pairs.items()))


def _value(value: float, *, argument: str) -> float:
    if not math.isfinite(value) or abs(value) > MAX_ABS_FIELD_VALUE:
        raise BadUserInput(
            f"{argument}: must be a finite number of at most {MAX_ABS_FIELD_VALUE:g} in size "
            "(so that every sum stays finite)",
            argument=argument,
        )
    return float(value)


def field_values(
    given: Sequence[FieldValueArgs], *, argument: str
) -> tuple[tuple[str, float], ...]:
    if not given:
        raise BadUserInput(f"{argument}: at least one field", argument=argument)
    if len(given) > MAX_FIELDS_PER_MEASUREMENT:
        raise BadUserInput(
            f"{argument}: at most {MAX_FIELDS_PER_MEASUREMENT} fields, got {len(given)}",
            argument=argument,
        )
    values: dict[str, float] = {}
    for index, field in enumerate(given):
        where = f"{argument}[{index}]"
        field_name = name(field.name, argument=f"{where}.name")
        if field_name in values:
            raise BadUserInput(
                f"{where}.name: {field_name!r} is given twice", argument=f"{where}.name"
            )
        values[field_name] = _value(field.value, argument=f"{where}.value")
    return tuple(values.items())


def observation(index: int, given: ObservationArgs) -> Observation:
    where = f"observations[{index}]"
    return Observation(
        measurement=measurement_name(given.measurement, argument=f"{where}.measurement"),
        at=moment(given.at, argument=f"{where}.at"),
        tags=tags(given.tags, argument=f"{where}.tags"),
        fields=field_values(given.fields, argument=f"{where}.fields"),
    )


def field_names(given: Sequence[str] | None, *, argument: str = "fields") -> tuple[str, ...] | None:
    if given is None:
        return None
    if not given:
        raise BadUserInput(
            f"{argument}: name at least one field, or leave {argument} out for every field",
            argument=argument,
        )
    if len(given) > MAX_FIELDS_PER_MEASUREMENT:
        raise BadUserInput(
            f"{argument}: at most {MAX_FIELDS_PER_MEASUREMENT} fields, got {len(given)}",
            argument=argument,
        )
    names = [name(field, argument=f"{argument}[{i}]") for i, field in enumerate(given)]
    return tuple(dict.fromkeys(names))
