"""What the rules say a caller gets from a root field: read from the field's declared
permission (as the built schema holds it) and the roles' table, never from a call's answer."""

from __future__ import annotations

from graphql import GraphQLObjectType, GraphQLSchema

import runtime
from resolvers.access.permissions import Permission
from schema.nodes import node_kinds
from schema.permissions import needed
from schema.schema import build_schema
from tests.permissions.callers import SESSION_MEMBER, Caller
from tests.permissions.calls import Call

ALLOWED = "allowed"
ABSENT = "as if absent"  # null, empty, or NOT_FOUND for a mutation
FORBIDDEN = "FORBIDDEN"
UNAUTHENTICATED = "UNAUTHENTICATED"


def built() -> GraphQLSchema:
    return runtime.graphql_schema(build_schema())


def node_permissions() -> frozenset[Permission]:
    return frozenset(kind.permission for kind in node_kinds().values())


def outcome(root: GraphQLObjectType, name: str, call: Call, caller: Caller) -> str:
    permission = needed(root, name, node_permissions(), root=True)
    assert isinstance(permission, Permission | frozenset), (
        f"{root.name}.{name} declares no permission"
    )
    access = caller.access
    held = (
        access.holds(permission)
        if isinstance(permission, Permission)
        else access.holds_any(permission)
    )
    if not held:
        return UNAUTHENTICATED if caller.identity.is_anonymous else FORBIDDEN
    if call.for_services is not None and not (
        call.record is not None and access.reaches_every(call.record)
    ):
        return FORBIDDEN  # an argument only a role reaching every record sends
    if call.record is None or access.reaches_every(call.record):
        return ALLOWED
    if call.owner == "B" and access.holds(call.record) and access.is_user("B"):
        return ALLOWED
    if call.owner == "session" and access.holds(call.record) and access.is_user(SESSION_MEMBER):
        # A member who is not the owner (the seeded session has none), and wrote its message:
        # what only the owner may do is refused, what a member may do is not.
        return FORBIDDEN if call.record is Permission.CHAT_OWN else ALLOWED
    return ABSENT  # another's record, or a session the caller is no member of
