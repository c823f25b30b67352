"""Memory bound: `python -m bench.memory_bound`. Distinct large documents sent to the real server
(uvicorn, the `full` app) must not take its RSS past a bound computed from what the code
declares, whatever they are.

What is sent, over CONNECTIONS keep-alive connections, in this order (so that the caches are
full when the largest transient documents arrive):
1. 1,200 distinct small queries: the document cache's count bound (1,000) is passed;
2. 1,300 distinct dense documents of ~15 KiB (1,200 ids in a list: as many tokens), each
   registered through APQ: each is kept in both the document cache (accounted ~1 MiB each, so
   its 64 MiB are passed about 20 times over) and the APQ store (~15.5 KB each: its 16 MiB
   passed);
3. 1,200 distinct ~50 KB anonymous queries, never cached (over 16,384 characters): padded
   with blanks, one long comment, 4,500 ids (as much AST as the token limit allows), and
   invalid ones whose errors repeat long unknown names.

RSS is sampled every 20 ms from /proc/<pid>/status, and the kernel's own high-water mark
(VmHWM) is reset after the baseline (/proc/<pid>/clear_refs), so no peak between two samples is
missed. The bound, in MiB:

    baseline (RSS after start-up and a warm-up of every shape)
  + DOCUMENT_CACHE_BYTES (schema/schema.py, 64 MiB): what the document cache may account
  + APQ_CACHE_BYTES (settings.py, 16 MiB): what registered documents may be charged
  + requests in flight: CONNECTIONS x (a body at MAX_REQUEST_BYTES held in COPIES forms: the
    bytes read, the decoded JSON, the parser's source, the query text; plus an uncached
    document at MAX_TOKENS tokens x TOKEN_BYTES, what runtime/request/document_cache.py measures a
    token and its AST nodes at): 4 x (4 x 1 MiB + 5,000 x 800 B) = 31.3 MiB
  + ALLOCATOR_SLACK (16 MiB): freed entries return to the allocator, not always to the system
    (pymalloc frees an arena only when all of it is free, glibc trims only the heap's top), so
    churn through an LRU leaves some resident memory that no object holds.

Exit 1 when the peak passes the bound."""

from __future__ import annotations

import asyncio
import hashlib
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import settings
from bench.client import GraphQLClient
from bench.server import peak_rss_mib, rss_mib, running
from runtime.request.document_cache import TOKEN_BYTES
from schema.schema import DOCUMENT_CACHE_BYTES

MIB = 1024 * 1024
CONNECTIONS = 4
COPIES = 4
ALLOCATOR_SLACK = 16 * MIB
SAMPLE_SECONDS = 0.02
LARGE = 50_000  # characters of each uncached document
REGISTERED = 1_300  # x ~15.5 KB: past the APQ store's 16 MiB


def in_flight_bytes() -> int:
    per_request = COPIES * settings.MAX_REQUEST_BYTES + settings.MAX_TOKENS * TOKEN_BYTES
    return CONNECTIONS * per_request


def small(k: int) -> dict[str, Any]:
    return {"query": f"{{ s{k}: sensors(first: {k % 100 + 1}) {{ totalCount }} }}"}


def _ids(k: int, count: int) -> str:
    # Valid whatever its length (the resolver refuses over 100 ids, after validation); a
    # field repeated as often would abort validation on its overlap budget instead.
    return "{ users(userIds: [" + ",".join(f'"{k}-{i}"' for i in range(count)) + "]) { userId } }"


def dense_registered(k: int) -> dict[str, Any]:
    """~15 KiB, 1,200 tokens: under CACHED_DOCUMENT_CHARS, so the document cache keeps it."""
    query = _ids(k, 1_200)
    digest = hashlib.sha256(query.encode()).hexdigest()
    return {"query": query, "extensions": {"persistedQuery": {"version": 1, "sha256Hash": digest}}}


def large(k: int) -> dict[str, Any]:
    """~50 KB, in one of four shapes; none is cached."""
    shape = k % 4
    if shape == 0:  # valid, mostly blanks
        query = f"{{ a{k}: __typename" + " " * LARGE + "}"
    elif shape == 1:  # valid, one comment token
        query = f"# {k} " + "c" * LARGE + "\n{ __typename }"
    elif shape == 2:  # valid, 4,500 tokens: about the most AST the token limit allows
        query = _ids(k, 4_500)
    else:  # invalid: each unknown name is repeated in its error
        query = "{ " + " ".join(f"{'y' * 5_000}{i}x{k}" for i in range(10)) + " }"
    return {"query": query}


