"""New request ids: 128 random bits each, in hex, from the operating system's generator.

The bytes are read 4 KiB at a time, one `getrandom` call per 256 ids: a call per request was a
sixth of the request log's time on a server. A forked child (a pre-forking process manager)
drops the bytes it inherited, so it never repeats its parent's ids. Ids are drawn on the event
loop's thread only.
"""

from __future__ import annotations

import os

ID_BYTES = 16
IDS_PER_READ = 256


class RandomIds:
    def __init__(self) -> None:
        self._bytes = b""
        self._next = 0

    def __call__(self) -> str:
        start = self._next
        if start >= len(self._bytes):
            self._bytes, start = os.urandom(ID_BYTES * IDS_PER_READ), 0
        self._next = start + ID_BYTES
        return self._bytes[start : start + ID_BYTES].hex()

    def forget(self) -> None:
        """Drop the bytes read so far: the next id reads new ones."""
        self._bytes, self._next = b"", 0


new_request_id = RandomIds()
os.register_at_fork(after_in_child=new_request_id.forget)
