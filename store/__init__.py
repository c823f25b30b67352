"""One module per MongoDB collection: its documents, `COLLECTION`, `INDEXES` and atomic writes.

Store functions take the collection first and keyword arguments after, return dataclasses, and
send one atomic command per write in the common path.

Layout: what every collection shares sits at the top, each domain of several modules in a
sub-package of its own, which imports the top and never a sibling domain (chat's pages are
buckets: `chat` imports `buckets`).
- the top: `database` (the handle: PyMongo's async client or the embedded engine, the only
  module that imports `embedded`; it makes the registered indexes), `registry` (every
  collection, listed once), `protocols`, `commands`, `errors` and `server_codes` (what a
  refused write means), `expressions`, `unions`, `times`, `running_stats`, `migrations`,
  `demo`, and the collections of no domain: `trades`, `idempotency`, `meta`;
- `buckets/`: the capped-page append of trades and chat pages, a bucket's layout, its reads;
- `chat/`: sessions and their pages of messages, posts, edits, reads, the page cap, the demo;
- `series/`: rollups, the measurements and tag values catalogues, range reads, the demo;
- `sensors/`: sensors' hourly totals, pages of sensors, the 24-hour window;
- `orders/`: users and their embedded orders, a page of orders.
"""
