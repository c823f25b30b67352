"""Benchmarks: `make bench`. Each prints ratios measured in one run, never absolute targets."""
