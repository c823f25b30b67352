"""The checks run before anything executes: the cost walk and payload arguments first, over the
fields as the executor will collect them, their answers kept per operation; and the `Limits`
the schema fills from its settings."""
