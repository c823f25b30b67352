"""Every use of Strawberry's (and graphql-core's) internals, in one module.

These are the fast paths and hooks the public API does not offer. When upgrading
strawberry-graphql (the floor in pyproject.toml is the first release that reads `from_input`),
re-check each, and run `tests/server/test_fast_paths.py`, which fails when one silently stops
being used:
- `install_input_builder`: argument conversion calls `__strawberry_definition__.from_input`
  (strawberry/types/arguments.py, `convert_argument`; 0.329.0 and later).
- `PreparedDocumentSchema._create_execution_context`: the execution context is created there,
  and Strawberry skips parsing when `graphql_document` is set and validation when
  `pre_execution_errors` is not None (strawberry/schema/schema.py); `_provided_operation_name`
  is the operationName the client sent (`operation_name` falls back to the first operation's).
- `validate_document`: Strawberry's validation with its own rules (MaybeNull, OneOf) added.
- `TypedErrorsExecutionContext.build`: graphql-core's executor class method that coerces
  variables and answers a list of errors when they do not fit (graphql/execution/executor.py);
  an `ExecutionCheck` (the cost limit) runs there too, once variables are coerced, and a
  refusal is answered the same way, before any resolver runs.
- `OperationFields`: graphql-core's `collect_fields`/`collect_subfields` ("for internal use
  only", graphql/execution/collect_fields.py) and `get_argument_values`, on the built executor's
  fragments and variables, so that a check sees the fields exactly as execution will.
- `PlainJsonPost.parse_http_body`: the view's request parsing (strawberry/http/
  async_base_view.py), with cross-web's request adapter and the view's `parse_json`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar

import strawberry
from cross_web import AsyncHTTPRequestAdapter, HTTPException
from graphql import (
    DocumentNode,
    FieldNode,
    GraphQLError,
    GraphQLField,
    GraphQLInterfaceType,
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLUnionType,
    OperationDefinitionNode,
    get_operation_ast,
)
from graphql.execution.collect_fields import FieldDetails, collect_fields, collect_subfields
from graphql.execution.values import get_argument_values
from strawberry.http import GraphQLRequestData
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext
from strawberry.schema.schema import validate_document as validate_document
from strawberry.types import ExecutionContext
from strawberry.types.enum import StrawberryEnumDefinition
from strawberry.utils.str_converters import to_camel_case

from resolvers.context import Context
from schema.errors import OperationUnresolved, VariablesInvalid, retyped

if TYPE_CHECKING:
    from schema.document_cache import DocumentCache

__all__ = [
    "DocumentIdRequest",
    "ExecutionCheck",
    "FieldGroup",
    "OperationFields",
    "PlainJsonPost",
    "PreparedDocumentSchema",
    "TypedErrorsExecutionContext",
    "install_input_builder",
    "validate_document",
]


def install_input_builder(input_type: type) -> None:
    """Build `input_type` from graphql-core's coerced value directly: every field is already
    parsed and defaulted, and the generic per-field conversion is the largest cost of a batch.
    Enum fields arrive as their values (or, in some releases, names or members)."""
    definition: Any = getattr(input_type, "__strawberry_definition__")  # noqa: B009
    names = [
        (f.python_name, f.graphql_name or to_camel_case(f.python_name)) for f in definition.fields
    ]
    enums: dict[str, Any] = {  # the Python enum of each enum field
        f.python_name: f.type.wrapped_cls
        for f in definition.fields
        if isinstance(f.type, StrawberryEnumDefinition)
    }

    def from_input(cls: type, value: Mapping[str, Any], context: object) -> object:
        fields = {name: value[key] for name, key in names if key in value}
        for name, enum in enums.items():
            if name in fields:
                fields[name] = _enum_member(enum, fields[name])
        return input_type(**fields)

    definition.from_input = from_input


def _enum_member(enum: type[Enum], raw: Any) -> Enum:
    if isinstance(raw, enum):
        return raw
    return enum[raw] if raw in enum.__members__ else enum(raw)


FieldGroup = list[FieldDetails]  # the field nodes of one response key, merged as executed


class OperationFields:
    """The fields an operation selects, collected as the executor will collect them: fragments
    spread where their type condition can match, `@skip`/`@include` applied, one group per
    response key (aliases apart), with the operation's coerced variables."""

    def __init__(self, executor: Any) -> None:
        self._executor = executor

    def root(self) -> tuple[GraphQLObjectType, dict[str, FieldGroup]] | None:
        ex = self._executor
        root_type = ex.schema.get_root_type(ex.operation.operation)
        if root_type is None:
            return None
        collected = collect_fields(
            ex.schema,
            ex.fragments,
            ex.variable_values,
            root_type,
            ex.operation,
            ex.hide_suggestions,
        )
        return root_type, collected.grouped_field_set

    def children(self, runtime_type: GraphQLObjectType, group: FieldGroup) -> dict[str, FieldGroup]:
        ex = self._executor
        collected = collect_subfields(
            ex.schema,
            ex.fragments,
            ex.variable_values,
            ex.operation,
            runtime_type,
            group,
            ex.hide_suggestions,
        )
        return collected.grouped_field_set

    def arguments(self, field: GraphQLField, group: FieldGroup) -> dict[str, Any]:
        """The field's coerced arguments; none when they do not coerce (the field then fails
        when it runs, and answers nothing)."""
        first = group[0]
        try:
            return get_argument_values(
                field, first.node, self._executor.variable_values, first.fragment_variable_values
            )
        except GraphQLError:
            return {}

    def possible_types(self, named: GraphQLNamedType) -> Sequence[GraphQLObjectType]:
        """The object types a value of `named` may be: itself, or an interface's."""
        if isinstance(named, GraphQLObjectType):
            return [named]
        if isinstance(named, GraphQLInterfaceType | GraphQLUnionType):
            found: Sequence[GraphQLObjectType] = self._executor.schema.get_possible_types(named)
            return found
        return []

    @staticmethod
    def node(group: FieldGroup) -> FieldNode:
        return group[0].node


