"""The longest slice the server's event loop spends on one callback, seen from inside the
server process: a bench-only probe, never part of the product.

Armed, the probe is a timer callback that re-arms itself every `PROBE_SECONDS` and keeps the
largest lateness of its wake-ups. A callback that holds the loop for a slice of S seconds
delays the wake-up falling inside it by at most S, and by at least S - PROBE_SECONDS (it began
at most one period after the probe was armed): the lateness is the longest slice to within the
probe's period (and the loop's timer resolution). Without asyncio's debug mode (which slows
every callback, and which uvloop lacks) there is no slow-callback accounting to read instead.
Waking a thousand times a second is work of its own for the server, so the probe runs only
when asked to: the server's CPU is measured with it disarmed.

Lateness is wall time: on a machine whose other processes share the server's core, it also
holds the time the server waited for the core. So the probe also keeps the most CPU time the
loop's thread spent between an arming and its wake-up (time.thread_time): the same slice
counted in the server's own work alone, to within the period.

A slice may be the garbage collector's, not a request's: armed, the probe also keeps the
longest collection (`gc.callbacks`), so that a long slice can be told apart.

`PUT LOOP_PROBE_PATH` arms it (from zero); `DELETE LOOP_PROBE_PATH` disarms it and answers
the largest lateness since, the most CPU and the longest collection, in milliseconds
(`longest_ms`, `longest_cpu_ms`, `longest_gc_ms`).
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

LOOP_PROBE_PATH = "/bench/loop-probe"
# Short against the slices that matter (a hundred milliseconds), long enough to stay cheap.
PROBE_SECONDS = 0.001


class SliceProbe:
    def __init__(self) -> None:
        self.longest = 0.0  # seconds late, the worst wake-up since armed
        self.longest_cpu = 0.0  # the loop thread's CPU seconds from one arming to its wake-up
        self._due = 0.0
        self._cpu = 0.0
        self._handle: asyncio.TimerHandle | None = None
        self.longest_gc = 0.0  # seconds, the longest collection since armed
        self._gc_started = 0.0

    def arm(self) -> None:
        self.disarm()
        self.longest = self.longest_cpu = self.longest_gc = 0.0
        gc.callbacks.append(self._collection)
        self._schedule()

    def disarm(self) -> tuple[float, float, float]:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if self._collection in gc.callbacks:
            gc.callbacks.remove(self._collection)
        return self.longest, self.longest_cpu, self.longest_gc

    def _collection(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            self.longest_gc = max(self.longest_gc, time.perf_counter() - self._gc_started)

    def _schedule(self) -> None:
        self._due = time.perf_counter() + PROBE_SECONDS
        self._cpu = time.thread_time()
        self._handle = asyncio.get_running_loop().call_later(PROBE_SECONDS, self._tick)

    def _tick(self) -> None:
        self.longest = max(self.longest, time.perf_counter() - self._due)
        self.longest_cpu = max(self.longest_cpu, time.thread_time() - self._cpu)
        self._schedule()


def probed(app: Starlette) -> Starlette:
    """`app` with the probe's route."""
    probe = SliceProbe()

    async def loop_probe(request: Request) -> JSONResponse:
        if request.method == "PUT":
            probe.arm()
            return JSONResponse({"armed": True})
        longest, longest_cpu, longest_gc = probe.disarm()
        return JSONResponse(
            {
                "longest_ms": longest * 1e3,
                "longest_cpu_ms": longest_cpu * 1e3,
                "longest_gc_ms": longest_gc * 1e3,
            }
        )

    app.router.routes.append(Route(LOOP_PROBE_PATH, loop_probe, methods=["PUT", "DELETE"]))
    return app
