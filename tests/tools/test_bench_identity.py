"""bench/identity/: the app the JWT ratios run on verifies the bench's RS256 tokens (from its
JWKS file) and keeps fewer verified than the bench sends in rotation; the load generator's
rotation sends each request in turn, carrying on where it stopped; with a token or without
one, the sensors page answers the same; and each ratio's two loads run back to back."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.apps import VERIFIED_TOKENS_KEPT, identified
from bench.identity import pairs
from bench.identity.run import TOKENS
from bench.identity.tokens import environment, provider
from bench.load import Rotation, post_request
from bench.measure import Load, Sample
from bench.scaling import SENSORS_PAGE
from bench.seed import SEED_VARIABLE, Seed
from bench.server import Server
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


async def test_each_pair_runs_back_to_back_a_b_b_a_after_a_lead_in_its_lead_alternating(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server = Server(port=1, pid=1)
    plain, signed = Load("page", server, b"p"), Load("page, JWT", server, b"s")
    other, other_signed = Load("typename", server, b"t"), Load("typename, JWT", server, b"u")
    order: list[str] = []
    checked: list[list[str]] = []

    async def warm_up(loads: list[Load], **options: float) -> None:
        checked.append([load.name for load in loads])

    async def one(load: Load, *, seconds: float, connections: int) -> Sample:
        order.append(load.name)
        return Sample(requests=len(order), seconds=seconds, cpu=0.001)

    monkeypatch.setattr(pairs, "interleave", warm_up)
    monkeypatch.setattr(pairs, "sample", one)
    found = await pairs.measure_pairs(
        [(other, other_signed), (plain, signed)], rounds=2, seconds=1.0, connections=1
    )
    assert checked == [["typename", "typename, JWT", "page", "page, JWT"]]
    t, tj, p, pj = "typename", "typename, JWT", "page", "page, JWT"
    # Each pair's lead runs unmeasured first.
    assert order == [
        *(t, t, tj, tj, t), *(p, p, pj, pj, p), *(tj, tj, t, t, tj), *(pj, pj, p, p, pj)
    ]  # fmt: skip
    # Each round's sample of a load is its two halves together, the lead-in left out.
    assert [(s.requests, s.seconds) for s in found[p].rounds] == [(7 + 10, 1.0), (18 + 19, 1.0)]
    assert [len(samples.rounds) for samples in found.values()] == [2, 2, 2, 2]
