"""The view's step for persisted queries: the text a request's hash or `documentId` stands for,
or the error that answers it instead (web/endpoint/persisted_queries.py decides which)."""

from __future__ import annotations

from graphql import GraphQLError

from web.endpoint.http_protocol import Headers
from web.endpoint.persisted_queries import NOT_FOUND, PersistedQueries, PersistedQueryError
from web.endpoint.request import SentOperation

# A miss must not be cached by a proxy: the client registers the document next.
UNCACHED = "private, no-cache, must-revalidate"


def persisted_document(persisted: PersistedQueries, sent: SentOperation) -> str | None:
    """The text to run (None: the request has none); PersistedQueryError when there is none to
    be had (unknown hash, a hash that does not match, a document outside the trusted list)."""
    return persisted.document(sent.query, sent.extensions, sent.document_id)


def persisted_failure(error: PersistedQueryError) -> tuple[list[GraphQLError], Headers]:
    """The answer's errors (coded already: the error table never sees them) and headers."""
    extensions: dict[str, object] = {"code": error.code}
    if error.argument is not None:
        extensions["argument"] = error.argument
    headers = ((b"cache-control", UNCACHED.encode()),) if error.code == NOT_FOUND else ()
    return [GraphQLError(error.message, extensions=extensions)], headers
