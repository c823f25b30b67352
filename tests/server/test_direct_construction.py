"""Objects a page builds per element without their dataclass's keyword `__init__` are the
objects that `__init__` builds: every field it sets is set, and it does nothing else."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

from schema.orders import Order
from schema.relay import Edge, edge_of
from store.orders.users import OrderDoc

AT = datetime(2024, 1, 1, 12, 30, tzinfo=UTC)


def _init_fields(cls: type) -> list[str]:
    """The fields `__init__` sets; each required (no default): nothing else to reproduce."""
    fields = [f for f in dataclasses.fields(cls) if f.init]
    assert all(f.default is dataclasses.MISSING for f in fields)
    assert all(f.default_factory is dataclasses.MISSING for f in fields)
    assert not hasattr(cls, "__post_init__")
    return [f.name for f in fields]


def test_edge_of_builds_the_edge_its_init_builds() -> None:
    assert _init_fields(Edge) == ["cursor", "node"]
    built = edge_of("c", "n")
    assert type(built) is Edge
    assert vars(built) == vars(Edge(cursor="c", node="n"))


def test_order_from_doc_builds_the_order_its_init_builds() -> None:
    assert _init_fields(Order) == ["order_id", "user_id", "info", "create_time"]
    built = Order.from_doc(OrderDoc("o1", AT, "info"), user_id="u")
    expected = Order(order_id="o1", user_id="u", info="info", create_time=AT)  # type: ignore[arg-type]
    assert type(built) is Order
    assert vars(built) == vars(expected)
