"""Global object ids: one opaque `id` per entity, unique across types and owners.

An id is the unpadded base64url of the compact JSON array `[type, *key]`: `["Sensor", "<hex>"]`,
`["Order", "<userId>", "<orderId>"]`, `["Trade", customerId, page, offset]`... Decoding is exact:
an id is read only when re-encoding what it holds gives it back, and each key part has the type
and shape of its domain id, so a forged id is refused, never half-read.

Every argument that names an object takes either form: `domain_or_global` reads a global id of
the expected type, refuses one of another type, and leaves anything else to be read as the
domain id. No domain id may be shaped like a global id (base64url of a JSON array that begins
with a string, `looks_like_global_id`), whatever its type: `domain_or_global` refuses such a
string that is not a global id of the expected type, and no key part of a global id may be one
(an id encoded twice), so a free-text id (a user id, an order id, a measurement name) that any
argument takes, to read or to write, never reads as another object's id. docs/clients.md says so.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

import orjson

from resolvers import validation
from resolvers.access.permissions import Permission
from resolvers.base64url import unpadded_base64url
from resolvers.errors import BadUserInput, shown

KeyPart: TypeAlias = str | int
Key: TypeAlias = tuple[KeyPart, ...]

BASE64URL = re.compile(r"[A-Za-z0-9_-]+")
HEX_OBJECT_ID = re.compile(r"[0-9a-f]{24}")
GRAPHQL_INT_MAX = 2**31 - 1
# The longest key, an order of a 128-character user id and a 64-character order id, all of
# 4-byte characters, encodes to 1,043 characters.
MAX_GLOBAL_ID_LENGTH = 2_048


KeyShape: TypeAlias = Callable[[object], bool]


def object_id_part(part: object) -> bool:
    """A key part that is an ObjectId's 24 hex digits."""
    return isinstance(part, str) and HEX_OBJECT_ID.fullmatch(part) is not None


def text_part(maximum: int) -> KeyShape:
    """A key part with the shape its domain argument checks (validation.text), no global id."""

    def check(part: object) -> bool:
        return (
            isinstance(part, str)
            and validation.is_text(part, maximum=maximum)
            and not looks_like_global_id(part)
        )

    return check


def whole_part(minimum: int) -> KeyShape:
    # GraphQL Int is 32-bit: a customer, page or offset past it could be stored, never shown.
    return lambda part: type(part) is int and minimum <= part <= GRAPHQL_INT_MAX


@dataclass(frozen=True, slots=True)
class NodeKind:
    """A Node type's identity, declared beside its domain's resolvers: its name in ids, its
    key, part by part, each with its domain id's exact shape, and the permission that reads it
    (resolvers/access/: for an end user's own records, the key's first part names the owner).
    The schema's type declares its kind and how a key loads it (schema/node.py); `node(id:)`
    dispatches over those, answering null for an object the caller may not read."""

    type_name: str
    key: tuple[KeyShape, ...]
    permission: Permission

    def key_of(self, decoded: list[Any]) -> Key | None:
        """The key a decoded id holds when it is one of this kind, in shape."""
        key = tuple(decoded[1:])
        if decoded[0] != self.type_name or len(key) != len(self.key):
            return None
        return key if all(ok(part) for ok, part in zip(self.key, key, strict=True)) else None


def global_id(type_name: str, *key: KeyPart) -> str:
    return unpadded_base64url(orjson.dumps([type_name, *key]))


def _decoded(value: str) -> list[Any] | None:
    """What `value` holds when it is shaped like a global id: base64url (padding left out) of a
    JSON array that begins with a string (a type name, known or not); None otherwise."""
    # Every id encodes a JSON array, whose "[" is base64's "W": anything else is not one.
    if not value.startswith("W") or len(value) > MAX_GLOBAL_ID_LENGTH:
        return None
    if not BASE64URL.fullmatch(value):
        return None
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        decoded = orjson.loads(raw)
    except (binascii.Error, ValueError):
        return None
    # The type must be a string before it is looked up: `[[1]]` decodes to an unhashable one.
    if not isinstance(decoded, list) or not decoded or not isinstance(decoded[0], str):
        return None
    return decoded


def looks_like_global_id(value: str) -> bool:
    """Whether `value` is shaped like a global id (of any type, well-formed or not): what no
    domain id may be, so that no id the API answers reads as another object's."""
    return _decoded(value) is not None


