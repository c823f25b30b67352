"""A credential in the URL's query string (`?access_token=`, `?token=`, ...) is refused, 400
BAD_REQUEST naming the parameter, before anything runs; neither the answer nor the request log
holds its value."""

from __future__ import annotations

import pytest

from tests.observability.observed import LogLines
from tests.sensors.queries import CREATE
from tests.support import Api

SECRET = "s3cr3t-value-of-the-token"


@pytest.mark.parametrize("name", ["access_token", "token", "Access_Token"])
async def test_a_get_with_a_credential_in_its_url_is_refused(
    api: Api, request_log: LogLines, name: str
) -> None:
    answer = await api.client.get("/graphql", params={"query": "{ __typename }", name: SECRET})
    assert answer.status_code == 400
    body = answer.json()
    assert body == {
        "errors": [
            {
                "message": f"{name.lower()}: credentials are not accepted in the URL's query "
                "string (URLs are logged and kept); send 'Authorization: Bearer <token>'",
                "extensions": {"code": "BAD_REQUEST"},
            }
        ]
    }
    [line] = request_log.lines()
    assert line["status"] == 400 and line["error_codes"] == ["BAD_REQUEST"]
    assert SECRET not in request_log.stream.getvalue()


async def test_a_post_with_a_credential_in_its_url_writes_nothing(api: Api) -> None:
    answer = await api.client.post(
        "/graphql", params={"token": SECRET}, json={"query": CREATE, "variables": {"t": "x"}}
    )
    assert answer.status_code == 400
    assert SECRET not in answer.text
    assert await api.collection("sensors").count_documents({}) == 0


async def test_other_parameters_are_not_credentials(api: Api) -> None:
    answer = await api.client.get(
        "/graphql", params={"query": "{ __typename }", "tokenizer": "x", "keys": "y"}
    )
    assert answer.json() == {"data": {"__typename": "Query"}}


@pytest.mark.parametrize(
    ("written", "name"), [("access_t%6Fken", "access_token"), ("%6A%77%74", "jwt")]
)
async def test_a_credential_named_with_escapes_is_refused(
    api: Api, written: str, name: str
) -> None:
    # Neither the name as written nor the value holds a word of a credential's name.
    answer = await api.client.get(f"/graphql?query=%7B__typename%7D&{written}=s3cr3t")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["message"].startswith(f"{name}: credentials")
    assert "s3cr3t" not in answer.text
