"""bench/identity/: the app the JWT ratios run on verifies the bench's RS256 tokens (from its
JWKS file) and keeps fewer verified than the bench sends in rotation; the load generator's
rotation sends each request in turn, carrying on where it stopped; and with a token or without
one, the sensors page answers the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.apps import VERIFIED_TOKENS_KEPT, identified
from bench.identity.run import TOKENS
from bench.identity.tokens import environment, provider
from bench.load import Rotation, post_request
from bench.scaling import SENSORS_PAGE
from bench.seed import SEED_VARIABLE, Seed
from tests.support import running
from web.state import AppState


def test_a_rotation_sends_each_request_in_turn_and_starts_again() -> None:
    rotation = Rotation([b"a", b"b", b"c"])
    assert (rotation.first, rotation.count) == (b"a", 3)
    assert [next(rotation) for _ in range(2)] == [b"a", b"b"]
    assert [next(rotation) for _ in range(3)] == [b"c", b"a", b"b"]


def test_a_request_carries_the_headers_asked_for() -> None:
    request = post_request("/graphql", {}, port=1, headers={"Authorization": "Bearer t"})
    head, _, body = request.partition(b"\r\n\r\n")
    assert b"\r\nAuthorization: Bearer t\r\n" in head
    assert body == b"{}"


async def test_the_bench_tokens_are_verified_and_fewer_kept_than_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = provider()
    jwks = made.write_jwks(tmp_path / "jwks.json")
    for name, value in {**environment(jwks), SEED_VARIABLE: Seed(sensors=3).encode()}.items():
        monkeypatch.setenv(name, value)
    app = identified()
    state: AppState = app.state.arraygraph
    assert state.authenticator.verified.max_entries == VERIFIED_TOKENS_KEPT < TOKENS
    tokens = made.tokens(2)
    async with running(app) as client:
        plain = (await client.post("/graphql", json={"query": SENSORS_PAGE})).json()
        for token in tokens:
            headers = {"authorization": f"Bearer {token}"}
            signed = await client.post("/graphql", json={"query": SENSORS_PAGE}, headers=headers)
            assert signed.json() == plain
        refused = await client.post(
            "/graphql", json={"query": SENSORS_PAGE}, headers={"authorization": "Bearer x.y.z"}
        )
    assert len(plain["data"]["sensors"]["edges"]) == 3
    assert len(state.authenticator.verified) == 2
    assert refused.json()["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED", refused.json()
