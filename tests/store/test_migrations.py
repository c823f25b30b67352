"""`arraygraph migrate` brings the articles' own data to the shape arraygraph reads and writes."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from bson import Int64, ObjectId

from app import create_app
from settings import Settings
from store.database import Database, IndexesRefused
from store.migrations import LegacyData, migrate
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
  user(userId: "u1") { orders(first: 3) { edges { node { orderId createTime } } } }
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
        ("sensors' latest events dated", 0),
        ("chat sessions given an owner", 0),
        ("chat memberships written", 0),
        ("chat sessions left without an owner (no message)", 0),
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
                        {"node": {"orderId": "3", "createTime": "2018-12-24T08:49:58.950Z"}},
                        {"node": {"orderId": "1", "createTime": "2018-12-24T08:49:58.901Z"}},
                        {"node": {"orderId": "2", "createTime": "2018-12-24T08:49:58.900Z"}},
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
    assert [d.documents for d in again] == [0, 0, 0, 0, 0, 0]
    assert await database.collection("trades").find({}, sort=[("_id", 1)]).to_list() == trades
    assert await database.collection("users").find_one({"userId": "u1"}) == user
    assert user is not None and user["_class"] == ARTICLE_USER["_class"]


async def test_the_server_refuses_to_start_on_data_in_an_article_shape(database: Database) -> None:
    # One unnumbered bucket per customer does not stop the unique index: the shape check does.
    await database.collection("trades").insert_one(dict(ARTICLE_BUCKETS[2]))
    app = create_app(Settings(), clock=FakeClock(), database=database)
    with pytest.raises(LegacyData, match="arraygraph migrate"):
        async with running(app):
            pass


async def test_after_migrate_new_trades_go_to_the_newest_page_never_a_sealed_one(
    database: Database,
) -> None:
    await _article_data(database)  # customer 123: page 1 holds 2 trades, page 2 holds 1
    await migrate(database)
    record = """mutation { recordTrades(customerId: 123, trades: [{type: SELL, ticker: "X",
        qty: 7, date: "2023-11-03T00:00:00Z"}]) { pageNumbers } }"""
    walk = "{ customer(customerId: 123) { trades(first: 3) { edges { node { qty } } } } }"
    app = create_app(Settings(), clock=FakeClock(), database=database)
    async with running(app) as client:
        pages = (await client.post("/graphql", json={"query": record})).json()
        first = (await client.post("/graphql", json={"query": walk})).json()
    assert pages == {"data": {"recordTrades": {"pageNumbers": [2]}}}
    edges = first["data"]["customer"]["trades"]["edges"]
    assert [e["node"]["qty"] for e in edges] == [419, 29, 42]  # page 1 is short: read on


async def test_migrate_orders_pages_by_the_seconds_as_numbers(database: Database) -> None:
    # The article does not pad the seconds: before 2001-09-09 they have 9 digits.
    trades = database.collection("trades")
    late = {"_id": "8_1000000500", "customerId": 8, "count": 1, "history": []}
    early = {"_id": "8_999999999", "customerId": 8, "count": 1, "history": []}
    await trades.insert_many([late, early])
    await migrate(database)
    stored = await trades.find({"customerId": 8}, sort=[("page", 1)]).to_list()
    assert [(b["_id"], b["page"], b.get("sealed")) for b in stored] == [
        ("8_999999999", 1, True),
        ("8_1000000500", 2, None),
    ]


async def test_migrate_dates_the_article_sensors_so_count_pages_see_them(
    database: Database,
) -> None:
    # The sensor article's document (../shared/seeds/000): totals, no `lastEventAt`.
    clock = FakeClock()
    hour = clock().replace(minute=0, second=0, microsecond=0)
    article_sensor = {"title": "Sensor 1", "totals": [{"timestamp": hour, "count": 2}]}
    await database.collection("sensors").insert_one(article_sensor)
    app = create_app(Settings(), clock=clock, database=database)
    with pytest.raises(LegacyData, match="sensors without lastEventAt"):
        async with running(app):
            pass
    done = await migrate(database)
    assert ("sensors' latest events dated", 1) in [(d.what, d.documents) for d in done]
    query = "{ sensors(orderBy: COUNT_24H_DESC, filter: {minCount24h: 1}) { edges { node { title count24h } } } }"  # noqa: E501
    async with running(create_app(Settings(), clock=clock, database=database)) as client:
        body = (await client.post("/graphql", json={"query": query})).json()
    assert body == {
        "data": {"sensors": {"edges": [{"node": {"title": "Sensor 1", "count24h": 2}}]}}
    }
