from __future__ import annotations

from bench.costliest.run import main

main()
