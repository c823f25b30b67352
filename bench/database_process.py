"""`python -m bench.database_process PORT`: the embedded engine behind its MongoDB wire front,
alone in its own process, standing in for a MongoDB server in the benchmarks that measure the
API server's own CPU with its database elsewhere, as in production."""

from __future__ import annotations

import signal
import sys
import threading

from embedded.wire import start_wire_server


def main() -> None:
    front = start_wire_server(port=int(sys.argv[1]))
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    signal.signal(signal.SIGINT, lambda *_: stopped.set())
    stopped.wait()
    front.stop()


if __name__ == "__main__":
    main()
