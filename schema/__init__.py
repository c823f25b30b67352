"""The GraphQL schema: Strawberry types, inputs, scalars and the root fields of each domain.

Each type converts store records in one place (`from_doc`, `from_loaded`, `from_page`); field
resolvers sit on their type and delegate to `resolvers/`. Also here: the error table
(`errors`), and the facts each field declares for the runtime's checks (`facts`: list sizes,
value sizes, work units, payload checks; `field_facts` reads them from the built schema). The
runtime that executes it is `runtime/`, put in place by `build_schema`.
"""
