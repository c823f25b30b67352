"""Trusted documents: the manifest of the only operations a production server runs.

Two manifest formats are read, the ones client tools write:
- Apollo's persisted query manifest (`npx generate-persisted-query-manifest`):
  `{"format": "apollo-persisted-query-manifest", "version": 1,
    "operations": [{"id": "<sha256 hex>", "name": ..., "type": ..., "body": "<document>"}]}`;
- GraphQL Codegen's client preset (`persistedDocuments: {hashAlgorithm: "sha256"}`):
  `{"<sha256 hex>": "<document>", ...}`, keys optionally written `"sha256:<hex>"`.
Every id must be the SHA-256 of its document's UTF-8 bytes: an entry that is not is refused at
start-up, so a request's hash always names exactly the text that runs.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping

import orjson

from settings import MAX_TRUSTED_DOCUMENTS_BYTES, SettingsError

SHA256_HEX = re.compile(r"[0-9a-f]{64}")
APOLLO_FORMAT = "apollo-persisted-query-manifest"
VARIABLE = "ARRAYGRAPH_TRUSTED_DOCUMENTS"


def sha256_hex(document: str) -> str:
    # A lone surrogate (a JSON "\ud800") has no UTF-8: hashed as its code point's bytes, the
    # document matches no hash a client or manifest made, and its parse refuses it.
    return hashlib.sha256(document.encode("utf-8", "surrogatepass")).hexdigest()


def load_trusted_documents(path: str) -> Mapping[str, str]:
    """The manifest at `path` as `{sha256 hex: document}`; SettingsError naming the variable
    and the entry at fault when it cannot be used."""
    try:
        size = os.path.getsize(path)
        if size > MAX_TRUSTED_DOCUMENTS_BYTES:
            raise SettingsError(
                f"{VARIABLE}: {path} is {size} bytes, over {MAX_TRUSTED_DOCUMENTS_BYTES}"
            )
        with open(path, "rb") as manifest:
            raw = orjson.loads(manifest.read())
    except OSError as exc:
        raise SettingsError(f"{VARIABLE}: cannot read {path}: {exc.strerror}") from None
    except orjson.JSONDecodeError as exc:
        raise SettingsError(f"{VARIABLE}: {path} is not JSON: {exc}") from None
    entries = _apollo_entries(raw) if _is_apollo(raw) else _codegen_entries(raw)
    documents: dict[str, str] = {}
    for key, body in entries:
        digest = key.removeprefix("sha256:")
        if not SHA256_HEX.fullmatch(digest):
            raise SettingsError(f"{VARIABLE}: {key!r} is not a lowercase SHA-256 hex digest")
        if not isinstance(body, str) or sha256_hex(body) != digest:
            raise SettingsError(f"{VARIABLE}: the document of {key} does not hash to {digest}")
        documents[digest] = body
    if not documents:
        raise SettingsError(f"{VARIABLE}: {path} lists no documents")
    return documents


def _is_apollo(raw: object) -> bool:
    return isinstance(raw, dict) and raw.get("format") == APOLLO_FORMAT


def _apollo_entries(raw: dict[str, object]) -> list[tuple[str, object]]:
    if raw.get("version") != 1:
        raise SettingsError(f"{VARIABLE}: only version 1 of {APOLLO_FORMAT} is read")
    operations = raw.get("operations")
    if not isinstance(operations, list):
        raise SettingsError(f"{VARIABLE}: `operations` must be a list")
    entries: list[tuple[str, object]] = []
    for index, operation in enumerate(operations):
        if not isinstance(operation, dict) or not isinstance(operation.get("id"), str):
            raise SettingsError(f"{VARIABLE}: operations[{index}] has no string `id`")
        entries.append((operation["id"], operation.get("body")))
    return entries


def _codegen_entries(raw: object) -> list[tuple[str, object]]:
    if not isinstance(raw, dict):
        raise SettingsError(
            f"{VARIABLE}: expected Apollo's persisted query manifest or an object of "
            "{hash: document} (GraphQL Codegen's persisted documents)"
        )
    return list(raw.items())
