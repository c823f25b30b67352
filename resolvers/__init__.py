"""What each field does: arguments validated at the edge, store calls, loaders, the context.

Resolvers return store records (never Strawberry types) and never import `schema/`. Shared
pieces: `paging` (Relay arguments and pages), `cursors` (the cursor codec), `selection` (what
a query selects, through fragments), `loaders` and `context`, `validation`, `errors`.
"""
