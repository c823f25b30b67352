"""The costliest request of each root field of Mutation the default limits allow, on the demo
data (bench/costliest/; bench/costliest/requests.py has the queries and says how they are
built).

Every run writes: each alias names a fresh user, customer, idempotency key or client message
id, or what it renames, edits or deletes was made for it just before (unmeasured). Long texts
are at their longest, in characters of 4 UTF-8 bytes, but where the request's body would pass
ARRAYGRAPH_MAX_REQUEST_BYTES; a batch every alias writes travels once, as a variable.
"""

from __future__ import annotations

import string
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.costliest.requests import (
    CUSTOMER,
    MESSAGE,
    SENSOR,
    SESSION,
    Costliest,
    Fixtures,
    Request,
    user_selection,
)
from settings import (
    MAX_ALIASES,
    MAX_AUTHOR_LENGTH,
    MAX_BATCH_SIZE,
    MAX_FIELDS_PER_MEASUREMENT,
    MAX_MESSAGE_TEXT_LENGTH,
    MAX_ORDER_INFO_LENGTH,
    MAX_ORDERS_PER_CALL,
    MAX_PAGE_SIZE,
    MAX_TICKER_LENGTH,
    MAX_TITLE_LENGTH,
    MAX_TRADES_PER_CALL,
    MAX_USER_TEXT_LENGTH,
)

WIDE = "\U0001d51e"  # 4 bytes in UTF-8, the most a character takes
KEY_LENGTH = 64  # idempotency keys and client message ids at their longest


def wide(length: int, first: str = WIDE) -> str:
    return first + WIDE * (length - 1)


def key(fx: Fixtures) -> str:
    fresh = fx.fresh("k")
    return "k" * (KEY_LENGTH - len(fresh)) + fresh


async def _aliased(fx: Fixtures, fields: list[str], **variables: tuple[str, Any]) -> list[Any]:
    """Set-up, unmeasured: `fields` in requests of at most MAX_ALIASES aliases; their data."""
    definitions = ", ".join(f"${name}: {kind}" for name, (kind, _) in variables.items())
    values = {name: value for name, (_, value) in variables.items()}
    found: list[Any] = []
    for first in range(0, len(fields), MAX_ALIASES):
        chunk = fields[first : first + MAX_ALIASES]
        head = f"mutation({definitions})" if definitions else "mutation"
        body = " ".join(f"a{i}: {f}" for i, f in enumerate(chunk))
        data = await fx.client.call(f"{head} {{ {body} }}", values)
        found += [data[f"a{i}"] for i in range(len(chunk))]
    return found


async def new_sensors(fx: Fixtures, count: int) -> list[str]:
    made = await _aliased(fx, [f'createSensor(title: "{fx.fresh("s")}") {{ sensorId }}'] * count)
    return [m["sensorId"] for m in made]


async def sensor_pool(fx: Fixtures, count: int) -> list[str]:
    """`count` sensors made for the batches, kept from one run to the next."""
    if len(fx.made_sensors) < count:
        fx.made_sensors += await new_sensors(fx, count - len(fx.made_sensors))
    return fx.made_sensors[:count]


async def _create_sensor(fx: Fixtures, aliases: int, size: int) -> Request:
    one = f"createSensor(title: $title) {{ {SENSOR} }}"
    return Request(
        "mutation", [one] * aliases, ["$title: String!"], {"title": wide(MAX_TITLE_LENGTH)}
    )


async def _rename_sensor(fx: Fixtures, aliases: int, size: int) -> Request:
    ids = await new_sensors(fx, aliases)
    fields = [f'renameSensor(id: "{i}", title: $title) {{ {SENSOR} }}' for i in ids]
    return Request("mutation", fields, ["$title: String!"], {"title": wide(MAX_TITLE_LENGTH)})


async def _delete_sensor(fx: Fixtures, aliases: int, size: int) -> Request:
    ids = await new_sensors(fx, aliases)
    return Request("mutation", [f'deleteSensor(id: "{i}")' for i in ids])


