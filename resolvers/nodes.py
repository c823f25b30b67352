"""`node(id:)` and `nodes(ids:)`: any entity by its global id, through its domain's loaders, so
that a list of ids costs one command per type, whatever its length."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bson import ObjectId

from resolvers import validation
from resolvers.chat_messages import SessionMessage
from resolvers.chat_sessions import SESSIONS_BY_ID
from resolvers.context import Info
from resolvers.errors import BadUserInput, shown
from resolvers.global_ids import Key, parse_global_id
from resolvers.loaders import LoaderSpec, keyed
from resolvers.measurements import MEASUREMENTS_BY_NAME
from resolvers.orders import USERS_WITH_PAGE, prefetch_args
from resolvers.sensors import SENSORS_BY_ID
from resolvers.trades import PlacedTrade, TradePosition, counts
from resolvers.users import LoadedUser, loaded_user
from settings import MAX_NODES_PER_QUERY
from store import chat_edits, chat_pages, trades, users
from store.chat_pages import MessageDoc
from store.database import Database
from store.users import OrderDoc

TradePlace = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class OwnedOrder:
    user_id: str
    order: OrderDoc


@dataclass(frozen=True, slots=True)
class NodeRecord:
    """What a global id named: its type, and the store record the schema converts."""

    type_name: str
    record: Any


async def _orders(
    database: Database, keys: Sequence[tuple[str, str]], parameter: Any
) -> list[OrderDoc | None]:
    found = await users.find_orders(database.collection(users.COLLECTION), keys=keys)
    return keyed(found, keys)


async def _trades(
    database: Database, places: Sequence[TradePlace], parameter: Any
) -> list[PlacedTrade | None]:
    found = await trades.find_trades(database.collection(trades.COLLECTION), places=places)
    return [
        PlacedTrade(c, TradePosition(p, o), found[(c, p, o)]) if (c, p, o) in found else None
        for c, p, o in places
    ]


async def _messages(
    database: Database, keys: Sequence[tuple[ObjectId, ObjectId]], parameter: Any
) -> list[MessageDoc | None]:
    found = await chat_edits.find_messages(database.collection(chat_pages.COLLECTION), keys=keys)
    return keyed(found, keys)


ORDERS_BY_KEY: LoaderSpec[tuple[str, str], OrderDoc | None] = LoaderSpec("orders", _orders)
TRADES_BY_PLACE: LoaderSpec[TradePlace, PlacedTrade | None] = LoaderSpec("trades", _trades)
MESSAGES_BY_KEY: LoaderSpec[tuple[ObjectId, ObjectId], MessageDoc | None] = LoaderSpec(
    "messages", _messages
)


async def _user(info: Info, key: Key) -> LoadedUser | None:
    args = prefetch_args(info)
    found = await info.context.loader(USERS_WITH_PAGE, args).load(str(key[0]))
    return loaded_user(found, args)


async def _order(info: Info, key: Key) -> OwnedOrder | None:
    user_id, order_id = str(key[0]), str(key[1])
    found = await info.context.loader(ORDERS_BY_KEY).load((user_id, order_id))
    return None if found is None else OwnedOrder(user_id, found)


async def _customer(info: Info, key: Key) -> int | None:
    customer_id = int(key[0])
    return customer_id if (await counts(info, customer_id=customer_id)).page_count else None


async def _trade(info: Info, key: Key) -> PlacedTrade | None:
    customer_id, page, offset = (int(part) for part in key)
    found: PlacedTrade | None = await info.context.loader(TRADES_BY_PLACE).load(
        (customer_id, page, offset)
    )
    return found


async def _message(info: Info, key: Key) -> SessionMessage | None:
    session_id, message_id = ObjectId(str(key[0])), ObjectId(str(key[1]))
    found = await info.context.loader(MESSAGES_BY_KEY).load((session_id, message_id))
    return None if found is None else SessionMessage(session_id, found)


def _by_id(spec: LoaderSpec[ObjectId, Any]) -> Callable[[Info, Key], Awaitable[Any]]:
    async def load(info: Info, key: Key) -> Any:
        return await info.context.loader(spec).load(ObjectId(str(key[0])))

    return load


async def _measurement(info: Info, key: Key) -> Any:
    return await info.context.loader(MEASUREMENTS_BY_NAME).load(str(key[0]))


LOADS: dict[str, Callable[[Info, Key], Awaitable[Any]]] = {
    "Sensor": _by_id(SENSORS_BY_ID),
    "User": _user,
    "Order": _order,
    "Customer": _customer,
    "Trade": _trade,
    "ChatSession": _by_id(SESSIONS_BY_ID),
    "Message": _message,
    "Measurement": _measurement,
}


def _parsed(value: str, *, argument: str) -> tuple[str, Key]:
    parsed = parse_global_id(value)
    if parsed is None:
        raise BadUserInput(
            f"{argument}: {shown(value)} is not a global object id", argument=argument
        )
    return parsed


async def _load(info: Info, type_name: str, key: Key) -> NodeRecord | None:
    record = await LOADS[type_name](info, key)
    return None if record is None else NodeRecord(type_name, record)


async def node(info: Info, *, id: str) -> NodeRecord | None:
    type_name, key = _parsed(id, argument="id")
    return await _load(info, type_name, key)


async def nodes(info: Info, *, ids: Sequence[str]) -> list[NodeRecord | None]:
    """In the order asked, None where nothing is stored; every id is checked before any read."""
    validation.at_most(ids, MAX_NODES_PER_QUERY, argument="ids")
    parsed = [_parsed(value, argument=f"ids[{i}]") for i, value in enumerate(ids)]
    return list(await asyncio.gather(*(_load(info, t, key) for t, key in parsed)))
