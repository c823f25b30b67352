"""The roles and permissions table of docs/security.md, written from the declarations: each
root field's permission, each Node type's, the roles' table. `python -m
tests.permissions.docs_table` prints it; a test checks the docs hold it as printed."""

from __future__ import annotations

import runtime
from resolvers.access.permissions import MEANINGS, Permission
from resolvers.access.roles import ROLE_PERMISSIONS, SIGNED_IN
from schema.facts import declared
from schema.nodes import node_types
from schema.permissions import root_types
from tests.permissions.expected import built

ROLES = ("reader", "ingest", "admin")


def _fields(permission: Permission) -> str:
    schema = built()
    names = [
        f"`{name}`"
        for root in root_types(schema)
        for name in root.fields
        if declared(runtime.field_metadata(root, name)).permission is permission
    ]
    names += [
        f"`{name}` ids" for name, cls in sorted(node_types().items())
        if cls.KIND.permission is permission
    ]  # fmt: skip
    return ", ".join(names)


def _cell(permission: Permission, role: str) -> str:
    return "yes" if permission in ROLE_PERMISSIONS[role] else ""


def table() -> str:
    head = "| permission | allows | fields | " + " | ".join(ROLES) + " | signed-in user |"
    lines = [head, "| --- " * (4 + len(ROLES)) + "|"]
    for permission in Permission:
        cells = [_cell(permission, role) for role in ROLES]
        own = "own" if permission in SIGNED_IN else ""
        row = [f"`{permission}`", MEANINGS[permission], _fields(permission), *cells, own]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
