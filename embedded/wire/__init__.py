"""MongoDB's wire protocol in front of an `EmbeddedEngine`, for PyMongo's own client: tests and
the bench only. The product's wheel leaves this package out (pyproject.toml); no other part of
`embedded` imports it.

    server = start_wire_server()            # a new engine, on a free loopback port
    client = AsyncMongoClient(server.uri, tz_aware=True)

`server` runs the front, `messages` reads and writes MongoDB's messages, `commands` answers each
command, with `reads` (find, aggregate and their cursors) and `writes`; `pipelines` interns the
update pipelines each command decodes anew.
"""

from __future__ import annotations

from embedded.wire.server import WireServer, start_wire_server

__all__ = ["WireServer", "start_wire_server"]
