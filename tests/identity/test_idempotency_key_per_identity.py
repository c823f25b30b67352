"""An idempotency key is its caller's: the same key sent by another identity is another key,
which runs and stores its own call, never answering with the first caller's stored result. The
records stored before identities (no owner in their `_id`) are the `admin` role's."""

from __future__ import annotations

from settings import Settings
from tests.ingestion.support import RECORD_TRADES, TRADE_COUNT, key_records, trades_call
from tests.support import Api, ApiFactory
from tests.support.jwks import bearer

SETTINGS = Settings(api_tokens=("ingest:ingest-token", "admin:admin-token"))
INGEST, ADMIN = bearer("ingest-token"), bearer("admin-token")


async def trades(api: Api) -> int:
    body = await api.post(TRADE_COUNT, {"c": 7}, headers=ADMIN)
    customer = body["data"]["customer"]
    return int(customer["tradeCount"]) if customer else 0


async def record(api: Api, headers: dict[str, str], qtys: range) -> dict[str, object]:
    body = await api.post(RECORD_TRADES, trades_call("k-1", qtys=qtys), headers=headers)
    assert "errors" not in body, body
    return body


async def test_another_identity_with_the_same_key_runs_its_own_call(make_api: ApiFactory) -> None:
    async with make_api(SETTINGS) as api:
        await record(api, INGEST, range(1, 4))
        assert await trades(api) == 3
        await record(api, ADMIN, range(1, 4))  # same key, same arguments: another caller's
        assert await trades(api) == 6
        await record(api, INGEST, range(1, 4))  # the first caller's retry: its own answer
        assert await trades(api) == 6
        owners = sorted((r["_id"], r["owner"]) for r in await key_records(api))
        assert owners == [
            ("recordTrades:k-1", ""),
            ("service:ingest:recordTrades:k-1", "service:ingest"),
        ]


async def test_another_identity_never_meets_the_first_ones_arguments(
    make_api: ApiFactory,
) -> None:
    async with make_api(SETTINGS) as api:
        await record(api, INGEST, range(1, 4))
        # Other arguments under the same key: not "used for another request", which would tell
        # this caller that someone else used the key.
        await record(api, ADMIN, range(1, 2))
        assert await trades(api) == 4


async def test_a_record_stored_before_identities_replays_to_admin(make_api: ApiFactory) -> None:
    async with make_api(SETTINGS) as api:
        legacy = await record(api, ADMIN, range(1, 4))
        await api.collection("idempotency_keys").update_one({}, {"$unset": {"owner": ""}})
        assert [r["_id"] for r in await key_records(api)] == ["recordTrades:k-1"]
        assert await record(api, ADMIN, range(1, 4)) == legacy
        assert await trades(api) == 3
        await record(api, INGEST, range(1, 4))
        assert await trades(api) == 6
