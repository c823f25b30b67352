"""`arraygraph migrate` brings the articles' own data to the shape arraygraph reads and writes."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from bson import Int64, ObjectId

from app import create_app
from settings import Settings
from store.database import Database, IndexesRefused
from store.migrations import migrate
from tests.support import FakeClock, running

# The trade article's buckets (../shared/seeds/003): no `page`, `quantity` in a legacy trade.
ARTICLE_BUCKETS = [
    {
        "_id": "123_1698349623",
        "customerId": 123,
        "count": 2,
        "history": [
            {
                "type": "buy",
                "ticker": "MDB",
                "qty": 419,
                "date": datetime(2023, 10, 26, tzinfo=UTC),
            },
            {
                "type": "sell",
                "ticker": "MDB",
                "qty": 29,
                "date": datetime(2023, 10, 30, tzinfo=UTC),
            },
        ],
    },
    {
        "_id": "123_1698939791",
        "customerId": 123,
        "count": 1,
        "history": [
            {
                "type": "buy",
                "ticker": "MSFT",
                "quantity": 42,
                "date": datetime(2023, 11, 2, tzinfo=UTC),
            }
        ],
    },
    {
        "_id": "456_1698765362",
        "customerId": 456,
        "count": 1,
        "history": [
            {
                "type": "buy",
                "ticker": "GOOG",
                "quantity": 50,
                "date": datetime(2023, 10, 31, tzinfo=UTC),
            }
        ],
    },
]
# The order article's user (../shared/seeds/001): createTime in NumberLong milliseconds.
ARTICLE_USER = {
    "_id": ObjectId("5c209db62a14a9019787860b"),
    "userId": "u1",
    "userType": "TYPE",
    "name": "user1545641398911",
    "orderList": [
        {"_id": "1", "info": "Info:order1", "createTime": Int64(1545641398901)},
        {"_id": "2", "info": "Info:order2", "createTime": Int64(1545641398900)},
        {"_id": "3", "info": "Info:order3", "createTime": Int64(1545641398950)},
    ],
    "_class": "com.throwsnew.springbootstudy.accessdata.mongo.model.User",
}
QUERY = """{
  customer(customerId: 123) { tradeCount pageCount page(number: 2) { trades { ticker qty } } }
  user(userId: "u1") { orders(first: 3) { edges { node { id createTime } } } }
}"""


async def _article_data(database: Database) -> None:
    await database.collection("trades").insert_many([dict(b) for b in ARTICLE_BUCKETS])
    await database.collection("users").insert_one(dict(ARTICLE_USER))


async def test_article_buckets_stop_the_unique_page_index_with_a_clear_message(
    database: Database,
) -> None:
    await _article_data(database)
    with pytest.raises(IndexesRefused, match="arraygraph migrate"):
        await database.create_indexes()


async def test_migrate_numbers_buckets_dates_orders_and_the_api_reads_them(
    database: Database,
) -> None:
    await _article_data(database)
    done = await migrate(database)
    assert [(d.what, d.documents) for d in done] == [
        ("trade buckets numbered", 3),
        ("users' order times dated", 1),
    ]
    app = create_app(Settings(), clock=FakeClock(), database=database)
    async with running(app) as client:
        body = (await client.post("/graphql", json={"query": QUERY})).json()
    assert body == {
        "data": {
            "customer": {
                "tradeCount": 3,
                "pageCount": 2,
                "page": {"trades": [{"ticker": "MSFT", "qty": 42}]},
            },
            "user": {
                "orders": {
                    "edges": [
                        {"node": {"id": "3", "createTime": "2018-12-24T08:49:58.950Z"}},
                        {"node": {"id": "1", "createTime": "2018-12-24T08:49:58.901Z"}},
                        {"node": {"id": "2", "createTime": "2018-12-24T08:49:58.900Z"}},
                    ]
                }
            },
        }
    }


async def test_migrate_twice_changes_nothing_the_second_time(database: Database) -> None:
    await _article_data(database)
    await migrate(database)
    trades = await database.collection("trades").find({}, sort=[("_id", 1)]).to_list()
    user = await database.collection("users").find_one({"userId": "u1"})
    again = await migrate(database)
    assert [d.documents for d in again] == [0, 0]
    assert await database.collection("trades").find({}, sort=[("_id", 1)]).to_list() == trades
    assert await database.collection("users").find_one({"userId": "u1"}) == user
    assert user is not None and user["_class"] == ARTICLE_USER["_class"]
