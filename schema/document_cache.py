"""Parse and validate each distinct document once, with the request limits applied.

Re-parsing and re-validating every request costs more than most resolvers. This cache fills
in the parsed document and its errors when the execution context is created (see
`schema/strawberry_internals.py`), and Strawberry then skips both steps. Bounded, so unique
query texts cannot grow memory without limit.

Errors are typed by where they come from: the request limits (depth, aliases) run as their own
validation pass, first, and their errors are `RequestLimitExceeded`; the schema's rules give
`DocumentInvalid`. A document that does not parse is left to Strawberry, which reports the
parser's `GraphQLSyntaxError`; `over_token_limit` tells whether the token limit stopped it.
"""

from __future__ import annotations

from functools import lru_cache

from graphql import (
    ASTValidationRule,
    DocumentNode,
    GraphQLError,
    GraphQLSchema,
    Lexer,
    NoSchemaIntrospectionCustomRule,
    Source,
    TokenKind,
    parse,
    specified_rules,
    validate,
)
from strawberry.extensions import MaxAliasesLimiter, QueryDepthLimiter

from schema.errors import DocumentInvalid, RequestLimitExceeded, retyped
from schema.strawberry_internals import validate_document
from settings import Settings

PreparedDocument = tuple[DocumentNode, tuple[GraphQLError, ...]]


class DocumentCache:
    def __init__(self, settings: Settings, *, size: int) -> None:
        self.limit_rules: tuple[type[ASTValidationRule], ...] = (
            *QueryDepthLimiter(max_depth=settings.max_query_depth).validation_rules,
            *MaxAliasesLimiter(max_alias_count=settings.max_aliases).validation_rules,
        )
        self.max_tokens = settings.max_tokens
        # Without introspection, "Did you mean ...?" would still spell the schema out
        # (schema/errors.py strips it from every error then).
        self.suggestions = settings.introspection
        # Introspection off (production): `__schema` and `__type` fail validation.
        self.schema_rules: tuple[type[ASTValidationRule], ...] = (
            *specified_rules,
            *(() if settings.introspection else (NoSchemaIntrospectionCustomRule,)),
        )
        # Keyed by the query text: hashing a string is much cheaper than hashing a document.
        self.documents = lru_cache(maxsize=size)(self._prepare)
        self.schema: GraphQLSchema | None = None  # bound once by the schema that owns it

    def bind(self, schema: GraphQLSchema) -> None:
        self.schema = schema

    def _prepare(self, query: str) -> PreparedDocument | None:
        assert self.schema is not None, "bind the cache to its schema first"
        try:
            document = parse(query, max_tokens=self.max_tokens)
        except GraphQLError:
            return None
        limits = validate(self.schema, document, self.limit_rules)
        errors: list[GraphQLError]
        if limits:
            errors = [retyped(e, RequestLimitExceeded, "LIMIT_EXCEEDED") for e in limits]
        else:
            invalid = validate_document(self.schema, document, self.schema_rules)
            errors = [retyped(e, DocumentInvalid, "GRAPHQL_VALIDATION_FAILED") for e in invalid]
        return document, tuple(errors)

    def valid(self, query: str) -> bool:
        """Whether `query` parses and validates, within the limits."""
        prepared = self.lookup(query)
        return prepared is not None and not prepared[1]

    def lookup(self, query: str) -> PreparedDocument | None:
        """The parsed document and its errors; None when it does not parse."""
        return self.documents(query)

    def over_token_limit(self, query: str) -> bool:
        """Whether the document has more tokens than the limit (comments count, as the parser
        counts them). Reads at most the limit plus one token."""
        lexer = Lexer(Source(query))
        token = lexer.token
        try:
            for _ in range(self.max_tokens + 1):
                token = lexer.read_next_token(token.end)
                if token.kind is TokenKind.EOF:
                    return False
        except GraphQLError:
            return False
        return True
