"""No module over 300 lines, no function or method over 50 (from its `def` line, decorators
excluded, to its last line), no package of more than 24 modules.

A package is a directory holding an `__init__.py`; its modules are the .py files directly in it,
`__init__.py` included (a sub-package's modules are the sub-package's, not its parent's). A
package past that is cut by concern into sub-packages. Packages listed in NOT_YET_CUT may keep
the size they had when the rule came, and no more; an entry goes once its package fits.

`python tools/check_sizes.py [ROOT]` checks every module outside .venv/ (tests/, bench/ and
tools/ included), every package outside .venv/ and tests/, and prints one line per violation
(a package's line names it and its count). Exit 1 on any violation.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

from sources import ROOT, python_files

# Not checked: these top-level directories, and hidden directories and __pycache__ anywhere.
SKIPPED = frozenset({".venv", "build", "dist"})
# Packages are not counted under these (besides SKIPPED): the test tree is not cut by this rule.
PACKAGES_SKIPPED = SKIPPED | {"tests"}
MAX_MODULE_LINES = 300
MAX_FUNCTION_LINES = 50
MAX_PACKAGE_MODULES = 24
# Over the limit when the rule came, not cut yet: package -> the most modules it may hold.
NOT_YET_CUT: dict[str, int] = {}


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


def package_sizes(root: Path) -> dict[str, int]:
    """Each package (relative path, "." for the root) -> how many modules are directly in it."""
    sizes: dict[str, int] = {}
    for path in python_files(root, skipped=PACKAGES_SKIPPED):
        if (path.parent / "__init__.py").is_file():
            package = path.parent.relative_to(root).as_posix()
            sizes[package] = sizes.get(package, 0) + 1
    return sizes


def check_package(package: str, modules: int) -> str | None:
    shown = f"{package}/"
    allowed = NOT_YET_CUT.get(package)
    if allowed is None:
        if modules <= MAX_PACKAGE_MODULES:
            return None
        return f"{shown}: package has {modules} modules (max {MAX_PACKAGE_MODULES})"
    if modules > allowed:
        return (
            f"{shown}: package has {modules} modules (max {MAX_PACKAGE_MODULES};"
            f" {allowed} until it is cut, NOT_YET_CUT)"
        )
    if modules <= MAX_PACKAGE_MODULES:
        return f"{shown}: package has {modules} modules, it fits: take it out of NOT_YET_CUT"
    return None


def main(root: Path) -> int:
    found: list[str] = []
    checked = 0
    for path in python_files(root, skipped=SKIPPED):
        found += check_module(path, path.relative_to(root).as_posix())
        checked += 1
    sizes = package_sizes(root)
    found += [line for package in sorted(sizes) if (line := check_package(package, sizes[package]))]
    for line in found:
        print(line)
    if found:
        print(f"check-sizes: {len(found)} violation(s) in {checked} modules", file=sys.stderr)
        return 1
    print(
        f"check-sizes: {checked} modules, none over {MAX_MODULE_LINES} lines,"
        f" no function over {MAX_FUNCTION_LINES}, no package over {MAX_PACKAGE_MODULES} modules"
    )
    waiting = [f"{p}/ {sizes[p]} modules" for p in sorted(sizes) if p in NOT_YET_CUT]
    if waiting:
        print(f"check-sizes: not yet cut (NOT_YET_CUT), held to their size: {', '.join(waiting)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT))
