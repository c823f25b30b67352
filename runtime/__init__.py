"""The GraphQL runtime: graphql-core's executor and Strawberry's schema as arraygraph runs them.

- `execution/`: the fast paths (fields that read attributes completed in one step, literal
  arguments and variable signatures kept, lists of flat inputs coerced by a function per type),
  the executor that runs the schema's check, and the lean path from a document to its result;
- `request/`: the request pipeline: the parse/validation cache with the request limits, the
  choice of operation, the runner of an operation, the bound on an answer's bytes;
- `limits/`: the checks run before anything executes (the cost walk, payload arguments first),
  the fields they see as the executor will, their answers kept;
- `selection/`: what a resolver reads of its selection, without Strawberry's conversion;
- `loading`: the request's data loader (aiodataloader's, each batch dispatched by callbacks);
- `schema_fields`: what a built schema's fields declare (their `metadata`), for the schema's
  facts.

Sealed: it imports Strawberry, graphql-core, aiodataloader and the standard library only (tools/
check_layers.py). What it must know of the domain it asks through `FieldFacts`, and the limits
come as `Limits`: `install` takes both. Importing it changes nothing of any library; every
internal of theirs it relies on is listed in `runtime/internals.py`.
"""

from __future__ import annotations

from runtime.installation import Runtime, install
from runtime.limits.field_facts import Arguments, FieldFacts, ListSize, PayloadCheck, WorkUnits
from runtime.limits.request_limits import Limits
from runtime.schema_fields import field_metadata, graphql_schema, object_fields

__all__ = [
    "Arguments",
    "FieldFacts",
    "Limits",
    "ListSize",
    "PayloadCheck",
    "Runtime",
    "WorkUnits",
    "field_metadata",
    "graphql_schema",
    "install",
    "object_fields",
]
