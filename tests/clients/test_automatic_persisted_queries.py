"""Apollo's automatic persisted queries: a hash alone, PERSISTED_QUERY_NOT_FOUND, then the
hash with its document registers it; hashes are checked; the store is bounded."""

from __future__ import annotations

import json
import tracemalloc

import pytest

from settings import Settings
from tests.clients.persisted import OTHER_QUERY, QUERY, apq, post, sha256
from tests.support import Api, ApiFactory, error_codes
from web.endpoint.persisted_queries import ENTRY_OVERHEAD_BYTES, RegisteredDocuments


async def test_apq_hash_alone_is_not_found_until_registered(api: Api) -> None:
    missed = await post(api.client, apq(sha256(QUERY)))
    assert missed.status_code == 200
    assert missed.headers["cache-control"] == "private, no-cache, must-revalidate"
    body = missed.json()
    assert error_codes(body) == ["PERSISTED_QUERY_NOT_FOUND"]
    assert body["errors"][0]["message"] == "PersistedQueryNotFound"
    registered = (await post(api.client, apq(sha256(QUERY), QUERY))).json()
    assert registered == {"data": {"sensors": {"edges": []}}}
    again = (await post(api.client, apq(sha256(QUERY)))).json()
    assert again == registered


async def test_apq_runs_over_get_as_apollo_sends_hashed_queries(api: Api) -> None:
    await post(api.client, apq(sha256(QUERY), QUERY))
    extensions = json.dumps(apq(sha256(QUERY))["extensions"])
    response = await api.client.get("/graphql", params={"extensions": extensions})
    assert response.json() == {"data": {"sensors": {"edges": []}}}


async def test_apq_refuses_a_hash_that_is_not_the_query(api: Api) -> None:
    body = (await post(api.client, apq(sha256(OTHER_QUERY), QUERY))).json()
    assert error_codes(body) == ["BAD_USER_INPUT"]
    assert body["errors"][0]["extensions"]["argument"] == "extensions.persistedQuery.sha256Hash"
    assert "data" not in body or body["data"] is None
    # Nothing was registered under the wrong hash.
    assert error_codes((await post(api.client, apq(sha256(OTHER_QUERY)))).json()) == [
        "PERSISTED_QUERY_NOT_FOUND"
    ]


@pytest.mark.parametrize(
    ("persisted", "argument"),
    [
        ({"version": 2, "sha256Hash": "0" * 64}, "extensions.persistedQuery"),
        ({"version": True, "sha256Hash": "0" * 64}, "extensions.persistedQuery"),
        ("abc", "extensions.persistedQuery"),
        ({"version": 1, "sha256Hash": "A" * 64}, "extensions.persistedQuery.sha256Hash"),
        ({"version": 1, "sha256Hash": {"$gt": ""}}, "extensions.persistedQuery.sha256Hash"),
        ({"version": 1}, "extensions.persistedQuery.sha256Hash"),
    ],
)
async def test_apq_refuses_malformed_extensions(api: Api, persisted: object, argument: str) -> None:
    response = await post(api.client, {"extensions": {"persistedQuery": persisted}})
    body = response.json()
    assert error_codes(body) == ["BAD_USER_INPUT"]
    assert body["errors"][0]["extensions"]["argument"] == argument


async def test_apq_does_not_register_invalid_documents(api: Api) -> None:
    invalid = "{ noSuchField }"
    body = (await post(api.client, apq(sha256(invalid), invalid))).json()
    assert error_codes(body) == ["GRAPHQL_VALIDATION_FAILED"]
    missed = (await post(api.client, apq(sha256(invalid)))).json()
    assert error_codes(missed) == ["PERSISTED_QUERY_NOT_FOUND"]


async def test_apq_switched_off_says_not_supported(make_api: ApiFactory) -> None:
    async with make_api(Settings(apq=False)) as api:
        for request in (apq(sha256(QUERY)), apq(sha256(QUERY), QUERY)):
            body = (await post(api.client, request)).json()
            assert error_codes(body) == ["PERSISTED_QUERY_NOT_SUPPORTED"]
            assert body["errors"][0]["message"] == "PersistedQueryNotSupported"
        assert await api.data(QUERY) == {"sensors": {"edges": []}}


