"""`python -m tests.conformance [memory|wire ...] [--write-unsupported]`: MongoDB's CRUD
conformance suite against the embedded engine, pass, fail and skip counts by file, then the
failures grouped by cause; exits 1 when a mode's pass count is below its floor (`floors.toml`)
or a failure is not declared as what the engine does not support (`unsupported.toml`).

`--write-unsupported` (`make engine-docs`) runs both modes and writes that table, and the docs'
list made from it, from what the run finds."""

from __future__ import annotations

import logging
import sys

from tests.conformance.declared import declared_from, load_declared, problems, write
from tests.conformance.floors import below_floor
from tests.conformance.runner.fronts import MODES
from tests.conformance.runner.report import report
from tests.conformance.runner.specs import missing_reason, specs_root
from tests.conformance.runner.suite import run_suite_blocking
from tests.conformance.skips import SKIPS

WRITE = "--write-unsupported"


def main(arguments: list[str]) -> int:
    # The wire front logs each internal failure with its traceback; the report names them.
    logging.getLogger("embedded.wire").setLevel(logging.CRITICAL)
    root = specs_root()
    if root is None:
        print(f"conformance: skipped: {missing_reason()}")
        return 0
    writing = WRITE in arguments
    modes = [mode for mode in arguments if mode in MODES] or list(MODES)
    runs = [run_suite_blocking(mode, root, SKIPS) for mode in (MODES if writing else modes)]
    if writing:
        write(declared_from(runs))
    status = 0
    for run in runs:
        print(report(run))
        shortfall = below_floor(run)
        if shortfall:
            print(f"conformance: {shortfall}")
            status = 1
    wrong = problems(runs, load_declared())
    for problem in wrong:
        print(f"conformance: {problem}")
    return 1 if wrong else status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
