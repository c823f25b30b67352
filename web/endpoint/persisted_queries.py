"""Persisted queries: a request may name its document by hash instead of sending it.

- Apollo's automatic persisted queries (APQ): `extensions.persistedQuery = {version: 1,
  sha256Hash}`. Sent alone, the hash is looked up (`PERSISTED_QUERY_NOT_FOUND` on a miss, and
  the client sends it again with the document); sent with the document, the hash is checked
  against it and the document registered, if it is a valid one.
- GraphQL-over-HTTP persisted documents: `documentId: "sha256:<hex>"`, looked up the same way.
- Trusted documents (`ARRAYGRAPH_TRUSTED_DOCUMENTS`): only the manifest's documents run, by hash
  or by their exact text; nothing registers, or registration would bypass the list.
Registered documents live in each instance, bounded in bytes, least recently used first out:
behind a load balancer a miss on another instance costs one more request, never a failure.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Mapping

from schema.schema import ArraygraphSchema
from settings import Settings
from web.endpoint.trusted_documents import SHA256_HEX, load_trusted_documents, sha256_hex

NOT_FOUND = "PERSISTED_QUERY_NOT_FOUND"
NOT_SUPPORTED = "PERSISTED_QUERY_NOT_SUPPORTED"
DOCUMENT_ID = re.compile(r"sha256:([0-9a-f]{64})")
HASH_ARGUMENT = "extensions.persistedQuery.sha256Hash"


class PersistedQueryError(Exception):
    """A request whose document cannot be had: its message and code go to the client."""

    def __init__(self, message: str, code: str, argument: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.argument = argument


def _not_found() -> PersistedQueryError:
    # Apollo's clients recognise the message as well as the code.
    return PersistedQueryError("PersistedQueryNotFound", NOT_FOUND)


def _bad(argument: str, message: str) -> PersistedQueryError:
    return PersistedQueryError(f"{argument}: {message}", "BAD_USER_INPUT", argument)


# What one registered document costs beside its text, in memory: its hash key, two string
# objects and the ordered dict's entry, rounded up (a test measures it).
ENTRY_OVERHEAD_BYTES = 512


class RegisteredDocuments:
    """Documents registered through APQ, by hash; at most `max_bytes` in all, each charged its
    text and its overhead, so the bound holds for many small documents too."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self.documents: OrderedDict[str, str] = OrderedDict()

    def get(self, digest: str) -> str | None:
        document = self.documents.get(digest)
        if document is not None:
            self.documents.move_to_end(digest)
        return document

    def put(self, digest: str, document: str) -> None:
        size = _cost(document)
        if digest in self.documents or size > self.max_bytes:
            return
        self.documents[digest] = document
        self.bytes += size
        while self.bytes > self.max_bytes:
            _, evicted = self.documents.popitem(last=False)
            self.bytes -= _cost(evicted)


def _cost(document: str) -> int:
    return len(document.encode("utf-8")) + ENTRY_OVERHEAD_BYTES


class PersistedQueries:
    """Decides the document each request runs, from its `query`, extensions and documentId."""

    def __init__(
        self,
        settings: Settings,
        *,
        trusted: Mapping[str, str] | None,
        registrable: Callable[[str], bool],
    ) -> None:
        self.trusted = trusted
        self.supported = settings.apq or trusted is not None
        self.registered = RegisteredDocuments(settings.apq_cache_bytes)
        self.registrable = registrable  # whether a document is worth keeping: a valid one

    def document(
        self, query: str | None, extensions: Mapping[str, object] | None, document_id: object
    ) -> str | None:
        """The text to run (None: the request has none), or PersistedQueryError."""
        persisted = (extensions or {}).get("persistedQuery")
        if document_id is not None:
            if query is not None or persisted is not None:
                raise _bad("documentId", "send either documentId or a query, not both")
            return self._lookup(_document_digest(document_id))
        if persisted is not None:
            digest = _persisted_digest(persisted)
            if query is None:
                return self._lookup(digest)
            if sha256_hex(query) != digest:
                raise _bad(HASH_ARGUMENT, "is not the SHA-256 of the query sent with it")
            self._register(digest, query)
            return query
        if self.trusted is not None and query is not None and sha256_hex(query) not in self.trusted:
            raise _not_found()
        return query

    def _lookup(self, digest: str) -> str:
        if not self.supported:
            raise PersistedQueryError("PersistedQueryNotSupported", NOT_SUPPORTED)
        found = (
            self.trusted.get(digest) if self.trusted is not None else self.registered.get(digest)
        )
        if found is None:
            raise _not_found()
        return found

    def _register(self, digest: str, query: str) -> None:
        if not self.supported:
            raise PersistedQueryError("PersistedQueryNotSupported", NOT_SUPPORTED)
        if self.trusted is not None:
            if digest not in self.trusted:
                raise _not_found()
        elif self.registrable(query):
            self.registered.put(digest, query)


def _document_digest(document_id: object) -> str:
    match = DOCUMENT_ID.fullmatch(document_id) if isinstance(document_id, str) else None
    if match is None:
        raise _bad("documentId", 'must be "sha256:" and 64 lowercase hex digits')
    return match.group(1)


def _is_one(version: object) -> bool:
    return type(version) is int and version == 1  # the number 1, not `true`


def _persisted_digest(persisted: object) -> str:
    if not isinstance(persisted, dict) or not _is_one(persisted.get("version")):
        raise _bad("extensions.persistedQuery", "must be {version: 1, sha256Hash: <hex>}")
    digest = persisted.get("sha256Hash")
    if not isinstance(digest, str) or not SHA256_HEX.fullmatch(digest):
        raise _bad(HASH_ARGUMENT, "must be 64 lowercase hex digits")
    return digest


def persisted_queries(settings: Settings, schema: ArraygraphSchema) -> PersistedQueries:
    """The application's persisted queries; SettingsError when the manifest cannot be used."""
    trusted = None
    if settings.trusted_documents is not None:
        trusted = load_trusted_documents(settings.trusted_documents)
    return PersistedQueries(settings, trusted=trusted, registrable=schema.document_cache.valid)
