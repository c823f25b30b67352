"""One explicit list of collections (`store/registry.py`): every store module that declares a
`COLLECTION` is in it, once, with its `INDEXES`; nothing else finds collections."""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

import store
from store.registry import COLLECTIONS, NAMES


def _declared() -> dict[str, ModuleType]:
    found: dict[str, ModuleType] = {}
    for module_info in pkgutil.walk_packages(store.__path__, prefix="store."):
        module = importlib.import_module(module_info.name)
        name = getattr(module, "COLLECTION", None)
        if isinstance(name, str):
            found[name] = module
    return found


def test_every_collection_a_store_module_declares_is_registered() -> None:
    assert sorted(_declared()) == sorted(NAMES)


def test_each_collection_is_registered_once_with_its_modules_indexes() -> None:
    assert len(set(NAMES)) == len(NAMES)
    declared = _declared()
    for collection in COLLECTIONS:
        module = declared[collection.name]
        assert collection.indexes == tuple(module.INDEXES), collection.name
