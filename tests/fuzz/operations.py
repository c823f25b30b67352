"""Operations with random variables, from the served schema: one root field, its arguments
passed as variables (declared with the argument's type, now and then another), the values
drawn from `Pools`, and a selection of the field's scalars a few levels down.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import graphql
from hypothesis import strategies as st

from tests.fuzz.shapes import Pools

MAX_SELECTION_DEPTH = 3
_one_in_three = st.integers(0, 2).map(lambda n: n == 0)


@dataclass(frozen=True)
class Operation:
    document: str
    variables: dict[str, Any]


def selection(type_: graphql.GraphQLOutputType, depth: int = 0) -> str:
    """Every field without required arguments, down to MAX_SELECTION_DEPTH; "" for a leaf."""
    named = graphql.get_named_type(type_)
    if isinstance(named, graphql.GraphQLScalarType | graphql.GraphQLEnumType):
        return ""
    if isinstance(named, graphql.GraphQLInterfaceType | graphql.GraphQLUnionType):
        return "{ __typename ... on Node { id } }"
    assert isinstance(named, graphql.GraphQLObjectType)
    parts = ["__typename"]
    for name, field in sorted(named.fields.items()):
        if any(graphql.is_required_argument(arg) for arg in field.args.values()):
            continue
        if not _is_object(field.type):
            parts.append(name)
        elif depth < MAX_SELECTION_DEPTH:
            parts.append(f"{name} {selection(field.type, depth + 1)}")
    return "{ " + " ".join(parts) + " }"


def _is_object(type_: graphql.GraphQLOutputType) -> bool:
    return not isinstance(
        graphql.get_named_type(type_), graphql.GraphQLScalarType | graphql.GraphQLEnumType
    )


def input_types(schema: graphql.GraphQLSchema) -> list[str]:
    """Every input type's name, for a variable declared with the wrong one."""
    return sorted(
        name
        for name, type_ in schema.type_map.items()
        if graphql.is_input_type(type_) and not name.startswith("__")
    )


@st.composite
def variable_operations(
    draw: st.DrawFn, schema: graphql.GraphQLSchema, kind: str, pools: Pools
) -> Operation:
    """One `kind` ("query" or "mutation") operation of one root field, arguments as variables."""
    root = schema.query_type if kind == "query" else schema.mutation_type
    assert root is not None
    name = draw(st.sampled_from(sorted(root.fields)))
    field = root.fields[name]
    declared: list[str] = []
    arguments: list[str] = []
    variables: dict[str, Any] = {}
    # One operation in five breaks one argument: declared with another type, left out, or
    # given no value. Optional arguments are left out one time in three anyway.
    spoilt = draw(st.sampled_from(["none"] * 12 + ["mistyped", "omitted", "no value"]))
    names = sorted(field.args)
    broken = draw(st.sampled_from(names)) if names and spoilt != "none" else None
    for position, arg_name in enumerate(names):
        arg = field.args[arg_name]
        optional = not graphql.is_required_argument(arg)
        if (arg_name == broken and spoilt == "omitted") or (optional and draw(_one_in_three)):
            continue
        variable = f"v{position}"
        type_name = str(arg.type)
        if arg_name == broken and spoilt == "mistyped":
            type_name = draw(st.sampled_from(input_types(schema)))
        declared.append(f"${variable}: {type_name}")
        arguments.append(f"{arg_name}: ${variable}")
        if arg_name != broken or spoilt != "no value":
            variables[variable] = draw(pools.value(arg.type, (f"{name}.{arg_name}", arg_name)))
    header = f"({', '.join(declared)})" if declared else ""
    call = f"({', '.join(arguments)})" if arguments else ""
    document = f"{kind} Fuzz{header} {{ {name}{call} {selection(field.type)} }}"
    return Operation(document=document, variables=variables)
