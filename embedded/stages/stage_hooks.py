"""mongomock-ng's pipeline stages replaced by the engine's, each once per process.

mongomock-ng's pipeline runner is one for the whole process: a stage is wrapped when the first
`EmbeddedEngine` is created (never on import), and creating more engines wraps nothing again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from embedded import mongomock_internals as mongomock
from embedded.protocols import Stage

_lock = threading.Lock()
_wrapped: set[tuple[str, Callable[[Stage], Stage]]] = set()


def install_stage(name: str, wrap: Callable[[Stage], Stage]) -> None:
    """Run every pipeline's stage `name` with `wrap(mongomock-ng's handler)` (idempotent)."""
    with _lock:
        if (name, wrap) not in _wrapped:
            mongomock.wrap_stage(name, wrap)
            _wrapped.add((name, wrap))
