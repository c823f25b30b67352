"""A hash grants nothing: a document named by its hash, an automatic persisted query another
caller registered or a trusted document of the manifest, answers each caller exactly as its
text does, by the same rules; no datum the caller may not read appears, and a write the caller
may not make writes nothing."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from tests.permissions.callers import (
    ADMIN,
    CALLER_NAMES,
    Caller,
    Seeded,
    caller_named,
    hidden_markers,
    known_callers,
    seed,
)
from tests.permissions.calls import QUERIES
from tests.support import Api, ApiFactory
from tests.support.backends import Backend

READS = ("user", "chatSession", "nodes")  # another's orders, a session's messages, every kind
# User B's order, deleted by a caller who may not: anonymous, a reader, user A.
DELETE = 'mutation($u: String!) { deleteOrders(userId: $u, orderIds: ["o-B"]) { orderCount } }'
REFUSED_DELETE = ("anonymous", "reader", "user A")
ORDER_COUNT = 'query { user(userId: "B") { orderCount } }'


def _digest(document: str) -> str:
    return hashlib.sha256(document.encode()).hexdigest()


def _named(document: str, variables: dict[str, Any], by: str) -> dict[str, Any]:
    """The request of `document` sent `by` its text, its APQ hash or its `documentId`."""
    if by == "text":
        return {"query": document, "variables": variables}
    if by == "apq":
        persisted = {"version": 1, "sha256Hash": _digest(document)}
        return {"extensions": {"persistedQuery": persisted}, "variables": variables}
    return {"documentId": f"sha256:{_digest(document)}", "variables": variables}


async def _answer(api: Api, body: dict[str, Any], caller: Caller) -> tuple[int, dict[str, Any]]:
    response = await api.client.post(
        "/graphql",
        content=json.dumps(body),
        headers={"content-type": "application/json", **caller.headers},
    )
    answer: dict[str, Any] = response.json()
    return response.status_code, answer


async def _reads_answer_as_their_text(api: Api, seeded: Seeded, caller: Caller, by: str) -> None:
    for name in READS:
        call = QUERIES[name]
        variables = call.variables(seeded)
        as_text = await _answer(api, _named(call.document, variables, "text"), caller)
        by_hash = await _answer(api, _named(call.document, variables, by), caller)
        assert by_hash == as_text, name
        shown = json.dumps(by_hash)
        assert [marker for marker in hidden_markers(caller) if marker in shown] == [], name


async def _refused_delete_writes_nothing(api: Api, caller: Caller, by: str) -> None:
    before = await api.post(ORDER_COUNT, headers=ADMIN)
    as_text = await _answer(api, _named(DELETE, {"u": "B"}, "text"), caller)
    by_hash = await _answer(api, _named(DELETE, {"u": "B"}, by), caller)
    assert by_hash == as_text
    assert by_hash[1].get("errors") and by_hash[1].get("data") in (None, {"deleteOrders": None})
    assert await api.post(ORDER_COUNT, headers=ADMIN) == before


@pytest.mark.parametrize("name", CALLER_NAMES)
async def test_a_query_another_caller_registered_answers_by_the_callers_rules(
    make_api: ApiFactory, tmp_path: Path, name: str
) -> None:
    caller = caller_named(name)
    async with make_api(known_callers(tmp_path)) as api:
        seeded = await seed(api)
        for document in [QUERIES[read].document for read in READS]:
            registered = await api.client.post(
                "/graphql",
                json={**_named(document, {}, "apq"), "query": document},
                headers=ADMIN,
            )  # the admin's call registers the hash: its answer is the admin's alone
            assert registered.status_code == 200
        anonymous = caller_named("anonymous")
        await _answer(api, {**_named(DELETE, {"u": "B"}, "apq"), "query": DELETE}, anonymous)
        await _reads_answer_as_their_text(api, seeded, caller, "apq")
        if name in REFUSED_DELETE:
            await _refused_delete_writes_nothing(api, caller, "apq")


@pytest.mark.parametrize("name", CALLER_NAMES)
async def test_a_trusted_document_answers_by_the_callers_rules(
    make_api: ApiFactory, backend: Backend, tmp_path: Path, name: str
) -> None:
    caller = caller_named(name)
    settings = known_callers(tmp_path)
    manifest = tmp_path / "manifest.json"
    documents = [QUERIES[read].document for read in READS] + [DELETE, ORDER_COUNT]
    manifest.write_text(json.dumps({f"sha256:{_digest(body)}": body for body in documents}))
    trusted = dataclasses.replace(settings, trusted_documents=str(manifest))
    database = backend.open(settings)
    try:
        async with make_api(settings, database=database) as api:
            seeded = await seed(api)  # documents the manifest does not hold
        async with make_api(trusted, database=database) as api:
            await _reads_answer_as_their_text(api, seeded, caller, "documentId")
            if name in REFUSED_DELETE:
                await _refused_delete_writes_nothing(api, caller, "documentId")
    finally:
        await backend.release(database)