async def _record_events(fx: Fixtures, aliases: int, size: int) -> Request:
    sensors = await sensor_pool(fx, size)
    now = datetime.now(UTC)
    events = [
        {"sensorId": sensors[n % size], "at": (now - timedelta(seconds=n)).isoformat(),
         "count": 2, "value": 1.5}
        for n in range(size)
    ]  # fmt: skip
    fields = [
        f'recordSensorEvents(events: $events, idempotencyKey: "{key(fx)}") {{ accepted '
        f"rejected {{ index sensorId code message }} sensors {{ {SENSOR} }} }}"
        for _ in range(aliases)
    ]
    return Request("mutation", fields, ["$events: [SensorEventInput!]!"], {"events": events})


def _orders(count: int, info: str) -> list[dict[str, Any]]:
    now = datetime.now(UTC)
    return [
        {"id": f"o{n:04}", "createTime": (now - timedelta(minutes=n)).isoformat(), "info": info}
        for n in range(count)
    ]


async def _upsert_orders(fx: Fixtures, aliases: int, size: int) -> Request:
    fields = [
        f'upsertOrders(userId: "{fx.fresh("u")}", userType: $text, name: $text, '
        f"orders: $orders) {{ {user_selection()} }}"
        for _ in range(aliases)
    ]
    # ASCII: 500 orders of 1,000 characters of 4 bytes would pass the request's bytes.
    variables = {
        "text": wide(MAX_USER_TEXT_LENGTH),
        "orders": _orders(MAX_ORDERS_PER_CALL, "i" * MAX_ORDER_INFO_LENGTH),
    }
    return Request("mutation", fields, ["$text: String!", "$orders: [OrderInput!]!"], variables)


async def _delete_orders(fx: Fixtures, aliases: int, size: int) -> Request:
    """Each alias's user holds a call's orders and a page more; it deletes the call's, and
    reads the page back."""
    users = [fx.fresh("u") for _ in range(aliases)]
    both = _orders(MAX_PAGE_SIZE + MAX_ORDERS_PER_CALL, "i")
    newer, older = both[:MAX_PAGE_SIZE], both[MAX_PAGE_SIZE:]
    for batch in (older, newer):
        upserts = [f'upsertOrders(userId: "{u}", orders: $orders) {{ orderCount }}' for u in users]
        await _aliased(fx, upserts, orders=("[OrderInput!]!", batch))
    fields = [
        f'deleteOrders(userId: "{u}", orderIds: $ids) {{ {user_selection()} }}' for u in users
    ]
    ids = [order["id"] for order in older]
    return Request("mutation", fields, ["$ids: [ID!]!"], {"ids": ids})


async def _record_trades(fx: Fixtures, aliases: int, size: int) -> Request:
    start = datetime(2024, 1, 1, tzinfo=UTC)
    trades = [
        {"type": "BUY" if n % 2 else "SELL", "ticker": "T" * MAX_TICKER_LENGTH, "qty": n + 1,
         "date": (start + timedelta(minutes=n)).isoformat()}
        for n in range(MAX_TRADES_PER_CALL)
    ]  # fmt: skip
    fields = [
        f'recordTrades(customerId: {fx.number()}, trades: $trades, idempotencyKey: "{key(fx)}") '
        f"{{ customer {{ {CUSTOMER} }} pageNumbers }}"
        for _ in range(aliases)
    ]
    return Request("mutation", fields, ["$trades: [TradeInput!]!"], {"trades": trades})


def _observations(size: int) -> list[dict[str, Any]]:
    """A batch of every field a measurement may have, each observation in an hour of its own;
    one-letter names and whole values, so that the batch stays within the request's bytes."""
    names = string.ascii_letters[:MAX_FIELDS_PER_MEASUREMENT]
    start = datetime(2024, 1, 1, tzinfo=UTC)
    return [
        {"measurement": "costliest", "at": f"{start + timedelta(hours=n):%Y-%m-%dT%H:%M:%SZ}",
         "tags": [{"key": "station", "value": f"s{n % 10}"}],
         "fields": [{"name": name, "value": n} for name in names]}
        for n in range(size)
    ]  # fmt: skip


