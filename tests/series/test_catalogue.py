"""What exists: measurements, their fields and tag keys, and a tag's values, bounded."""

from __future__ import annotations

from tests.series.support import observation, record
from tests.support import Api, assert_rejected

AT = "2024-01-01T00:00:00Z"
VALUES = """query($key: String!, $prefix: String, $first: Int) {
  measurement(name: "m") { tagValues(key: $key, prefix: $prefix, first: $first) } }"""


async def test_measurements_answer_what_was_written(api: Api) -> None:
    await record(
        api,
        observation(AT, "insects", {"location": "1", "scientist": "x"}, butterflies=1),
        observation(AT, "insects", {"location": "2"}, honeybees=2),
        observation(AT, "air", {"city": "Rome"}, pm10=3),
    )
    data = await api.data("{ measurements { name fields tagKeys } }")
    assert data["measurements"] == [
        {"name": "air", "fields": ["pm10"], "tagKeys": ["city"]},
        {
            "name": "insects",
            "fields": ["butterflies", "honeybees"],
            "tagKeys": ["location", "scientist"],
        },
    ]
    one = await api.data(
        '{ measurement(name: "air") { name } nope: measurement(name: "nope") { name } }'
    )
    assert one == {"measurement": {"name": "air"}, "nope": None}


async def test_tag_values_are_bounded_ordered_and_filtered_by_prefix(api: Api) -> None:
    await record(
        api, *(observation(AT, tag_pairs={"device": f"d{i:04}"}, v=1) for i in range(1_000))
    )
    await record(api, *(observation(AT, tag_pairs={"device": f"e{i}"}, v=1) for i in range(500)))
    first = await api.data(VALUES, {"key": "device", "first": 1_000})
    assert len(first["measurement"]["tagValues"]) == 1_000
    assert first["measurement"]["tagValues"][:2] == ["d0000", "d0001"]
    narrowed = await api.data(VALUES, {"key": "device", "prefix": "e1", "first": 3})
    assert narrowed["measurement"]["tagValues"] == ["e1", "e10", "e100"]


async def test_tag_values_of_many_measurements_are_one_command(api: Api) -> None:
    for name in ("a", "b", "c"):
        await record(api, observation(AT, name, {"site": name * 2}, v=1))
    query = '{ measurements { name tagValues(key: "site") } }'
    assert await api.round_trips(query) == 2  # the measurements, then every tagValues at once
    data = await api.data(query)
    assert [m["tagValues"] for m in data["measurements"]] == [["aa"], ["bb"], ["cc"]]


async def test_a_page_of_tag_values_over_1000_is_bad_user_input(api: Api) -> None:
    await record(api, observation(AT, tag_pairs={"device": "d"}, v=1))
    await assert_rejected(
        api, VALUES, {"key": "device", "first": 1_001}, code="BAD_USER_INPUT", argument="first"
    )


async def test_a_page_of_no_tag_values_asks_nothing_of_the_database(api: Api) -> None:
    await record(api, observation(AT, tag_pairs={"device": "d"}, v=1))
    api.commands.reset()
    data = await api.data(VALUES, {"key": "device", "first": 0})
    assert data == {"measurement": {"tagValues": []}}
    assert dict(api.commands.by_name) == {"find": 1}  # the measurement itself


async def test_measurements_are_bounded_ordered_and_filtered_by_prefix(api: Api) -> None:
    await record(
        api, *(observation(AT, f"m{i:02}", v=1) for i in range(30)), observation(AT, "x", v=1)
    )
    query = "query($p: String, $n: Int!) { measurements(prefix: $p, first: $n) { name } }"
    first = await api.data(query, {"n": 3})
    assert [m["name"] for m in first["measurements"]] == ["m00", "m01", "m02"]
    narrowed = await api.data(query, {"p": "m2", "n": 100})
    assert [m["name"] for m in narrowed["measurements"]] == [f"m2{i}" for i in range(10)]
    dotted = await api.data(query, {"p": "m.", "n": 100})
    assert dotted == {"measurements": []}  # the prefix is text, not a pattern


async def test_a_page_of_measurements_over_1000_is_bad_user_input(api: Api) -> None:
    body = await api.post("{ measurements(first: 1001) { name } }")
    assert body["errors"][0]["extensions"] == {"code": "BAD_USER_INPUT", "argument": "first"}


async def test_a_page_of_no_measurements_asks_nothing_of_the_database(api: Api) -> None:
    assert await api.round_trips("{ measurements(first: 0) { name } }") == 0
