"""`embedded` is a library: it imports no arraygraph module and changes nothing on import."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from embedded import CommandCounts, EmbeddedEngine

PACKAGE = Path(__file__).resolve().parents[2] / "embedded"
ALLOWED = frozenset(sys.stdlib_module_names) | {"embedded", "mongomock_ng", "pymongo", "bson"}


def _imports(path: Path) -> list[str]:
    """The top-level name of each absolute import in `path`."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name.partition(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module.partition(".")[0])
    return names


def test_embedded_imports_only_the_standard_library_pymongo_and_mongomock() -> None:
    modules = sorted(PACKAGE.glob("*.py"))
    assert modules
    found = {path.name: set(_imports(path)) - ALLOWED for path in modules}
    assert found == {path.name: set() for path in modules}


def test_only_mongomock_internals_imports_mongomock() -> None:
    importers = {p.name for p in PACKAGE.glob("*.py") if "mongomock_ng" in _imports(p)}
    assert importers == {"mongomock_internals.py"}


def test_importing_embedded_patches_mongomock_only_when_an_engine_is_created() -> None:
    script = (
        "import embedded, mongomock_ng.aggregate as a\n"
        "assert '$sortArray' not in a.array_operators, 'patched on import'\n"
        "match = a._PIPELINE_HANDLERS['$match']\n"
        "embedded.EmbeddedEngine()\n"
        "assert a.array_operators.count('$sortArray') == 1\n"
        "assert a._PIPELINE_HANDLERS['$match'] is not match\n"
        "embedded.EmbeddedEngine()\n"
        "assert a.array_operators.count('$sortArray') == 1, 'patched twice'\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=PACKAGE.parent,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


async def test_an_engine_without_an_observer_counts_its_commands() -> None:
    engine = EmbeddedEngine()
    assert isinstance(engine.observer, CommandCounts)
    await engine["test"]["things"].insert_one({"_id": 1})
    assert engine.observer.by_name == {"insert": 1}


async def test_the_observer_sees_each_command_and_its_result() -> None:
    seen: list[tuple[str, object]] = []

    class Observer:
        def started(self, name: str) -> None:
            seen.append(("started", name))

        def replied(self, result: object) -> None:
            seen.append(("replied", result))

    coll = EmbeddedEngine(Observer())["test"]["things"]
    await coll.insert_one({"_id": 1})
    await coll.find({}).to_list()
    assert seen == [
        ("started", "insert"),
        ("replied", 1),
        ("started", "find"),
        ("replied", [{"_id": 1}]),
    ]
