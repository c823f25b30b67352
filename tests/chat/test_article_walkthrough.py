"""The article's reader, with a cap of 3: pages fill in order, and a reader walks backwards from
the newest message or forwards from the first, each message once."""

from __future__ import annotations

from bson import ObjectId

from tests.chat.conftest import CAP
from tests.chat.support import MESSAGES, assert_page_invariants, create_session, pages, post
from tests.support import Api
from tests.support.relay import walk


async def _ten_messages(api: Api) -> str:
    session_id = await create_session(api)
    for n in range(1, 11):
        await post(api, session_id, f"message {n}")
    return session_id


async def test_ten_messages_make_four_pages_of_three_three_three_and_one(api: Api) -> None:
    session_id = await _ten_messages(api)
    docs = await pages(api.collection("chat_pages"), ObjectId(session_id))
    assert [d["count"] for d in docs] == [3, 3, 3, 1]
    assert_page_invariants(docs, CAP, 10)
    session = (await api.data(MESSAGES, {"s": session_id, "last": 1}))["chatSession"]
    assert (session["messageCount"], session["pageCount"]) == (10, 4)


async def test_last_four_are_seq_seven_to_ten_in_ascending_order(api: Api) -> None:
    session_id = await _ten_messages(api)
    connection = (await api.data(MESSAGES, {"s": session_id, "last": 4}))["chatSession"]["messages"]
    assert [e["node"]["seq"] for e in connection["edges"]] == [7, 8, 9, 10]
    assert connection["edges"][0]["node"]["text"] == "message 7"
    assert connection["pageInfo"]["hasPreviousPage"] is True
    assert connection["totalCount"] == 10


async def test_walking_backwards_with_before_reads_ten_down_to_one_each_once(api: Api) -> None:
    session_id = await _ten_messages(api)

    async def fetch(cursor: str | None) -> dict[str, object]:
        variables = {"s": session_id, "last": 3, "before": cursor}
        data = await api.data(MESSAGES, variables)
        connection: dict[str, object] = data["chatSession"]["messages"]
        return connection

    nodes = await walk(fetch, backward=True)
    assert [n["seq"] for n in nodes] == list(range(1, 11))


async def test_walking_forwards_with_after_reads_one_up_to_ten_each_once(api: Api) -> None:
    session_id = await _ten_messages(api)

    async def fetch(cursor: str | None) -> dict[str, object]:
        data = await api.data(MESSAGES, {"s": session_id, "first": 4, "after": cursor})
        connection: dict[str, object] = data["chatSession"]["messages"]
        return connection

    nodes = await walk(fetch)
    assert [n["seq"] for n in nodes] == list(range(1, 11))
