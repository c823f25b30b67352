"""The JWKS's signing keys, by key id: fetched off the event loop (a thread), kept in memory,
looked up on the event loop.

Fetched at start-up, then again when a token names a key the set lacks (a key rotated in at
the provider), at most once per JWKS_REFRESH_SECONDS however many such tokens arrive, and on
a timer (`keep_fresh`): every JWKS_LIFE_SECONDS, so a key removed there stops verifying here
(the tokens it verified are forgotten too), or every JWKS_RETRY_SECONDS while no set was ever
loaded. A failed fetch keeps the keys held (none, at first), logs a warning and counts in the
metrics; it never stops the process.
"""

from __future__ import annotations

import asyncio
import logging
import time
import urllib.request
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from jwt import PyJWK, PyJWKSet

from settings.identity import (
    JWKS_FETCH_TIMEOUT_SECONDS,
    JWKS_LIFE_SECONDS,
    JWKS_REFRESH_SECONDS,
    JWKS_RETRY_SECONDS,
    MAX_JWKS_BYTES,
    PUBLIC_KEY_ALGORITHMS,
)

logger = logging.getLogger("arraygraph")

Keys = dict[str | None, PyJWK]  # by `kid`; a key without one under None
READ_BYTES = 64 * 1024


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is a failed fetch (an https:// set is never read from elsewhere)."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def fetched(url: str) -> str:
    """The set's JSON at `url`: each read within JWKS_FETCH_TIMEOUT_SECONDS, the body too, and
    at most MAX_JWKS_BYTES. A socket's timeout bounds each read alone, so a body trickling in,
    or an endless one, would keep the fetch (and the start-up that waits for it) for as long as
    it lasts."""
    deadline = time.monotonic() + JWKS_FETCH_TIMEOUT_SECONDS
    body = bytearray()
    opener = urllib.request.build_opener(NoRedirect)
    with opener.open(url, timeout=JWKS_FETCH_TIMEOUT_SECONDS) as answer:
        while chunk := answer.read1(READ_BYTES):
            body += chunk
            if len(body) > MAX_JWKS_BYTES:
                raise ValueError(f"the answer is over {MAX_JWKS_BYTES} bytes")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the answer took over {JWKS_FETCH_TIMEOUT_SECONDS} s")
    return body.decode("utf-8")


def read_keys(url: str | None, file: str | None) -> Keys:
    """The set's signing keys (blocking: run in a thread). A symmetric (`oct`) key, a key for
    encryption or for an algorithm that is not a public key's is left out: a public set never
    verifies an HMAC token."""
    text = fetched(url) if url is not None else Path(str(file)).read_text(encoding="utf-8")
    found = PyJWKSet.from_json(text)
    keys = {
        key.key_id: key
        for key in found
        if key.key_type != "oct"
        and key.public_key_use in (None, "sig")
        and key.algorithm_name in PUBLIC_KEY_ALGORITHMS
    }
    if not keys:
        raise ValueError("the JWK Set holds no public signing key")
    return keys


def same_key(held: PyJWK, fetched: PyJWK | None) -> bool:
    """Whether the set fetched still holds `held` under its `kid`: a provider may replace a
    key and keep its `kid` (a set of one key may name none), which removes the old key."""
    return (
        fetched is not None
        and fetched.algorithm_name == held.algorithm_name
        and fetched.key == held.key
    )


class KeySet:
    def __init__(
        self,
        url: str | None,
        file: str | None,
        clock: Callable[[], datetime],
        on_removed: Callable[[], None],
    ) -> None:
        self.source = url or file or ""
        self._url, self._file = url, file
        self._clock = clock  # the application's: when a refresh was last tried
        # Told when a refresh drops a key: what it verified must be verified again.
        self._on_removed = on_removed
        self.keys: Keys = {}
        self.loaded = False  # a set was loaded once: /readyz answers ready from then on
        self.loaded_at: float | None = None  # seconds since the epoch, for the metrics
        self.fetches = {"ok": 0, "error": 0}
        self._tried: datetime | None = None
        self._fetching: asyncio.Task[None] | None = None

    async def key(self, kid: str | None) -> PyJWK | None:
        """The key `kid` names (a token without one: the set's only key). Not held, the set
        is fetched again first, unless it was tried within JWKS_REFRESH_SECONDS."""
        found = self.held(kid)
        if found is None and self._may_refresh():
            await self.refresh()
            found = self.held(kid)
        return found

    async def replaced(self, kid: str | None, held: PyJWK) -> PyJWK | None:
        """The key `kid` names once the set is fetched again, when it is another than `held`
        (a provider may replace a key and keep its `kid`); None when it is the same, or the
        set was tried within JWKS_REFRESH_SECONDS."""
        task = self._fetching
        if self._may_refresh():
            await self.refresh()
        elif task is not None and not task.done():  # another request's fetch: wait for it
            await asyncio.shield(task)
        else:
            return None
        found = self.held(kid)
        return found if found is not None and not same_key(held, found) else None

    def held(self, kid: str | None) -> PyJWK | None:
        """The key `kid` names among those held now (the only one, for a token without a
        `kid`); None when the set lacks it."""
        if kid is None and len(self.keys) == 1:
            return next(iter(self.keys.values()))
        return self.keys.get(kid)

    def _may_refresh(self) -> bool:
        tried = self._tried
        return tried is None or (self._clock() - tried).total_seconds() >= JWKS_REFRESH_SECONDS

    async def refresh(self) -> None:
        """Fetch the set again; callers that ask while a fetch runs share it."""
        task = self._fetching
        if task is None or task.done():
            self._tried = self._clock()
            task = self._fetching = asyncio.get_running_loop().create_task(self._fetch())
        await asyncio.shield(task)

    async def _fetch(self) -> None:
        try:
            keys = await asyncio.to_thread(read_keys, self._url, self._file)
        except Exception as error:  # any failure: the keys held stay, and it shows
            self.fetches["error"] += 1
            logger.warning("JWKS from %s not loaded: %s", self.source, str(error)[:300])
            return
        removed = any(not same_key(key, keys.get(kid)) for kid, key in self.keys.items())
        self.keys = keys
        if removed:
            self._on_removed()
        self.loaded = True
        self.loaded_at = time.time()
        self.fetches["ok"] += 1

    async def keep_fresh(self) -> None:
        """Refetch on a timer, for as long as the application serves (cancelled at its end)."""
        while True:
            await asyncio.sleep(JWKS_LIFE_SECONDS if self.loaded else JWKS_RETRY_SECONDS)
            await self.refresh()
