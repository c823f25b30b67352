"""`find` projections: inclusions, exclusions and `$slice` applied in Python; aggregation
expressions (MongoDB 4.4+ takes them in `find`) by the pipeline runner."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from embedded import mongomock_internals as mongomock
from embedded.protocols import Document

# Find-only projection operators, which a `$project` stage does not know.
FIND_PROJECTION_OPERATORS = frozenset({"$elemMatch", "$meta"})


def _slice(values: list[Any], spec: Any) -> list[Any]:
    if isinstance(spec, int):
        return values[:spec] if spec >= 0 else values[spec:]
    skip, limit = spec
    start = skip if skip >= 0 else max(len(values) + skip, 0)
    return values[start : start + limit]


def is_simple(projection: Any) -> bool:
    """Inclusions and exclusions of top-level fields, and `$slice`s."""
    if not isinstance(projection, Mapping):
        return False
    for key, value in projection.items():
        if "." in key:
            return False
        if isinstance(value, Mapping):
            if set(value) != {"$slice"}:
                return False
        elif value not in (0, 1, True, False):
            return False
    return True


def apply_simple(doc: Document, projection: Mapping[str, Any]) -> Document:
    slices = {k: v["$slice"] for k, v in projection.items() if isinstance(v, Mapping)}
    flags = {k: bool(v) for k, v in projection.items() if not isinstance(v, Mapping)}
    includes = {k for k, v in flags.items() if v and k != "_id"}
    if includes:
        keep = includes | set(slices) | ({"_id"} if flags.get("_id", True) else set())
        out = {k: v for k, v in doc.items() if k in keep}
    else:
        out = {k: v for k, v in doc.items() if flags.get(k, True)}
    for key, spec in slices.items():
        if isinstance(out.get(key), list):
            out[key] = _slice(out[key], spec)
    return out


def project(
    coll: Any,
    doc: Document,
    projection: Mapping[str, Any],
    reply: Callable[[Any], Any],
    variables: Mapping[str, Any] | None = None,
) -> Document:
    """A find-style projection of a reply-form document, given back by `reply`; its
    expressions read `variables` (the command's `let`)."""
    if is_simple(projection):
        return dict(reply(apply_simple(doc, projection)))
    [projected] = mongomock.run_pipeline(coll, [doc], [{"$project": projection}], variables)
    return dict(reply(projected))


def has_expressions(projection: Any) -> bool:
    """A projection with aggregation expressions, and none of find's own operators
    (`$elemMatch`, `$meta`, positional `a.$`)."""
    if not isinstance(projection, Mapping):
        return False
    return not any(
        key.endswith(".$")
        or (isinstance(value, Mapping) and set(value) & FIND_PROJECTION_OPERATORS)
        for key, value in projection.items()
    )
