"""A long text counts in the cost by the bytes it may take (one unit per COST_VALUE_BYTES), so
the cost bounds what an answer holds: many texts of 4,000 characters are refused before
anything runs, however few values they are."""

from __future__ import annotations

from schema.facts import text_units
from settings import (
    COST_VALUE_BYTES,
    MAX_COST,
    MAX_MESSAGE_TEXT_LENGTH,
    MAX_NAME_LENGTH,
    MAX_TAG_VALUE_LENGTH,
    Settings,
)
from tests.chat.support import SESSION, create_session, post
from tests.limits.support import cost_of, refused
from tests.support import Api, ApiFactory

TEXT_UNITS = -(-MAX_MESSAGE_TEXT_LENGTH * 4 // COST_VALUE_BYTES)  # 63


def _nodes_of_one_session(session: str, times: int) -> str:
    ids = ", ".join([f'"{session}"'] * times)
    return (
        f"{{ nodes(ids: [{ids}]) {{ ... on ChatSession {{ messages(last: 100) "
        "{ edges { node { text } } } } } }"
    )


async def test_cost_counts_a_message_text_by_its_longest(
    make_api: ApiFactory, settings: Settings
) -> None:
    query = "{ chatSessions(first: 1) { edges { node { messages(last: 100) { edges { node { text } } } } } } }"  # noqa: E501
    # chatSessions, edges, node, messages; 100 edges and nodes; 100 texts of 63 units.
    assert TEXT_UNITS == 63
    assert await cost_of(make_api, settings, query) == 4 + 200 + 100 * TEXT_UNITS


async def test_cost_counts_the_texts_of_a_list_of_scalars_each(
    make_api: ApiFactory, settings: Settings
) -> None:
    query = '{ measurement(name: "m") { tagValues(key: "k", first: 50) } }'
    assert await cost_of(make_api, settings, query) == 1 + 50 * text_units(MAX_TAG_VALUE_LENGTH)


async def test_cost_refuses_repeated_nodes_of_long_texts_before_anything_runs(api: Api) -> None:
    # 100 times one session's last 100 messages: 40 MB of text at 4,000 emoji a message.
    body = await refused(api, _nodes_of_one_session("any id: nothing is read", 100))
    cost = 200 + 100 * 200 + 10_000 * TEXT_UNITS
    assert body["errors"][0]["message"] == (
        f"cost {cost} exceeds ARRAYGRAPH_MAX_COST {MAX_COST} "
        f"(most at nodes.messages.edges.node.text: {10_000 * TEXT_UNITS})"
    )


async def test_cost_runs_a_page_of_a_hundred_message_texts(api: Api) -> None:
    session_id = await create_session(api)
    for n in range(100):
        await post(api, session_id, "😀" * MAX_MESSAGE_TEXT_LENGTH if n == 0 else f"m{n}")
    session = (await api.data(SESSION, {"s": session_id}))["chatSession"]["id"]
    body = await api.post(_nodes_of_one_session(session, 1))
    assert "errors" not in body, body
    assert len(body["data"]["nodes"][0]["messages"]["edges"]) == 100


async def test_a_long_alias_answered_many_times_is_refused_before_anything_runs(
    api: Api,
) -> None:
    # A 200 KB alias under 100 sensors' 24 hours answered 480 MB, for a cost of some 5,000:
    # no name may pass MAX_NAME_LENGTH, so a key takes at most as much as a unit.
    alias = "x" * 200_000
    ids = ", ".join(['"any"'] * 100)
    query = f"{{ nodes(ids: [{ids}]) {{ ... on Sensor {{ hourly {{ {alias}: count }} }} }} }}"
    body = await refused(api, query)
    assert body["errors"][0]["message"] == (
        f"A name of 200000 characters. Allowed: {MAX_NAME_LENGTH}"
    )
