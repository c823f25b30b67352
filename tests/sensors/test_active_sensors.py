"""`sensors` pages window only the sensors that can be on them (by title: the page; by count,
or with `minCount24h`: the sensors with an event in the window); the answers are the same as
windowing every sensor: sorted by count (descending), then id, every sensor seen once."""

from __future__ import annotations

from typing import Any

import pytest

from resolvers import sensors as resolvers_sensors
from store.sensors import sensor_pages
from tests.sensors.queries import create_sensor, record
from tests.support import Api

PAGE = """
query($first: Int, $after: String, $order: SensorOrder, $filter: SensorFilter) {
  sensors(first: $first, after: $after, orderBy: $order, filter: $filter) {
    totalCount
    edges { node { title count24h } }
    pageInfo { hasNextPage endCursor }
  }
}
"""


async def _walk(api: Api, first: int, **variables: Any) -> list[tuple[str, int]]:
    seen: list[tuple[str, int]] = []
    after = None
    while True:
        data = (await api.data(PAGE, {"first": first, "after": after, **variables}))["sensors"]
        seen += [(e["node"]["title"], e["node"]["count24h"]) for e in data["edges"]]
        if not data["pageInfo"]["hasNextPage"]:
            return seen
        after = data["pageInfo"]["endCursor"]


async def _sensors_of_every_kind(api: Api) -> None:
    """Created in this order (so in id order): counts a 3, b 0 (no event), c 0 (its only event
    in the next hour: outside the window, but `lastEventAt` inside), d 3, e 0 (its event aged
    out), f 1. Read at 12:58, the window is 2022-09-11T13:00 to the 12:00 hour."""
    api.clock.set("2022-09-11T13:00:00Z")
    ids = {title: await create_sensor(api, title) for title in "abcdef"}
    await record(api, {"sensorId": ids["e"], "at": "2022-09-11T12:30:00Z", "count": 7})
    api.clock.set("2022-09-12T12:58:00Z")
    await record(api, {"sensorId": ids["a"], "at": "2022-09-12T12:10:00Z", "count": 3})
    await record(api, {"sensorId": ids["c"], "at": "2022-09-12T13:02:00Z", "count": 5})
    await record(api, {"sensorId": ids["d"], "at": "2022-09-11T13:00:00Z", "count": 3})
    await record(api, {"sensorId": ids["f"], "at": "2022-09-12T12:00:00Z", "count": 1})


BY_COUNT = [("a", 3), ("d", 3), ("f", 1), ("b", 0), ("c", 0), ("e", 0)]


@pytest.mark.parametrize("first", [1, 2, 4, 10])
async def test_sensors_by_count24h_walks_sensors_with_and_without_events_in_one_order(
    api: Api, first: int
) -> None:
    await _sensors_of_every_kind(api)
    assert await _walk(api, first, order="COUNT_24H_DESC") == BY_COUNT
    data = await api.data(PAGE, {"first": first, "order": "COUNT_24H_DESC"})
    assert data["sensors"]["totalCount"] == 6


@pytest.mark.parametrize("order", ["TITLE", "COUNT_24H_DESC"])
async def test_sensors_min_count24h_keeps_only_sensors_with_enough_events(
    api: Api, order: str
) -> None:
    await _sensors_of_every_kind(api)
    for minimum, expected in [(1, ["a", "d", "f"]), (3, ["a", "d"]), (4, [])]:
        variables = {"order": order, "filter": {"minCount24h": minimum}}
        walked = [title for title, _ in await _walk(api, 2, **variables)]
        assert walked == expected  # by title, or by count: a 3, d 3 (ties by id), f 1
        data = await api.data(PAGE, {"first": 1, **variables})
        assert data["sensors"]["totalCount"] == len(expected)


@pytest.mark.parametrize("order", ["TITLE", "COUNT_24H_DESC"])
async def test_sensors_min_count24h_of_zero_keeps_every_sensor(api: Api, order: str) -> None:
    await _sensors_of_every_kind(api)
    walked = await _walk(api, 4, order=order, filter={"minCount24h": 0})
    assert walked == (sorted(BY_COUNT) if order == "TITLE" else BY_COUNT)
    data = await api.data(PAGE, {"first": 1, "order": order, "filter": {"minCount24h": 0}})
    assert data["sensors"]["totalCount"] == 6


@pytest.mark.parametrize(
    "selection",
    [
        "totalCount edges { node { title } }",
        "...Counted edges { node { title } }",
        "... on SensorConnection { totalCount } edges { node { title } }",
        "edges { node { title } }",
    ],
)
async def test_sensors_total_count_is_counted_only_when_selected(
    api: Api, monkeypatch: pytest.MonkeyPatch, selection: str
) -> None:
    await _sensors_of_every_kind(api)
    asked: list[object] = []
    original = sensor_pages.list_sensors

    async def spy(*args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs["count_total"])
        return await original(*args, **kwargs)

    monkeypatch.setattr(resolvers_sensors, "list_sensors", spy)
    fragment = "fragment Counted on SensorConnection { totalCount }"
    query = f"{{ sensors(first: 2) {{ {selection} }} }}"
    if "...Counted" in selection:
        query += f" {fragment}"
    data = (await api.data(query))["sensors"]
    counted = "totalCount" in selection or "Counted" in selection
    assert asked == [counted]
    assert data.get("totalCount") == (6 if counted else None)
    assert [e["node"]["title"] for e in data["edges"]] == ["a", "b"]


async def test_sensors_title_prefix_is_a_range_of_whole_characters(api: Api) -> None:
    titles = ["a", "a\ud7ff", "a\ud7ff!", "a\ue000", "a\U0010ffff", "a\U0010ffff\U0010ffff", "b"]
    for title in titles:
        await create_sensor(api, title)

    async def titled(prefix: str) -> list[str]:
        data = await api.data(PAGE, {"first": 20, "filter": {"titlePrefix": prefix}})
        assert data["sensors"]["totalCount"] == len(data["sensors"]["edges"])
        return [e["node"]["title"] for e in data["sensors"]["edges"]]

    assert await titled("a") == titles[:-1]
    assert await titled("a\ud7ff") == ["a\ud7ff", "a\ud7ff!"]
    assert await titled("a\U0010ffff") == ["a\U0010ffff", "a\U0010ffff\U0010ffff"]
    assert await titled("\U0010ffff") == []
    assert await titled("b") == ["b"]
