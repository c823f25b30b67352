"""The unified format's matching of an expected value against an actual one: extra fields allowed
in root-level documents only, key order free, numbers compared across int, long and double, and
the special operators (`$$exists`, `$$type`, `$$unsetOrMatches`, `$$matchesEntity`, `$$lte`;
`$$sessionLsid` is accepted unchecked, sessions being out of this runner's subset)."""

from __future__ import annotations

import datetime
import re
import uuid
from collections.abc import Mapping
from typing import Any

from bson import Binary, Code, Decimal128, Int64, MaxKey, MinKey, ObjectId, Regex, Timestamp
from bson.dbref import DBRef

_NUMBERS = (int, float, Int64)


class Mismatch(AssertionError):
    """An actual value that does not match the expected one; the message says where."""


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, Int64):
        return "long"
    if isinstance(value, int):
        return "int" if -(2**31) <= value < 2**31 else "long"
    simple: list[tuple[type | tuple[type, ...], str]] = [
        (float, "double"),
        (str, "string"),
        (Mapping, "object"),
        (list, "array"),
        ((Binary, bytes, uuid.UUID), "binData"),
        (ObjectId, "objectId"),
        (datetime.datetime, "date"),
        (type(None), "null"),
        ((Regex, re.Pattern), "regex"),
        (DBRef, "dbPointer"),
        (Code, "javascript"),
        (Timestamp, "timestamp"),
        (Decimal128, "decimal"),
        (MinKey, "minKey"),
        (MaxKey, "maxKey"),
    ]
    return next((name for kind, name in simple if isinstance(value, kind)), type(value).__name__)


def _has_type(actual: Any, names: Any) -> bool:
    wanted = [names] if isinstance(names, str) else list(names)
    found = _type_name(actual)
    if found == "javascript" and getattr(actual, "scope", None) is not None:
        found = "javascriptWithScope"
    return found in wanted or ("number" in wanted and found in ("int", "long", "double", "decimal"))


def _operator(value: Any) -> str | None:
    if isinstance(value, Mapping) and len(value) == 1:
        key = next(iter(value))
        if isinstance(key, str) and key.startswith("$$"):
            return key
    return None


def match(
    expected: Any, actual: Any, entities: Mapping[str, Any], *, root: bool = False, at: str = "$"
) -> None:
    """Raise `Mismatch` unless `actual` matches `expected` by the format's rules."""
    name = _operator(expected)
    if name is not None:
        _special(name, expected[name], actual, entities, root, at)
    elif isinstance(expected, Mapping):
        _match_document(expected, actual, entities, root, at)
    elif isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            raise Mismatch(f"{at}: expected {len(expected)} elements, found {actual!r}")
        for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
            match(want, got, entities, at=f"{at}[{index}]")
    elif not _scalars_equal(expected, actual):
        raise Mismatch(f"{at}: expected {expected!r}, found {actual!r}")


def _match_document(
    expected: Mapping[str, Any], actual: Any, entities: Mapping[str, Any], root: bool, at: str
) -> None:
    if not isinstance(actual, Mapping):
        raise Mismatch(f"{at}: expected a document, found {actual!r}")
    for key, want in expected.items():
        operator = _operator(want)
        if operator == "$$exists":
            if bool(want[operator]) != (key in actual):
                raise Mismatch(f"{at}.{key}: expected $$exists {want[operator]}")
            continue
        if operator == "$$unsetOrMatches" and key not in actual:
            continue
        if key not in actual:
            raise Mismatch(f"{at}.{key}: missing (expected {want!r})")
        match(want, actual[key], entities, at=f"{at}.{key}")
    extra = [key for key in actual if key not in expected]
    if extra and not root:
        raise Mismatch(f"{at}: unexpected fields {extra}")


def _special(
    name: str, argument: Any, actual: Any, entities: Mapping[str, Any], root: bool, at: str
) -> None:
    if name == "$$type":
        if not _has_type(actual, argument):
            raise Mismatch(f"{at}: expected $$type {argument}, found {actual!r}")
    elif name == "$$unsetOrMatches":
        match(argument, actual, entities, root=root, at=at)
    elif name == "$$matchesEntity":
        match(entities[argument], actual, entities, root=root, at=at)
    elif name == "$$lte":
        if not isinstance(actual, _NUMBERS) or isinstance(actual, bool) or actual > argument:
            raise Mismatch(f"{at}: expected $$lte {argument}, found {actual!r}")
    elif name == "$$matchAsRoot":
        match(argument, actual, entities, root=True, at=at)
    elif name != "$$sessionLsid":
        raise Mismatch(f"{at}: the runner does not know the operator {name}")


def _scalars_equal(expected: Any, actual: Any) -> bool:
    numbers = (expected, actual)
    if all(isinstance(v, _NUMBERS) and not isinstance(v, bool) for v in numbers):
        return bool(expected == actual)
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, Decimal128) or isinstance(actual, Decimal128):
        return (
            isinstance(actual, Decimal128)
            and isinstance(expected, Decimal128)
            and (expected.bid == actual.bid)
        )
    if isinstance(expected, datetime.datetime) and isinstance(actual, datetime.datetime):
        return _utc(expected) == _utc(actual)
    if _type_name(expected) != _type_name(actual):
        return False
    return bool(expected == actual)


def _utc(moment: datetime.datetime) -> datetime.datetime:
    if moment.tzinfo is None:
        return moment.replace(tzinfo=datetime.UTC)
    return moment
