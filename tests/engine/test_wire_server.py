"""The wire front as a server: its thread and event loop, its messages, its life cycle."""

from __future__ import annotations

import asyncio
import socket
import struct
import threading

import bson
import pytest
from pymongo import AsyncMongoClient, WriteConcern

from embedded import EmbeddedEngine
from embedded.wire import WireServer, start_wire_server
from embedded.wire.messages import HEADER, OP_MSG
from tests.engine.wire_support import Client

CHECKSUM_PRESENT = 1


def _exchange(server: WireServer, message: bytes) -> dict[str, object]:
    """Sends one raw message and returns the body of the OP_MSG reply."""
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        sock.sendall(message)
        header = sock.recv(HEADER.size, socket.MSG_WAITALL)
        length, _, response_to, opcode = HEADER.unpack(header)
        payload = sock.recv(length - HEADER.size, socket.MSG_WAITALL)
    assert (response_to, opcode) == (7, OP_MSG)
    return bson.decode(payload[5:])


def test_an_op_msg_with_a_checksum_is_answered(server: WireServer) -> None:
    body = bson.encode({"ping": 1, "$db": "admin"})
    payload = struct.pack("<IB", CHECKSUM_PRESENT, 0) + body + b"\0\0\0\0"  # not verified
    message = HEADER.pack(HEADER.size + len(payload), 7, 0, OP_MSG) + payload
    assert _exchange(server, message) == {"ok": 1.0}


def test_an_op_msg_with_a_document_sequence_inserts_them(server: WireServer) -> None:
    body = bson.encode({"insert": "things", "$db": "test"})
    docs = b"".join(bson.encode({"_id": i}) for i in range(3))
    sequence = struct.pack("<i", 4 + len(b"documents\0") + len(docs)) + b"documents\0" + docs
    payload = struct.pack("<IB", 0, 0) + body + b"\x01" + sequence
    message = HEADER.pack(HEADER.size + len(payload), 7, 0, OP_MSG) + payload
    assert _exchange(server, message) == {"n": 3, "ok": 1.0}


async def test_an_unacknowledged_write_gets_no_reply_and_is_applied(client: Client) -> None:
    coll = client["test"]["things"].with_options(write_concern=WriteConcern(w=0))
    await coll.insert_one({"_id": 1})
    assert await client["test"]["things"].find_one({}) == {"_id": 1}


async def test_the_front_serves_the_engine_the_adapter_uses(
    server: WireServer, client: Client
) -> None:
    await server.engine["test"]["things"].insert_one({"_id": "in-process"})
    assert await client["test"]["things"].find_one({}) == {"_id": "in-process"}


def test_clients_on_other_event_loops_use_the_front_at_once(server: WireServer) -> None:
    async def insert(i: int) -> None:
        client: Client = AsyncMongoClient(server.uri, serverSelectionTimeoutMS=5_000)
        await client["test"]["things"].insert_many([{"_id": f"{i}-{j}"} for j in range(20)])
        await client.close()

    threads = [threading.Thread(target=asyncio.run, args=(insert(i),)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    count = asyncio.run(server.engine["test"]["things"].count_documents({}))
    assert count == 80


def test_start_returns_once_it_accepts_and_stop_closes_it() -> None:
    front = start_wire_server(EmbeddedEngine())
    socket.create_connection(("127.0.0.1", front.port), timeout=5).close()
    front.stop()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", front.port), timeout=5).close()


async def test_stop_returns_while_clients_are_connected(server: WireServer, client: Client) -> None:
    await client.admin.command("ping")
    await asyncio.wait_for(asyncio.to_thread(server.stop), timeout=15)
    with pytest.raises(OSError):
        socket.create_connection((server.host, server.port), timeout=5).close()