# A check of an operation before it runs: an error refuses it, and nothing executes.
ExecutionCheck = Callable[[OperationFields], GraphQLError | None]


class TypedErrorsExecutionContext(StrawberryGraphQLCoreExecutionContext):
    """graphql-core's executor, whose variable-coercion errors are `VariablesInvalid`, and which
    runs the schema's `check` (if any) once variables are coerced."""

    check: ClassVar[ExecutionCheck | None] = None

    @classmethod
    def build(cls, *args: Any, **kwargs: Any) -> Any:
        built = super().build(*args, **kwargs)
        if isinstance(built, list):
            return [retyped(error, VariablesInvalid, "BAD_USER_INPUT") for error in built]
        refused = None if cls.check is None else cls.check(OperationFields(built))
        return built if refused is None else [refused]


def checked_execution_context(check: ExecutionCheck) -> type[TypedErrorsExecutionContext]:
    """The execution context class that runs `check` before executing."""
    attributes = {"check": staticmethod(check)}
    return type("CheckedExecutionContext", (TypedErrorsExecutionContext,), attributes)


class PreparedDocumentSchema(strawberry.Schema):
    """A schema whose documents come parsed and validated from a `DocumentCache`."""

    def __init__(
        self, *, document_cache: DocumentCache, check: ExecutionCheck | None = None, **kwargs: Any
    ) -> None:
        context_class = TypedErrorsExecutionContext
        if check is not None:
            context_class = checked_execution_context(check)
        super().__init__(execution_context_class=context_class, **kwargs)
        document_cache.bind(self._schema)
        self.document_cache = document_cache

    def _create_execution_context(self, *args: Any, **kwargs: Any) -> ExecutionContext:
        context = super()._create_execution_context(*args, **kwargs)
        context.parse_options["max_tokens"] = self.document_cache.max_tokens
        if context.query:
            prepared = self.document_cache.lookup(context.query)
            if prepared is not None:  # else Strawberry parses, and reports the syntax error
                context.graphql_document, errors = prepared
                name = context._provided_operation_name  # what the client sent, or None
                unresolved = _unresolved_operation(prepared[0], name)
                context.pre_execution_errors = list(errors) or unresolved
                _note_operation(context.context, prepared[0], name)
        return context


def _note_operation(request: object, document: DocumentNode, name: str | None) -> None:
    """The operation's name and type on the request's Context, from the parsed document this
    request already has (the request log reads them; nothing is parsed again)."""
    operation = get_operation_ast(document, name)
    if operation is not None and isinstance(request, Context):
        named = operation.name.value if operation.name else None
        request.operation = (named, operation.operation.value)


def _unresolved_operation(document: DocumentNode, name: str | None) -> list[GraphQLError]:
    """The spec's GetOperation: with several operations a name must pick one, and a name must
    name one; else nothing runs (Strawberry would run the first)."""
    names = [
        d.name.value if d.name else None
        for d in document.definitions
        if isinstance(d, OperationDefinitionNode)
    ]
    if name is None and len(names) > 1:
        message = "Must provide operationName: the document holds several operations."
    elif name is not None and name not in names:
        message = f"operationName: the document holds no operation named {name!r}."
    else:
        return []
    return [OperationUnresolved(message, extensions={"code": "OPERATION_RESOLUTION_FAILURE"})]


@dataclass
class DocumentIdRequest(GraphQLRequestData):
    """A request with its `documentId` (GraphQL over HTTP's persisted documents), if any."""

    document_id: object = None


class PlainJsonPost:
    """The common request, a POST of one JSON operation with no streaming asked for, skips
    Strawberry's general content-type and transport negotiation (a sixth of the time of
    `{ __typename }`); every other request, and every malformed one, takes its path."""

    async def parse_http_body(
        self, request: AsyncHTTPRequestAdapter
    ) -> GraphQLRequestData | list[GraphQLRequestData]:
        media_type = (request.content_type or "").split(";", 1)[0].strip().lower()
        if request.method == "POST" and media_type == "application/json":  # any charset
            data = self.parse_json(await request.get_body())  # type: ignore[attr-defined]
            if not isinstance(data, dict | list):  # Strawberry's own path fails on these
                raise HTTPException(400, "The request body must be a JSON object")
            if isinstance(data, dict) and not isinstance(data.get("operationName"), str | None):
                raise HTTPException(400, "The operation's `operationName` must be a string")
            accept = request.headers.get("accept") or ""
            streaming = "multipart/mixed" in accept or "text/event-stream" in accept
            if not streaming and isinstance(data, dict) and _plain_operation(data):
                return DocumentIdRequest(
                    query=data.get("query"),
                    variables=data.get("variables"),
                    operation_name=data.get("operationName"),
                    extensions=data.get("extensions"),
                    document_id=data.get("documentId"),
                )
        parsed: GraphQLRequestData | list[GraphQLRequestData]
        parsed = await super().parse_http_body(request)  # type: ignore[misc]
        return parsed


def _plain_operation(data: dict[str, Any]) -> bool:
    return (
        isinstance(data.get("query"), str | None)
        and isinstance(data.get("variables"), dict | None)
        and isinstance(data.get("extensions"), dict | None)
    )
