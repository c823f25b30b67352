"""`members { totalCount }` counts the session's members, its owner included, whatever page is
asked (`first: 0` too), and follows additions and removals; a service's session without an
owner has none."""

from __future__ import annotations

from typing import Any

from tests.chat.members import ADD, ADMIN, REMOVE, created, member_settings, ok, user
from tests.support import ApiFactory

COUNT = """query($s: ID!, $first: Int) { chatSession(id: $s) { ...Count } }
fragment Count on ChatSession {
  members(first: $first) { totalCount edges { node { member } } pageInfo { hasNextPage } }
}"""


async def _counted(
    api: Any, session: str, first: int, caller: dict[str, str] | None = None
) -> tuple[int, list[str], bool]:
    data = await ok(api, COUNT, {"s": session, "first": first}, caller or user("ada"))
    members = data["chatSession"]["members"]
    names = [e["node"]["member"] for e in members["edges"]]
    return members["totalCount"], names, members["pageInfo"]["hasNextPage"]


async def test_total_count_counts_every_member_and_follows_changes(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        other = await created(api, user("zed"))
        assert await _counted(api, session, 5) == (1, ["ada"], False)
        for name in ("bo", "cy", "di"):
            await ok(api, ADD, {"s": session, "m": name}, user("ada"))
        await ok(api, ADD, {"s": other, "m": "ada"}, user("zed"))
        assert await _counted(api, session, 0) == (4, [], True)
        assert await _counted(api, session, 2) == (4, ["ada", "bo"], True)
        await ok(api, REMOVE, {"s": session, "m": "cy"}, user("ada"))
        assert await _counted(api, session, 5) == (3, ["ada", "bo", "di"], False)
        assert await _counted(api, other, 5) == (2, ["ada", "zed"], False)


async def test_a_session_without_owner_has_no_members(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, ADMIN)
        assert await _counted(api, session, 5, ADMIN) == (0, [], False)
