"""Chat: sessions (`sessions`: lookups, the list, creating and deleting them), their messages
(`messages`: the connection by `seq`, posting, editing, deleting) and their members (`members`:
the connection by member id, adding and removing them). The record rules they apply are in
`resolvers/access/`."""

from __future__ import annotations
