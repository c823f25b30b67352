"""Each field's permission checked before its resolver runs: the one place calls are allowed or
refused (resolvers/access/: the roles, the refusals; the record rules run in the resolvers that
read a record's key).

Built once, when the schema is: each root field's resolver is wrapped with the check of the
permission it declares (schema/facts.py); a field of an object that declares `AS_ITS_OBJECT`
answers whoever was answered its object and is not wrapped, so fields under a root one pay
nothing, and a mutation's payload answers whoever may make the call. A request whose identity
needs no verification (no `Authorization` header, or verified already) is checked without a
coroutine; one whose credential waits is verified first. With nothing configured in development
every caller may do everything, and no field is wrapped but one that declares no rule, or one
that does not fit where it is (`AS_ITS_OBJECT` on a root field, `EACH_NODE` under one): refused
to everyone, so a new field is closed until it declares one.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from graphql import GraphQLFieldResolver, GraphQLObjectType, GraphQLSchema

import runtime
from resolvers.access.grants import refusal
from resolvers.access.permissions import Permission
from resolvers.access.roles import is_open
from resolvers.errors import Forbidden
from schema.facts import Rule, declared
from settings import Settings

Needed = Permission | frozenset[Permission]


def root_types(schema: GraphQLSchema) -> list[GraphQLObjectType]:
    return [root for root in (schema.query_type, schema.mutation_type) if root is not None]


def needed(
    parent_type: GraphQLObjectType,
    name: str,
    node_permissions: frozenset[Permission],
    *,
    root: bool,
) -> Needed | Rule | None:
    """What a field needs, as it declares it: a permission (or one of `node_permissions`, for
    `EACH_NODE`), `AS_ITS_OBJECT`, or None when it declares nothing that fits where it is."""
    permission = declared(runtime.field_metadata(parent_type, name)).permission
    if permission is Rule.EACH_NODE:
        return node_permissions if root else None
    if permission is Rule.AS_ITS_OBJECT:
        return None if root else permission
    return permission


def guard_fields(
    schema: GraphQLSchema, settings: Settings, node_permissions: frozenset[Permission]
) -> None:
    """Wrap every field's resolver with its permission's check, or refuse it when it declares
    none (`node_permissions`: what `node`/`nodes` need, one of the Node types' permissions)."""
    configured = settings.auth_required
    open_to_all = is_open(settings)
    roots = root_types(schema)
    for parent_type, name in runtime.object_fields(schema):
        field = parent_type.fields[name]
        label = name if parent_type in roots else f"{parent_type.name}.{name}"
        permission = needed(parent_type, name, node_permissions, root=parent_type in roots)
        if permission is None:
            field.resolve = _closed(label)
        elif isinstance(permission, Rule):
            continue  # its object's: checked where the object was reached
        elif not open_to_all and field.resolve is not None:
            field.resolve = _guarded(field.resolve, permission, label, configured=configured)


def _closed(name: str) -> GraphQLFieldResolver:
    def closed(source: Any, info: Any, **arguments: Any) -> Any:
        raise Forbidden(f"{name}: not allowed: it declares no permission")

    return closed


def _guarded(
    resolve: GraphQLFieldResolver, permission: Needed, name: str, *, configured: bool
) -> Callable[..., Any]:
    async def verified_first(source: Any, info: Any, **arguments: Any) -> Any:
        identity = await info.context.identity()  # a credential not accepted raises
        refused = refusal(identity, permission, name, configured=configured)
        if refused is not None:
            raise refused
        result = resolve(source, info, **arguments)
        return await result if inspect.isawaitable(result) else result

    def guarded(source: Any, info: Any, **arguments: Any) -> Any:
        identity = info.context.identity_at_hand()
        if identity is None:
            return verified_first(source, info, **arguments)
        refused = refusal(identity, permission, name, configured=configured)
        if refused is not None:
            raise refused
        return resolve(source, info, **arguments)

    return guarded
