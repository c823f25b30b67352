"""`ChatSession.members` pages through a session's members by member id, forwards and
backwards, with cursors that keep naming the same place: a member added before the cursor
neither repeats nor shifts the next page, and the same cursor gives the same page again."""

from __future__ import annotations

from typing import Any

from tests.chat.members import ADD, MEMBERS, created, member_settings, ok, user
from tests.support import ApiFactory
from tests.support.relay import walk

NAMES = ["bo", "cy", "di", "ed", "fa", "gu", "hu"]


async def _session_of_ada_and_seven(api: Any) -> str:
    session = await created(api, user("ada"), "ada and friends")
    for name in reversed(NAMES):  # added out of order: the list is by member id
        await ok(api, ADD, {"s": session, "m": name}, user("ada"))
    return session


async def test_members_walk_forwards_and_backwards_by_member_id(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        session = await _session_of_ada_and_seven(api)

        def fetch(**page: Any) -> Any:
            async def one(cursor: str | None) -> dict[str, Any]:
                where = "before" if "last" in page else "after"
                data = await ok(api, MEMBERS, {"s": session, **page, where: cursor}, user("bo"))
                members: dict[str, Any] = data["chatSession"]["members"]
                return members

            return one

        forwards = await walk(fetch(first=3))
        backwards = await walk(fetch(last=3), backward=True)
        assert [m["member"] for m in forwards] == ["ada", *NAMES]
        assert backwards == forwards
        assert [m["role"] for m in forwards] == ["OWNER"] + ["MEMBER"] * 7
        assert all(m["joinedAt"].endswith("Z") for m in forwards)


async def test_a_cursor_keeps_its_place_when_members_join_before_it(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        session = await _session_of_ada_and_seven(api)
        first = await ok(api, MEMBERS, {"s": session, "first": 3}, user("ada"))
        page = first["chatSession"]["members"]
        assert [e["node"]["member"] for e in page["edges"]] == ["ada", "bo", "cy"]
        assert page["pageInfo"]["hasNextPage"] and not page["pageInfo"]["hasPreviousPage"]
        after = page["pageInfo"]["endCursor"]
        await ok(api, ADD, {"s": session, "m": "al"}, user("ada"))  # before "cy"
        again = [await ok(api, MEMBERS, {"s": session, "first": 3, "after": after}, user("cy"))]
        again.append(await ok(api, MEMBERS, {"s": session, "first": 3, "after": after}, user("cy")))
        assert again[0] == again[1]
        second = again[0]["chatSession"]["members"]
        assert [e["node"]["member"] for e in second["edges"]] == ["di", "ed", "fa"]
        assert second["pageInfo"]["hasPreviousPage"] and second["pageInfo"]["hasNextPage"]
        assert second["edges"][0]["cursor"] == second["pageInfo"]["startCursor"]
