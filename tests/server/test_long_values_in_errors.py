"""A client's value is quoted in an error cut short (SHOWN_CHARACTERS): a megabyte-long id given
to 30 aliased fields fails those fields, each with a short message, and no more (quoted whole,
the 30 messages made the answer 30 MB, replaced by LIMIT_EXCEEDED)."""

from __future__ import annotations

import pytest

from resolvers.errors import SHOWN_CHARACTERS
from tests.support import Api, error_codes

LONG = "a" * 1_000_000
AT = "2022-09-12T12:00:00Z"
FIELDS = [
    ("sensor(id: $s) { id }", "ID!"),
    ("chatSession(id: $s) { id }", "ID!"),
    ("node(id: $s) { id }", "ID!"),
    (
        'series(measurement: $s, from: "2024-01-01T00:00:00Z", to: "2024-01-02T00:00:00Z", '
        "granularity: HOUR) { start }",
        "String!",
    ),
    ('seriesTotal(measurement: "m", from: $s, to: "2024-01-02T00:00:00Z") { count }', "DateTime!"),
]


@pytest.mark.parametrize(("field", "type_name"), FIELDS)
async def test_a_long_value_is_quoted_short_in_every_field_error(
    api: Api, field: str, type_name: str
) -> None:
    aliases = " ".join(f"a{i}: {field}" for i in range(30))
    body = await api.post(f"query($s: {type_name}) {{ {aliases} }}", {"s": LONG})
    messages = [error["message"] for error in body["errors"]]
    assert "LIMIT_EXCEEDED" not in error_codes(body)
    assert all(len(message) < 1_000 for message in messages), messages[0][:300]
    assert any("a" * SHOWN_CHARACTERS + "..." in message for message in messages), messages[0][:300]
