"""Bearer JWTs' cost (issue 35, "Cost and abuse"): `{ __typename }` and a sensors page, each
sent with a JWT of `--tokens` (10,000) distinct ones in rotation, against the same request
without a token, on one server (bench/apps.py: `identified`) whose verified-token cache holds
fewer than that, so that every token is verified again when it comes back, its database in a
process of its own (bench/server.py `running_database`), as MongoDB runs;
each request measured beside its tokenless twin, back to back (bench/identity/pairs.py), in
at least MIN_ROUNDS rounds, judged on the server's CPU per request as the other ratios are
(bench/measure.py). Then, in this process, a cold RS256 verification: the CPU time of
`Authenticator.identify` for tokens it has never seen, the median of batches.

The tokens are RS256, their key in a JWKS file (bench/identity/tokens.py); the users read as
`reader`, as callers without a token do, so both sides answer the same. Lines print OK or
BELOW/ABOVE against the targets and do not decide the exit status."""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import uvloop

from bench.apps import VERIFIED_TOKENS_KEPT
from bench.cores import pin_load_generator
from bench.fleet import SMALL, Options
from bench.identity.pairs import Pair, measure_pairs
from bench.identity.tokens import environment, provider
from bench.load import Rotation, post_request
from bench.measure import Load, Samples, cost_ratio, figures, rate_ratio, ratio_line, verdict
from bench.overhead import TYPENAME
from bench.scaling import SENSORS_PAGE
from bench.seed import SEED_VARIABLE
from bench.server import Server, running, running_database
from settings import Settings
from settings.identity import identity_from_env
from web.identity.authenticator import Authenticator

TOKENS = 10_000
# The pages' ratio sits near its target and this machine is shared: fewer rounds than this
# leave one run's median at the mercy of a burst of background work. Even, so that each side
# of a pair leads as often as the other.
MIN_ROUNDS = 10
COLD_BATCHES = 10
COLD_BATCH = 100  # tokens per batch, each verified once


def _request(server: Server, query: str, token: str | None = None) -> bytes:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    body = {"query": query, "variables": {}}
    return post_request("/graphql", body, port=server.port, headers=headers)


def _pairs(server: Server, tokens: list[str]) -> list[Pair]:
    """Each request without a token, and with the next of `tokens` in turn."""
    found: list[Pair] = []
    for name, query in (("typename", TYPENAME), ("page", SENSORS_PAGE)):
        rotation = Rotation([_request(server, query, token) for token in tokens])
        plain = Load(name, server, _request(server, query))
        found.append((plain, Load(f"{name}, JWT", server, rotation)))
    return found


async def cold_verification_seconds(jwks: Path, tokens: list[str]) -> float:
    """CPU seconds of one `identify` of a token never seen: the median of the batches'."""
    settings = Settings(identity=identity_from_env(environment(jwks), production=False))
    authenticator = Authenticator(settings, lambda: datetime.now(UTC))
    keys = authenticator.keys
    assert keys is not None
    await keys.refresh()
    batches: list[float] = []
    for start in range(0, len(tokens), COLD_BATCH):
        batch = [f"Bearer {token}" for token in tokens[start : start + COLD_BATCH]]
        before = time.process_time()
        for authorization in batch:
            await authenticator.identify(authorization)
        batches.append((time.process_time() - before) / len(batch))
    return statistics.median(batches)


def _report(found: dict[str, Samples], tokens: int, cold: float) -> None:
    rounds = len(next(iter(found.values())).rounds)
    print(
        f"7. bearer JWTs (RS256, JWKS file): {tokens:,} distinct tokens in rotation, "
        f"{VERIFIED_TOKENS_KEPT:,} kept verified; {rounds} rounds, each pair back to back"
    )
    labels = {
        "typename": "{ __typename }, no token",
        "typename, JWT": "{ __typename }, a JWT in rotation",
        "page": "sensors(first: 20), no token",
        "page, JWT": "sensors(first: 20), a JWT in rotation",
    }
    for name, samples in found.items():
        print(f"    {labels[name]:<52} {figures(samples)}")
    for name, label, target in (
        ("typename", "{ __typename }", 0.9),
        ("page", "sensors page", 0.95),
    ):
        plain, signed = found[name], found[f"{name}, JWT"]
        by_cpu, by_rate = cost_ratio(plain, signed), rate_ratio(signed, plain)
        print(ratio_line(f"{label}: JWT / no token", by_cpu, by_rate, ">=", target))
    milliseconds = cold * 1e3
    print(
        f"    {'cold RS256 verification, a token never seen':<40} {milliseconds:8.3f} ms CPU"
        f"{'':<18}" + verdict(milliseconds, "<=", 0.3)
    )


async def run(options: Options, tokens: int = TOKENS) -> None:
    made = provider()
    signed = made.tokens(tokens)
    with tempfile.TemporaryDirectory(prefix="arraygraph-bench-") as folder:
        jwks = made.write_jwks(Path(folder) / "jwks.json")
        cold = await cold_verification_seconds(jwks, signed[: COLD_BATCHES * COLD_BATCH])
        env = {**environment(jwks), SEED_VARIABLE: SMALL.encode()}
        async with (
            running_database() as database,
            running("identified", env=env, database=database) as server,
        ):
            found = await measure_pairs(
                _pairs(server, signed),
                rounds=max(options.rounds, MIN_ROUNDS),
                seconds=options.seconds,
                connections=options.connections,
            )
    _report(found, tokens, cold)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.identity", description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.5, help="per load and round")
    parser.add_argument("--rounds", type=int, default=MIN_ROUNDS, help=f"at least {MIN_ROUNDS}")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--tokens", type=int, default=TOKENS, help="in rotation")
    args = parser.parse_args()
    if args.tokens <= VERIFIED_TOKENS_KEPT:
        parser.error(f"--tokens must be more than the {VERIFIED_TOKENS_KEPT:,} kept verified")
    pin_load_generator()
    uvloop.run(run(Options(args.seconds, args.rounds, args.connections), args.tokens))
