"""Pages written under another cap (a rolling change of ARRAYGRAPH_MESSAGES_PER_PAGE) read as
any other, in one command; a cursor past the newest message reads back from the newest."""

from __future__ import annotations

from settings import Settings
from tests.chat.support import MESSAGES, create_session, post
from tests.support import Api, ApiFactory
from tests.support.relay import walk


async def test_a_larger_cap_reads_small_pages_in_one_command(
    api: Api, make_api: ApiFactory
) -> None:
    session_id = await create_session(api)
    for n in range(1, 61):
        await post(api, session_id, f"m{n}")  # 20 pages of 3
    async with make_api(Settings(messages_per_page=100), database=api.database) as wider:
        variables = {"s": session_id, "last": 50}
        assert await wider.round_trips(MESSAGES, variables) == 2
        data = await wider.data(MESSAGES, variables)
        seqs = [e["node"]["seq"] for e in data["chatSession"]["messages"]["edges"]]
        assert seqs == list(range(11, 61))


async def test_posts_under_two_caps_keep_seq_and_both_walks_whole(
    api: Api, make_api: ApiFactory
) -> None:
    session_id = await create_session(api)
    async with make_api(Settings(messages_per_page=7), database=api.database) as other:
        for n in range(1, 41):
            await post((api, other)[n % 3 == 0], session_id, f"m{n}")

        async def fetch(cursor: str | None, *, backward: bool) -> dict[str, object]:
            paging = {"last": 4, "before": cursor} if backward else {"first": 4, "after": cursor}
            data = await other.data(MESSAGES, {"s": session_id, **paging})
            connection: dict[str, object] = data["chatSession"]["messages"]
            return connection

        forwards = await walk(lambda c: fetch(c, backward=False))
        backwards = await walk(lambda c: fetch(c, backward=True), backward=True)
    assert [n["seq"] for n in forwards] == list(range(1, 41))
    assert [n["text"] for n in backwards] == [f"m{n}" for n in range(1, 41)]


async def test_a_cursor_past_the_newest_reads_back_from_the_newest(api: Api) -> None:
    session_id = await create_session(api)
    for n in range(1, 8):
        await post(api, session_id, f"m{n}")
    from resolvers.chat.messages import MESSAGE_CURSOR, MessagePosition

    far = MESSAGE_CURSOR.encode(MessagePosition(1_000_000))
    data = await api.data(MESSAGES, {"s": session_id, "last": 3, "before": far})
    connection = data["chatSession"]["messages"]
    assert [e["node"]["seq"] for e in connection["edges"]] == [5, 6, 7]
    assert connection["pageInfo"]["hasPreviousPage"] is True
