"""The permissions a field declares: what a caller must hold to call it.

A small set, by domain and by what the call does. Five are also an end user's, for their own
records: `orders:read`, `orders:write`, `chat:read`, `chat:write` and `chat:own` reach every
record when a role grants them, only the caller's own when they hold them as a signed-in user
(`SIGNED_IN`, resolvers/access/roles.py). Reading and writing orders are two, so that a service that
writes orders on behalf of any user (`ingest`) reads none.
"""

from __future__ import annotations

from enum import StrEnum


class Permission(StrEnum):
    SENSORS_READ = "sensors:read"
    SENSORS_WRITE = "sensors:write"
    SERIES_READ = "series:read"
    SERIES_WRITE = "series:write"
    TRADES_READ = "trades:read"
    TRADES_WRITE = "trades:write"
    ORDERS_READ = "orders:read"
    ORDERS_WRITE = "orders:write"
    CHAT_READ = "chat:read"
    CHAT_WRITE = "chat:write"
    CHAT_OWN = "chat:own"


# What each permission lets a caller do (the docs' table says it, from here).
MEANINGS: dict[Permission, str] = {
    Permission.SENSORS_READ: "read sensors and their stats",
    Permission.SENSORS_WRITE: "create, rename and delete sensors; record sensor events",
    Permission.SERIES_READ: "read series, totals and measurements",
    Permission.SERIES_WRITE: "record observations",
    Permission.TRADES_READ: "read customers and their trades",
    Permission.TRADES_WRITE: "record trades",
    Permission.ORDERS_READ: "read a user and its orders",
    Permission.ORDERS_WRITE: "upsert and delete orders",
    Permission.CHAT_READ: "read chat sessions and their messages",
    Permission.CHAT_WRITE: "create sessions; post, edit and delete messages",
    Permission.CHAT_OWN: "delete a session; add and remove its members",
}
