"""The declaration rule on handmade tests: a failure whose error names nothing the engine lacks,
one answered with other data, and a declared test that passes are each reported; a declared
refusal is not."""

from __future__ import annotations

from pathlib import Path

from tests.conformance.declared import problems
from tests.conformance.handmade import find_all, write_suite
from tests.conformance.runner.fronts import MODES
from tests.conformance.runner.suite import run_suite

COLLATED = {
    "operations": [
        {
            "object": "collection0",
            "name": "find",
            "arguments": {"filter": {}, "collation": {"locale": "fr", "strength": 1}},
            "expectResult": [{"_id": 1}],
        }
    ]
}
UNKNOWN_STAGE = {
    "operations": [
        {
            "object": "collection0",
            "name": "aggregate",
            "arguments": {"pipeline": [{"$noSuchStage": {}}]},
            "expectResult": [],
        }
    ]
}


async def test_only_declared_refusals_pass_the_rule(tmp_path: Path) -> None:
    root = write_suite(
        tmp_path,
        {
            "refused, declared": COLLATED,
            "refused, naming nothing": UNKNOWN_STAGE,
            "other documents": find_all([]),
            "passes, declared": find_all([{"_id": 1}]),
        },
    )
    runs = [await run_suite(mode, root, {}) for mode in MODES]
    declared = {
        ("handmade.json", "refused, declared"): runs[0].results[0].unsupported,
        ("handmade.json", "passes, declared"): "nothing",
    }
    found = problems(runs, declared)
    assert runs[0].results[0].unsupported.startswith("a collation")
    assert [line.split(": ")[:3] for line in found] == [
        ["memory", "handmade.json", "refused, naming nothing"],
        ["memory", "handmade.json", "other documents"],
        ["wire", "handmade.json", "refused, naming nothing"],
        ["wire", "handmade.json", "other documents"],
        ["handmade.json", "passes, declared", "declared, but passes"],
    ]
