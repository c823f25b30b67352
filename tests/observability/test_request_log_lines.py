"""One JSON log line per request: id, method, path, status, duration, operation name and type,
error codes and MongoDB round trips."""

from __future__ import annotations

import io
import json
import logging

from tests.clients.persisted import apq, post, sha256
from tests.observability.observed import LogLines
from tests.support import Api
from web.observability.logging_setup import formatter

NAMED = "query Few { sensors(first: 2) { totalCount edges { node { title } } } }"


async def test_request_log_line_is_one_json_object_with_every_field(
    api: Api, request_log: LogLines
) -> None:
    await api.client.post("/graphql", json={"query": NAMED}, headers={"x-request-id": "one"})
    raw = request_log.stream.getvalue()
    assert raw.count("\n") == 1
    line = json.loads(raw)
    assert line["logger"] == "arraygraph.request"
    assert line["level"] == "INFO"
    assert line["time"].endswith("Z")
    assert {key: line[key] for key in ("request_id", "method", "path", "status")} == {
        "request_id": "one",
        "method": "POST",
        "path": "/graphql",
        "status": 200,
    }
    assert (line["operation_name"], line["operation_type"]) == ("Few", "query")
    assert line["error_codes"] == []
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] > 0
    assert "Few" in line["message"] and "request_id=one" in line["message"]


async def test_request_log_line_counts_the_requests_round_trips(
    api: Api, request_log: LogLines
) -> None:
    await api.data('mutation { createSensor(title: "A") { id } }')
    api.commands.reset()
    await api.data(NAMED)
    assert api.commands.count >= 1
    assert request_log.last()["round_trips"] == api.commands.count


async def test_request_log_line_names_a_mutation_and_the_codes_of_its_errors(
    api: Api, request_log: LogLines
) -> None:
    mutation = 'mutation Rename { renameSensor(id: "5a934e000102030405000001", title: "B") { id } }'
    body = await api.post(mutation)
    assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    line = request_log.last()
    assert (line["operation_name"], line["operation_type"]) == ("Rename", "mutation")
    assert line["error_codes"] == ["NOT_FOUND"]
    assert "errors=NOT_FOUND" in line["message"]


async def test_request_log_line_of_an_anonymous_operation_has_no_name(
    api: Api, request_log: LogLines
) -> None:
    await api.data("{ __typename }")
    line = request_log.last()
    assert (line["operation_name"], line["operation_type"]) == (None, "query")


async def test_request_log_line_of_a_document_that_does_not_parse_has_no_type(
    api: Api, request_log: LogLines
) -> None:
    await api.post("query Broken { sensors(")
    line = request_log.last()
    assert line["operation_type"] is None
    assert line["error_codes"] == ["GRAPHQL_PARSE_FAILED"]


async def test_request_log_line_names_the_operation_a_persisted_query_stands_for(
    api: Api, request_log: LogLines
) -> None:
    query = "query Persisted { __typename }"
    await post(api.client, apq(sha256(query), query))  # registered
    response = await post(api.client, apq(sha256(query)))  # by hash alone
    assert response.json() == {"data": {"__typename": "Query"}}
    line = request_log.last()
    assert (line["operation_name"], line["operation_type"]) == ("Persisted", "query")


async def test_request_log_line_of_a_refused_request_names_its_code(
    api: Api, request_log: LogLines
) -> None:
    await api.client.put("/graphql", content=b"{}")
    await api.client.post("/graphql", content=b"{}", headers={"content-type": "text/plain"})
    await api.client.post("/graphql", content=b"x" * (2 * 1024 * 1024))  # over 1 MiB
    found = [(line["status"], line["error_codes"]) for line in request_log.lines()[-3:]]
    assert found == [
        (405, ["METHOD_NOT_ALLOWED"]),
        (415, ["UNSUPPORTED_MEDIA_TYPE"]),
        (413, ["LIMIT_EXCEEDED"]),
    ]


async def test_request_log_line_of_another_route_has_no_operation(
    api: Api, request_log: LogLines
) -> None:
    await api.client.get("/healthz")
    line = request_log.last()
    assert (line["path"], line["status"], line["operation_type"]) == ("/healthz", 200, None)


async def test_request_log_line_in_text_stays_one_line(api: Api) -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter("text"))
    logger = logging.getLogger("arraygraph.request")
    level = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    try:
        await api.client.get("/healthz%0Aforged%20line")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    text = stream.getvalue()
    assert text.count("\n") == 1
    assert "GET /healthz\\nforged line 404" in text


async def test_request_log_line_cuts_a_long_operation_name(api: Api, request_log: LogLines) -> None:
    # A document may name its operation with a megabyte; each log line repeated it whole.
    name = "N" * 10_000
    await api.client.post("/graphql", json={"query": f"query {name} {{ __typename }}"})
    raw = request_log.stream.getvalue()
    line = json.loads(raw)
    assert line["operation_name"] == "N" * 128 + "..."
    assert len(raw) < 2_000
