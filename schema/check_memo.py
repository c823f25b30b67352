"""A check's answer, kept for each operation that declares no variables.

An `ExecutionCheck` (the cost limit, payload arguments) answers from the operation's fields, its
arguments and its variables' values alone. An operation without variables has the same fields
and arguments on every request, so its answer is computed once: `{ __typename }` skips a walk
of its fields per request, a tenth of its time.

Answers are keyed by the operation node's identity (its hash is its whole content, and equal
operations of two documents may spread different fragments), and each goes when its node does:
the memo holds no document alive, so the document cache's byte budget still bounds them (an
entry is a few hundred bytes, within what the cache accounts per document).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable

from graphql import GraphQLError, OperationDefinitionNode

from schema.strawberry_internals import ExecutionCheck, OperationFields

Kept = tuple[weakref.ref[OperationDefinitionNode], GraphQLError | None]
Forget = Callable[[weakref.ref[OperationDefinitionNode]], None]


class AnswersKept:
    """`check`, its answer kept per operation without variables, while the operation lives."""

    def __init__(self, check: ExecutionCheck) -> None:
        self.check = check
        self.kept: dict[int, Kept] = {}

    def __call__(self, fields: OperationFields) -> GraphQLError | None:
        operation = fields.operation
        if operation.variable_definitions:
            return self.check(fields)
        key = id(operation)
        found = self.kept.get(key)
        if found is not None and found[0]() is operation:
            return found[1]
        answer = self.check(fields)
        self.kept[key] = (weakref.ref(operation, self._forgetting(key)), answer)
        return answer

    def _forgetting(self, key: int) -> Forget:
        def forget(ref: weakref.ref[OperationDefinitionNode]) -> None:
            found = self.kept.get(key)
            if found is not None and found[0] is ref:  # not a newer operation's, at that id
                del self.kept[key]

        return forget
