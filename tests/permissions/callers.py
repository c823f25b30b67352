"""The callers the permission tests send as, on an app that knows them all: anonymous, the
three service roles (tokens) and two signed-in end users without a role (JWTs), A and B; and
the records seeded for them to read, each holding a marker that must never appear in an
answer to a caller who may not read it. User A is a member of the seeded chat session (not its
owner: it has none) and wrote its message; user B is no member."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from resolvers.access.grants import Access
from resolvers.access.permissions import Permission
from resolvers.global_ids import global_id
from resolvers.identity import Identity
from settings import Settings
from tests.support import Api
from tests.support.jwks import bearer, claims, jwt_settings, signing_key, write_jwks

KEY = signing_key(kid="permissions")
TOKENS = ("reader:reader-token", "ingest:ingest-token", "admin:admin-token")
ADMIN = bearer("admin-token")
SESSION_MEMBER = "A"  # a member of the seeded session; B is none


@dataclass(frozen=True)
class Caller:
    name: str
    identity: Identity
    headers: dict[str, str]

    @property
    def access(self) -> Access:
        return Access.of(self.identity)


def _user(user_id: str) -> Caller:
    token = KEY.sign(claims(user_id, lifetime=3600))
    identity = Identity.user(user_id, frozenset(), int(time.time()) + 3600)
    return Caller(f"user {user_id}", identity, bearer(token))


def callers() -> list[Caller]:
    services = [
        Caller(role, Identity.service(role), bearer(f"{role}-token"))
        for role in ("reader", "ingest", "admin")
    ]
    return [Caller("anonymous", Identity.anonymous(), {}), *services, _user("A"), _user("B")]


CALLER_NAMES = [caller.name for caller in callers()]


def caller_named(name: str) -> Caller:
    return next(caller for caller in callers() if caller.name == name)


def known_callers(tmp_path: Path) -> Settings:
    """Service tokens of each role and JWTs signed by KEY, in development mode."""
    settings = jwt_settings(jwks_file=str(write_jwks(tmp_path / "jwks.json", KEY)))
    return dataclasses.replace(settings, api_tokens=TOKENS)


@dataclass(frozen=True)
class Seeded:
    sensor: str  # global ids
    session: str
    message: str
    ids: dict[str, str]
    now: str  # the app's clock reading, ISO 8601  # every seeded object's global id, by what it is


# Each seeded record's marker, and what reading it takes: (permission, owner or None; "session":
# the seeded session's members).
MARKERS: dict[str, tuple[Permission, str | None]] = {
    "Mk-sensor": (Permission.SENSORS_READ, None),
    "MKT": (Permission.TRADES_READ, None),
    "mkmeasure": (Permission.SERIES_READ, None),
    "Mk-user-A": (Permission.ORDERS_READ, "A"),
    "Mk-order-A": (Permission.ORDERS_READ, "A"),
    "Mk-user-B": (Permission.ORDERS_READ, "B"),
    "Mk-order-B": (Permission.ORDERS_READ, "B"),
    "Mk-chat": (Permission.CHAT_READ, "session"),
    "Mk-message": (Permission.CHAT_READ, "session"),
}


def may_see(caller: Caller, marker: str) -> bool:
    """Whether the caller may read the record holding `marker` (a session's: with a role that
    reads every session, or as its member)."""
    permission, owner = MARKERS[marker]
    access = caller.access
    if access.reaches_every(permission):
        return True
    if owner == "session":
        owner = SESSION_MEMBER
    return owner is not None and access.holds(permission) and access.is_user(owner)


def hidden_markers(caller: Caller) -> list[str]:
    return [marker for marker in MARKERS if not may_see(caller, marker)]


AT = "2024-01-01T00:00:00Z"


Admin = Callable[[str, dict[str, object]], Awaitable[dict[str, object]]]


async def _seed_chat(admin: Admin) -> tuple[dict[str, object], dict[str, object]]:
    """A session without owner, user A its member, and A's message in it."""
    session = await admin('mutation { createChatSession(title: "Mk-chat") { id } }', {})
    made = session["createChatSession"]
    assert isinstance(made, dict)
    await admin(
        "mutation($s: ID!, $m: String!) { addChatMember(sessionId: $s, member: $m) { id } }",
        {"s": made["id"], "m": SESSION_MEMBER},
    )
    posted = await admin(
        "mutation($s: ID!, $a: String!) { "
        'postMessage(sessionId: $s, author: $a, text: "Mk-message") { id messageId } }',
        {"s": made["id"], "a": SESSION_MEMBER},
    )
    message = posted["postMessage"]
    assert isinstance(message, dict)
    return made, message


async def seed(api: Api) -> Seeded:
    """One record of each kind, written as admin."""

    async def admin(query: str, variables: dict[str, object] | None = None) -> dict[str, object]:
        body = await api.post(query, variables, headers=ADMIN)
        assert "errors" not in body, body
        data: dict[str, object] = body["data"]
        return data

    sensor = await admin('mutation { createSensor(title: "Mk-sensor") { id } }')
    for user in "AB":
        await admin(
            "mutation($u: String!, $n: String!, $o: [OrderInput!]!) { "
            "upsertOrders(userId: $u, name: $n, orders: $o) { orderCount } }",
            {"u": user, "n": f"Mk-user-{user}",
             "o": [{"id": f"o-{user}", "createTime": AT, "info": f"Mk-order-{user}"}]},
        )  # fmt: skip
    await admin(
        'mutation { recordTrades(customerId: 7, trades: [{type: BUY, ticker: "MKT", qty: 1, '
        f'date: "{AT}"}}]) {{ pageNumbers }} }}'
    )
    await admin(
        'mutation { recordObservations(observations: [{measurement: "mkmeasure", '
        f'at: "{AT}", tags: [], fields: [{{name: "v", value: 1}}]}}]) {{ applied }} }}'
    )
    made, message = await _seed_chat(admin)
    assert isinstance(message, dict) and isinstance(sensor["createSensor"], dict)
    ids = {
        "sensor": str(sensor["createSensor"]["id"]),
        "session": str(made["id"]),
        "message": str(message["id"]),
        "user A": global_id("User", "A"),
        "user B": global_id("User", "B"),
        "order A": global_id("Order", "A", "o-A"),
        "order B": global_id("Order", "B", "o-B"),
        "customer": global_id("Customer", 7),
        "trade": global_id("Trade", 7, 1, 0),
        "measurement": global_id("Measurement", "mkmeasure"),
    }
    now = api.clock.now.isoformat()
    return Seeded(ids["sensor"], ids["session"], str(message["messageId"]), ids, now)
