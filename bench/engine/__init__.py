"""The embedded engine's comparisons against the article's approaches: orders, time series,
chat (`make bench`)."""
