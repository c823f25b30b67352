"""The request loader batches as aiodataloader's DataLoader does, with one task per batch."""

from __future__ import annotations

import asyncio
from typing import Any

from aiodataloader import DataLoader

from resolvers.loaders import RequestLoader


def _loader(kind: type[DataLoader[Any, Any]], batches: list[list[str]]) -> DataLoader[str, str]:
    async def batch(keys: list[str]) -> list[str]:
        batches.append(list(keys))
        return [key.upper() for key in keys]

    return kind(batch)


async def _loads_over_two_turns(loader: DataLoader[str, str]) -> list[str]:
    """Loads in the turn of the first, the next turn and the one after, then their answers."""
    first = [loader.load("a"), loader.load("b")]
    await asyncio.sleep(0)
    second = loader.load("c")
    await asyncio.sleep(0)
    third = loader.load("d")
    return [*(await asyncio.gather(*first, second)), await third]


async def test_request_loader_batches_the_loads_dataloader_batches() -> None:
    found: dict[type[Any], list[list[str]]] = {}
    for kind in (DataLoader, RequestLoader):
        batches = found[kind] = []
        assert await _loads_over_two_turns(_loader(kind, batches)) == ["A", "B", "C", "D"]
    assert found[RequestLoader] == found[DataLoader] == [["a", "b", "c"], ["d"]]


async def test_request_loader_starts_one_task_per_batch() -> None:
    loop = asyncio.get_running_loop()
    started: list[str] = []

    def counting(loop: asyncio.AbstractEventLoop, coro: Any, **options: Any) -> Any:
        started.append(coro.__qualname__)
        return asyncio.Task(coro, loop=loop, **options)

    loop.set_task_factory(counting)
    try:
        batches: list[list[str]] = []
        loader = _loader(RequestLoader, batches)
        assert list(await asyncio.gather(loader.load("a"), loader.load("b"))) == ["A", "B"]
    finally:
        loop.set_task_factory(None)
    assert batches == [["a", "b"]]
    assert started == ["dispatch_queue_batch"]


async def test_request_loader_holds_what_dataloader_holds() -> None:
    async def batch(keys: list[str]) -> list[str]:
        return keys

    built, plain = RequestLoader(batch), DataLoader(batch)
    assert vars(built).keys() == vars(plain).keys()
    assert (built.loop, built.batch_load_fn) == (plain.loop, plain.batch_load_fn)
    assert (built.batch, built.cache, built.max_batch_size) == (True, True, None)
    assert built.get_cache_key("k") == "k"
