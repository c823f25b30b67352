"""The array updates of an update, `$[]` (every element) and `$[<identifier>]` (the elements its
array filter matches), at any depth (`y.$[i].c.$[j].d`), resolved as MongoDB 8.0 applies them.

At parse time (even when no document matches), each array filter names one identifier (a
lowercase letter, then letters and digits), once, and each identifier is used; a path names
only identifiers that have a filter. Applied to a document, each path becomes the paths of the
elements it names, read from the document as it was (a server applies an update's paths to
disjoint parts of it), and the update is applied with those: an array on the way must exist
(BadValue, 2) and be an array. Two paths that name one element, or one inside the other, are
a conflict (ConflictingUpdateOperators, 40); `$unset` of an element sets it to null.

An element is matched as a server matches it: the filter applied to `{<identifier>: element}`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from embedded import mongomock_internals as mongomock
from embedded import rules
from embedded.protocols import Document

_IDENTIFIER = re.compile(r"[a-z][a-zA-Z0-9]*\Z")
_MISSING = object()


class ArrayFilter(NamedTuple):
    whole: Mapping[str, Any]  # the filter, in stored form, of `{<identifier>: element}`
    # The same filter of the element itself, when each of its fields is under the identifier
    # (`{"m.id": x}`: `{"id": x}`), for an element that is a subdocument: one level of path
    # less to walk for each element.
    inner: Mapping[str, Any] | None


Filters = dict[str, ArrayFilter]  # by identifier


def _array_filter(identifier: str, spec: Mapping[str, Any]) -> ArrayFilter:
    whole = mongomock.to_stored_datetimes(spec)
    prefix = identifier + "."
    if all(key.startswith(prefix) for key in whole):
        return ArrayFilter(whole, {key[len(prefix) :]: value for key, value in whole.items()})
    return ArrayFilter(whole, None)


def _array_part(part: str) -> str | None:
    """The identifier of an array update's part (`$[i]`: "i", `$[]`: ""), None for a field."""
    if part.startswith("$[") and part.endswith("]"):
        return part[2:-1]
    return None


def is_array_path(path: str) -> bool:
    return "$[" in path and any(_array_part(p) is not None for p in path.split("."))


def has_array_path(update: Mapping[str, Any]) -> bool:
    return any(is_array_path(path) for _, path in _paths(update))


def _top_level_names(filter: Mapping[str, Any], names: list[str]) -> None:
    for key, value in filter.items():
        if key in ("$and", "$or", "$nor") and isinstance(value, list):
            for clause in value:
                if isinstance(clause, Mapping):
                    _top_level_names(clause, names)
        elif not key.startswith("$"):
            name = key.split(".", 1)[0]
            if name not in names:
                names.append(name)


def _identifier(filter: Any) -> str:
    if not isinstance(filter, Mapping):
        raise rules.write_error(rules.TYPE_MISMATCH, "Each array filter must be an object")
    names: list[str] = []
    _top_level_names(filter, names)
    if not names:
        message = "Cannot use an expression without a top-level field name in arrayFilters"
        raise rules.write_error(rules.FAILED_TO_PARSE, message)
    if len(names) > 1:
        message = (
            "Error parsing array filter :: caused by :: Expected a single top-level field name, "
            f"found '{names[0]}' and '{names[1]}'"
        )
        raise rules.write_error(rules.FAILED_TO_PARSE, message)
    if not _IDENTIFIER.match(names[0]):
        message = (
            "Error parsing array filter :: caused by :: The top-level field name must be an "
            f"alphanumeric string beginning with a lowercase letter, found '{names[0]}'"
        )
        raise rules.write_error(rules.BAD_VALUE, message)
    return names[0]


