"""Update pipelines received over the wire, interned: one object per distinct pipeline.

The engine compiles a pipeline's stages once per stage object (`embedded.stages.plain_stages`,
`embedded.expressions.operators`), which serves a caller that sends the same constant pipeline
object each time (the store's record pipeline, in process). Over the wire every command decodes a
fresh copy, and compiling the record pipeline costs some fifty times applying it. Equal BSON decodes
to equal values of the same types, so a pipeline whose bytes were seen before is replaced by the
copy decoded then.

Only a pipeline that nothing can change is interned: every stage of the plain form, which the
engine applies itself without changing it, and no `$literal` of a document or an array, whose
value a write would take by reference (mongomock-ng's stages, and a projection of the reply,
may change what they are given in place). Aggregations are not interned: a page's pipeline
holds its own cursor and key, so repeats are rare.
"""

from __future__ import annotations

from typing import Any

import bson
from bson.errors import BSONError

from embedded.stages import plain_stages

_LIMIT = 256  # distinct pipelines kept; all forgotten at once past it
_interned: dict[bytes, list[Any]] = {}


def interned(pipeline: Any) -> Any:
    """The first pipeline received with the same bytes as `pipeline`, when it is one that
    nothing can change; anything else comes back as it is."""
    if type(pipeline) is not list:
        return pipeline
    try:
        key = bson.encode({"pipeline": pipeline})
    except (BSONError, TypeError, ValueError, OverflowError):
        return pipeline
    found = _interned.get(key)
    if found is not None:
        return found
    if not plain_stages.is_plain(pipeline) or _holds_literal_containers(pipeline):
        return pipeline
    if len(_interned) >= _LIMIT:
        _interned.clear()
    _interned[key] = pipeline
    return pipeline


def _holds_literal_containers(value: Any) -> bool:
    if isinstance(value, dict):
        literal = value.get("$literal")
        if isinstance(literal, dict | list):
            return True
        return any(_holds_literal_containers(item) for item in value.values())
    if isinstance(value, list):
        return any(_holds_literal_containers(item) for item in value)
    return False