def parse_global_id(value: str, kind: NodeKind) -> Key | None:
    """The key a global id of `kind` holds; None when `value` is not exactly one (a key part
    shaped like a global id, an id encoded twice, is not)."""
    decoded = _decoded(value)
    return None if decoded is None else _key(value, decoded, kind)


def global_id_of(value: str, kinds: Mapping[str, NodeKind]) -> tuple[NodeKind, Key] | None:
    """The kind, among `kinds`, and the key of a global id; None when `value` is not exactly
    the global id of one of them."""
    decoded = _decoded(value)
    kind = None if decoded is None else kinds.get(decoded[0])
    key = None if kind is None or decoded is None else _key(value, decoded, kind)
    return None if kind is None or key is None else (kind, key)


def _key(value: str, decoded: list[Any], kind: NodeKind) -> Key | None:
    """The key `decoded` (what `value` decodes to) holds when `value` is exactly its encoding as
    a global id of `kind`."""
    key = kind.key_of(decoded)
    if key is None or global_id(kind.type_name, *key) != value:
        return None
    return key


def _not_one(value: str, decoded: list[Any], type_name: str, argument: str) -> BadUserInput:
    """Why a string shaped like a global id is none of `type_name`, as BadUserInput."""
    if any(isinstance(part, str) and looks_like_global_id(part) for part in decoded[1:]):
        why = "holds a global id in its key (an id encoded twice)"
    elif decoded[0] != type_name:
        why = f"is shaped like the global id of another type than {type_name}"
    else:
        why = f"is shaped like a global id but is not one of a {type_name}"
    return BadUserInput(
        f"{argument}: {shown(value)} {why}: a domain id may not look like one", argument=argument
    )


def domain_or_global(value: str, kind: NodeKind, *, argument: str) -> Key | None:
    """The key of `value` when it is a global id of `kind`; None when it is not shaped like
    a global id at all (the caller reads it as the domain id, which so never looks like one).
    Anything else is BadUserInput: another type's global id, or a string shaped like one that
    names no `kind` (a key of the wrong shape, an id encoded twice), also where the domain
    id is free text, since read as a domain id it could be stored, answered, and sent back
    where it reads as another object's id."""
    decoded = _decoded(value)
    if decoded is None:
        return None
    key = _key(value, decoded, kind)
    if key is not None:
        return key
    if decoded[0] != kind.type_name and _well_formed(value, decoded):
        raise BadUserInput(
            f"{argument}: is the id of a {decoded[0]}, not of a {kind.type_name}",
            argument=argument,
        )
    raise _not_one(value, decoded, kind.type_name, argument)


def _well_formed(value: str, decoded: list[Any]) -> bool:
    """Whether `value` encodes exactly what it decodes to, no key part a global id itself."""
    key = decoded[1:]
    if any(isinstance(part, str) and looks_like_global_id(part) for part in key):
        return False
    return global_id(str(decoded[0]), *key) == value


def owned_key(value: str, kind: NodeKind, owner: KeyPart, *, argument: str) -> str | None:
    """The own part of a global id whose key is `(owner, own id)` (an order, a message), when
    `value` is one; BadUserInput when it belongs to another owner than the call names."""
    key = domain_or_global(value, kind, argument=argument)
    if key is None:
        return None
    if key[0] != owner:
        raise BadUserInput(
            f"{argument}: names a {kind.type_name} of another owner than this call's",
            argument=argument,
        )
    return str(key[1])


def domain_id(value: str, kind: NodeKind, *, argument: str) -> str:
    """The domain id `value` names, in either form (for types keyed by one string); never a
    string shaped like a global id."""
    key = domain_or_global(value, kind, argument=argument)
    return value if key is None else str(key[0])


def stored_id_reading(value: str, kinds: Mapping[str, NodeKind]) -> str | None:
    """What a stored free-text id (from before ids shaped like global ids were refused) reads
    as instead of its own object, among `kinds`: the object it is the global id of, or nothing
    (every argument refuses it); None for an id that names only its own object."""
    if _decoded(value) is None:
        return None
    found = global_id_of(value, kinds)
    if found is None:
        return "nothing: it is shaped like a global id, and every argument refuses it"
    kind, key = found
    return f"the {kind.type_name} " + ", ".join(shown(part) for part in key)