def _paths(update: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    for operator, fields in update.items():
        if isinstance(fields, Mapping):
            for path in fields:
                yield operator, str(path)


def parse(update: Mapping[str, Any], array_filters: Any) -> Filters:
    """The array filters by identifier (in stored form), checked with the update's paths as a
    server checks them when it parses the update."""
    filters: Filters = {}
    for spec in array_filters or []:
        identifier = _identifier(spec)
        if identifier in filters:
            message = (
                f"Found multiple array filters with the same top-level field name {identifier}"
            )
            raise rules.write_error(rules.FAILED_TO_PARSE, message)
        filters[identifier] = _array_filter(identifier, spec)
    used: set[str] = set()
    for _, path in _paths(update):
        parts = path.split(".")
        if _array_part(parts[0]) is not None:
            message = (
                "Cannot have array filter identifier (i.e. '$[<id>]') element in the first "
                f"position in path '{path}'"
            )
            raise rules.write_error(rules.BAD_VALUE, message)
        for identifier in filter(None, map(_array_part, parts)):
            if identifier not in filters:
                message = f"No array filter found for identifier '{identifier}' in path '{path}'"
                raise rules.write_error(rules.BAD_VALUE, message)
            used.add(identifier)
    for identifier in filters:
        if identifier not in used:
            message = (
                f"The array filter for identifier '{identifier}' was not used in the update "
                f"{rules.shell(update)}"
            )
            raise rules.write_error(rules.FAILED_TO_PARSE, message)
    return filters


def _matches(filters: Filters, identifier: str, element: Any) -> bool:
    if not identifier:
        return True  # `$[]`
    whole, inner = filters[identifier]
    if inner is not None and type(element) is dict:
        return mongomock.filter_applies(inner, element)
    return mongomock.filter_applies(whole, {identifier: element})


def _elements(here: Any, taken: list[str]) -> list[tuple[str, Any]]:
    """The (offset, element) pairs of the array `here` at the path `taken`, which an array
    update walks into."""
    if here is _MISSING:
        message = (
            f"The path '{'.'.join(taken)}' must exist in the document in order to apply array "
            "updates."
        )
        raise rules.write_error(rules.BAD_VALUE, message)
    if not isinstance(here, list):
        name = taken[-1] if taken else ""
        message = f"Cannot apply array updates to non-array element {name}: {rules.shell(here)}"
        raise rules.write_error(rules.BAD_VALUE, message)
    return [(str(offset), element) for offset, element in enumerate(here)]


def _child(here: Any, part: str) -> Any:
    if isinstance(here, Mapping):
        return here.get(part, _MISSING)
    if isinstance(here, list) and part.isdigit() and int(part) < len(here):
        return here[int(part)]
    return _MISSING


def concrete_paths(doc: Document, path: str, filters: Filters) -> list[str]:
    """The paths of the elements `path` names in `doc` (stored form), in document order."""
    walks: list[tuple[list[str], Any]] = [([], doc)]
    for part in path.split("."):
        identifier = _array_part(part)
        walked: list[tuple[list[str], Any]] = []
        for taken, here in walks:
            if identifier is None:
                walked.append(([*taken, part], _child(here, part)))
                continue
            for offset, element in _elements(here, taken):
                if _matches(filters, identifier, element):
                    walked.append(([*taken, offset], element))
        walks = walked
    return [".".join(taken) for taken, _ in walks]


def resolve(update: Mapping[str, Any], doc: Document, filters: Filters) -> dict[str, Any]:
    """`update` with each array update's path replaced by the paths of the elements it names in
    `doc` (stored form); `{"$set": {}}` when it names none and nothing else is updated."""
    resolved: dict[str, Any] = {}
    every: list[str] = []  # every path, with those two array updates resolve to alike
    unset_elements: list[str] = []
    for operator, fields in update.items():
        if not isinstance(fields, Mapping):
            resolved[operator] = fields
            continue
        concrete: dict[str, Any] = {}
        for path, value in fields.items():
            paths = [path]
            if is_array_path(str(path)):
                paths = concrete_paths(doc, str(path), filters)
            every += paths
            if operator == "$unset" and _array_part(str(path).rsplit(".", 1)[-1]) is not None:
                unset_elements += paths  # an element unset is set to null, as on a server
            else:
                concrete.update(dict.fromkeys(paths, value))
        if concrete:
            resolved[operator] = concrete
    _check_conflicts(every)
    if unset_elements:
        resolved["$set"] = {**resolved.get("$set", {}), **dict.fromkeys(unset_elements)}
    return resolved or {"$set": {}}


def _check_conflicts(paths: list[str]) -> None:
    """Two paths naming one element, or one inside the other: a server's merged update nodes
    conflict there (code 40)."""
    seen: set[str] = set()
    under: set[str] = set()  # the prefixes of the paths seen
    for path in paths:
        if path in seen or path in under:
            raise _conflict(path)
        parts = path.split(".")
        for end in range(1, len(parts)):
            prefix = ".".join(parts[:end])
            if prefix in seen:
                raise _conflict(prefix)
            under.add(prefix)
        seen.add(path)


def _conflict(path: str) -> Exception:
    message = f"Update created a conflict at '{path}'"
    return rules.write_error(rules.CONFLICTING_UPDATE_OPERATORS, message)
