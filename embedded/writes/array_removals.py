"""`$pull` of a value and `$pullAll` as a server applies them, in place of mongomock-ng's, which
compares with Python's equality (`true` equals 1 there, and two subdocuments are equal whatever
their fields' order).

A server removes each element equal to a value as BSON compares them (`embedded.bson_order`):
1.0 removes 1, `true` does not, a subdocument's fields compare in order, an array is compared
whole. A regex removes the strings it matches (mongomock-ng compared it with `==`). A `$pull`
of a document (a condition, or fields to match) is a query on each element, left to
mongomock-ng's, whose matcher compares as BSON does; so is a path through `$` (resolved by the
engine beforehand) or to where no array is.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping
from typing import Any

from bson.regex import Regex

from embedded import mongomock_internals as mongomock
from embedded.bson_order import equal
from embedded.protocols import Document

FIELD = "v"  # an element's field in the one-field document a regex is matched against
Theirs = Callable[[Mapping[str, Any]], None]  # mongomock-ng's own, on the same document
_install_lock = threading.Lock()
_installed: list[bool] = []


def _container(doc: Document, parts: list[str]) -> Any:
    """The document or array holding the path's last part, or None."""
    here: Any = doc
    for part in parts[:-1]:
        if isinstance(here, Mapping):
            here = here.get(part)
        elif isinstance(here, list) and part.isdigit() and int(part) < len(here):
            here = here[int(part)]
        else:
            return None
    return here


def _remove(doc: Document, path: str, removed: Callable[[Any], bool]) -> bool:
    """Remove the elements `removed` picks from the array at `path`; False, removing nothing,
    when no array is there or `$` is on the path (mongomock-ng's cases)."""
    parts = path.split(".")
    holder = None if "$" in parts else _container(doc, parts)
    last = parts[-1]
    if isinstance(holder, dict):
        array = holder.get(last)
    elif isinstance(holder, list) and last.isdigit() and int(last) < len(holder):
        array = holder[int(last)]
    else:
        return False
    if not isinstance(array, list):
        return False
    kept = [item for item in array if not removed(item)]
    if len(kept) == len(array):
        return True
    if isinstance(holder, list):
        holder[int(last)] = kept
    else:
        holder[last] = kept
    return True


def _matching(value: Any) -> Callable[[Any], bool]:
    """A regex matches an element as a query's condition on it would."""
    return lambda item: mongomock.filter_applies({FIELD: value}, {FIELD: item})


def _equal_to(value: Any) -> Callable[[Any], bool]:
    return lambda item: equal(item, value)


def _equal_to_one_of(values: list[Any]) -> Callable[[Any], bool]:
    return lambda item: any(equal(item, value) for value in values)


def pull(doc: Document, fields: Mapping[str, Any], theirs: Theirs) -> None:
    """`$pull`: a plain value by BSON equality, a regex as a query's condition, a document by
    mongomock-ng's matcher."""
    left: dict[str, Any] = {}
    for path, value in fields.items():
        removed = _matching(value) if isinstance(value, Regex | re.Pattern) else _equal_to(value)
        if isinstance(value, Mapping) or not _remove(doc, path, removed):
            left[path] = value
    if left:
        theirs(left)


def pull_all(doc: Document, fields: Mapping[str, Any], theirs: Theirs) -> None:
    """`$pullAll`: every element equal (as BSON compares) to one of the values."""
    left: dict[str, Any] = {}
    for path, values in fields.items():
        if not isinstance(values, list) or not _remove(doc, path, _equal_to_one_of(values)):
            left[path] = values
    if left:
        theirs(left)


def install() -> None:
    """Make mongomock-ng's updates apply `$pull` and `$pullAll` as above (once per process)."""
    with _install_lock:
        if not _installed:
            mongomock.route_array_removals_to(pull, pull_all)
            _installed.append(True)
