"""The positional `$` of an update (`{"$set": {"messages.$.text": ...}}`), resolved as MongoDB 8.0
resolves it: the offset of the array element through which the query matched the document.

mongomock-ng's own `$` is wrong for the engine's writes (they run on a scratch copy found by
`_id`, and mongomock-ng then takes the first element). The engine resolves `$` before it applies
an update, from the filter and the matched document, and applies the update with the offset in
its place. A server's matcher records an offset whenever one condition of the filter's top-level
`$and` matches through an array element:

- an equality, comparison, `$in`, `$all` or regex on `arr` (each element of a scalar array) or on
  `arr.field` records the first element that satisfies it; `$elemMatch` on `arr` the first
  element that satisfies all of it; negations (`$ne`, `$nin`, `$not`, `$exists: false`), `$or`
  and `$nor` record nothing;
- no offset recorded: BadValue (2) "The positional operator did not find the match needed from
  the query."; an upsert that inserts has no match either, and fails the same way;
- `$unset` of the element itself sets it to null, as on a server.

Where a server's answer depends on what the engine cannot reproduce exactly (two conditions that
record different offsets, of which a server keeps the last in an evaluation order of its own; a
path through two arrays; null or `$exists` through an array; `$expr`; an array inside `$or`...),
the engine refuses with `UnresolvedPositional` rather than guess: a wrong offset is a silent
write to the wrong element.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from embedded import mongomock_internals as mongomock
from embedded import rules
from embedded.protocols import Document
from embedded.stored_form import stored_copy

POSITIONAL = "$"
NO_MATCH = "The positional operator did not find the match needed from the query."

_NEGATIONS = frozenset({"$ne", "$nin", "$not"})
_COMPARISONS = frozenset({"$eq", "$gt", "$gte", "$lt", "$lte", "$in"})
_NULL_MATCHING = frozenset({"$eq", "$gte", "$lte"})  # with null, these also match a missing field
_MISSING = object()

# One test of one array element: ("value", condition on the element's value) or
# ("elemMatch", the $elemMatch argument).
Test = tuple[str, Any]


class UnresolvedPositional(NotImplementedError):
    """A filter from which the engine cannot tell exactly which element a server's `$` names."""


