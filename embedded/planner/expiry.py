"""TTL expiry through the TTL index's own entries, instead of a pass over the collection.

mongomock-ng expires documents before every read of a collection with a TTL index (a lookup by key,
a count, an insert's duplicate check...), by testing each stored document. Here the documents that
can have expired are found on the TTL index (`embedded.planner.indexes`): its dates up to the
cut-off (a second of margin), and its exceptions (an array of dates, a date with a time zone...);
mongomock-ng's own test then decides each, so what expires is what it expired. A store that is not
an engine's table, or whose TTL index is not built yet, expires as before.

mongomock-ng's stores are one class for the whole process: `install()` changes it for every user
of mongomock-ng, so it runs when the first `EmbeddedEngine` is created, never on import.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from datetime import UTC, timedelta
from typing import Any

from embedded import mongomock_internals as mongomock
from embedded.planner.index_keys import DATE
from embedded.planner.indexes import IndexedDocuments

_install_lock = threading.Lock()
_installed: list[bool] = []


def _seconds(spec: Mapping[str, Any]) -> int | None:
    try:
        return int(spec["expireAfterSeconds"])
    except (TypeError, ValueError):
        return None


def _expire(store: Any, documents: Any, spec: Mapping[str, Any], scan: Callable[[], None]) -> None:
    index = documents.index_of(spec) if isinstance(documents, IndexedDocuments) else None
    seconds = _seconds(spec)
    if index is None or seconds is None or len(index.fields) != 1:
        scan()
        return
    now = mongomock.expiry_now()
    naive = now.astimezone(UTC).replace(tzinfo=None) if now.tzinfo else now
    cut = naive - timedelta(seconds=seconds - 1)  # a second past the cut-off: decided below
    start, end = index.span(((DATE,),), ((DATE, cut),))
    seqs = {index.entries[position][1] for position in range(start, end)} | index.exceptions
    field = index.fields[0]
    expired = [
        doc["_id"]
        for doc in (documents.document(seq) for seq in sorted(seqs))
        if mongomock.expires(store, mongomock.get_value_by_dot(doc, field), seconds, now)
    ]
    for document_id in expired:
        del store[mongomock.store_key(document_id)]


def install() -> None:
    """Expire every TTL index's documents as above (idempotent)."""
    with _install_lock:
        if not _installed:
            mongomock.route_expiry_to(_expire)
            _installed.append(True)
