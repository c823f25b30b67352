"""A pipeline's stages checked as a server parses them, before any runs.

Each stage is a document of one field (40323) naming a stage a server knows (40324,
"Unrecognized pipeline stage name"); mongomock-ng ran the stages up to an unknown one and then
failed with an internal error. A field of a `$project` or `$addFields` (`$set`) holding a
one-field document named like an operator must name one the engine knows: a server refuses an
unknown one when it parses the stage, with 31325 ("Unknown expression", in `$project`, which
adds its context; a `find` projection is checked alike, without it) or 168 ("Unrecognized
expression"). The sub-pipelines of `$facet`, `$lookup`
and `$unionWith` are checked alike. A stage a server knows and the engine does not run fails
when it is reached, with code 238.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pymongo.errors import OperationFailure

from embedded import rules
from embedded.expressions import operators

ONE_FIELD = 40323
UNRECOGNIZED_STAGE = 40324
UNKNOWN_PROJECTED_EXPRESSION = 31325

# The stages of MongoDB 8.0's aggregation framework.
_SERVER_STAGES = """
    $addFields $bucket $bucketAuto $changeStream $changeStreamSplitLargeEvent $collStats $count
    $currentOp $densify $documents $facet $fill $geoNear $graphLookup $group $indexStats $limit
    $listLocalSessions $listSampledQueries $listSearchIndexes $listSessions $lookup $match $merge
    $out $planCacheStats $project $querySettings $queryStats $redact $replaceRoot $replaceWith
    $sample $search $searchMeta $set $setWindowFields $shardedDataDistribution $skip $sort
    $sortByCount $unionWith $unset $unwind $vectorSearch
"""
SERVER_STAGES = frozenset(_SERVER_STAGES.split())
# A `find` projection's own operators (a `$project` stage refuses them otherwise).
FIND_ONLY = frozenset({"$elemMatch", "$slice", "$meta"})


def check_stages(pipeline: Iterable[Any]) -> None:
    """Fail as a server fails to parse `pipeline`, if it does."""
    for stage in pipeline:
        if not isinstance(stage, Mapping) or len(stage) != 1:
            message = "A pipeline stage specification object must contain exactly one field."
            raise OperationFailure(message, ONE_FIELD)
        [(name, spec)] = stage.items()
        if name not in SERVER_STAGES:
            message = f"Unrecognized pipeline stage name: '{name}'"
            raise OperationFailure(message, UNRECOGNIZED_STAGE)
        if name == "$project" and isinstance(spec, Mapping):
            _check_fields(spec, projection=True)
        elif name in ("$addFields", "$set") and isinstance(spec, Mapping):
            _check_fields(spec, projection=False)
        for inner in _sub_pipelines(name, spec):
            check_stages(inner)


def _sub_pipelines(name: str, spec: Any) -> list[Any]:
    if name == "$facet" and isinstance(spec, Mapping):
        return [inner for inner in spec.values() if isinstance(inner, list)]
    if name in ("$lookup", "$unionWith") and isinstance(spec, Mapping):
        inner = spec.get("pipeline")
        return [inner] if isinstance(inner, list) else []
    return []


def check_find_projection(projection: Any) -> None:
    """A `find` projection's fields as a `$project`'s, but without the stage's context."""
    if isinstance(projection, Mapping):
        _check_fields(projection, projection=True, context="")


def _check_fields(
    spec: Mapping[str, Any], *, projection: bool, context: str = "Invalid $project :: caused by :: "
) -> None:
    """Each field's one-field `$` document names a known operator; other documents are
    nested specifications, checked alike."""
    for value in spec.values():
        if not isinstance(value, Mapping):
            continue
        first = next(iter(value), "")
        if len(value) == 1 and isinstance(first, str) and first.startswith("$"):
            if not operators.known(first) and first not in FIND_ONLY:
                raise _unknown(first, projection, context)
        elif not any(isinstance(key, str) and key.startswith("$") for key in value):
            _check_fields(value, projection=projection, context=context)


def _unknown(operator: str, projection: bool, context: str) -> OperationFailure:
    if projection:
        message = f"{context}Unknown expression {operator}"
        return OperationFailure(message, UNKNOWN_PROJECTED_EXPRESSION)
    message = f"Unrecognized expression '{operator}'"
    return OperationFailure(message, rules.INVALID_PIPELINE_OPERATOR)
