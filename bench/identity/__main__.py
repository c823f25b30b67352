from __future__ import annotations

from bench.identity.run import main

main()
