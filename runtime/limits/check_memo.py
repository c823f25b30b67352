"""A check's answer, kept for each operation and the values of the variables the check read.

An `ExecutionCheck` (the cost limit, payload arguments) answers from the operation's fields, its
arguments and its variables' values alone, and it is deterministic: run again with the same
values for the variables it read, it reads the same ones and answers the same. So its answer is
kept by the values of those, noted as it runs (`OperationFields.recording`: collection with
`@skip`/`@include`, and the arguments it reads, each field's coerced only when read). An
operation without variables is checked once; `user(userId: $u) { orders(first: 20) ... }` once
per page size, whatever the user, since no size reads `userId`. A value that cannot be hashed
(a list of events) is not kept: such an operation is checked on every request.

Answers are keyed by the operation node's identity (its hash is its whole content, and equal
operations of two documents may spread different fragments), at most `CHECK_ANSWERS_KEPT` per
operation, and each goes when its node does: the memo holds no document alive, so the document
cache's byte budget still bounds them (an entry is a few hundred bytes, within what the cache
accounts per document). A refusal is kept without the tracebacks of the errors behind it, whose
frames would keep the checked request (its context and executor) alive.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from graphql import GraphQLError, OperationDefinitionNode

from runtime.limits.operation_fields import Checked, ExecutionCheck, OperationFields

Values = tuple[tuple[type, Any], ...]  # each read variable's type and value, in name order
Forget = Callable[[weakref.ref[OperationDefinitionNode]], None]
CHECK_ANSWERS_KEPT = 32  # per operation; a page size per answer, in practice a handful
_ABSENT = object()  # a variable the request did not give (nor a default)


@dataclass(slots=True)
class Kept:
    """One operation's answers, by the names of the variables read, then by their values."""

    operation: weakref.ref[OperationDefinitionNode]
    answers: dict[tuple[str, ...], dict[Values, Checked]] = field(default_factory=dict)
    count: int = 0

    def find(self, variables: Mapping[str, Any]) -> tuple[bool, Checked]:
        unread = self.answers.get(())  # the answer that read no variable: the common one
        if unread is not None and () in unread:
            return True, unread[()]
        for names, answers in self.answers.items():
            values = _values(variables, names)
            if values is not None and values in answers:
                return True, answers[values]
        return False, None

    def keep(self, names: tuple[str, ...], values: Values, answer: Checked) -> None:
        if self.count >= CHECK_ANSWERS_KEPT:  # bounded: start again
            self.answers.clear()
            self.count = 0
        self.answers.setdefault(names, {})[values] = _detached(answer)
        self.count += 1


def _detached(answer: Checked) -> Checked:
    """The refusal without the tracebacks of the errors behind it (its original error, their
    causes and contexts): their frames hold the request that was checked (its context,
    executor and variables), which a kept answer must not keep alive. No client sees them."""
    if not isinstance(answer, GraphQLError):  # a cost, or nothing: no frames held
        return answer
    pending: list[BaseException | None] = [answer]
    seen: set[int] = set()
    while pending:
        error = pending.pop()
        if error is None or id(error) in seen:
            continue
        seen.add(id(error))
        error.__traceback__ = None
        pending += [error.__cause__, error.__context__, getattr(error, "original_error", None)]
    return answer


def _values(variables: Mapping[str, Any], names: tuple[str, ...]) -> Values | None:
    """The key of these variables' values (typed: `True` is not `1`); None if unhashable."""
    values = tuple((type(value), value) for value in (variables.get(n, _ABSENT) for n in names))
    try:
        hash(values)
    except TypeError:
        return None
    return values


class AnswersKept:
    """`check`, its answer kept per operation and values of the variables it read."""

    def __init__(self, check: ExecutionCheck) -> None:
        self.check = check
        self.kept: dict[int, Kept] = {}

    def __call__(self, fields: OperationFields) -> Checked:
        operation = fields.operation
        key = id(operation)
        kept = self.kept.get(key)
        if kept is None or kept.operation() is not operation:
            kept = self.kept[key] = Kept(weakref.ref(operation, self._forgetting(key)))
        variables = fields.variables
        found, answer = kept.find(variables)
        if found:
            return answer
        with fields.recording() as read:
            answer = self.check(fields)
        names = tuple(sorted(read))
        values = _values(variables, names)
        if values is not None:
            kept.keep(names, values, answer)
        return answer

    def _forgetting(self, key: int) -> Forget:
        def forget(ref: weakref.ref[OperationDefinitionNode]) -> None:
            found = self.kept.get(key)
            if found is not None and found.operation is ref:  # not a newer one's, at that id
                del self.kept[key]

        return forget
