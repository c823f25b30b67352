"""What a resolver reads of the fields selected under its own, and what it works out from them,
kept while the document lives."""
