"""X-Request-ID: a client's id of a safe shape is kept, any other replaced; every response
carries the id its log line has."""

from __future__ import annotations

import dataclasses
import os
import re

import pytest

from settings import Settings
from tests.observability.observed import LogLines
from tests.support import Api, ApiFactory
from web.observability.random_ids import IDS_PER_READ, new_request_id

QUERY = {"query": "{ __typename }"}


async def test_request_id_sent_by_the_client_is_echoed_and_logged(
    api: Api, request_log: LogLines
) -> None:
    sent = "req-2026.11:abc_DEF-0123"
    response = await api.client.post("/graphql", json=QUERY, headers={"x-request-id": sent})
    assert response.headers["x-request-id"] == sent
    assert request_log.last()["request_id"] == sent


async def test_request_id_is_generated_when_none_is_sent(api: Api, request_log: LogLines) -> None:
    first = await api.client.post("/graphql", json=QUERY)
    second = await api.client.post("/graphql", json=QUERY)
    ids = [first.headers["x-request-id"], second.headers["x-request-id"]]
    assert all(re.fullmatch(r"[0-9a-f]{32}", found) for found in ids)
    assert ids[0] != ids[1]
    assert [line["request_id"] for line in request_log.lines()] == ids


@pytest.mark.parametrize(
    "sent", ["a" * 129, "has space", "semi;colon", 'quote"', "new\\nline", "slash/path"]
)
async def test_request_id_of_an_unsafe_shape_is_replaced(
    api: Api, request_log: LogLines, sent: str
) -> None:
    response = await api.client.post("/graphql", json=QUERY, headers={"x-request-id": sent})
    echoed = response.headers["x-request-id"]
    assert echoed != sent
    assert re.fullmatch(r"[0-9a-f]{32}", echoed)
    assert request_log.last()["request_id"] == echoed


async def test_request_id_of_the_longest_safe_shape_is_kept(api: Api) -> None:
    sent = "A" * 128
    response = await api.client.post("/graphql", json=QUERY, headers={"x-request-id": sent})
    assert response.headers["x-request-id"] == sent


async def test_request_id_is_on_a_request_refused_before_the_view(
    make_api: ApiFactory, settings: Settings, request_log: LogLines
) -> None:
    small = dataclasses.replace(settings, max_request_bytes=64)
    async with make_api(small) as api:
        response = await api.client.post(
            "/graphql", json={"query": "{ __typename }" + " " * 100}, headers={"x-request-id": "r1"}
        )
    assert response.status_code == 413
    assert response.headers["x-request-id"] == "r1"
    assert request_log.last()["status"] == 413


async def test_request_id_is_on_every_route(api: Api) -> None:
    response = await api.client.get("/healthz", headers={"x-request-id": "probe-1"})
    assert response.headers["x-request-id"] == "probe-1"


def test_request_ids_are_distinct_past_one_read_of_random_bytes() -> None:
    ids = {new_request_id() for _ in range(3 * IDS_PER_READ)}
    assert len(ids) == 3 * IDS_PER_READ
    assert all(re.fullmatch(r"[0-9a-f]{32}", found) for found in ids)


def test_request_ids_of_a_forked_child_are_not_its_parents() -> None:
    new_request_id()  # random bytes read, and more left for the next ids
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # the child: its next id, to the parent
        os.write(writing, new_request_id().encode())
        os._exit(0)
    os.close(writing)
    with os.fdopen(reading) as pipe:
        childs = pipe.read()
    os.waitpid(child, 0)
    assert re.fullmatch(r"[0-9a-f]{32}", childs)
    assert childs != new_request_id()
