"""`$unwind` without a deep copy of the document per element, where no stage writes in place.

mongomock-ng's `$unwind` deep-copies the whole document for each element it unwinds, so that a
later stage writing into a subdocument changes one copy only. A time series' hour of 60 minute
entries, unwound into 60 pieces, copied 3,600 entries, and a 10,000-minute `series` held the
engine for 22 s. In a pipeline whose stages all build new documents and never write into their
input (`reads.aggregate` says so with `shallow_unwinds()`), each unwound document here is a new
dict on each level of its path, holding its element, and shares every other value, as a
server's documents would hold equal values. Any other `$unwind` is mongomock-ng's.

mongomock-ng's pipeline runner is one for the whole process: `install()` changes it for every
user of mongomock-ng, so it runs when the first `EmbeddedEngine` is created, never on import.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from embedded.protocols import Document, Stage
from embedded.stages.stage_hooks import install_stage

_state = threading.local()  # commands of different engines may run on different threads
_MISSING = object()


@contextmanager
def shallow_unwinds() -> Iterator[None]:
    """Within it, `$unwind` shares what its documents do not change (no stage writes in place)."""
    previous = getattr(_state, "shallow", False)
    _state.shallow = True
    try:
        yield
    finally:
        _state.shallow = previous


def _with(doc: Document, names: list[str], value: Any) -> Document:
    """A copy of `doc` with `value` at the path `names` (every level a new dict)."""
    copied = dict(doc)
    if len(names) == 1:
        copied[names[0]] = value
    else:
        copied[names[0]] = _with(doc[names[0]], names[1:], value)
    return copied


def _along(doc: Document, names: list[str]) -> Any:
    """The value at the path `names` when every level above it is a document; else _MISSING
    (mongomock-ng's own stage then decides, also the missing and null cases)."""
    current: Any = doc
    for name in names:
        if type(current) is not dict or name not in current:
            return _MISSING
        current = current[name]
    return current


def _plain_options(options: Any) -> tuple[list[str], str | None] | None:
    """The path (as names) and includeArrayIndex (as one name) of a plain `$unwind`."""
    if isinstance(options, str):
        options = {"path": options}
    if not isinstance(options, Mapping) or set(options) - {"path", "includeArrayIndex"}:
        return None
    path, index = options.get("path"), options.get("includeArrayIndex")
    if not isinstance(path, str) or not path.startswith("$") or "$" in path[1:]:
        return None
    if index is not None and (not isinstance(index, str) or not index or "." in index):
        return None
    names = path[1:].split(".")
    return (names, index) if all(names) else None


def _sharing(original: Stage) -> Stage:
    def unwind(documents: Any, database: Any, options: Any, variables: Any) -> Any:
        plain = _plain_options(options) if getattr(_state, "shallow", False) else None
        if plain is None:
            return original(documents, database, options, variables)
        names, index = plain
        out: list[Document] = []
        for doc in documents:
            array = _along(doc, names)
            if type(array) is not list or not array:
                # A missing, null, empty or single value: as mongomock-ng decides it.
                out.extend(original([doc], database, options, variables))
                continue
            for position, item in enumerate(array):
                unwound = _with(doc, names, item)
                if index is not None:
                    unwound[index] = position
                out.append(unwound)
        return out

    return unwind


def install() -> None:
    """Run every pipeline's `$unwind` as above (idempotent)."""
    install_stage("$unwind", _sharing)
