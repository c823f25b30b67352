"""How a MongoDB 8.0 server cuts a cursor's results into batches.

The reply to `find` or `aggregate` carries the first batch: at most 101 documents unless the
command's `batchSize` says otherwise. Each `getMore` carries the next batch: as many documents as
its `batchSize` allows, all of them without one. Every batch also stops before its documents pass
16 MiB of BSON, but holds at least one, so that a cursor always moves on (the server's
`FindCommon::haveSpaceForNext`). A client pays one round trip per batch, which is why both the
in-process adapter and the wire front cut results here.
"""

from __future__ import annotations

from collections.abc import Sequence

import bson

from embedded.protocols import Document
from embedded.rules import MAX_BSON_DOCUMENT_BYTES

FIRST_BATCH_DOCUMENTS = 101
MAX_BATCH_BYTES = MAX_BSON_DOCUMENT_BYTES


def batch_end(docs: Sequence[Document], start: int, count: int | None) -> int:
    """Where the batch that begins at `docs[start]` ends: at most `count` documents (None: no
    limit of count) and 16 MiB of BSON, but at least one document when there is one left."""
    stop = len(docs) if count is None else min(len(docs), start + count)
    if stop - start <= 1:
        return stop  # a lone document goes whatever its size: no need to measure it
    end, size = start, 0
    while end < stop:
        size += len(bson.encode(docs[end]))
        if end > start and size > MAX_BATCH_BYTES:
            break
        end += 1
    return end


def split(
    docs: Sequence[Document],
    *,
    first: int | None = FIRST_BATCH_DOCUMENTS,
    size: int | None = None,
    single: bool = False,
) -> list[list[Document]]:
    """Every batch a cursor over `docs` hands out, the first (perhaps empty) included.

    `first` is the first batch's count limit, `size` every later one's; `single` is a
    `singleBatch` cursor, which ends with its first batch whatever is left.
    """
    size = size or None  # a getMore's batchSize of 0 means no limit, as a server reads it
    end = batch_end(docs, 0, first)
    batches = [list(docs[:end])]
    while end < len(docs) and not single:
        start, end = end, batch_end(docs, end, size)
        batches.append(list(docs[start:end]))
    return batches
