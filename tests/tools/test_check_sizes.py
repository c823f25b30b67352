"""`tools/check_sizes.py`: no module over 300 lines, no function or method over 50."""

from __future__ import annotations

from pathlib import Path

import pytest

from check_sizes import main
from tests.tools.support import REPO_ROOT, run_check


def check(
    root: Path, files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[str]]:
    return run_check(main, root, files, capsys)


def module_of(lines: int) -> str:
    return "x = 1\n" * lines


def function_of(lines: int, head: str = "def f() -> None:", indent: str = "") -> str:
    """A function `lines` long, its `def` line included."""
    return f"{indent}{head}\n" + f"{indent}    x = 1\n" * (lines - 1)


def test_a_module_of_301_lines_fails_and_one_of_300_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {"big.py": module_of(301), "store/full.py": module_of(300)}
    assert check(tmp_path, files, capsys) == (1, ["big.py: module has 301 lines (max 300)"])


def test_a_function_of_51_lines_fails_and_one_of_50_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = function_of(51, "def long() -> None:") + function_of(50, "def fits() -> None:")
    assert check(tmp_path, {"m.py": source}, capsys) == (
        1,
        ["m.py:1: function long has 51 lines (max 50)"],
    )


def test_decorators_are_not_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = "import functools\n@functools.cache\n@staticmethod\n" + function_of(50)
    assert check(tmp_path, {"m.py": source}, capsys) == (
        0,
        [
            "check-sizes: 1 modules, none over 300 lines, no function over 50,"
            " no package over 24 modules"
        ],
    )


def test_methods_async_and_nested_functions_are_measured(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = (
        "class Store:\n"
        + function_of(51, "async def write(self) -> None:", indent="    ")
        + "def outer() -> None:\n"
        + function_of(51, "def inner() -> None:", indent="    ")
    )
    assert check(tmp_path, {"m.py": source}, capsys) == (
        1,
        [
            "m.py:2: function Store.write has 51 lines (max 50)",
            "m.py:53: function outer has 52 lines (max 50)",
            "m.py:54: function outer.inner has 51 lines (max 50)",
        ],
    )


def test_tests_bench_and_tools_are_checked_and_the_venv_is_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "tests/test_x.py": module_of(301),
        "bench/b.py": function_of(51),
        "tools/t.py": module_of(301),
        ".venv/lib/big.py": module_of(1000),
    }
    assert check(tmp_path, files, capsys) == (
        1,
        [
            "bench/b.py:1: function f has 51 lines (max 50)",
            "tests/test_x.py: module has 301 lines (max 300)",
            "tools/t.py: module has 301 lines (max 300)",
        ],
    )


def test_the_repository_keeps_its_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(REPO_ROOT)
    assert code == 0, capsys.readouterr().out
