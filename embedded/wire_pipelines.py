"""Update pipelines received over the wire, interned: one object per distinct pipeline.

The engine compiles a pipeline's stages once per stage object (`embedded.plain_stages`,
`embedded.operators`), which serves a caller that sends the same constant pipeline object
each time (the store's record pipeline, in process). Over the wire every command decodes a
fresh copy, and compiling the record pipeline costs some fifty times applying it. Equal BSON
decodes to equal values of the same types, so a pipeline whose bytes were seen before is
replaced by the copy decoded then. The engine's update path never changes the pipeline it is
given: in process, the store shares one among all its calls. (Aggregations are not interned:
a page's pipeline holds its own cursor and key, so repeats are rare.)
"""

from __future__ import annotations

from typing import Any

import bson
from bson.errors import BSONError

_LIMIT = 256  # distinct pipelines kept; all forgotten at once past it
_interned: dict[bytes, list[Any]] = {}


def interned(pipeline: Any) -> Any:
    """The first pipeline received with the same bytes as `pipeline`; anything that is not a
    list of stages comes back as it is."""
    if type(pipeline) is not list:
        return pipeline
    try:
        key = bson.encode({"pipeline": pipeline})
    except (BSONError, TypeError, ValueError, OverflowError):
        return pipeline
    found = _interned.get(key)
    if found is None:
        if len(_interned) >= _LIMIT:
            _interned.clear()
        found = _interned[key] = pipeline
    return found