async def _record_observations(fx: Fixtures, aliases: int, size: int) -> Request:
    fields = [
        f'recordObservations(observations: $batch, idempotencyKey: "{key(fx)}") {{ applied }}'
        for _ in range(aliases)
    ]
    variables = {"batch": _observations(size)}
    return Request("mutation", fields, ["$batch: [ObservationInput!]!"], variables)


async def _create_session(fx: Fixtures, aliases: int, size: int) -> Request:
    one = f"createChatSession(title: $title) {{ {SESSION} }}"
    return Request(
        "mutation", [one] * aliases, ["$title: String!"], {"title": wide(MAX_TITLE_LENGTH)}
    )


def _message_variables(fx: Fixtures) -> tuple[list[str], dict[str, Any]]:
    """The demo session, and a text at its longest that no earlier run sent."""
    text = wide(MAX_MESSAGE_TEXT_LENGTH, first=fx.fresh("t"))[:MAX_MESSAGE_TEXT_LENGTH]
    return ["$session: ID!", "$text: String!"], {"session": fx.session_id, "text": text}


async def _post_message(fx: Fixtures, aliases: int, size: int) -> Request:
    definitions, variables = _message_variables(fx)
    fields = [
        f"postMessage(sessionId: $session, author: $author, text: $text, "
        f'clientMessageId: "{key(fx)}") {{ {MESSAGE} }}'
        for _ in range(aliases)
    ]
    variables["author"] = wide(MAX_AUTHOR_LENGTH)
    return Request("mutation", fields, [*definitions, "$author: String!"], variables)


async def _edit_message(fx: Fixtures, aliases: int, size: int) -> Request:
    definitions, variables = _message_variables(fx)
    fields = [
        f'editMessage(sessionId: $session, messageId: "{m}", text: $text) {{ {MESSAGE} }}'
        for m in fx.old_messages[:aliases]
    ]
    return Request("mutation", fields, definitions, variables)


async def _delete_message(fx: Fixtures, aliases: int, size: int) -> Request:
    fields = [
        f'deleteMessage(sessionId: $session, messageId: "{m}") {{ {MESSAGE} }}'
        for m in fx.take_messages(aliases)
    ]
    return Request("mutation", fields, ["$session: ID!"], {"session": fx.session_id})


async def _delete_session(fx: Fixtures, aliases: int, size: int) -> Request:
    """Sessions of one message each, made for the run."""
    made = await _aliased(
        fx, [f'createChatSession(title: "{fx.fresh("c")}") {{ sessionId }}'] * aliases
    )
    ids = [m["sessionId"] for m in made]
    posts = [f'postMessage(sessionId: "{i}", author: "a", text: "t") {{ seq }}' for i in ids]
    await _aliased(fx, posts)
    return Request("mutation", [f'deleteChatSession(id: "{i}")' for i in ids])


MUTATIONS = [
    Costliest("createSensor", "title of 200 characters", _create_sensor),
    Costliest("renameSensor", "a new sensor each", _rename_sensor),
    Costliest("deleteSensor", "a new sensor each", _delete_sensor),
    Costliest(
        "recordSensorEvents",
        "1,000 events over {size} sensors",
        _record_events,
        size=MAX_BATCH_SIZE,
    ),
    Costliest("upsertOrders", "500 orders of 1,000 characters, new user", _upsert_orders),
    Costliest("deleteOrders", "500 of a user's 600 orders", _delete_orders),
    Costliest("recordTrades", "100 trades, new customer", _record_trades),
    Costliest(
        "recordObservations",
        "{size:,} of 32 fields, an hour each",
        _record_observations,
        size=MAX_BATCH_SIZE,
    ),
    Costliest("createChatSession", "title of 200 characters", _create_session),
    Costliest("postMessage", "4,000 characters, to the demo session", _post_message),
    Costliest("editMessage", "4,000 characters, the session's oldest", _edit_message),
    Costliest("deleteMessage", "the session's oldest", _delete_message),
    Costliest("deleteChatSession", "a new session of one message each", _delete_session),
]
