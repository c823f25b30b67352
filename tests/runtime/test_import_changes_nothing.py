"""Importing arraygraph's modules changes no function of graphql-core or Strawberry: only
`runtime.install` (a schema's build) does. Checked in a fresh interpreter, where nothing has
been built: each function the runtime replaces, and graphql-core's `execute_field`,
`collect_fields`, `get_argument_values` and `coerce_input_value`, is the same object after
every module of the product is imported as before."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from runtime.internals import REPLACED

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ["app", "cli", "settings", "web", "schema", "runtime", "resolvers", "store", "embedded"]
NAMED = [  # graphql-core's, by their modules' names
    ("graphql.execution.executor", "Executor.execute_field"),
    ("graphql.execution.executor", "collect_fields"),
    ("graphql.execution.executor", "get_argument_values"),
    ("graphql.execution.values", "coerce_input_value"),
]
# Run in a fresh interpreter: whether each function is the same object after the imports as
# before, and the module of each after.
SCRIPT = """
import importlib, json, pkgutil, sys

def found(module, path):
    value = importlib.import_module(module)
    for part in path.split("."):
        value = getattr(value, part)
    return value

watched = [tuple(pair) for pair in json.loads(sys.argv[1])]
before = {pair: id(found(*pair)) for pair in watched}
for name in json.loads(sys.argv[2]):
    package = importlib.import_module(name)
    for info in pkgutil.walk_packages(getattr(package, "__path__", []), name + "."):
        importlib.import_module(info.name)
changed = [".".join(pair) for pair in watched if id(found(*pair)) != before[pair]]
modules = {".".join(pair): found(*pair).__module__ for pair in watched}
print(json.dumps({"changed": changed, "modules": modules, "built": "schema.schema" in sys.modules}))
"""


def test_importing_every_module_changes_no_function_of_graphql_core_or_strawberry() -> None:
    watched = sorted({*NAMED, *((i.module, i.name) for i in REPLACED)})
    ran = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(watched), json.dumps(PRODUCT)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(ran.stdout)
    assert found["changed"] == [], f"replaced on import: {found['changed']}"
    for name, module in found["modules"].items():
        assert module.split(".")[0] in ("graphql", "strawberry"), (name, module)
    assert found["built"], "schema.schema was not imported"
