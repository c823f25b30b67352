"""No module over 300 lines, no function or method over 50 (from its `def` line, decorators
excluded, to its last line).

`python tools/check_sizes.py [ROOT]` checks every module outside .venv/ (tests/, bench/ and
tools/ included) and prints one line per violation. Exit 1 on any violation.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

from sources import ROOT, python_files

# Not checked: these top-level directories, and hidden directories and __pycache__ anywhere.
SKIPPED = frozenset({".venv", "build", "dist"})
MAX_MODULE_LINES = 300
MAX_FUNCTION_LINES = 50


def functions(
    node: ast.AST, prefix: str = ""
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """(qualified name, node) for every function and method, nested ones included."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            yield f"{prefix}{child.name}", child
            yield from functions(child, f"{prefix}{child.name}.")
        elif isinstance(child, ast.ClassDef):
            yield from functions(child, f"{prefix}{child.name}.")
        else:
            yield from functions(child, prefix)


def check_module(path: Path, shown: str) -> list[str]:
    source = path.read_bytes()
    found: list[str] = []
    lines = len(source.splitlines())
    if lines > MAX_MODULE_LINES:
        found.append(f"{shown}: module has {lines} lines (max {MAX_MODULE_LINES})")
    try:
        tree = ast.parse(source, filename=shown)
    except SyntaxError as error:
        return [*found, f"{shown}:{error.lineno or 0}: cannot parse: {error.msg}"]
    for name, node in functions(tree):
        length = (node.end_lineno or node.lineno) - node.lineno + 1
        if length > MAX_FUNCTION_LINES:
            found.append(
                f"{shown}:{node.lineno}: function {name} has {length} lines"
                f" (max {MAX_FUNCTION_LINES})"
            )
    return found


def main(root: Path) -> int:
    found: list[str] = []
    checked = 0
    for path in python_files(root, skipped=SKIPPED):
        found += check_module(path, path.relative_to(root).as_posix())
        checked += 1
    for line in found:
        print(line)
    if found:
        print(f"check-sizes: {len(found)} violation(s) in {checked} modules", file=sys.stderr)
        return 1
    print(
        f"check-sizes: {checked} modules, none over {MAX_MODULE_LINES} lines,"
        f" no function over {MAX_FUNCTION_LINES}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT))
