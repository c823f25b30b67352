"""Load and soak: mixed reads and writes, every acknowledged write read back exactly once
(bench/soak/run.py; `python -m bench.soak`)."""
