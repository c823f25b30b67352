"""pyproject.toml lists every package of the product (`[tool.setuptools] packages`): one left
out would be missing from the wheel, and from every install but an editable one."""

from __future__ import annotations

import tomllib

from tests.install.support import ROOT

# Left out of the wheel on purpose: only the tests and the bench serve the engine over the wire.
LEFT_OUT = frozenset({"embedded.wire"})


def listed() -> set[str]:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    return set(setuptools["packages"])


def found(top: str) -> set[str]:
    """`top` and every package under it: each directory holding an `__init__.py`."""
    return {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / top).rglob("__init__.py")
        if "__pycache__" not in init.parts
    }


def test_every_package_under_a_listed_one_is_listed_too() -> None:
    packages = listed()
    tops = {name for name in packages if "." not in name}
    under = set().union(*(found(top) for top in tops))
    assert sorted(under - LEFT_OUT - packages) == []
    assert under >= LEFT_OUT
