"""The source writer of `embedded.generated`: each expression node as Python statements.

`SourceWriter.value` emits the statements that compute an expression into the body of one
function (`doc` and the scope `env` its parameters) and names the local, or the constant, that
then holds the value. Variables, fields, literals, arrays and subdocuments are written here,
operators by the writers it is given (`embedded.expression_control`,
`embedded.expression_values`); any other operator is its closure from `embedded.compiler`,
called with the scope in force. Each writer mirrors the closure it replaces (same checks of the
arguments' form, same order of evaluation, same answers), and a form the closure would hand to
mongomock-ng goes to the closure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from embedded.arithmetic import Interpret
from embedded.mongomock_internals import Evaluator
from embedded.paths import field_path, is_number


class Compiles(Protocol):
    interpret: Interpret

    def compile(self, e: Any) -> Evaluator: ...


# An operator's writer: the local holding its value, or None when the closure must serve it.
Write = Callable[["SourceWriter", Any, str], str | None]


class SourceWriter:
    """Writes one function's body: `value` emits the statements that compute an expression
    and names the local (or constant) that then holds it."""

    def __init__(self, closures: Compiles, operators: Mapping[str, Write]) -> None:
        self.closures = closures
        self.operators = operators
        self.constants: list[Any] = []
        self.lines: list[str] = []
        self.depth = 2
        self.count = 0
        # Per scope (the local holding it), the locals its variables were bound from here: a
        # read of one takes the local, not a lookup in the scope.
        self.bound: dict[str, dict[str, str]] = {}

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def temp(self) -> str:
        self.count += 1
        return f"t{self.count}"

    def constant(self, value: Any) -> str:
        self.constants.append(value)
        return f"k{len(self.constants) - 1}"

    def assign(self, expression: str) -> str:
        name = self.temp()
        self.emit(f"{name} = {expression}")
        return name

    def scope_from(self, env: str, copy: str) -> str:
        """A new scope, `copy` (`dict({env})`, or `{env}.copy()`) of the one in force."""
        scope = self.assign(copy)
        self.bound[scope] = dict(self.bound.get(env, {}))
        return scope

    def bind(self, scope: str, name: str, local: str) -> None:
        self.emit(f"{scope}[{name!r}] = {local}")
        self.bound[scope][name] = local

    def closure(self, e: Any, env: str) -> str:
        """`e` through its closure (any operator not written here)."""
        return self.assign(f"{self.constant(self.closures.compile(e))}(doc, {env})")

    def value(self, e: Any, env: str) -> str:
        if isinstance(e, list):
            if not any(_computed(x) for x in e):
                return self.assign(f"list({self.constant(e)})")  # a fresh copy, as the closure's
            items = [self.value(x, env) for x in e]
            return self.assign(
                "[" + "".join(f"(None if {x} is NOTHING else {x}), " for x in items) + "]"
            )
        if isinstance(e, str) and e.startswith("$$"):
            return self.variable(e, env)
        if isinstance(e, str) and e.startswith("$"):
            return self.field(e[1:], env)
        if not isinstance(e, dict):
            return self.constant(e)
        if len(e) != 1 and any(str(key).startswith("$") for key in e):
            return self.closure(e, env)  # malformed: the closure's fallback reports it
        [(key, argument)] = e.items() if len(e) == 1 else [("", None)]
        if not isinstance(key, str) or not key.startswith("$"):
            return self.document(e, env)
        write = self.operators.get(key)
        written = write(self, argument, env) if write is not None else None
        return written if written is not None else self.closure(e, env)

    def variable(self, e: str, env: str) -> str:
        name, _, path = e[2:].partition(".")
        if name in ("ROOT", "CURRENT") or "." in path or (path and is_number(path)):
            return self.closure(e, env)
        local = self.bound.get(env, {}).get(name)
        if local is not None:  # bound here: its local, never unbound
            if not path:
                return local
            follow = self.constant(field_path(path))
            get = f"{local}.get({path!r}, NOTHING)"
            return self.assign(f"{get} if type({local}) is dict else {follow}({local})")
        found = self.assign(f"{env}.get({name!r}, UNBOUND)")
        if not path:
            self.emit(f"if {found} is UNBOUND:")
            self.emit(f"    {found} = NOTHING")
            return found
        self.emit(f"if type({found}) is dict:")
        self.emit(f"    {found} = {found}.get({path!r}, NOTHING)")
        self.emit(f"elif {found} is UNBOUND:")
        self.emit(f"    {found} = NOTHING")
        self.emit("else:")
        self.emit(f"    {found} = {self.constant(field_path(path))}({found})")
        return found

    def field(self, path: str, env: str) -> str:
        if not path or "." in path or is_number(path):
            return self.closure("$" + path, env)
        follow = self.constant(field_path(path))
        return self.assign(f"doc.get({path!r}, NOTHING) if type(doc) is dict else {follow}(doc)")

    def document(self, e: dict[Any, Any], env: str) -> str:
        built = self.assign("{}")
        for key, sub in e.items():
            found = self.value(sub, env)
            self.emit(f"if {found} is not NOTHING:")
            self.emit(f"    {built}[{key!r}] = {found}")
        return built

    def branch(self, result: str, e: Any, env: str) -> None:
        """`result = <e>`, one level in (the body of an `if`, `else` or `for`)."""
        self.depth += 1
        self.emit(f"{result} = {self.value(e, env)}")
        self.depth -= 1

    def true(self, found: str) -> str:
        return f"{found} is True or ({found} is not False and truth({found}))"


def _computed(e: Any) -> bool:
    """Whether an array element is an expression (a path, a variable, an operator, a document,
    an array), as opposed to a value the closure keeps as it is."""
    return isinstance(e, dict | list) or (isinstance(e, str) and e.startswith("$"))
