"""Variables (`$$name`): the system variables, an undefined one's error, and a command's `let`
given to the `$expr` of its filter.

A server fails a command that reads a variable nothing defines (17276) instead of reading it as
missing; `$$REMOVE` is missing by definition, `$$NOW` the command's time. The query matcher
evaluates `$expr` with no variables in scope (mongomock-ng's logical operators drop them), so a
command's `let` reaches a filter as a `$let` around each of its `$expr` (`bind`): a `$let`
inside shadows it as a server's scoping does.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from pymongo.errors import OperationFailure

from embedded import mongomock_internals as mongomock
from embedded import rules
from embedded.mongomock_internals import NOTHING
from embedded.stored_form import stored_copy

UNDEFINED_VARIABLE = 17276
# The document itself: read from the scope when a stage binds it, else the document evaluated.
DOCUMENT_VARIABLES = frozenset({"ROOT", "CURRENT"})
# Read as missing outside the stage that binds them (`$redact` binds the last three).
MISSING_VARIABLES = frozenset({"REMOVE", "KEEP", "PRUNE", "DESCEND"})
# System variables a standalone server defines and the engine does not give.
_UNSUPPORTED = frozenset({"CLUSTER_TIME", "SEARCH_META", "USER_ROLES"})
_SYSTEM = DOCUMENT_VARIABLES | MISSING_VARIABLES | _UNSUPPORTED | {"NOW"}
_LOGICAL = ("$and", "$or", "$nor")


def undefined(name: str) -> OperationFailure:
    message = f"Use of undefined variable: {name}"
    reply = rules.error_reply(UNDEFINED_VARIABLE, message)
    return OperationFailure(message, UNDEFINED_VARIABLE, reply)


def unbound(name: str) -> Any:
    """The value of `$$name` when the scope does not hold it (`ROOT` and `CURRENT` are the
    caller's): missing for `$$REMOVE`, now for `$$NOW`, an error for any other."""
    if name in MISSING_VARIABLES:
        return NOTHING
    if name == "NOW":
        now = datetime.now(UTC)
        return now.replace(microsecond=now.microsecond // 1000 * 1000, tzinfo=None)
    if name in _UNSUPPORTED:
        raise rules.unsupported(f"the system variable $${name}")
    raise undefined(name)


def evaluate_once(expression: Any) -> Any:
    """A `let` value: an expression evaluated once, with no document."""
    if isinstance(expression, Mapping) and set(expression) == {"$literal"}:
        return expression["$literal"]
    return mongomock.new_parser({}).parse(expression)


def let_values(variables: Mapping[str, Any] | None) -> dict[str, Any]:
    """A command's `let`, each value evaluated once, in stored form (a naive datetime is UTC,
    as on a server)."""
    if not variables:
        return {}
    return {name: stored_copy(evaluate_once(stored_copy(e))) for name, e in variables.items()}


def bind(filter: Any, scope: Mapping[str, Any] | None) -> Any:
    """`filter` with each `$expr` (at the top or under `$and`, `$or`, `$nor`) given the
    variables of `scope` (a command's `let`, evaluated); `filter` itself when none. A variable
    nothing defines fails here, before any document, as a server fails it when parsing."""
    if not isinstance(filter, Mapping) or not rules.has_expr(filter):
        return filter
    defined = _SYSTEM | set(scope or ())
    bindings = {name: {"$literal": value} for name, value in (scope or {}).items()}
    return _bound(filter, bindings, defined)


def _bound(
    filter: Mapping[str, Any], bindings: dict[str, Any], defined: frozenset[str] | set[str]
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in filter.items():
        if key == "$expr":
            check_defined(value, defined)
            if bindings:
                value = {"$let": {"vars": bindings, "in": value}}
        elif key in _LOGICAL and isinstance(value, list):
            value = [_bound(v, bindings, defined) if isinstance(v, Mapping) else v for v in value]
        out[key] = value
    return out


# The variables each scoping operator defines for its sub-expressions (the rest see the outer).
_SCOPED = {"$map": ("in",), "$filter": ("cond",), "$reduce": ("in",)}


def check_defined(expression: Any, defined: frozenset[str] | set[str]) -> None:
    """Fail on a `$$name` in `expression` that neither `defined` nor an enclosing `$let`,
    `$map`, `$filter` or `$reduce` defines."""
    if isinstance(expression, str):
        if expression.startswith("$$"):
            name = expression[2:].partition(".")[0]
            if name not in defined:
                raise undefined(name)
    elif isinstance(expression, list):
        for item in expression:
            check_defined(item, defined)
    elif isinstance(expression, Mapping):
        if len(expression) == 1 and "$literal" in expression:
            return
        for key, value in expression.items():
            inner = _scope_of(key, value, defined)
            if inner is None:
                check_defined(value, defined)
                continue
            for part, item in value.items():
                scoped = part in _SCOPED.get(key, ("in",))
                check_defined(item, inner if scoped else defined)


def _scope_of(key: str, value: Any, defined: frozenset[str] | set[str]) -> set[str] | None:
    """The variables inside a scoping operator's body; None for any other expression."""
    if not isinstance(value, Mapping):
        return None
    if key == "$let" and isinstance(value.get("vars"), Mapping):
        return set(defined) | set(value["vars"])
    if key in ("$map", "$filter"):
        return set(defined) | {str(value.get("as", "this"))}
    if key == "$reduce":
        return set(defined) | {"this", "value"}
    return None
