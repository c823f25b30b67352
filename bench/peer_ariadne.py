"""The Ariadne peer: a minimal Ariadne ASGI app, parse and validation memoised, served by
uvicorn from the bench's own environment (`.venv-bench`, made by `make bench`; bench/peers.py),
never from the project's, which does not depend on Ariadne. `{ __typename }` is asked of a
schema of one field, as Ariadne needs at least one."""

from __future__ import annotations

from collections.abc import Collection
from functools import lru_cache
from typing import Any

from ariadne import QueryType, make_executable_schema  # type: ignore[import-not-found, unused-ignore]
from ariadne.asgi import GraphQL  # type: ignore[import-not-found, unused-ignore]
from graphql import ASTValidationRule, DocumentNode, GraphQLError, GraphQLSchema, parse, validate

CACHED = 1_000  # documents, as the project's document cache holds
_validated: dict[int, tuple[DocumentNode, list[GraphQLError]]] = {}


@lru_cache(maxsize=CACHED)
def _parsed(query: str) -> DocumentNode:
    return parse(query)


def memoised_parse(context: Any, data: dict[str, Any]) -> DocumentNode:
    return _parsed(data["query"])


def memoised_validate(
    schema: GraphQLSchema,
    document_ast: DocumentNode,
    rules: Collection[type[ASTValidationRule]] | None = None,
    max_errors: int | None = None,
    type_info: Any = None,
) -> list[GraphQLError]:
    """The errors of a document, computed once per parsed document: the parse cache hands the
    same document back for the same text. Kept by identity, with the document itself (so its
    id is not reused), at most CACHED."""
    found = _validated.get(id(document_ast))
    if found is None:
        found = (document_ast, validate(schema, document_ast, rules, max_errors))
        if len(_validated) >= CACHED:
            del _validated[next(iter(_validated))]
        _validated[id(document_ast)] = found
    return found[1]


def hello(*_: Any) -> str:
    return "world"


def create() -> Any:
    query = QueryType()
    query.set_field("hello", hello)
    schema = make_executable_schema("type Query { hello: String! }", query)
    return GraphQL(schema, query_parser=memoised_parse, query_validator=memoised_validate)
