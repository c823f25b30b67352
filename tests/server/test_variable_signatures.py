"""Variable signatures are kept by the variable's name and type
(runtime/execution/variable_signatures.py): graphql-core's own answer, and never a hold on the
document they came from."""

from __future__ import annotations

import gc
import weakref
from typing import Any

from graphql import GraphQLNonNull, OperationDefinitionNode, VariableDefinitionNode, parse

from runtime.execution import variable_signatures
from schema.schema import build_schema

SCHEMA = build_schema()._schema


def _definitions(text: str) -> list[VariableDefinitionNode]:
    operation = parse(text).definitions[0]
    assert isinstance(operation, OperationDefinitionNode)
    return list(operation.variable_definitions or ())


def test_variable_signature_is_graphql_cores() -> None:
    [node] = _definitions("query($u: [ID!]!) { __typename }")
    kept = variable_signatures.get_variable_signature(SCHEMA, node)
    theirs: Any = variable_signatures._graphql_get_variable_signature(SCHEMA, node)
    assert (kept.name, str(kept.type), kept.default) == (theirs.name, str(theirs.type), None)
    assert isinstance(kept.type, GraphQLNonNull)


def test_variable_signature_is_kept_across_documents() -> None:
    [first] = _definitions("query($n: Int!) { __typename }")
    [again] = _definitions("query Other($n: Int!) { __typename }")
    kept = variable_signatures.get_variable_signature(SCHEMA, first)
    assert variable_signatures.get_variable_signature(SCHEMA, again) is kept


def test_variable_signature_of_another_type_is_its_own() -> None:
    [plain] = _definitions("query($n: Int) { __typename }")
    [required] = _definitions("query($n: Int!) { __typename }")
    one = variable_signatures.get_variable_signature(SCHEMA, plain)
    other = variable_signatures.get_variable_signature(SCHEMA, required)
    assert (str(one.type), str(other.type)) == ("Int", "Int!")


def test_variable_signature_holds_nothing_of_its_document() -> None:
    document = parse("query($big: String!) { __typename } # " + "x" * 100_000)
    alive = weakref.ref(document)
    operation = document.definitions[0]
    assert isinstance(operation, OperationDefinitionNode)
    variable_signatures.get_variable_signature(SCHEMA, (operation.variable_definitions or ())[0])
    del document, operation
    gc.collect()
    assert alive() is None


def test_variable_signature_with_a_default_is_not_kept() -> None:
    [node] = _definitions('query($s: String = "x") { __typename }')
    before = dict(variable_signatures._kept)
    signature = variable_signatures.get_variable_signature(SCHEMA, node)
    assert signature.default is not None
    assert variable_signatures._kept == before
