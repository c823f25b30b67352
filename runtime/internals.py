"""Every internal of graphql-core, Strawberry and aiodataloader the runtime relies on, in one
place.

An internal is what no library promises to keep: a private name, a function looked up by
name that the runtime replaces, an attribute set on its objects, the name of a function it
makes. Any release, a patch too, may change one without a word, so pyproject.toml caps each
library at the release tested here (`TESTED`), and tests/runtime/test_internals_guard.py
fails, naming the internal and the versions, when one is missing, when the library no longer
looks a replaced one up, or when the runtime module said to rely on one no longer names it.
To raise a cap: raise it in pyproject.toml and here, `make lock`, run that test, then
`make test`.

Each `Internal` names where it lives (`module`, and `name`, an attribute path from it), what the
runtime uses it for, the runtime module that does (`used_in`), and, for a function the runtime
replaces, the library's code that must still look it up by name (`named_by`), and for one
whose functions the runtime recognises by name, those names (`names`).
`REPLACEMENTS` are the functions `runtime.install` puts in the libraries' place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from runtime.execution import (
    error_locations,
    input_builders,
    literal_arguments,
    root_fields,
    variable_coercion,
    variable_signatures,
)

# The releases the runtime is tested on: pyproject.toml's caps.
TESTED = {"strawberry-graphql": "0.341.2", "graphql-core": "3.3.2", "aiodataloader": "0.4.3"}
# Each library's distribution, by its top-level module.
PACKAGES = {
    "graphql": "graphql-core",
    "strawberry": "strawberry-graphql",
    "aiodataloader": "aiodataloader",
}


class Internal(NamedTuple):
    module: str
    name: str  # an attribute path from the module; its last part may be an instance attribute
    use: str
    used_in: str  # the runtime module that relies on it
    named_by: tuple[str, ...] = ()  # "module:qualified.name" of library code that must name it
    names: tuple[str, ...] = ()  # names its own code must hold (functions it makes), and used_in

    @property
    def package(self) -> str:
        return PACKAGES[self.module.split(".")[0]]


def _replaced(module: str, name: str, use: str, used_in: str, *named_by: str) -> Internal:
    return Internal(module, name, use, f"runtime.execution.{used_in}", named_by)


_EXECUTE_FIELD = "graphql.execution.executor:Executor.execute_field"
_COERCE_VARIABLES = "graphql.execution.values:coerce_variable_values"
_SHOULD_INCLUDE = "graphql.execution.collect_fields:should_include_node"

# Functions the libraries look up by name, and the runtime replaces (`runtime.install`).
REPLACED = (
    _replaced(
        "graphql.execution.executor",
        "collect_fields",
        "an operation's root fields kept while it lives",
        "root_fields",
        "graphql.execution.executor:Executor.execute_operation",
    ),
    _replaced(
        "graphql.execution.executor",
        "get_argument_values",
        "a field's literal arguments coerced once per node",
        "literal_arguments",
        _EXECUTE_FIELD,
    ),
    _replaced(
        "graphql.execution.collect_fields",
        "get_argument_values",
        "`@skip`/`@include` arguments, typed as the client's error",
        "literal_arguments",
        _SHOULD_INCLUDE,
    ),
    _replaced(
        "graphql.execution.values",
        "coerce_input_value",
        "lists of flat input objects coerced by a function per type",
        "variable_coercion",
        _COERCE_VARIABLES,
    ),
    _replaced(
        "graphql.execution.values",
        "input_is_nested_too_deeply",
        "no depth walk of a list of flat input objects",
        "variable_coercion",
        _COERCE_VARIABLES,
    ),
    _replaced(
        "graphql.execution.values",
        "get_variable_signature",
        "a variable's signature kept per name and type shape",
        "variable_signatures",
        _COERCE_VARIABLES,
    ),
    _replaced(
        "strawberry.types.arguments",
        "convert_argument",
        "built input types (and lists of them) taken as coerced",
        "input_builders",
        "strawberry.types.arguments:convert_arguments",
    ),
    _replaced(
        "strawberry.schema.schema_converter",
        "convert_arguments",
        "a field's argument names and leaf tests worked out once",
        "input_builders",
        "strawberry.schema.schema_converter:get_arguments",
    ),
    _replaced(
        "graphql.language.location",
        "get_locations",
        "error locations counted by str.count",
        "error_locations",
        "graphql.error.graphql_error:GraphQLError.__init__",
    ),
    _replaced(
        "graphql.language.source",
        "Source.get_location",
        "an error location counted by str.count",
        "error_locations",
        "graphql.language.location:get_location",
    ),
)

# Each replaced function's replacement, in `REPLACED`'s order.
REPLACEMENTS: tuple[Callable[..., Any], ...] = (
    root_fields.collect_fields,
    literal_arguments.get_argument_values,
    literal_arguments.get_argument_values,
    variable_coercion.coerce_input_value,
    variable_coercion.input_is_nested_too_deeply,
    variable_signatures.get_variable_signature,
    input_builders.convert_argument,
    input_builders.convert_arguments,
    error_locations.located_all,
    error_locations.located,
)


def _table(text: str) -> tuple[Internal, ...]:
    """Rows of `module  name  used_in  use` (two spaces apart; a module of `-` is the row
    above's), `used_in` under runtime/; a use naming `names: a, b` gives those names."""
    rows: list[Internal] = []
    module = ""
    for line in text.strip().splitlines():
        given, name, used_in, use = (part.strip() for part in line.split("  ", 3))
        module = module if given == "-" else given
        names = tuple(use.partition("names: ")[2].split(", ")) if "names: " in use else ()
        rows.append(Internal(module, name, use, f"runtime.{used_in}", (), names))
    return tuple(rows)


# What the runtime reads, calls, extends or sets without replacing a function.
READ = _table(
    """
graphql.execution.executor  Executor.build  execution.executor  variables coerced, check run
-  Executor.execute_field  execution.executor  what a fast path leaves to graphql-core
-  Executor.execute_operation  execution.execute  the lean path's second step
-  Executor.execute_collected_root_fields  execution.executor  the checked root fields run
-  Executor.collect_subfields  limits.operation_fields  a group's subfields, memoised
-  Executor.middleware_manager  execution.executor  no fast path under middleware
-  Executor.async_helpers  execution.execute  dropped once answered: the executor's cycle
-  Executor.variable_values  limits.operation_fields  the variables a check reads, recorded
-  Executor.fragments  execution.executor  fragment details, for the shared plans
-  Executor.hide_suggestions  limits.operation_fields  fields collected as executed
graphql.execution.collect_fields  collect_fields  limits.operation_fields  "internal use only"
-  FieldDetails  execution.object_fields  a field group's nodes
graphql.execution.values  VariableValues  limits.operation_fields  recorded when read
strawberry.schema.schema  StrawberryGraphQLCoreExecutionContext.build_resolve_info  \
execution.executor  the resolve info Strawberry's `Info` reads
-  validate_document  request.document_cache  validation with Strawberry's own rules
-  Schema._schema  execution.execute  the graphql-core schema, executed on the lean path
-  Schema._schema  schema_fields  the graphql-core schema, whose fields' facts are read
-  Schema._create_execution_context  execution.prepared_schema  the traced path's document
strawberry.types.execution  ExecutionContext._provided_operation_name  \
execution.prepared_schema  the operationName the client sent
-  ExecutionContext.pre_execution_errors  execution.prepared_schema  validation skipped
-  ExecutionContext.graphql_document  execution.prepared_schema  parsing skipped
strawberry.execution  optimized_is_awaitable  execution.execute  Strawberry's awaitable test
strawberry.types.arguments  _is_leaf_type  execution.input_builders  arguments kept as given
strawberry.schema.schema_converter  GraphQLCoreConverter.DEFINITION_BACKREF  \
execution.input_builders  a GraphQL type's Strawberry definition
-  GraphQLCoreConverter.DEFINITION_BACKREF  schema_fields  a field's Strawberry field, its metadata
-  GraphQLCoreConverter.from_resolver  execution.leaf_fields  \
a basic field's resolver, a method's; names: _get_basic_result, _resolver
-  GraphQLCoreConverter.from_object  execution.object_fields  \
an `is_type_of` that reads no resolve info; names: _get_is_type_of, is_type_of
strawberry.types.base  StrawberryObjectDefinition.from_input  execution.input_builders  \
set: inputs built directly
strawberry.types.field  StrawberryField.is_basic_field  execution.leaf_fields  an attribute read
strawberry.types.fields.resolver  StrawberryResolver.self_parameter  execution.leaf_fields  \
a method of the object alone, read as an attribute
strawberry.types.cast  TYPE_CAST_ATTRIBUTE  execution.object_fields  an object cast to a type
strawberry.types.info  Info._raw_info  selection.fields  graphql-core's resolve info
strawberry.types.nodes  convert_arguments  selection.fields  a selected field's arguments
-  get_variable_values  selection.memo  a request's variables
aiodataloader  DataLoader._cache  loading  set directly: DataLoader's `__init__` skipped
-  DataLoader._queue  loading  set directly, appended to
-  DataLoader.do_resolve_reject  loading  overridden: a batch's dispatch as two callbacks
-  Loader  loading  a queued load
-  dispatch_queue  loading  a batch dispatched
"""
)

INTERNALS = REPLACED + READ
