"""What a module of `embedded` reads of mongomock-ng's and PyMongo's internals, found in its
source (tests/engine/test_internals_guard.py holds each against embedded/internals.py).

A read is of an internal when it is
- a name read from a library module the library keeps for itself, or any private (`_x`) name
  read from a library module (`module.name`, `from module import name`, `getattr(module, "x")`);
- a private attribute of anything (`x._y`, `getattr(x, "_y")`): in `mongomock_internals`, whose
  objects are all mongomock-ng's, of any receiver; elsewhere of any but `self` and `cls`, which
  are embedded's own;
- any attribute of a value that came from an internal (`store = coll._store; store.indexes`).

A value's origin is followed by name through the module: a name bound to an internal anywhere is
one in every function that does not bind it to something else (a parameter keeps it: `blk` is
built in one function and read in others). A lookup by a computed name (`getattr(x, name)`) on a
library module or an internal is not followed: the function that makes it is reported instead.
"""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Iterator
from dataclasses import dataclass, field

import mongomock_ng

from embedded.internals import PACKAGES, PRIVATE_MODULES

_LOOKUPS = frozenset({"getattr", "setattr", "hasattr", "delattr"})
_OWN = frozenset({"self", "cls"})
# mongomock-ng's API: what its package exports (its stub leaves `__all__` out).
_EXPORTED = frozenset(vars(mongomock_ng)["__all__"])


@dataclass(frozen=True, slots=True)
class Read:
    line: int
    name: str  # the attribute (or imported name) read
    module: str | None = None  # the library module it is read from, if read from a module


@dataclass
class Scan:
    reads: list[Read] = field(default_factory=list)
    computed: set[str] = field(default_factory=set)  # functions looking internals up by a name


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _library(module: str) -> bool:
    return module.split(".")[0] in PACKAGES


def internal(module: str, name: str) -> bool:
    """Whether `module.name` (a library module's name) is an internal."""
    if private(name) or module.startswith("mongomock_ng."):
        return True
    if module == "mongomock_ng":
        return name not in _EXPORTED
    return module in PRIVATE_MODULES or any(private(part) for part in module.split("."))


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def _aliases(tree: ast.Module) -> tuple[dict[str, str], list[tuple[str, str, int]]]:
    """The names bound to library modules, and the other names imported from them."""
    modules: dict[str, str] = {}
    imported: list[tuple[str, str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _library(alias.name):
                    bound = alias.asname or alias.name.partition(".")[0]
                    modules[bound] = alias.name if alias.asname else bound
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if not _library(node.module):
                continue
            for alias in node.names:
                if _is_module(f"{node.module}.{alias.name}"):
                    modules[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                else:
                    imported.append((node.module, alias.name, node.lineno))
    return modules, imported


class _Walk:
    """One module's reads; `strict`: private attributes of `self` and `cls` count too."""

    def __init__(self, tree: ast.Module, strict: bool) -> None:
        self.modules, imported = _aliases(tree)
        self.strict = strict
        self.scan = Scan()
        self.tree = tree
        self.bound = {name for module, name, _ in imported if internal(module, name)}
        for module, name, line in imported:
            if internal(module, name):
                self.scan.reads.append(Read(line, name, module))

    def lookup(self, node: ast.AST) -> tuple[ast.expr, str | None] | None:
        """`(receiver, name)` of an attribute or a `getattr`-like call (name None: computed)."""
        if isinstance(node, ast.Attribute):
            return node.value, node.attr
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            return None
        if node.func.id not in _LOOKUPS or len(node.args) < 2:
            return None
        name = node.args[1]
        if isinstance(name, ast.Constant) and isinstance(name.value, str):
            return node.args[0], name.value
        return node.args[0], None

    def origin(self, node: ast.expr, names: set[str]) -> Read | None:
        """The read `node` makes of an internal, if it does (its receiver's origin decides)."""
        found = self.lookup(node)
        if found is None:
            return None
        receiver, name = found
        if name is None:
            return None
        line = node.lineno
        if isinstance(receiver, ast.Name) and receiver.id in self.modules:
            module = self.modules[receiver.id]
            return Read(line, name, module) if internal(module, name) else None
        own = isinstance(receiver, ast.Name) and receiver.id in _OWN and not self.strict
        if (private(name) and not own) or self.internal(receiver, names):
            return Read(line, name)
        return None

    def internal(self, node: ast.expr, names: set[str]) -> bool:
        """Whether `node`'s value comes from an internal."""
        if isinstance(node, ast.Name):
            return node.id in names
        if isinstance(node, ast.Call) and self.lookup(node) is None:
            return self.internal(node.func, names)
        return self.origin(node, names) is not None

    def bindings(self, scope: ast.AST, names: set[str]) -> Iterator[tuple[str, bool]]:
        """Each simple name `scope` binds (not in nested functions) to an internal (True) or to what
        is surely not one (False)."""
        for node in _own_nodes(scope):
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets, value = [node.target], node.value
            else:
                continue
            inner = self.internal(value, names)
            if not inner and isinstance(value, ast.Call):
                continue  # what a call of embedded's own returns is not known: no shadowing
            for target in targets:
                if isinstance(target, ast.Name):
                    yield target.id, inner

    def run(self) -> Scan:
        everywhere = set(self.bound)
        while True:  # a fixpoint: a name may be bound to another bound later in the source
            grown = everywhere | {
                name
                for scope in ast.walk(self.tree)
                if isinstance(scope, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef)
                for name, inner in self.bindings(scope, everywhere)
                if inner
            }
            if grown == everywhere:
                break
            everywhere = grown
        self.visit(self.tree, everywhere, "<module>")
        return self.scan

    def visit(self, scope: ast.AST, outer: set[str], function: str) -> None:
        bound = dict[str, bool]()
        for name, inner in self.bindings(scope, outer):
            bound[name] = bound.get(name, False) or inner
        names = outer - {name for name, inner in bound.items() if not inner}
        for node in _own_nodes(scope):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.visit(node, names, node.name)
                continue
            read = self.origin(node, names) if isinstance(node, ast.expr) else None
            if read is not None:
                self.scan.reads.append(read)
            found = self.lookup(node)
            if found is not None and found[1] is None:
                receiver = found[0]
                if (isinstance(receiver, ast.Name) and receiver.id in self.modules) or (
                    self.internal(receiver, names)
                ):
                    self.scan.computed.add(function)


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of `scope`, nested functions themselves but not their bodies."""
    pending = list(ast.iter_child_nodes(scope))
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            pending.extend(ast.iter_child_nodes(node))


def scan(source: str, *, strict: bool) -> Scan:
    return _Walk(ast.parse(source), strict).run()
