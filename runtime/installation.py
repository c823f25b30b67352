"""`install`: the runtime put in place for a schema.

graphql-core and Strawberry look the functions the runtime replaces up by name in their own
modules, so a replacement holds for the whole process: it is made once, by the first `install`
(a schema's build), never when a module is imported. What depends on a schema's limits and
facts (its document cache, its checks) is made for each `install`.
"""

from __future__ import annotations

import importlib
import threading
from typing import Any, NamedTuple

from graphql import GraphQLError

from runtime.execution.input_builders import install_builders
from runtime.internals import REPLACED, REPLACEMENTS
from runtime.limits.check_memo import AnswersKept
from runtime.limits.cost import CostLimit
from runtime.limits.field_facts import FieldFacts
from runtime.limits.operation_fields import Checked, ExecutionCheck, OperationFields
from runtime.limits.payload_arguments import PayloadArgumentsFirst
from runtime.limits.request_limits import Limits
from runtime.request.document_cache import DocumentCache

_lock = threading.Lock()
_replaced: list[bool] = []


class Runtime(NamedTuple):
    """What a schema runs on: its parse/validation cache and the check run before execution."""

    document_cache: DocumentCache
    check: ExecutionCheck


def install(limits: Limits, facts: FieldFacts) -> Runtime:
    """Put every replacement of graphql-core's and Strawberry's functions in place (for the
    process; once), build the input types marked so far directly, and answer the runtime of a
    schema under `limits`, whose fields' facts `facts` answers."""
    with _lock:
        if not _replaced:
            for internal, replacement in zip(REPLACED, REPLACEMENTS, strict=True):
                _replace(internal.module, internal.name, replacement)
            _replaced.append(True)
        install_builders()
    document_cache = DocumentCache(
        limits,
        size=limits.document_cache_size,
        budget=limits.document_cache_bytes,
        largest=limits.cached_document_chars,
    )
    checks = first_refusal(CostLimit(facts, limits.max_cost), PayloadArgumentsFirst(facts))
    return Runtime(document_cache, AnswersKept(checks))


def _replace(module: str, name: str, replacement: Any) -> None:
    """`module.name` (a function, or a class's method) replaced by `replacement`."""
    owner: Any = importlib.import_module(module)
    *path, attribute = name.split(".")
    for part in path:
        owner = getattr(owner, part)
    setattr(owner, attribute, replacement)


def first_refusal(*checks: ExecutionCheck) -> ExecutionCheck:
    """One check of several, in order: the first refusal is the answer, else the costs they
    answered, added up (None when none answered one)."""

    def check(fields: OperationFields) -> Checked:
        cost: int | None = None
        for each in checks:
            answer = each(fields)
            if isinstance(answer, GraphQLError):
                return answer
            if answer is not None:
                cost = answer + (cost or 0)
        return cost

    return check
