"""The GraphQL schema: Strawberry types, inputs, scalars and the root fields of each domain.

Each type converts store records in one place (`from_doc`, `from_loaded`, `from_page`); field
resolvers sit on their type and delegate to `resolvers/`. Also here: the error table
(`errors`), the parse/validation cache, and every use of Strawberry internals.
"""
