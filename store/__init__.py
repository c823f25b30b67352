"""One module per collection: its documents, indexes and atomic update functions."""
