"""A collection's documents with their indexes, kept exact by every write (`indexes`,
`sorted_index`, `index_keys`), and the query planner: what a filter requires of each field
(`conditions`), the access paths that give it (`access_paths`), the cheapest of them or a scan
(`plans`), filters of the commonest shape decided in Python (`fast_filters`), and TTL expiry
through the TTL index (`expiry`)."""
