"""The docs' Apollo Client and GraphQL Code Generator recipes, run as a frontend team runs them:
the project in `tests/clients/typescript/` installs from its lock, generates typed documents
from `schema.graphql`, compiles under `tsc --strict`, and reads the demo data from a live
server through Apollo Client (automatic persisted queries, the connections' type policies).

Without node or npm these tests fail, saying so: a skipped check would let the recipes rot.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from app import create_app
from settings import Settings
from store.orders import users
from store.sensors import sensors
from tests.clients.typescript_project import (
    PROJECT,
    build,
    relay_query,
    require_node,
    run_script,
)
from tests.support import live_server
from tests.support.backends import Backend
from tests.support.demo import DemoTemplates

PAGE_SIZE = 5
DEMO_READ = (sensors.COLLECTION, users.COLLECTION)
# Written by codegen (presetConfig.persistedDocuments): what a trusted-documents server runs.
MANIFEST = PROJECT / "src" / "gql" / "persisted-documents.json"
EXPECTED = """
query Expected($page: Int!, $pages: Int!) {
  sensors(first: 10) {
    totalCount
    edges { node { __typename id sensorId title count24h } }
  }
  user(userId: "u1") {
    orders(first: $pages) { totalCount edges { node { orderId } } }
    firstPage: orders(first: $page) { edges { node { orderId } } }
  }
}
"""


@dataclass
class ClientRun:
    printed: dict[str, Any]  # what the Apollo script printed
    trusted: dict[str, Any]  # the same, from a server that runs codegen's manifest only
    relay: dict[str, Any]  # the orders Relay's compiled queries read
    expected: dict[str, Any]  # the same reads, sent by hand


async def _run(backend: Backend, demo: DemoTemplates) -> ClientRun:
    # Built first, not while the demo is copied: on a shared two-core machine the two together
    # have pushed one of the seed's commands through the wire front past its 10 s deadline.
    await build()
    settings = Settings()
    database = backend.open(settings)
    try:
        # On the real clock; the sensors and users the client reads.
        await demo.copy_into(database, settings, demo.real_now(), DEMO_READ)
        app = create_app(settings, database=database)
        async with live_server(app) as url, httpx.AsyncClient(base_url=url) as client:
            printed = await run_script(f"{url}/graphql", "u1", str(PAGE_SIZE))
            variables = {"page": PAGE_SIZE, "pages": 2 * PAGE_SIZE}
            answer = await client.post("/graphql", json={"query": EXPECTED, "variables": variables})
            relay = await read_with_relay(client)
        trusting = dataclasses.replace(settings, trusted_documents=str(MANIFEST))
        async with live_server(create_app(trusting, database=database)) as url:
            trusted = await run_script(f"{url}/graphql", "u1", str(PAGE_SIZE), "trusted")
    finally:
        await backend.release(database)
    assert "errors" not in answer.json(), answer.json()
    return ClientRun(printed, trusted, relay, answer.json()["data"])


async def read_with_relay(client: httpx.AsyncClient) -> dict[str, Any]:
    """The screen's query, then two pages through the refetch query @refetchable wrote."""

    async def data(name: str, variables: dict[str, Any]) -> Any:
        body = {"query": relay_query(name), "variables": variables}
        answer = (await client.post("/graphql", json=body)).json()
        assert "errors" not in answer, answer
        return answer["data"]

    user = (await data("UserOrdersScreenQuery", {"userId": "u1"}))["user"]
    pages: list[list[str]] = []
    cursor = None
    for _ in range(2):
        variables = {"id": user["id"], "count": PAGE_SIZE, "cursor": cursor}
        orders = (await data("UserOrdersPaginationQuery", variables))["node"]["orders"]
        pages.append([edge["node"]["orderId"] for edge in orders["edges"]])
        cursor = orders["pageInfo"]["endCursor"]
    screen = [edge["node"]["orderId"] for edge in user["orders"]["edges"]]
    return {"screen": screen, "pages": pages}


@pytest.fixture(scope="module")
def client_run(backend: Backend, demo_templates: DemoTemplates) -> ClientRun:
    require_node()
    return asyncio.run(_run(backend, demo_templates))


def test_node_and_npm_are_installed() -> None:
    require_node()


def test_apollo_reads_the_sensors_through_the_generated_documents(client_run: ClientRun) -> None:
    sensors = client_run.printed["sensors"]
    expected = client_run.expected["sensors"]
    assert sensors["totalCount"] == expected["totalCount"]
    assert sensors["sensors"] == [edge["node"] for edge in expected["edges"]]


def test_urql_and_graphql_request_read_the_same_sensors(client_run: ClientRun) -> None:
    titles = [edge["node"]["title"] for edge in client_run.expected["sensors"]["edges"]]
    assert client_run.printed["others"] == {"urql": titles, "graphqlRequest": titles}


def test_a_sensor_comes_back_by_its_global_id_through_node(client_run: ClientRun) -> None:
    sensors = client_run.printed["sensors"]
    assert sensors["fetchedBack"] == sensors["sensors"][0]


def test_fetch_more_merges_two_pages_of_orders_into_one_list(client_run: ClientRun) -> None:
    orders = client_run.printed["orders"]
    user = client_run.expected["user"]
    assert orders["firstPage"] == [edge["node"]["orderId"] for edge in user["firstPage"]["edges"]]
    assert orders["merged"] == [edge["node"]["orderId"] for edge in user["orders"]["edges"]]
    assert len(orders["merged"]) == 2 * PAGE_SIZE
    assert orders["totalCount"] == user["orders"]["totalCount"]


def test_every_document_goes_by_hash_and_is_sent_whole_once(client_run: ClientRun) -> None:
    sent = client_run.printed["sent"]
    first_sent: dict[str, dict[str, Any]] = {}
    for request in sent:
        assert request["hash"], "every request carries extensions.persistedQuery"
        first_sent.setdefault(request["hash"], request)
    # The first try of each document is its hash alone, by GET (useGETForHashedQueries)...
    assert all(r == {**r, "method": "GET", "withQuery": False} for r in first_sent.values())
    # ...the server does not know it yet, so the client sends it whole, once...
    whole = [request["hash"] for request in sent if request["withQuery"]]
    assert sorted(whole) == sorted(first_sent)
    # ...and the hash alone is enough afterwards (the script's last request, past the cache).
    assert sent[-1]["method"] == "GET" and not sent[-1]["withQuery"]
    assert sent.count(sent[-1]) >= 2


def test_with_trusted_documents_apollo_sends_codegen_hashes_and_reads_the_same(
    client_run: ClientRun,
) -> None:
    trusted = client_run.trusted
    assert {key: trusted[key] for key in ("sensors", "orders")} == {
        key: client_run.printed[key] for key in ("sensors", "orders")
    }
    # Never a document: the server runs the manifest's, found by the hash codegen wrote.
    assert not any(request["withQuery"] for request in trusted["sent"])
    assert {request["hash"] for request in trusted["sent"]} <= {
        key.removeprefix("sha256:") for key in json.loads(MANIFEST.read_text())
    }


def test_relay_refetches_a_user_by_node_and_pages_its_orders_connection(
    client_run: ClientRun,
) -> None:
    expected = [edge["node"]["orderId"] for edge in client_run.expected["user"]["orders"]["edges"]]
    relay = client_run.relay
    assert relay["screen"][: 2 * PAGE_SIZE] == expected
    assert relay["pages"] == [expected[:PAGE_SIZE], expected[PAGE_SIZE:]]
