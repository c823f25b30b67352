"""One module per MongoDB collection: its documents, `COLLECTION`, `INDEXES` and atomic writes.

Store functions take the collection first and keyword arguments after, return dataclasses, and
send one atomic command per write in the common path. `registry` lists every collection once;
`database` opens PyMongo's async client or the embedded engine (the only module that imports
`embedded`) and makes the registered indexes; `buckets` is the capped-page append of trades
and chat pages; `errors` says what a refused write means.
"""
