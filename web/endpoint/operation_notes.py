"""The view's notes in the request's record (web/observability/request_log.py): which operation
ran (name and kind, known once the document is parsed), the codes of the errors it answered with,
and why its credential was refused, if it was.

The name the client sent is noted when its document is known (a persisted query's included)
and replaced by the document's once the operation is resolved; a request refused before that
keeps the sent name (a safe one only) and no kind.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from graphql import GraphQLError

from resolvers.errors import Unauthenticated
from web.observability.request_log import RequestRecord

LONGEST_NOTED_NAME = 128
GRAPHQL_NAME = re.compile(rf"[_A-Za-z][_0-9A-Za-z]{{0,{LONGEST_NOTED_NAME - 1}}}")


def note_sent_name(record: RequestRecord | None, sent: str | None) -> None:
    """The client's operationName, until the document says which operation ran."""
    if record is not None:
        record.graphql = True
        named = isinstance(sent, str) and GRAPHQL_NAME.fullmatch(sent) is not None
        record.operation_name = sent if named else None


def note_operation(record: RequestRecord | None, operation: tuple[str | None, str] | None) -> None:
    """The operation's name (cut after LONGEST_NOTED_NAME: a document may name its operation
    with a megabyte, which each log line would repeat) and kind, as the document has them."""
    if record is not None and operation is not None:
        name, record.operation_type = operation
        if name is not None and len(name) > LONGEST_NOTED_NAME:
            name = name[:LONGEST_NOTED_NAME] + "..."
        record.operation_name = name


def note_error_codes(record: RequestRecord | None, errors: Iterable[GraphQLError]) -> None:
    if record is not None:
        record.note_error_codes([str((error.extensions or {}).get("code")) for error in errors])


def note_refusal(record: RequestRecord | None, refusal: Unauthenticated | None) -> None:
    """The reason alone: never the credential, nor anything of it."""
    if record is not None and refusal is not None:
        record.credential_refused = refusal.reason
