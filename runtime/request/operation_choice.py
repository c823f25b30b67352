"""Which operation of a document a request runs, and when none may run at all.

`choose` gives three answers at once, each as arraygraph has always given them:
- a refusal, `OperationRefused`: nothing of the request can run, and GraphQL over HTTP answers
  400 (`BAD_REQUEST`): no query, an `operationName` the document lacks, a document without
  operations; or 405 (`METHOD_NOT_ALLOWED`, as the spec requires) for a kind the HTTP method
  may not run (a mutation over GET). Strawberry's wording
  is kept: the operation's kind is that of the named operation, or of the first one when none
  is named.
- the spec's GetOperation, as a request error (HTTP 200 with `OPERATION_RESOLUTION_FAILURE`):
  several operations and no name picks one (Strawberry would run the first);
- the name and kind the request log and metrics show, when the document names exactly one
  operation for the request.
`unresolved_operation` is the second alone, for Strawberry's own path
(runtime/execution/prepared_schema.py), which refuses by itself.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple

from graphql import DocumentNode, GraphQLError, OperationDefinitionNode, OperationType

from runtime.errors import OperationUnresolved, shown

NO_QUERY = "No GraphQL query found in the request"
PLURALS = {"query": "queries", "mutation": "mutations", "subscription": "subscriptions"}
# GraphQL over HTTP: a GET never changes anything (subscriptions would stream over GET).
# An operation's kind by its type (an enum's `.value` is a descriptor call).
_KINDS = {kind: kind.value for kind in OperationType}
KINDS_BY_METHOD: dict[str, frozenset[str]] = {
    "GET": frozenset({"query", "subscription"}),
    "POST": frozenset({"query", "mutation", "subscription"}),
}


class OperationRefused(Exception):
    """Nothing of the request runs; `reason` is the transport's answer, with its HTTP `status`."""

    def __init__(self, reason: str, status: int = 400) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


def _operations(document: DocumentNode) -> list[OperationDefinitionNode]:
    return [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]


Noted = tuple[str | None, str]  # an operation's name (None: anonymous) and kind


class Choice(NamedTuple):
    noted: Noted | None  # None: the document names no one operation for the request
    unresolved: list[GraphQLError]


SEVERAL = "Must provide operationName: the document holds several operations."


def choose(document: DocumentNode, name: str | None, method: str) -> Choice:
    """The operation a request naming `name` over `method` runs; OperationRefused if none may."""
    operations = _operations(document)
    if name is None:
        chosen = operations[0] if operations else None
    else:
        chosen = next((o for o in operations if o.name and o.name.value == name), None)
    if chosen is None:
        if name is None:
            raise OperationRefused("Can't get GraphQL operation type")
        raise OperationRefused(f'Unknown operation named "{name}".')
    kind = _KINDS[chosen.operation]
    allowed: Collection[str] = KINDS_BY_METHOD.get(method, ())
    if kind not in allowed:
        raise OperationRefused(f"{PLURALS[kind]} are not allowed when using {method}", 405)
    if name is None and len(operations) > 1:
        return Choice(None, [_unresolved(SEVERAL)])
    return Choice((chosen.name.value if chosen.name else None, kind), [])


def _unresolved(message: str) -> GraphQLError:
    return OperationUnresolved(message, extensions={"code": "OPERATION_RESOLUTION_FAILURE"})


def unresolved_operation(document: DocumentNode, name: str | None) -> list[GraphQLError]:
    """The spec's GetOperation: with several operations a name must pick one, and a name must
    name one; else nothing runs (Strawberry would run the first)."""
    names = [o.name.value if o.name else None for o in _operations(document)]
    if name is None and len(names) > 1:
        return [_unresolved(SEVERAL)]
    if name is not None and name not in names:
        return [_unresolved(f"operationName: the document holds no operation named {shown(name)}.")]
    return []
