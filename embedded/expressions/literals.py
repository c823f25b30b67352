"""`$literal` documents and arrays, given to each document as its own copy where a stage may
write into them.

A compiled `$literal` answers the pipeline's own object, which costs nothing and is right
wherever the value is only read (an `$in` list, a comparison) or copied before it is kept (the
engine's own stages, whose results are copied for the reply and for storage). mongomock-ng's
stages that write in place (a dotted `$set` under a field an earlier stage set) would write
into that object: into every other document given the same value, and into the caller's
pipeline, which it may send again. While they run (`copied_literals`), each evaluation gives a
deep copy, as a server gives each document a value of its own.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from embedded.protocols import Evaluator

_state = threading.local()  # commands of different engines may run on different threads


@contextmanager
def copied_literals() -> Iterator[None]:
    """Within it, a compiled `$literal` document or array answers a copy at each evaluation."""
    previous = getattr(_state, "copied", False)
    _state.copied = True
    try:
        yield
    finally:
        _state.copied = previous


def literal(value: Any) -> Evaluator:
    """The evaluator of `{"$literal": value}`."""
    if not isinstance(value, dict | list):
        return lambda doc, env: value

    def evaluate(doc: Any, env: dict[str, Any]) -> Any:
        return copy.deepcopy(value) if getattr(_state, "copied", False) else value

    return evaluate
