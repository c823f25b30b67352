"""The parse/validation cache is bounded by bytes: no sequence of documents takes it past its
budget, and what it accounts for an entry is not below what the entry holds (issue 14, item 4).
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable

import pytest

from runtime.request.document_cache import DocumentCache
from schema.schema import CACHED_DOCUMENT_CHARS, DOCUMENT_CACHE_BYTES, build_schema, limits_of
from settings import Settings

MIB = 1024 * 1024


def _braced(text: str) -> str:
    return "{ " + text + " }"


# Documents of every shape an entry's memory depends on: tokens, long text, errors, non-ASCII.
SHAPES: dict[str, Callable[[int], str]] = {
    "small": lambda k: _braced(f"sensors(first: {k}) {{ edges {{ node {{ id title }} }} }}"),
    "dense tokens": lambda k: _braced(f"z{k}: __typename " + "__typename " * 1_400),
    "one-letter fields": lambda k: _braced(f"z{k} " + "a " * 4_800),
    "long unknown names": lambda k: _braced(
        f"z{k} " + " ".join("x" * 48 + str(i) for i in range(300))
    ),
    "many variables": lambda k: (
        f"query Q{k}(" + " ".join(f"$v{i}: Int" for i in range(1_200)) + ") { __typename }"
    ),
    "comments": lambda k: f"#{k}\n" + "#c\n" * 4_900 + "{ __typename }",
    "ids": lambda k: _braced(
        "users(userIds: [" + ",".join(f'"u{i + k}"' for i in range(1_500)) + "]) { userId }"
    ),
    "astral string": lambda k: _braced(
        f'sensors(filter: {{titlePrefix: "{k}' + "\U0001f600" * 4_000 + '"}) { totalCount }'
    ),
    "long names in errors": lambda k: _braced(" ".join(f"{'y' * 2_000}{i}{k}" for i in range(8))),
}


def _cache(*, budget: int, size: int = 100_000) -> DocumentCache:
    cache = DocumentCache(
        limits_of(Settings()), size=size, budget=budget, largest=CACHED_DOCUMENT_CHARS
    )
    schema = build_schema().document_cache.schema
    assert schema is not None
    cache.bind(schema)
    return cache


def _held_per_entry(cache: DocumentCache, shape: Callable[[int], str], count: int) -> float:
    """The memory `count` new entries of `shape` hold, each, their texts included."""
    for k in range(3):  # first calls fill caches of their own (validation rules, types)
        cache.documents(shape(10_000 + k))
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for k in range(count):
            cache.documents(shape(k))  # the text is the cache's alone once the call returns
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    return held / count


@pytest.mark.parametrize("name", list(SHAPES))
def test_document_cache_accounts_no_less_than_an_entry_holds(name: str) -> None:
    shape = SHAPES[name]
    assert len(shape(0)) <= CACHED_DOCUMENT_CHARS, "a shape the cache keeps"
    count = 6 if len(shape(0)) > 1_000 else 60  # small entries: more, to see past noise
    cache = _cache(budget=1024 * MIB)
    accounted_before = cache.documents.bytes
    held = _held_per_entry(cache, shape, count)
    accounted = (cache.documents.bytes - accounted_before) / (count + 3)
    assert held <= accounted, f"{name}: holds {held:.0f} bytes, accounted {accounted:.0f}"


def test_document_cache_never_accounts_more_than_its_budget() -> None:
    budget = 8 * MIB
    cache = _cache(budget=budget)
    shapes = list(SHAPES.values())
    for k in range(60):
        cache.documents(shapes[k % len(shapes)](k))
        assert cache.documents.bytes <= budget
    assert cache.documents.cache_info().currsize < 60  # older entries went out


def test_document_cache_memory_stays_within_its_budget() -> None:
    budget = 8 * MIB
    cache = _cache(budget=budget)
    dense = SHAPES["dense tokens"]
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for k in range(16):  # about 1 MiB each: twice the budget
            cache.documents(dense(k))
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held <= budget


def test_document_cache_keeps_no_document_over_16_kib() -> None:
    cache = _cache(budget=64 * MIB)
    large = "{ __typename }" + " " * CACHED_DOCUMENT_CHARS
    assert cache.valid(large)
    assert cache.valid(large)
    info = cache.documents.cache_info()
    assert (info.currsize, info.misses, info.bytes) == (0, 2, 0)


def test_document_cache_keeps_a_repeated_document_once() -> None:
    cache = _cache(budget=64 * MIB)
    for _ in range(3):
        assert cache.valid("{ sensors { totalCount } }")
    info = cache.documents.cache_info()
    assert (info.currsize, info.hits, info.misses) == (1, 2, 1)


def test_document_cache_of_the_app_has_a_64_mib_budget() -> None:
    documents = build_schema().document_cache.documents
    assert documents.budget == DOCUMENT_CACHE_BYTES == 64 * MIB
    assert documents.largest == CACHED_DOCUMENT_CHARS == 16 * 1024
