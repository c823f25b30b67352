"""An attribute path resolved in an installed library, as the internals guards check it
(tests/runtime and tests/engine): a last part that only instances get counts as there."""

from __future__ import annotations

import importlib
from types import FunctionType
from typing import Any

MISSING = object()


def declared(owner: Any, attribute: str) -> bool:
    """Whether instances of the class `owner` get `attribute`: annotated, or set by a method."""
    for cls in getattr(owner, "__mro__", ()):
        if attribute in getattr(cls, "__annotations__", {}):
            return True
        methods = [f for f in vars(cls).values() if isinstance(f, FunctionType)]
        if any(attribute in f.__code__.co_names for f in methods):
            return True
    return False


def resolved(module: str, path: str) -> Any:
    """`module`'s attribute at `path` (dotted), MISSING when absent; a last part only instances
    get is its class."""
    found: Any = importlib.import_module(module)
    *owners, attribute = path.split(".")
    for part in owners:
        found = getattr(found, part, MISSING)
        if found is MISSING:
            return MISSING
    value = getattr(found, attribute, MISSING)
    if value is MISSING and declared(found, attribute):
        return found
    return value
