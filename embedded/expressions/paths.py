"""Field paths (`"$a.b"`) and variables (`"$$this.a"`) of the compiled expressions.

A path is read as mongomock-ng's `get_value_by_dot(..., can_generate_array=True)` reads it, but
without its per-element recursion: through subdocuments directly, and through an array of
subdocuments (`"$totals.count"`) as the array of each element's value, elements without one
left out, as a server gives it. Anything rarer on the way (a number as a part, a tuple, a
DBRef, an array inside an array's element) is mongomock-ng's to read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from embedded import mongomock_internals as mongomock
from embedded.expressions.variables import DOCUMENT_VARIABLES, unbound
from embedded.mongomock_internals import NOTHING
from embedded.protocols import Evaluator

_get = mongomock.get_value_by_dot
_UNBOUND = object()  # a variable the scope does not hold


def is_number(part: str) -> bool:
    try:
        int(part)
    except ValueError:
        return False
    return True


def _in_element(element: Any, rest: tuple[str, ...], rest_path: str) -> Any:
    """`get_value_by_dot(element, rest_path)` (no arrays generated), subdocuments walked here."""
    value = element
    for part in rest:
        if type(value) is not dict:
            return _get(element, rest_path)
        value = value.get(part, NOTHING)
        if value is NOTHING:
            return NOTHING
    return value


def field_path(path: str) -> Callable[[Any], Any]:
    """A reader of `path` (dotted, without its `$`) from a document or a variable's value."""
    parts = tuple(path.split("."))
    if any(is_number(part) for part in parts):
        return lambda base: _get(base, path, can_generate_array=True)
    rests = [(parts[i:], ".".join(parts[i:])) for i in range(len(parts))]
    if len(parts) == 1:  # the common `"$field"` and `"$$this.field"`: one lookup
        [only] = parts

        def read_one(base: Any) -> Any:
            return base.get(only, NOTHING) if type(base) is dict else read(base)

    def read(base: Any) -> Any:
        value = base
        for i, part in enumerate(parts):
            kind = type(value)
            if kind is dict:
                value = value.get(part, NOTHING)
                if value is NOTHING:
                    return NOTHING
            elif kind is list:
                rest, rest_path = rests[i]
                if len(rest) == 1:  # `"$$value.timestamp"`: each subdocument's field
                    key = rest[0]
                    found = [
                        element.get(key, NOTHING)
                        if type(element) is dict
                        else _in_element(element, rest, rest_path)
                        for element in value
                    ]
                    return [v for v in found if v is not NOTHING]
                found_each = (_in_element(element, rest, rest_path) for element in value)
                return [v for v in found_each if v is not NOTHING]
            else:
                return _get(base, path, can_generate_array=True)
        return value

    return read_one if len(parts) == 1 else read


def document_field(path: str) -> Evaluator:
    """`$path`: a field of the document (`"$field"`, the common case, read in one call)."""
    follow = field_path(path)
    if "." in path or is_number(path):
        return lambda doc, env: follow(doc)

    def read_field(doc: Any, env: dict[str, Any]) -> Any:
        return doc.get(path, NOTHING) if type(doc) is dict else follow(doc)

    return read_field


def variable(name: str, path: str) -> Evaluator:
    """`$$name.path`: a variable in scope (`ROOT` and `CURRENT`, the document; a system
    variable or an undefined one as `variables.unbound` answers)."""
    follow = field_path(path) if path else None
    document = name in DOCUMENT_VARIABLES
    if follow is not None and "." not in path and not is_number(path):

        def read_field(doc: Any, env: dict[str, Any]) -> Any:
            # `"$$this.field"` of a subdocument, the common case, read here in one call.
            base = env.get(name, _UNBOUND)
            if type(base) is dict:
                return base.get(path, NOTHING)
            if base is _UNBOUND:
                base = doc if document else unbound(name)
                if base is NOTHING:
                    return NOTHING
            return follow(base)

        return read_field

    def read(doc: Any, env: dict[str, Any]) -> Any:
        base = env.get(name, _UNBOUND)
        if base is _UNBOUND:
            base = doc if document else unbound(name)
            if base is NOTHING:
                return NOTHING
        return follow(base) if follow else base

    return read
