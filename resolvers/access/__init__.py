"""Who may call what: the permissions fields declare (`permissions`), the roles that grant them
(`roles`), what one caller holds and how a refusal reads (`grants`), and the record rules of an
end user's own users, orders and chat sessions (`records`, `members`).

The schema declares a permission on each root field and each Node type (schema/facts.py,
resolvers/global_ids.py `NodeKind`); schema/permissions.py checks a root field's before its
resolver runs; the record rules run where a resolver reads the record's key.
"""

from __future__ import annotations
