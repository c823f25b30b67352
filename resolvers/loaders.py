"""DataLoaders: every list-of-parents field loads through one of these, in one command a batch."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

from aiodataloader import DataLoader
from bson import ObjectId

from store import sensors, trades, users
from store.database import Database
from store.order_pages import PageArgs
from store.sensors import SensorDoc
from store.trades import CustomerCounts
from store.users import UserWithPage

UserPageKey = tuple[str, PageArgs | None]


def _sensor_loader(database: Database) -> DataLoader[ObjectId, SensorDoc | None]:
    async def load(ids: Sequence[ObjectId]) -> list[SensorDoc | None]:
        found = {doc.id: doc for doc in await sensors.find_sensors(database.sensors, ids=ids)}
        return [found.get(i) for i in ids]

    return DataLoader(load)


def _user_page_loader(database: Database) -> DataLoader[UserPageKey, UserWithPage | None]:
    async def load(keys: Sequence[UserPageKey]) -> list[UserWithPage | None]:
        # One command per distinct page request: 100 users with the same arguments are one.
        by_args: dict[PageArgs | None, list[str]] = {}
        for user_id, args in keys:
            by_args.setdefault(args, []).append(user_id)
        found: dict[UserPageKey, UserWithPage] = {}
        for args, user_ids in by_args.items():
            loaded = await users.load_users(database.users, user_ids=user_ids, page=args)
            found.update({(user_id, args): value for user_id, value in loaded.items()})
        return [found.get(key) for key in keys]

    return DataLoader(load)


def _customer_counts_loader(database: Database) -> DataLoader[int, CustomerCounts]:
    async def load(customer_ids: Sequence[int]) -> list[CustomerCounts]:
        return [
            await trades.customer_counts(database.trades, customer_id=customer_id)
            for customer_id in customer_ids
        ]

    return DataLoader(load)


class Loaders:
    """Fresh per request, so nothing cached outlives the request that read it.

    Each loader is made on first use: most requests need none of them.
    """

    def __init__(self, database: Database) -> None:
        self.database = database

    @cached_property
    def sensor_by_id(self) -> DataLoader[ObjectId, SensorDoc | None]:
        return _sensor_loader(self.database)

    @cached_property
    def customer_counts(self) -> DataLoader[int, CustomerCounts]:
        return _customer_counts_loader(self.database)

    @cached_property
    def user_page(self) -> DataLoader[UserPageKey, UserWithPage | None]:
        return _user_page_loader(self.database)