def phases() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    yield "1,200 distinct small queries", [small(k) for k in range(1_200)]
    yield (
        f"{REGISTERED:,} distinct ~15 KiB documents, cached and APQ-registered",
        [dense_registered(k) for k in range(REGISTERED)],
    )
    yield "1,200 distinct ~50 KB anonymous documents", [large(k) for k in range(1_200)]


async def send_all(port: int, bodies: list[dict[str, Any]], statuses: Counter[int]) -> None:
    queue = iter(bodies)  # one event loop: the workers take turns, never the same body

    async def worker() -> None:
        client = GraphQLClient(port)
        try:
            for body in queue:
                status, _ = await client.exchange(body)
                statuses[status] += 1
        finally:
            await client.close()

    await asyncio.gather(*(worker() for _ in range(CONNECTIONS)))


async def sample_rss(pid: int, peak: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        peak[0] = max(peak[0], rss_mib(pid))
        await asyncio.sleep(SAMPLE_SECONDS)


def reset_peak(pid: int) -> bool:
    """Reset VmHWM to the current RSS (Linux 4.0+); whether the kernel allowed it."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
    except OSError:
        return False
    return True


async def warm_up(port: int) -> None:
    """Every shape once, so that the baseline holds what the first request of each builds
    (validation rules, resolvers' caches), not only the idle server."""
    bodies = [small(-1 - k) for k in range(20)] + [dense_registered(-1), *map(large, range(-4, 0))]
    await send_all(port, bodies, Counter())


async def still_registered(port: int) -> bool:
    """Whether the last document registered runs by its hash alone: the APQ store did fill."""
    body = dense_registered(REGISTERED - 1)
    del body["query"]
    client = GraphQLClient(port)
    try:
        status, answer = await client.exchange(body)
    finally:
        await client.close()
    found = status == 200 and b"PERSISTED_QUERY_NOT_FOUND" not in answer
    print(f"  the last document registered runs by its hash: {'yes' if found else 'NO (FAIL)'}")
    return found


def report(baseline: float, peak: float, statuses: Counter[int], seconds: float) -> bool:
    bound = (
        baseline
        + (DOCUMENT_CACHE_BYTES + settings.APQ_CACHE_BYTES + in_flight_bytes() + ALLOCATOR_SLACK)
        / MIB
    )
    print(f"  answers: {dict(sorted(statuses.items()))} (HTTP status: count) in {seconds:.1f} s")
    print(f"  bound = baseline {baseline:.1f} + document cache {DOCUMENT_CACHE_BYTES / MIB:.0f} "
          f"+ APQ {settings.APQ_CACHE_BYTES / MIB:.0f} + in flight {in_flight_bytes() / MIB:.1f} "
          f"+ allocator {ALLOCATOR_SLACK / MIB:.0f} MiB")  # fmt: skip
    passed = peak <= bound and set(statuses) == {200}
    verdict = "OK" if passed else "FAIL"
    print(f"peak RSS {peak:.1f} MiB, baseline {baseline:.1f} MiB, bound {bound:.1f} MiB: {verdict}")
    if set(statuses) != {200}:
        print("  FAIL: some answers were not HTTP 200")
    return passed


async def memory_bound() -> bool:
    async with running("full") as server:
        await warm_up(server.port)
        baseline = rss_mib(server.pid)
        exact = reset_peak(server.pid)
        peak, stop, statuses = [baseline], asyncio.Event(), Counter[int]()
        sampler = asyncio.create_task(sample_rss(server.pid, peak, stop))
        start = time.perf_counter()
        print("memory bound (real server, embedded engine with the demo data)")
        for name, bodies in phases():
            await send_all(server.port, bodies, statuses)
            print(f"  after {name}: RSS {rss_mib(server.pid):.1f} MiB")
        registered = await still_registered(server.port)
        stop.set()
        await sampler
        if exact:
            peak[0] = max(peak[0], peak_rss_mib(server.pid))
        seconds = time.perf_counter() - start
    if not exact:
        print("  (VmHWM could not be reset: the peak is the highest 20 ms sample)")
    return report(baseline, peak[0], statuses, seconds) and registered


def main() -> None:
    if not asyncio.run(memory_bound()):
        sys.exit(1)


if __name__ == "__main__":
    main()
