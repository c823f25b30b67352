"""Query and mutation logic, DataLoaders and the per-request context."""
