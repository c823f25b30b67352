"""Service tokens (`ARRAYGRAPH_API_TOKENS`), each with its role, compared in constant time."""

from __future__ import annotations

import hmac

from settings.identity import service_tokens


class ServiceTokens:
    def __init__(self, entries: tuple[str, ...]) -> None:
        self._tokens = tuple((t.token.encode(), t.role) for t in service_tokens(entries))

    def __bool__(self) -> bool:
        return bool(self._tokens)

    def role_of(self, token: str) -> str | None:
        """The role of `token` when it is one of the service tokens. Every token is compared,
        each in constant time, so timing tells neither which one matched nor how closely."""
        presented = token.encode()
        found = None
        for known, role in self._tokens:
            if hmac.compare_digest(presented, known) and found is None:
                found = role
        return found
