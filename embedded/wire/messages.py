"""What travels between PyMongo and the wire front: MongoDB's messages, and the commands in them.

A message is a 16-byte header (length, requestID, responseTo, opCode; little-endian int32s) and a
body. PyMongo 4 sends its first handshake as OP_QUERY on `<db>.$cmd`, answered with OP_REPLY, and
every other command as OP_MSG: flag bits, one kind-0 section (the command document), kind-1
sections (document sequences: an insert's `documents`, an update's `updates`, a delete's
`deletes`), and a CRC-32C checksum when the checksumPresent flag is set, which is skipped, not
verified (loopback cannot corrupt it). BSON is PyMongo's own `bson` package.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from datetime import UTC
from typing import Any

import bson
from bson.codec_options import CodecOptions

from embedded.protocols import Document

HEADER = struct.Struct("<iiii")
OP_REPLY = 1
OP_QUERY = 2004
OP_MSG = 2013

MAX_MESSAGE_BYTES = 48_000_000  # the server's maxMessageSizeBytes
_CHECKSUM_PRESENT = 1 << 0
_MORE_TO_COME = 1 << 1

# Datetimes arrive as the store sends them to the in-process engine: aware, in UTC.
DECODING: CodecOptions[Document] = CodecOptions(tz_aware=True, tzinfo=UTC)


class ProtocolError(Exception):
    """A message the front cannot read: the connection is closed, as a server would."""


@dataclass(frozen=True, slots=True)
class Request:
    """A command as the front runs it; `body` holds the document sequences under their names."""

    body: dict[str, Any]
    connection_id: int

    @property
    def name(self) -> str:
        return next(iter(self.body), "")

    @property
    def db(self) -> str:
        return str(self.body.get("$db", "admin"))

    @property
    def target(self) -> str:
        """The collection a collection-level command (`{find: "users", ...}`) names."""
        return str(self.body[self.name])

    @property
    def namespace(self) -> str:
        return f"{self.db}.{self.target}"


@dataclass(frozen=True, slots=True)
class Message:
    request_id: int
    opcode: int
    command: dict[str, Any]
    answer: bool  # False when the client said moreToCome: it waits for no reply


def _document(payload: bytes, position: int) -> tuple[dict[str, Any], int]:
    (size,) = struct.unpack_from("<i", payload, position)
    if size < 5 or position + size > len(payload):
        raise ProtocolError("a BSON document overruns its message")
    return bson.decode(payload[position : position + size], DECODING), position + size


def _op_msg(payload: bytes) -> tuple[dict[str, Any], bool]:
    (flags,) = struct.unpack_from("<I", payload, 0)
    end = len(payload) - (4 if flags & _CHECKSUM_PRESENT else 0)
    body: dict[str, Any] | None = None
    sequences: dict[str, list[dict[str, Any]]] = {}
    position = 4
    while position < end:
        kind = payload[position]
        if kind == 0:
            body, position = _document(payload, position + 1)
            continue
        if kind != 1:
            raise ProtocolError(f"unknown OP_MSG section kind {kind}")
        (size,) = struct.unpack_from("<i", payload, position + 1)
        section_end = position + 1 + size
        name_end = payload.index(b"\x00", position + 5, section_end)
        name = payload[position + 5 : name_end].decode()
        sequences[name] = bson.decode_all(payload[name_end + 1 : section_end], DECODING)
        position = section_end
    if body is None:
        raise ProtocolError("an OP_MSG without a body")
    body.update(sequences)
    return body, not flags & _MORE_TO_COME


def _op_query(payload: bytes) -> dict[str, Any]:
    """A command sent as OP_QUERY on `<db>.$cmd` (the handshake); `$db` is added to it."""
    name_end = payload.index(b"\x00", 4)
    collection = payload[4:name_end].decode()
    query, _ = _document(payload, name_end + 9)  # past numberToSkip and numberToReturn
    command = query.get("$query", query)  # the wrapped form, with read preference beside it
    if not isinstance(command, dict):
        raise ProtocolError("an OP_QUERY whose $query is not a document")
    command.setdefault("$db", collection.partition(".")[0])
    return command


def parse(request_id: int, opcode: int, payload: bytes) -> Message:
    """The message whose header gave `request_id` and `opcode`, and whose body is `payload`."""
    try:
        if opcode == OP_MSG:
            command, answer = _op_msg(payload)
            return Message(request_id, opcode, command, answer)
        if opcode == OP_QUERY:
            return Message(request_id, opcode, _op_query(payload), True)
    except (struct.error, ValueError, IndexError, bson.errors.BSONError) as exc:
        raise ProtocolError(f"an unreadable message: {exc}") from exc
    raise ProtocolError(f"opcode {opcode} is not served")


def reply(message: Message, request_id: int, document: bytes) -> bytes:
    """The reply to `message` carrying one encoded document, in the form its opcode calls for."""
    if message.opcode == OP_QUERY:
        # OP_REPLY: responseFlags, cursorID, startingFrom, numberReturned.
        body = struct.pack("<iqii", 0, 0, 0, 1) + document
        opcode = OP_REPLY
    else:
        body = struct.pack("<IB", 0, 0) + document  # flagBits, then the kind-0 section
        opcode = OP_MSG
    header = HEADER.pack(HEADER.size + len(body), request_id, message.request_id, opcode)
    return header + body
