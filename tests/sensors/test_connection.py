"""`sensors`: a Relay connection, sorted and filtered inside the database."""

from __future__ import annotations

from typing import Any

from tests.sensors.queries import create_sensor, record
from tests.support import Api, error_codes

PAGE = """
query($first: Int, $after: String, $order: SensorOrder, $filter: SensorFilter) {
  sensors(first: $first, after: $after, orderBy: $order, filter: $filter) {
    totalCount
    edges { cursor node { title count24h } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}
"""
AT = "2022-09-12T12:00:00Z"


async def _sensors_with_counts(api: Api, counts: dict[str, int]) -> None:
    for title, count in counts.items():
        sensor_id = await create_sensor(api, title)
        if count:
            await record(api, {"sensorId": sensor_id, "at": AT, "count": count})


async def _walk(api: Api, first: int, **variables: Any) -> list[list[str]]:
    pages, after = [], None
    while True:
        data = await api.data(PAGE, {"first": first, "after": after, **variables})
        connection = data["sensors"]
        pages.append([edge["node"]["title"] for edge in connection["edges"]])
        if not connection["pageInfo"]["hasNextPage"]:
            return pages
        after = connection["pageInfo"]["endCursor"]


async def test_sensors_pages_by_title_then_id(api: Api) -> None:
    await _sensors_with_counts(api, {"c": 0, "a": 0, "b": 0, "a ": 0, "d": 0})
    assert await _walk(api, 2) == [["a", "a "], ["b", "c"], ["d"]]


async def test_sensors_orders_by_count24h_descending_with_ties_by_id(api: Api) -> None:
    await _sensors_with_counts(api, {"low": 1, "tie-1": 5, "high": 9, "tie-2": 5, "none": 0})
    pages = await _walk(api, 2, order="COUNT_24H_DESC")
    assert pages == [["high", "tie-1"], ["tie-2", "low"], ["none"]]


async def test_sensors_filters_by_min_count24h_and_counts_the_filtered_total(api: Api) -> None:
    await _sensors_with_counts(api, {"a": 1, "b": 5, "c": 9})
    data = await api.data(
        PAGE, {"first": 1, "filter": {"minCount24h": 5}, "order": "COUNT_24H_DESC"}
    )
    assert data["sensors"]["totalCount"] == 2
    assert [e["node"]["title"] for e in data["sensors"]["edges"]] == ["c"]


async def test_sensors_filters_by_title_prefix_literally(api: Api) -> None:
    await _sensors_with_counts(api, {"a.b": 0, "axb": 0, "a.c": 0, "(a": 0})
    data = await api.data(PAGE, {"filter": {"titlePrefix": "a."}})
    assert [e["node"]["title"] for e in data["sensors"]["edges"]] == ["a.b", "a.c"]
    data = await api.data(PAGE, {"filter": {"titlePrefix": "(a"}})
    assert [e["node"]["title"] for e in data["sensors"]["edges"]] == ["(a"]


async def test_sensors_counts_only_the_window_at_read_time(api: Api) -> None:
    await _sensors_with_counts(api, {"old": 3, "new": 0})
    api.clock.set("2022-09-13T12:30:00Z")  # the 12:00 bucket of yesterday has aged out
    data = await api.data(PAGE, {"filter": {"minCount24h": 1}})
    assert data["sensors"]["totalCount"] == 0


async def test_sensors_cursor_stays_valid_when_earlier_sensors_change(api: Api) -> None:
    await _sensors_with_counts(api, {"a": 0, "b": 0, "c": 0, "d": 0})
    first = await api.data(PAGE, {"first": 2})
    await create_sensor(api, "aa")  # sorts before the cursor
    after = first["sensors"]["pageInfo"]["endCursor"]
    rest = await api.data(PAGE, {"first": 2, "after": after})
    assert [e["node"]["title"] for e in rest["sensors"]["edges"]] == ["c", "d"]


async def test_sensors_read_forward_tell_no_previous_page_after_any_cursor(api: Api) -> None:
    # The spec lets a list read forward only answer false; true was not exact (a cursor may
    # come before every sensor, or its own sensor be gone).
    await _sensors_with_counts(api, {"a": 0, "b": 0})
    first = await api.data(PAGE, {"first": 1})
    rest = await api.data(PAGE, {"first": 1, "after": first["sensors"]["pageInfo"]["endCursor"]})
    assert [e["node"]["title"] for e in rest["sensors"]["edges"]] == ["b"]
    assert rest["sensors"]["pageInfo"]["hasPreviousPage"] is False


async def test_sensors_pages_past_titles_of_the_longest_encoding(api: Api) -> None:
    # 200 characters of 4 UTF-8 bytes each: a cursor of over 1,024 characters.
    titles = ["\U0001f600" * 200, "\U0001f600" * 199 + "\U0001f601", "\U0001f601" * 200]
    await _sensors_with_counts(api, dict.fromkeys(titles, 0))
    assert await _walk(api, 1) == [[title] for title in titles]


async def test_sensors_rejects_a_cursor_of_another_order(api: Api) -> None:
    await _sensors_with_counts(api, {"a": 0, "b": 0})
    first = await api.data(PAGE, {"first": 1})
    body = await api.post(
        PAGE, {"after": first["sensors"]["pageInfo"]["endCursor"], "order": "COUNT_24H_DESC"}
    )
    assert error_codes(body) == ["BAD_USER_INPUT"]


async def test_sensors_rejects_a_page_over_the_maximum(api: Api) -> None:
    body = await api.post(PAGE, {"first": 101})
    assert error_codes(body) == ["BAD_USER_INPUT"]
    assert body["errors"][0]["extensions"]["argument"] == "first"
