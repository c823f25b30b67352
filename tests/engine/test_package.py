"""`embedded` is a library: it imports no arraygraph module and changes nothing on import; its
sub-packages all ship in the product's wheel but the wire front, which nothing else imports."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

from embedded import CommandCounts, EmbeddedEngine

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "embedded"
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


def _modules() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts)


def test_embedded_imports_only_the_standard_library_pymongo_and_mongomock() -> None:
    modules = _modules()
    assert len(modules) > 40
    found = {str(path): set(_imports(path)) - ALLOWED for path in modules}
    assert found == {str(path): set() for path in modules}


def test_only_mongomock_internals_imports_mongomock() -> None:
    importers = {p.relative_to(PACKAGE) for p in _modules() if "mongomock_ng" in _imports(p)}
    assert importers == {Path("mongomock_internals.py")}


def test_the_wheel_holds_every_sub_package_but_the_wire_front() -> None:
    """A sub-package missing from pyproject's list would be missing from the installed product."""
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    packages = {
        ".".join(init.parent.relative_to(ROOT).parts) for init in PACKAGE.rglob("__init__.py")
    }
    assert "embedded.wire" in packages
    assert {name for name in listed if name.startswith("embedded")} == packages - {"embedded.wire"}


def test_an_engine_runs_without_the_wire_front() -> None:
    script = (
        "import asyncio, sys, embedded\n"
        "coll = embedded.EmbeddedEngine()['d']['c']\n"
        "asyncio.run(coll.insert_one({'_id': 1}))\n"
        "assert not [m for m in sys.modules if m.startswith('embedded.wire')], 'wire imported'\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr


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