def _paths(update: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(operator, path) of each field an operator update names."""
    for operator, fields in update.items():
        if isinstance(operator, str) and operator.startswith("$") and isinstance(fields, Mapping):
            for path in fields:
                yield operator, str(path)


def _is_positional(path: str) -> bool:
    return POSITIONAL in path.split(".")


def has_positional(update: Mapping[str, Any]) -> bool:
    return any(_is_positional(path) for _, path in _paths(update))


def _dynamic(path: str) -> bool:
    return any(p == POSITIONAL or (p.startswith("$[") and p.endswith("]")) for p in path.split("."))


def check_paths(update: Mapping[str, Any]) -> None:
    """The server's parse-time rules of `$` (even when nothing matches): one per path, never
    first, never in a `$rename`."""
    for operator, path in _paths(update):
        parts = path.split(".")
        if parts.count(POSITIONAL) > 1:
            message = f"Too many positional (i.e. '$') elements found in path '{path}'"
            raise rules.write_error(rules.BAD_VALUE, message)
        if parts[0] == POSITIONAL:
            message = (
                f"Cannot have positional (i.e. '$') element in the first position in path '{path}'"
            )
            raise rules.write_error(rules.BAD_VALUE, message)
        if operator != "$rename":
            continue
        target = update[operator][path]
        if _dynamic(path):
            message = f"The source field for $rename may not be dynamic: {path}"
            raise rules.write_error(rules.BAD_VALUE, message)
        if isinstance(target, str) and _dynamic(target):
            message = f"The destination field for $rename may not be dynamic: {target}"
            raise rules.write_error(rules.BAD_VALUE, message)


def no_match() -> Exception:
    return rules.write_error(rules.BAD_VALUE, NO_MATCH)


def resolve(filter: Mapping[str, Any] | None, doc: Document, update: Mapping[str, Any]) -> Any:
    """`update` with its `$` replaced by the offset the filter matched in `doc` (reply form)."""
    key = matched_key(filter or {}, doc)
    if key is None:
        raise no_match()
    _check_merged(update, key)
    resolved: dict[str, Any] = {}
    for operator, fields in update.items():
        if isinstance(fields, Mapping):
            fields = {_at(str(path), key): value for path, value in fields.items()}
        resolved[operator] = fields
    return _unset_elements(resolved, update, key, doc)


def _at(path: str, key: str) -> str:
    return ".".join(key if part == POSITIONAL else part for part in path.split("."))


def _check_merged(update: Mapping[str, Any], key: str) -> None:
    """A server merges the update of `arr.$...` with that of `arr.<key>...`: the same path, or
    a path and one under it, is a conflict (code 40)."""
    others: list[str] = []
    for operator, path in _paths(update):
        if not _is_positional(path):
            others.append(path)
            target = update[operator][path]
            if operator == "$rename" and isinstance(target, str):
                others.append(target)
    for path in (_at(p, key) for _, p in _paths(update) if _is_positional(p)):
        for other in others:
            if path == other or path.startswith(other + ".") or other.startswith(path + "."):
                shorter = min(path, other, key=len)
                raise rules.write_error(
                    rules.CONFLICTING_UPDATE_OPERATORS, f"Update created a conflict at '{shorter}'"
                )


def _unset_elements(resolved: dict[str, Any], update: Mapping[str, Any], key: str, doc: Any) -> Any:
    """`$unset` of an array element sets it to null on a server (mongomock-ng leaves it)."""
    unset = update.get("$unset")
    if not isinstance(unset, Mapping):
        return resolved
    for path in (_at(str(p), key) for p in unset if _is_positional(str(p))):
        *parents, last = path.split(".")
        container = _value_at(doc, parents)
        if isinstance(container, list) and last.isdigit() and int(last) < len(container):
            del resolved["$unset"][path]
            resolved["$set"] = {**resolved.get("$set", {}), path: None}
    return resolved


def _value_at(doc: Any, parts: list[str]) -> Any:
    here = doc
    for part in parts:
        if isinstance(here, Mapping):
            here = here.get(part, _MISSING)
        elif isinstance(here, list) and part.isdigit() and int(part) < len(here):
            here = here[int(part)]
        else:
            return _MISSING
    return here


def matched_key(filter: Mapping[str, Any], doc: Document) -> str | None:
    """The offset a server's matcher records for `doc` (which `filter` matches), or None."""
    stored = stored_copy(doc)
    keys: set[str] = set()
    for path, condition in _conditions(mongomock.to_stored_datetimes(filter), stored):
        keys.update(_condition_keys(stored, path, condition))
    if len(keys) > 1:
        raise UnresolvedPositional(
            f"the filter matches the document through elements {sorted(keys)} of its arrays; "
            "which of them a server's positional $ names depends on its evaluation order"
        )
    return next(iter(keys), None)


def _conditions(filter: Mapping[str, Any], doc: Document) -> Iterator[tuple[str, Any]]:
    """The (path, condition) pairs of the filter's top-level `$and`, which record offsets."""
    for key, value in filter.items():
        if key == "$and":
            for clause in value:
                yield from _conditions(clause, doc)
        elif key == "$or":
            for path in _field_paths(value):
                if _route(doc, path) is not None:
                    raise UnresolvedPositional(f"$or on '{path}', which goes through an array")
        elif key in ("$nor", "$comment"):
            continue  # a server records no offset under them
        elif key.startswith("$"):
            raise UnresolvedPositional(f"{key} in the filter of an update with a positional $")
        else:
            yield key, value


def _field_paths(clauses: Any) -> Iterator[str]:
    for clause in clauses:
        for key, value in clause.items():
            if key in ("$and", "$or", "$nor"):
                yield from _field_paths(value)
            elif not key.startswith("$"):
                yield key


def _route(doc: Document, path: str) -> tuple[list[Any], list[str]] | None:
    """The first array on `path` in `doc` and the rest of the path after it; None if none."""
    parts = path.split(".")
    here: Any = doc
    for depth, part in enumerate(parts):
        if not isinstance(here, Mapping) or part not in here:
            return None
        here = here[part]
        if isinstance(here, list):
            return here, parts[depth + 1 :]
    return None


def _condition_keys(doc: Document, path: str, condition: Any) -> set[str]:
    route = _route(doc, path)
    if route is None:
        return set()  # no array on the path: nothing recorded
    array, rest = route
    if any(part.isdigit() for part in rest):
        raise UnresolvedPositional(f"'{path}' names an array element by its position")
    keys = set()
    for test in _tests(path, condition):
        key = _first_match(path, array, rest, test)
        if key is not None:
            keys.add(key)
    return keys


def _is_operator_doc(value: Any) -> bool:
    return isinstance(value, Mapping) and bool(value) and all(str(k).startswith("$") for k in value)


def _tests(path: str, condition: Any) -> list[Test]:
    """The conditions on one path that record an offset, each as one element's test."""
    if not _is_operator_doc(condition):
        return [("value", _no_null(path, "$eq", condition))]
    tests: list[Test] = []
    for operator, argument in condition.items():
        if operator in _NEGATIONS or operator == "$options":
            continue
        if operator == "$exists" and not argument:
            continue
        if operator == "$regex":
            regex = {k: condition[k] for k in ("$regex", "$options") if k in condition}
            tests.append(("value", regex))
        elif operator == "$elemMatch":
            tests.append(("elemMatch", argument))
        elif operator in _COMPARISONS:
            tests.append(("value", {operator: _no_null(path, operator, argument)}))
        elif operator == "$all" and isinstance(argument, list):
            for value in argument:
                if _is_operator_doc(value) and set(value) == {"$elemMatch"}:
                    tests.append(("elemMatch", value["$elemMatch"]))
                else:
                    tests.append(("value", _no_null(path, "$eq", value)))
        else:
            raise UnresolvedPositional(f"{operator} on '{path}', which goes through an array")
    return tests


def _no_null(path: str, operator: str, argument: Any) -> Any:
    """A null that also matches missing fields, through an array: refused."""
    nulls = argument if operator == "$in" and isinstance(argument, list) else [argument]
    if (operator in _NULL_MATCHING or operator == "$in") and any(v is None for v in nulls):
        raise UnresolvedPositional(f"null on '{path}', which goes through an array")
    return argument


def _first_match(path: str, array: list[Any], rest: list[str], test: Test) -> str | None:
    """The offset of the first element of `array` whose value at `rest` passes `test`."""
    for offset, element in enumerate(array):
        value = _element_value(path, element, rest)
        if value is not _MISSING and _passes(value, test):
            return str(offset)
    return None


def _element_value(path: str, element: Any, rest: list[str]) -> Any:
    """The value at `rest` in one element; a second array on the way is refused (a server
    records offsets through nested arrays by rules the engine does not reproduce)."""
    here = element
    for part in [None, *rest]:
        if part is not None:
            if not isinstance(here, Mapping) or part not in here:
                return _MISSING
            here = here[part]
        if isinstance(here, list):
            raise UnresolvedPositional(f"'{path}' goes through an array inside an array")
    return here


def _passes(value: Any, test: Test) -> bool:
    kind, condition = test
    if kind == "elemMatch":
        return mongomock.filter_applies({"v": {"$elemMatch": condition}}, {"v": [value]})
    return mongomock.filter_applies({"v": condition}, {"v": value})
