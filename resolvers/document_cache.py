"""Parse and validate each distinct document once, with the request limits applied.

Strawberry re-parses and re-validates every request by default. Its cache extensions help, but
every extension costs context managers in each phase of every request; this cache instead fills
in the parsed document and its validation errors when the execution context is created, and
Strawberry then skips both steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from graphql import ASTValidationRule, DocumentNode, GraphQLError, GraphQLSchema, parse
from strawberry.extensions import MaxAliasesLimiter, QueryDepthLimiter
from strawberry.schema.schema import validate_document
from strawberry.types import ExecutionContext

from settings import Settings


class DocumentCache:
    def __init__(self, settings: Settings, *, size: int) -> None:
        # Built once: validation results are cached by rule class, so the classes must not change.
        limit_rules: Sequence[type[ASTValidationRule]] = [
            *QueryDepthLimiter(max_depth=settings.max_query_depth).validation_rules,
            *MaxAliasesLimiter(max_alias_count=settings.max_aliases).validation_rules,
        ]
        self.limit_rules = tuple(limit_rules)
        self.max_tokens = settings.max_tokens
        # Keyed by the query text and the rule classes: hashing a string is much cheaper than
        # hashing a parsed document. The schema is the one this cache was bound to.
        self.documents = lru_cache(maxsize=size)(self._parse_and_validate)
        self.schema: GraphQLSchema | None = None

    def _parse_and_validate(
        self, query: str, rules: tuple[type[ASTValidationRule], ...]
    ) -> tuple[DocumentNode, tuple[GraphQLError, ...]]:
        assert self.schema is not None, "bind the cache to its schema first"
        document = parse(query, max_tokens=self.max_tokens)
        errors: Any = validate_document(self.schema, document, rules)
        return document, tuple(errors)

    def prepare(self, context: ExecutionContext) -> None:
        """Fill in the document and its validation errors, from the cache when possible."""
        context.parse_options["max_tokens"] = self.max_tokens
        context.validation_rules = context.validation_rules + self.limit_rules
        if not context.query:
            return
        try:
            document, errors = self.documents(context.query, tuple(context.validation_rules))
        except GraphQLError:
            return  # Strawberry parses again and reports the error the usual way
        context.graphql_document = document
        context.pre_execution_errors = list(errors)
