"""ARRAYGRAPH_TRUSTED_DOCUMENTS: only the manifest's documents run (by APQ hash, by
`documentId`, or by their exact text); anything else is PERSISTED_QUERY_NOT_FOUND and nothing
executes; registration is off; both manifest formats load; bad manifests stop the start-up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from settings import Settings, SettingsError
from settings.identity import IdentitySettings
from tests.clients.persisted import OTHER_QUERY, QUERY, apq, post, sha256
from tests.support import ApiFactory, error_codes
from web.endpoint.trusted_documents import load_trusted_documents

CREATE = 'mutation Create { createSensor(title: "planted") { title } }'


def apollo_manifest(path: Path, *documents: str) -> str:
    operations = [
        {"id": sha256(body), "name": f"Op{i}", "type": "query", "body": body}
        for i, body in enumerate(documents)
    ]
    manifest = {"format": "apollo-persisted-query-manifest", "version": 1, "operations": operations}
    path.write_text(json.dumps(manifest))
    return str(path)


def codegen_manifest(path: Path, *documents: str) -> str:
    path.write_text(json.dumps({f"sha256:{sha256(body)}": body for body in documents}))
    return str(path)


def trusted(path: str) -> Settings:
    # In production a caller without credentials reads only what ARRAYGRAPH_ANONYMOUS_ROLE
    # grants (docs/security.md): these calls read as a public client would.
    return Settings(
        trusted_documents=path,
        environment="production",
        introspection=False,
        identity=IdentitySettings(anonymous_role="reader"),
    )


async def test_trusted_documents_run_by_hash_and_by_document_id(
    make_api: ApiFactory, tmp_path: Path
) -> None:
    async with make_api(trusted(apollo_manifest(tmp_path / "m.json", QUERY))) as api:
        by_hash = (await post(api.client, apq(sha256(QUERY)))).json()
        assert by_hash == {"data": {"sensors": {"edges": []}}}
        by_id = (await post(api.client, {"documentId": f"sha256:{sha256(QUERY)}"})).json()
        assert by_id == by_hash
        assert await api.data(QUERY) == by_hash["data"]  # its exact text is the same document


async def test_trusted_documents_refuse_every_other_document_before_it_runs(
    make_api: ApiFactory, tmp_path: Path
) -> None:
    async with make_api(trusted(apollo_manifest(tmp_path / "m.json", QUERY))) as api:
        before = await api.snapshot()
        api.commands.reset()
        for request in (
            {"query": CREATE},
            apq(sha256(CREATE), CREATE),  # registration would bypass the list
            apq(sha256(CREATE)),
            {"documentId": f"sha256:{sha256(CREATE)}"},
        ):
            body = (await post(api.client, request)).json()
            assert error_codes(body) == ["PERSISTED_QUERY_NOT_FOUND"], request
            assert body.get("data") is None
        assert api.commands.count == 0
        assert await api.snapshot() == before
        still_refused = (await post(api.client, apq(sha256(CREATE)))).json()
        assert error_codes(still_refused) == ["PERSISTED_QUERY_NOT_FOUND"]


async def test_trusted_documents_read_graphql_codegen_manifests(
    make_api: ApiFactory, tmp_path: Path
) -> None:
    path = codegen_manifest(tmp_path / "persisted-documents.json", QUERY, OTHER_QUERY)
    async with make_api(trusted(path)) as api:
        body = (await post(api.client, {"documentId": f"sha256:{sha256(OTHER_QUERY)}"})).json()
        assert body == {"data": {"__typename": "Query"}}


def test_trusted_documents_accept_bare_hex_keys(tmp_path: Path) -> None:
    path = tmp_path / "persisted-documents.json"
    path.write_text(json.dumps({sha256(QUERY): QUERY}))
    assert load_trusted_documents(str(path)) == {sha256(QUERY): QUERY}


@pytest.mark.parametrize(
    ("content", "complaint"),
    [
        ("not json", "not JSON"),
        ("[]", "expected Apollo's persisted query manifest"),
        ("{}", "lists no documents"),
        (json.dumps({"0" * 64: QUERY}), "does not hash to"),
        (json.dumps({"ABC": QUERY}), "not a lowercase SHA-256"),
        (json.dumps({sha256(QUERY): 5}), "does not hash to"),
        (
            json.dumps({"format": "apollo-persisted-query-manifest", "version": 2}),
            "only version 1",
        ),
        (
            json.dumps(
                {"format": "apollo-persisted-query-manifest", "version": 1, "operations": 1}
            ),
            "`operations` must be a list",
        ),
    ],
)
def test_trusted_documents_refuse_unusable_manifests(
    tmp_path: Path, content: str, complaint: str
) -> None:
    path = tmp_path / "manifest.json"
    path.write_text(content)
    with pytest.raises(SettingsError, match="ARRAYGRAPH_TRUSTED_DOCUMENTS") as refused:
        load_trusted_documents(str(path))
    assert complaint in str(refused.value)


def test_trusted_documents_missing_file_names_the_setting(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="ARRAYGRAPH_TRUSTED_DOCUMENTS: cannot read"):
        load_trusted_documents(str(tmp_path / "absent.json"))


def test_trusted_documents_setting_is_read_from_the_environment() -> None:
    env = {"ARRAYGRAPH_TRUSTED_DOCUMENTS": " /srv/manifest.json "}
    assert Settings.from_env(env).trusted_documents == "/srv/manifest.json"
    assert Settings.from_env({}).trusted_documents is None


async def test_trusted_documents_refuse_a_document_with_a_lone_surrogate(
    make_api: ApiFactory, tmp_path: Path
) -> None:
    # Hashing it once answered a plain-text 500: a lone surrogate has no UTF-8.
    async with make_api(trusted(apollo_manifest(tmp_path / "m.json", QUERY))) as api:
        response = await post(api.client, {"query": QUERY + " # \ud800"})
    assert response.status_code == 200
    assert error_codes(response.json()) == ["PERSISTED_QUERY_NOT_FOUND"]
