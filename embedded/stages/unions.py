"""`$unionWith` stages at the end of a pipeline, each branch read as a pipeline of its own.

mongomock-ng runs a `$unionWith` sub-pipeline over a copy of the whole target collection; a
branch read as its own aggregation takes the read path's fast filters and sorts (and copies
only what it returns), as a server runs each branch on its own index. Only trailing
`$unionWith` stages are taken apart: one followed by other stages stays mongomock-ng's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from embedded import rules
from embedded.protocols import Document
from embedded.stages import reads
from embedded.stages.bounds import check_bounds
from embedded.stages.stage_names import check_stages


def _trailing_unions(
    pipeline: list[Mapping[str, Any]],
) -> tuple[list[Mapping[str, Any]], list[Any]]:
    """The stages before the trailing `$unionWith` stages, and those stages' specs."""
    cut = len(pipeline)
    while cut > 0 and set(pipeline[cut - 1]) == {"$unionWith"}:
        cut -= 1
    return list(pipeline[:cut]), [stage["$unionWith"] for stage in pipeline[cut:]]


def aggregate(
    coll: Any, pipeline: list[Mapping[str, Any]], variables: Mapping[str, Any] | None = None
) -> list[Document]:
    """`reads.aggregate`, with each trailing `$unionWith` branch run as its own read; a stage
    a server knows and mongomock-ng does not run is refused (238)."""
    check_stages(pipeline)
    check_bounds(pipeline)
    try:
        return _aggregate(coll, pipeline, variables)
    except NotImplementedError as exc:
        if type(exc) is not NotImplementedError:
            raise
        raise rules.unsupported("an aggregation stage of mongomock-ng's", str(exc)) from None


def _aggregate(
    coll: Any, pipeline: list[Mapping[str, Any]], variables: Mapping[str, Any] | None
) -> list[Document]:
    head, unions = _trailing_unions(pipeline)
    if not unions or any(not _plain_union(spec) for spec in unions):
        return reads.aggregate(coll, pipeline, variables)
    found = reads.aggregate(coll, head, variables)
    for spec in unions:
        name = spec if isinstance(spec, str) else spec["coll"]
        branch = [] if isinstance(spec, str) else list(spec.get("pipeline", []))
        found += reads.aggregate(coll.database[name], branch, variables)
    return found


def _plain_union(spec: Any) -> bool:
    """`"name"` or `{coll: "name", pipeline?: [...]}`, without nested unions or `$documents`."""
    if isinstance(spec, str):
        return True
    if not isinstance(spec, Mapping) or not isinstance(spec.get("coll"), str):
        return False
    if set(spec) - {"coll", "pipeline"}:
        return False
    return not any(
        "$unionWith" in stage or "$documents" in stage for stage in spec.get("pipeline", [])
    )
