"""An explicit null for a nullable variable where a default let validation pass (the spec's
"a nullable variable in a non-null position with a default") is the client's error when it
reaches a non-null argument: BAD_USER_INPUT naming the argument, a field error at a field and a
request error at `@skip`/`@include`; it was an INTERNAL_SERVER_ERROR with a logged stack."""

from __future__ import annotations

import pytest

from tests.support import Api, error_codes

FIELD_CASES = [
    ("query($f: Int) { measurements(first: $f) { name } }", {"f": None}, "first"),
    ('query($u: String = "u1") { user(userId: $u) { userId } }', {"u": None}, "userId"),
    ("query($i: [ID!] = []) { nodes(ids: $i) { id } }", {"i": None}, "ids"),
    (
        'mutation($c: Int) { recordSensorEvents(events: [{sensorId: "5a934e000102030405000000", '
        'at: "2022-09-12T12:30:00Z", count: $c}]) { accepted } }',
        {"c": None},
        "events",
    ),
]


@pytest.mark.parametrize(("query", "variables", "argument"), FIELD_CASES)
async def test_explicit_null_for_a_non_null_argument_is_a_field_error_naming_it(
    api: Api, query: str, variables: dict[str, None], argument: str
) -> None:
    body = await api.post(query, variables)
    assert error_codes(body) == ["BAD_USER_INPUT"]
    error = body["errors"][0]
    assert error["extensions"]["argument"] == argument
    assert error["path"]


@pytest.mark.parametrize("directive", ["@include(if: $v)", "@skip(if: $v)"])
async def test_explicit_null_for_a_directive_is_a_request_error(api: Api, directive: str) -> None:
    before = api.commands.count
    body = await api.post(
        f"query($v: Boolean = true) {{ sensors(first: 1) {directive} {{ totalCount }} }}",
        {"v": None},
    )
    assert error_codes(body) == ["BAD_USER_INPUT"]
    assert body["errors"][0]["extensions"]["argument"] == "if"
    assert "data" not in body
    assert api.commands.count == before


async def test_explicit_null_leaves_the_other_fields_answered(api: Api) -> None:
    body = await api.post(
        'query($u: String = "u1") { user(userId: $u) { userId } sensors { totalCount } }',
        {"u": None},
    )
    assert error_codes(body) == ["BAD_USER_INPUT"]
    assert body["data"] == {"user": None, "sensors": {"totalCount": 0}}
