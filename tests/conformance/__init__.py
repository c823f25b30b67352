"""MongoDB's CRUD conformance tests (the unified test format) run against the embedded engine,
in process and through PyMongo over its wire front. The spec files are read in place, never
copied here (their licence forbids it): `runner/specs.py` says where they are looked for."""
