"""`python -m tests.conformance [memory|wire ...]`: MongoDB's CRUD conformance suite against the
embedded engine, pass, fail and skip counts by file, then the failures grouped by cause; exits
1 when a mode's pass count is below its floor (`floors.toml`)."""

from __future__ import annotations

import logging
import sys

from tests.conformance.floors import below_floor
from tests.conformance.runner.fronts import MODES
from tests.conformance.runner.report import report
from tests.conformance.runner.specs import missing_reason, specs_root
from tests.conformance.runner.suite import run_suite_blocking
from tests.conformance.skips import SKIPS


def main(arguments: list[str]) -> int:
    # The wire front logs each internal failure with its traceback; the report names them.
    logging.getLogger("embedded.wire").setLevel(logging.CRITICAL)
    root = specs_root()
    if root is None:
        print(f"conformance: skipped: {missing_reason()}")
        return 0
    modes = [mode for mode in arguments if mode in MODES] or list(MODES)
    status = 0
    for mode in modes:
        run = run_suite_blocking(mode, root, SKIPS)
        print(report(run))
        shortfall = below_floor(run)
        if shortfall:
            print(f"conformance: {shortfall}")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
