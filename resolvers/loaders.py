"""DataLoaders by declaration: a domain declares its loaders beside its resolvers.

A `LoaderSpec` names one batch function: given the database and the keys of one batch, it sends
one command and answers in key order. The per-request `Context` builds each loader on first use
(`context.loader(SPEC)`), so a new domain registers nothing anywhere. A spec may take parameters
(`context.loader(SPEC, page)`): each distinct parameter gets its own loader, so every batch is
still one command. Each loader is a `runtime.loading.RequestLoader`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from runtime.loading import RequestLoader
from store.database import Database

K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True, eq=False, slots=True)
class LoaderSpec(Generic[K, V]):
    """One kind of loader: `load(database, keys, parameter)` answers each key, in order."""

    name: str
    load: Callable[[Database, Sequence[K], Any], Awaitable[Sequence[V]]]


def keyed(found: Mapping[K, V], keys: Sequence[K]) -> list[V | None]:
    """Answers in key order from what one command found; None where nothing was."""
    return [found.get(key) for key in keys]


__all__ = ["LoaderSpec", "RequestLoader", "keyed"]
