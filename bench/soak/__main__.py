from __future__ import annotations

from bench.soak.run import main

main()
