"""Parse and validate each distinct document once, with the request limits applied.

Re-parsing and re-validating every request costs more than most resolvers. This cache fills
in the parsed document and its errors when the execution context is created (see
`runtime/execution/prepared_schema.py`), and Strawberry then skips both steps.

Bounded by count and by bytes, least recently used out first, so that no sequence of query
texts takes it past its budget: each entry is accounted at `entry_bytes`, an upper bound of
the memory it holds (its text, its tokens, which the AST keeps linked, and its errors; a test
measures entries of every shape with tracemalloc against it), and a text over `largest`
characters is parsed for its request and never kept (at 5,000 tokens, one such entry would
hold megabytes).

Errors are typed by where they come from: the request limits (depth, aliases, fields selected:
`runtime/request/limit_rules.py`, in time linear in the document) run as their own validation
pass, first, and their errors are `RequestLimitExceeded`; the schema's rules give `DocumentInvalid`.
A document that does not parse is kept as such; `syntax_error` gives the parser's
`GraphQLSyntaxError` for its request, and `over_token_limit` tells whether the token limit
stopped it.
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from collections.abc import Callable
from typing import NamedTuple

from graphql import (
    ASTValidationRule,
    DocumentNode,
    GraphQLError,
    GraphQLSchema,
    Lexer,
    NoSchemaIntrospectionCustomRule,
    SelectionSetNode,
    Source,
    TokenKind,
    parse,
    specified_rules,
    validate,
)
from strawberry.schema.schema import validate_document

from runtime.errors import DocumentInvalid, RequestLimitExceeded, retyped
from runtime.limits.request_limits import Limits
from runtime.request.limit_rules import alias_limit, depth_limit, name_limit, selection_limit

PreparedDocument = tuple[DocumentNode, tuple[GraphQLError, ...]]

# What an entry holds besides its text, tokens and errors: the slot, the document and the
# operation nodes, and the tuples around them (tests/limits measure entries against it), and
# the check's answer kept while the document lives (runtime/limits/check_memo.py, a few hundred
# bytes).
ENTRY_BYTES = 16 * 1024
TOKEN_BYTES = 800  # a token (they stay linked to each other) and the AST nodes made from it
ERROR_BYTES = 2 * 1024  # an error, its locations and extensions, besides its message
TEXT_COPIES = 3  # the text (the key, and the parser's source), token values, node values


def entry_bytes(query: str, prepared: PreparedDocument | None) -> int:
    """An upper bound of the memory a cached entry holds (tests/limits measure it)."""
    held = ENTRY_BYTES + TEXT_COPIES * sys.getsizeof(query)
    if prepared is None:
        return held
    document, errors = prepared
    tokens = 0
    token = document.loc.start_token if document.loc is not None else None
    while token is not None:
        tokens += 1
        token = token.next
    messages = sum(ERROR_BYTES + 2 * sys.getsizeof(error.message) for error in errors)
    return held + TOKEN_BYTES * tokens + messages


def _unlink_tokens(document: DocumentNode) -> None:
    """Let the tokens of a parsed document go (its nodes' locations keep their offsets and
    source): linked both ways, they would be a cycle, which only the collector frees; what is
    alive at a freeze leaves its scans (web/server/long_lived.py), a kept document and one a request
    in flight is running alike, so when either goes, reference counting must free it all.
    Nothing reads the tokens once parsed."""
    token = document.loc.start_token if document.loc is not None else None
    while token is not None:
        token.prev, token.next, token = None, None, token.next


class CacheInfo(NamedTuple):
    """As `functools.lru_cache` reports it, with the bytes accounted."""

    hits: int
    misses: int
    maxsize: int
    currsize: int
    bytes: int


class PreparedDocuments:
    """Prepared documents by query text: at most `size` of them and `budget` bytes (by
    `entry_bytes`), least recently used out first; a text over `largest` characters, or an
    entry over the budget alone, is prepared for its request and not kept."""

    def __init__(
        self,
        prepare: Callable[[str], PreparedDocument | None],
        *,
        size: int,
        budget: int,
        largest: int,
    ) -> None:
        self._prepare = prepare
        self.size, self.budget, self.largest = size, budget, largest
        self._entries: OrderedDict[str, tuple[PreparedDocument | None, int]] = OrderedDict()
        self.bytes = 0
        self._hits = self._misses = 0

    def __call__(self, query: str) -> PreparedDocument | None:
        found = self._entries.get(query)
        if found is not None:
            self._hits += 1
            self._entries.move_to_end(query)
            return found[0]
        self._misses += 1
        prepared = self._prepare(query)
        held = entry_bytes(query, prepared) if len(query) <= self.largest else 0
        if prepared is not None:
            _unlink_tokens(prepared[0])
        if len(query) <= self.largest:
            self._keep(query, prepared, held)
        return prepared

    def _keep(self, query: str, prepared: PreparedDocument | None, held: int) -> None:
        if held > self.budget:
            return
        self._entries[query] = (prepared, held)
        self.bytes += held
        while len(self._entries) > self.size or self.bytes > self.budget:
            _, (_, freed) = self._entries.popitem(last=False)
            self.bytes -= freed

    def cache_info(self) -> CacheInfo:
        return CacheInfo(self._hits, self._misses, self.size, len(self._entries), self.bytes)

    def cache_clear(self) -> None:
        self._entries.clear()
        self.bytes = 0


class NonEmptySelections(ASTValidationRule):
    """`{ }` is not GraphQL (a selection set holds at least one selection), but graphql-core's
    parser takes it and no rule of the specification's refuses it: it would run, and answer
    an empty object."""

    def enter_selection_set(self, node: SelectionSetNode, *_: object) -> None:
        if not node.selections:
            self.report_error(GraphQLError("A selection set must select at least one field.", node))


class DocumentCache:
    def __init__(self, limits: Limits, *, size: int, budget: int, largest: int) -> None:
        self.limit_rules: tuple[type[ASTValidationRule], ...] = (
            name_limit(limits.max_name_length),
            depth_limit(limits.max_query_depth),
            alias_limit(limits.max_aliases),
            selection_limit(limits.max_selections),
        )
        self.max_tokens = limits.max_tokens
        # Without introspection, "Did you mean ...?" would still spell the schema out
        # (the schema's error table strips it from every error then).
        self.suggestions = limits.introspection
        # Introspection off (production): `__schema` and `__type` fail validation.
        self.schema_rules: tuple[type[ASTValidationRule], ...] = (
            *specified_rules,
            NonEmptySelections,
            *(() if limits.introspection else (NoSchemaIntrospectionCustomRule,)),
        )
        # Keyed by the query text: hashing a string is much cheaper than hashing a document.
        self.documents = PreparedDocuments(self._prepare, size=size, budget=budget, largest=largest)
        self.schema: GraphQLSchema | None = None  # bound once by the schema that owns it

    def bind(self, schema: GraphQLSchema) -> None:
        self.schema = schema

    def _prepare(self, query: str) -> PreparedDocument | None:
        assert self.schema is not None, "bind the cache to its schema first"
        try:
            document = parse(query, max_tokens=self.max_tokens)
        except GraphQLError:
            return None
        errors: list[GraphQLError]
        limits = validate(self.schema, document, self.limit_rules)
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

    def syntax_error(self, query: str) -> GraphQLError:
        """Why `query`, which `lookup` found unparsable, does not parse: parsed again, as its
        error is not kept (a request that does not parse is cheap to refuse again)."""
        try:
            parse(query, max_tokens=self.max_tokens)
        except GraphQLError as error:
            return error
        return GraphQLError("The document parses only now.")  # not reached: parsing is pure

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
