"""Why a test of the suite cannot run here, from the test itself: the table in
`tests/conformance/skips.toml` is this, frozen. `python -m tests.conformance.runner.skip_reasons`
prints the table afresh for review (a reviewer keeps it as it was for a test that must run)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from tests.conformance.runner.specs import SpecTest, load_tests, requirements_unmet, specs_root

FAIL_POINTS = "fail points: the engine has no configureFailPoint"
NO_COUNT = "driver: PyMongo has no count() (removed in PyMongo 4)"
NO_RAW_DATA = "driver option PyMongo lacks: rawData"


def _operations(test: SpecTest) -> Iterator[Mapping[str, Any]]:
    yield from test.document["operations"]


def skip_reason(test: SpecTest) -> str | None:
    unmet = requirements_unmet(test)
    if unmet is not None:
        return unmet
    operations = list(_operations(test))
    if any(operation["name"] == "failPoint" for operation in operations):
        return FAIL_POINTS
    if any(operation["name"] == "count" for operation in operations):
        return NO_COUNT
    if any("rawData" in operation.get("arguments", {}) for operation in operations):
        return NO_RAW_DATA
    return None


def main() -> None:
    root = specs_root()
    if root is None:
        raise SystemExit("no specifications folder")
    current = ""
    for test in load_tests(root):
        reason = skip_reason(test)
        if reason is None:
            continue
        if test.file != current:
            current = test.file
            print(f"\n[{json.dumps(current)}]")
        print(f"{json.dumps(test.description)} = {json.dumps(reason)}")


if __name__ == "__main__":
    main()
