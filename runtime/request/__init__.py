"""The request pipeline: a document parsed and validated once within the request limits, the
operation a request runs, its run, and the bound on its answer's bytes."""