async def test_apq_document_id_names_a_registered_document(api: Api) -> None:
    await post(api.client, apq(sha256(QUERY), QUERY))
    body = (await post(api.client, {"documentId": f"sha256:{sha256(QUERY)}"})).json()
    assert body == {"data": {"sensors": {"edges": []}}}
    response = await api.client.get("/graphql", params={"documentId": f"sha256:{sha256(QUERY)}"})
    assert response.json() == body


@pytest.mark.parametrize("document_id", [sha256(QUERY), "md5:abc", 7, "sha256:" + "g" * 64])
async def test_apq_document_id_refuses_other_shapes(api: Api, document_id: object) -> None:
    body = (await post(api.client, {"documentId": document_id})).json()
    assert error_codes(body) == ["BAD_USER_INPUT"]
    assert body["errors"][0]["extensions"]["argument"] == "documentId"


async def test_apq_document_id_with_a_query_is_refused(api: Api) -> None:
    request = {"documentId": f"sha256:{sha256(QUERY)}", "query": QUERY}
    body = (await post(api.client, request)).json()
    assert error_codes(body) == ["BAD_USER_INPUT"]


def test_apq_store_keeps_the_most_recently_used_within_its_bytes() -> None:
    entry = ENTRY_OVERHEAD_BYTES + 4
    store = RegisteredDocuments(max_bytes=2 * entry + 1)
    store.put("a", "1234")
    store.put("b", "5678")
    assert store.get("a") == "1234"  # now the most recently used
    store.put("c", "90ab")
    assert (store.get("a"), store.get("b"), store.get("c")) == ("1234", None, "90ab")
    assert store.bytes == 2 * entry
    store.put("d", "x" * (2 * entry))  # larger than the whole store: never kept
    assert store.get("d") is None


def test_apq_store_charges_each_entry_its_overhead() -> None:
    store = RegisteredDocuments(max_bytes=100 * ENTRY_OVERHEAD_BYTES)
    for index in range(1_000):
        store.put(f"{index:064x}", "{a:__typename}")  # tiny documents, many of them
    assert len(store.documents) < 100


def test_apq_settings_are_read_from_the_environment() -> None:
    env = {"ARRAYGRAPH_APQ": "off", "ARRAYGRAPH_APQ_CACHE_BYTES": "4096"}
    assert (Settings.from_env(env).apq, Settings.from_env(env).apq_cache_bytes) == (False, 4096)
    assert Settings.from_env({}).apq is True


async def test_apq_a_number_too_long_to_read_is_a_bad_request(api: Api) -> None:
    body = '{"extensions": {"persistedQuery": {"version": 1' + "0" * 5_000 + "}}}"
    response = await api.client.post(
        "/graphql", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 400


@pytest.mark.parametrize(
    "body",
    [
        '{"documentId": "sha256:%s", "variables": {"x": NaN}}',
        '{"document\\u0049d": "sha256:%s"}',
        '{"documentId": "sha256:%s", "variables": {}}',
    ],
    ids=["nan-variable", "escaped-key", "plain"],
)
async def test_apq_document_id_is_read_however_the_body_spells_it(api: Api, body: str) -> None:
    await post(api.client, apq(sha256(QUERY), QUERY))
    response = await api.client.post(
        "/graphql",
        content=body % sha256(QUERY),
        headers={"content-type": "application/json"},
    )
    assert response.json().get("data") == {"sensors": {"edges": []}}


async def test_apq_refuses_a_query_with_a_lone_surrogate_as_not_its_hash(api: Api) -> None:
    # Hashing it once answered a plain-text 500: a lone surrogate has no UTF-8.
    response = await post(api.client, apq("a" * 64, "{ __typename }\ud800"))
    assert response.status_code == 200
    body = response.json()
    assert error_codes(body) == ["BAD_USER_INPUT"]
    assert body["errors"][0]["extensions"]["argument"] == "extensions.persistedQuery.sha256Hash"


def test_apq_entry_overhead_bounds_what_an_entry_holds_besides_its_text() -> None:
    store = RegisteredDocuments(max_bytes=10**9)
    entries = [(f"{index:064x}", f"{{a{index}:__typename}}") for index in range(2_000)]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for key, text in entries:
            store.put(key, text)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held / len(entries) <= ENTRY_OVERHEAD_BYTES
