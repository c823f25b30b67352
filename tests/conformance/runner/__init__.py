"""A runner for the collection-level CRUD subset of MongoDB's unified test format."""
