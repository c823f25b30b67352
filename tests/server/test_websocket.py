"""GraphQL over WebSocket is not served: the endpoint's route is HTTP's alone, and a WebSocket
connection to it is closed before it is accepted (as it always was; web/endpoint/view.py).

The app is driven through its ASGI interface directly, as a server hands it a connection.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import MutableMapping
from typing import Any

from app import create_app
from settings import Settings
from store.database import Database
from tests.support import FakeClock, running

SUBSCRIBE = {"id": "1", "type": "subscribe", "payload": {"query": "{ __typename }"}}


async def test_websocket_connection_to_the_endpoint_is_closed_unaccepted(
    database: Database,
) -> None:
    app = create_app(Settings(), clock=FakeClock(), database=database)
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    sent: list[MutableMapping[str, Any]] = []
    await inbox.put({"type": "websocket.connect"})
    for message in ({"type": "connection_init"}, SUBSCRIBE):
        await inbox.put({"type": "websocket.receive", "text": json.dumps(message)})
    scope = {
        "type": "websocket",
        "path": "/graphql",
        "raw_path": b"/graphql",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "subprotocols": ["graphql-transport-ws"],
        "scheme": "ws",
    }

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    async with running(app):
        await asyncio.wait_for(app(scope, inbox.get, send), 10)
    assert [message["type"] for message in sent] == ["websocket.close"]
