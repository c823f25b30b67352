"""A request leaves nothing for the cyclic garbage collector to free: its executor, context,
loaders and what they loaded go as soon as it has answered, by reference counting
(`runtime/execution/execute.py`, `_release`)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from graphql.execution import Executor

from resolvers.context import Context
from tests.support import Api

ORDERS = """mutation { upsertOrders(userId: "u", orders: [
  {id: "1", createTime: "2024-01-01T00:00:00Z"}]) { orderCount } }"""
PAGE = '{ user(userId: "u") { orders(first: 5) { edges { cursor node { orderId } } } } }'


@contextmanager
def _cyclic_garbage() -> Iterator[list[object]]:
    """The objects only the cyclic collector would free, of what the block made."""
    gc.collect()
    gc.disable()
    found: list[object] = []
    try:
        yield found
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        found.extend(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


async def test_a_page_leaves_its_executor_and_context_to_reference_counting(api: Api) -> None:
    await api.data(ORDERS)
    await api.data(PAGE)  # caches filled
    with _cyclic_garbage() as garbage:
        for _ in range(3):
            data = await api.data(PAGE)
            assert data["user"]["orders"]["edges"][0]["node"]["orderId"] == "1"
    left = [o for o in garbage if isinstance(o, Executor | Context)]
    assert left == []
