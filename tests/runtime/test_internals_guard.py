"""Every internal of graphql-core and Strawberry that runtime/internals.py lists is there in the
installed releases, still used as the runtime uses it, and those releases are the ones the
runtime is tested on (pyproject.toml's caps). Each failure names the internal and the versions.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
from types import CodeType
from typing import Any

import pytest
from packaging.utils import canonicalize_name

from runtime.internals import INTERNALS, REPLACED, REPLACEMENTS, TESTED, Internal
from schema.schema import build_schema
from tests.install.support import project_requirements
from tests.support.attributes import MISSING, resolved


def _versions(internal: Internal) -> str:
    package = internal.package
    installed = importlib.metadata.version(package)
    return f"{package} {installed} is installed; the runtime is tested on {TESTED[package]}"


def _shown(internal: Internal) -> str:
    return f"{internal.module}.{internal.name} ({internal.use}; {internal.used_in})"


def _names(code: CodeType) -> set[str]:
    """The global and attribute names a function's code reads, and the functions it makes."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            names |= {constant.co_name} | _names(constant)
    return names


def _code(function: Any) -> CodeType:
    code: CodeType = getattr(function, "__code__", None) or function.__func__.__code__
    return code


def _id(internal: Internal) -> str:
    return f"{internal.module}.{internal.name}"


@pytest.mark.parametrize("internal", INTERNALS, ids=_id)
def test_the_internal_is_there(internal: Internal) -> None:
    found = resolved(internal.module, internal.name)
    assert found is not MISSING, f"{_shown(internal)} is missing: {_versions(internal)}"


@pytest.mark.parametrize("internal", REPLACED, ids=_id)
def test_a_replaced_function_is_still_looked_up_by_name(internal: Internal) -> None:
    name = internal.name.rpartition(".")[2]
    for caller in internal.named_by:
        module, _, path = caller.partition(":")
        function = resolved(module, path)
        assert function is not MISSING, f"{caller}, which calls {_shown(internal)}, is missing"
        assert name in _names(_code(function)), (
            f"{caller} no longer looks up {name}: the replacement of {_shown(internal)} "
            f"would go unused; {_versions(internal)}"
        )


@pytest.mark.parametrize("internal", [i for i in INTERNALS if i.names], ids=_id)
def test_the_functions_the_runtime_recognises_are_still_made(internal: Internal) -> None:
    made = _names(_code(resolved(internal.module, internal.name)))
    for name in internal.names:
        assert name in made, f"{_shown(internal)} no longer makes {name}: {_versions(internal)}"


@pytest.mark.parametrize("internal", INTERNALS, ids=_id)
def test_the_runtime_module_still_uses_the_internal(internal: Internal) -> None:
    spec = importlib.util.find_spec(internal.used_in)
    assert spec is not None and spec.origin is not None, f"{internal.used_in} is gone"
    with open(spec.origin, encoding="utf-8") as source:
        text = source.read()
    # A function whose made functions the runtime recognises is used through their names.
    for name in internal.names or (internal.name.rpartition(".")[2],):
        assert name in text, (
            f"{internal.used_in} no longer uses {name}: drop {_id(internal)} from "
            "runtime/internals.py, or say which module uses it"
        )


def test_install_puts_every_replacement_in_place() -> None:
    build_schema()
    for internal, replacement in zip(REPLACED, REPLACEMENTS, strict=True):
        found = resolved(internal.module, internal.name)
        assert found is replacement, f"{_shown(internal)} is not replaced after install"


@pytest.mark.parametrize("package", sorted(TESTED))
def test_the_installed_release_is_the_tested_one(package: str) -> None:
    (requirement,) = [
        r for r in project_requirements() if canonicalize_name(r.name) == canonicalize_name(package)
    ]
    caps = [s.version for s in requirement.specifier if s.operator in ("<=", "==")]
    assert caps == [TESTED[package]], f"pyproject.toml caps {package} at {caps}, not TESTED"
    installed = importlib.metadata.version(package)
    assert installed == TESTED[package], (
        f"{package} {installed} is installed; the runtime is tested on {TESTED[package]}: "
        "re-check runtime/internals.py (these tests), then raise TESTED and the cap together"
    )
